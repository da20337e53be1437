"""The ``spacemission`` command (installed as ``spacemission_cli``): the top layer, which may
import the env, the agents and the training code. Needs the ``cli`` extra."""
from spacemission_env.extras import require

require("rich", "cli", "the spacemission command")
