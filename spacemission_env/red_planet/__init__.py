"""Mission: Red Planet (Cathala & Faidutti, first edition), the second game of the package.

``spacemission_env.red_planet.rules`` is its readable reference engine (RED_PLANET.md, ids
``M-...``); ``components`` reads its data file, ``actions`` defines its flat action space.
"""
