"""``python -m spacemission_cli``: the ``spacemission`` command."""
import sys

from spacemission_cli.main import main

sys.exit(main())
