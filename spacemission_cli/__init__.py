"""The ``spacemission`` command (installed as ``spacemission_cli``): the top layer, which may
import the env, the agents and the training code."""
