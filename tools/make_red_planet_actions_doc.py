"""Write docs/red_planet/actions.md, the Mission: Red Planet action table, from the code that
defines it (spacemission_env.red_planet.actions.actions_markdown);
tests/env/red_planet/test_actions.py fails if the committed file differs from what this prints.

    python tools/make_red_planet_actions_doc.py > docs/red_planet/actions.md

(A tool, not ``python -m spacemission_env.red_planet.actions``: the package imports that module
first, and runpy warned that it was run after its import.)
"""

from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut
from spacemission_env.red_planet.actions import actions_markdown


def main(argv=None) -> None:
    UsageParser(prog="python tools/make_red_planet_actions_doc.py",
                description="Print docs/red_planet/actions.md, the action table, "
                "generated from the code.").parse_args(argv)
    print(actions_markdown(), end="")


if __name__ == "__main__":
    main()
