"""What the oldest supported releases lack (pyproject's lower bounds; ``make test-mindeps``
runs the suite against them): the tests of a feature a release adds skip, with the reason,
where an older one is installed."""
from __future__ import annotations

import gymnasium.vector
import pettingzoo
import pytest

# PettingZoo's registry (pettingzoo.make / aec_registry) came in 1.27; before it the versioned
# modules (spacemission_env.spacemission_v3) are the way in (docs/interfaces.md)
PETTINGZOO_REGISTRY = hasattr(pettingzoo, "make")
needs_pettingzoo_registry = pytest.mark.skipif(
    not PETTINGZOO_REGISTRY, reason="PettingZoo's registry (pettingzoo.make) came in PettingZoo 1.27")

# gymnasium.vector.AutoresetMode came in Gymnasium 1.1; 1.0 has next-step autoreset only
AUTORESET_MODE = getattr(gymnasium.vector, "AutoresetMode", None)
