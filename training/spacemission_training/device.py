"""The torch device a trainer's ``--device`` names (both backends): the spelling checked with
the configuration, the device itself checked against what torch sees before any work."""
from __future__ import annotations

DEVICE_PATTERN = r"cpu|auto|cuda(:[0-9]{1,3})?"


def resolve_device(name: str):
    """The torch device ``--device`` names (``auto``: cuda when torch sees one, else cpu);
    ValueError, before any work, when torch cannot use it."""
    import torch

    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    device = torch.device(name)
    if device.type == "cuda":
        count = torch.cuda.device_count() if torch.cuda.is_available() else 0
        if count == 0:
            build = f"built with CUDA {torch.version.cuda}" if torch.version.cuda else "a build without CUDA"
            raise ValueError(f"--device {name}: torch {torch.__version__} sees no CUDA GPU ({build}); "
                             f"use --device cpu, or auto")
        if (device.index or 0) >= count:
            raise ValueError(f"--device {name}: torch sees {count} CUDA GPU(s), cuda:0..cuda:{count - 1}")
    return device
