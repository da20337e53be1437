"""``spacemission train``: train a PPO agent (docs/training.md).

``--backend sb3`` (default): MaskablePPO on the batched engine
(training/spacemission_training/train_ppo.py); needs the training extras (torch,
stable-baselines3, sb3-contrib, tensorboard: ``pip install -e '.[train]'``).
``--backend rllib``: multi-agent PPO self-play on Ray RLlib, ``--num-env-runners N`` and
``--address auto|HOST:PORT`` to join a cluster (training/spacemission_training/rllib.py);
needs the ``ray`` extra (``pip install -e '.[ray]'``, or ``make install-ray``). A missing
extra is named instead of a traceback.
"""
from __future__ import annotations

import importlib
import sys

BACKENDS = ("sb3", "rllib")


def _split_backend(argv: list[str]) -> tuple[str | None, list[str]]:
    """(the --backend value, the other arguments); ValueError for a bad or missing value."""
    rest, backend = [], None
    it = iter(argv)
    for a in it:
        if a == "--backend":
            backend = next(it, None)
            if backend is None:
                raise ValueError("argument --backend: expected one of sb3, rllib")
        elif a.startswith("--backend="):
            backend = a.split("=", 1)[1]
        else:
            rest.append(a)
    if backend is not None and backend not in BACKENDS:
        raise ValueError(f"argument --backend: invalid choice {backend!r} (choose from sb3, rllib)")
    return backend, rest


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        backend, rest = _split_backend(argv)
    except ValueError as exc:
        from spacemission_env.checks import cut_long_words

        print(f"spacemission train: error: {cut_long_words(str(exc))}", file=sys.stderr)
        return 2
    if {"-h", "--help"} & set(rest) and backend is None:
        print("--backend {sb3,rllib}: the trainer (default sb3, the options below); "
              "spacemission train --backend rllib --help lists RLlib's options\n")
    module, needs = (("spacemission_training.rllib", "the ray extra (ray[rllib], torch): pip install -e '.[ray]' or "
                      "make install-ray") if backend == "rllib" else
                     ("spacemission_training.train_ppo", "the training extras (torch, stable-baselines3, sb3-contrib, "
                      "tensorboard): pip install -e '.[train]'"))
    try:
        if backend == "rllib":
            import ray.rllib  # noqa: F401 - the extra, before the trainer's own imports
        train_main = importlib.import_module(module).main
    except ImportError as exc:
        print(f"spacemission train{' --backend rllib' if backend == 'rllib' else ''} needs {needs} ({exc})",
              file=sys.stderr)
        return 2
    return train_main(rest)


if __name__ == "__main__":
    sys.exit(main())
