"""Space Mission (Matt Worden, Schmidt Spiele 2011), the first game of the package.

The same shape as every game here (``spacemission_env.red_planet`` is the second):
``data/`` and ``components`` (the component data), ``rules`` (the readable reference
engine, rule ids of docs/rules.md cited), ``engine`` (the fast batched numba engine,
bit-identical to the reference), ``actions`` (the flat action space and its labels),
``encoding`` (observations and ``decode``), ``scoring``, ``determinize``, ``render``,
``config`` (the game description) and ``protocol`` (the :class:`~spacemission_env.games.Game`
every interface, bot, arena and trainer plays it through).
"""
