"""Every Python example in docs/**/*.md runs as written, so the docs stay true (as
tests/test_readme.py does for README.md).

Each ```python block is one test, run in a fresh temporary working directory (what it
writes, such as an arena's ``results/``, lands there) with one torch thread. A block that
cannot run as written says so in the markdown, with an HTML comment on the line right
before its fence; the comment is one of

* ``<!-- not run: REASON -->``: skipped, with REASON as the skip reason (never silently);
* ``<!-- slow -->`` or ``<!-- slow: REASON -->``: marked slow, so it runs in the opt-in
  slow suite (``pytest -m slow``) instead of the default one (for blocks over ~20 s);
* ``<!-- continues the block above -->``: a fragment that goes on from the previous block
  of the same file; it runs joined to that block, as one example.

Any other comment right before a fence fails ``test_directives_are_known``. Where a doc's
comments claim values (``# bool [1024, 243]``), ``CLAIMS`` checks them in the namespace the
block leaves behind.
"""
from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

import pytest
from tests.helpers.paths import ROOT

DOCS = ROOT / "docs"
FENCE = re.compile(r"^([ \t]*)```python[ \t]*\n(.*?)^\1```[ \t]*$", flags=re.S | re.M)
DIRECTIVE = re.compile(r"<!--\s*(.*?)\s*-->\s*\Z", flags=re.S)
CONTINUES = "continues the block above"
# Blocks found when this file was written (15 in 10 files): fewer means the files or the
# pattern changed, and the parametrised tests below could silently run nothing.
MIN_BLOCKS = 15
MIN_FILES = 10


@dataclass(frozen=True)
class Block:
    file: str  # relative to docs/
    index: int  # 0-based among the file's ```python blocks
    line: int  # of the opening fence
    code: str
    directive: str | None  # the HTML comment right before the fence, if any

    @property
    def id(self) -> str:
        return f"{self.file}:{self.index}"


def find_blocks() -> list[Block]:
    blocks = []
    for path in sorted(DOCS.rglob("*.md")):
        text = path.read_text()
        for index, m in enumerate(FENCE.finditer(text)):
            before = DIRECTIVE.search(text[: m.start()].rstrip())
            blocks.append(Block(str(path.relative_to(DOCS)), index, text.count("\n", 0, m.start()) + 1,
                                textwrap.dedent(m.group(2)), before.group(1) if before else None))
    return blocks


def examples(blocks: list[Block]) -> list:
    """The runnable units: a block together with the blocks that continue it, as pytest params
    (marked slow / skipped from the first block's directive)."""
    units: list[list[Block]] = []
    for b in blocks:
        if b.directive == CONTINUES:
            assert units and units[-1][0].file == b.file, f"{b.id}: nothing above to continue"
            units[-1].append(b)
        else:
            units.append([b])
    params = []
    for unit in units:
        directive, marks = unit[0].directive or "", []
        if directive.startswith("not run:"):
            marks.append(pytest.mark.skip(reason=f"docs/{unit[0].id}: {directive}"))
        elif directive == "slow" or directive.startswith("slow:"):
            marks.append(pytest.mark.slow)
        ident = unit[0].id + "".join(f"+{b.index}" for b in unit[1:])
        params.append(pytest.param(unit, id=ident, marks=marks))
    return params


BLOCKS = find_blocks()

# Values the docs' comments claim, evaluated in the namespace the example leaves behind.
CLAIMS = {
    "games.md:0": [
        "sorted(GAMES) == ['red_planet', 'spacemission']",
        "mask.dtype == bool and mask.shape == (1024, 243)",
        "obs.dtype == 'int8' and obs.shape == (1024, 957)",
    ],
    "engine.md:0": [
        "mask.dtype == bool and mask.shape == (1024, 100)",
        "obs.dtype == 'int8' and obs.shape[0] == 1024",
        "engine.scores(st).dtype == 'int16' and engine.scores(st).shape == (1024, 3, 8)",
        "engine.rewards(st).dtype == 'float32' and engine.rewards(st).shape == (1024, 3)",
    ],
    "red_planet/engine.md:0": [
        "mask.dtype == bool and mask.shape == (1024, 243)",
        "obs.dtype == 'int8' and obs.shape == (1024, 957)",
        "engine.scores(st).dtype == 'int16' and engine.scores(st).shape == (1024, 4, 7)",
        "engine.rewards(st).dtype == 'float32' and engine.rewards(st).shape == (1024, 4)",
    ],
    "agents_bots.md:0": [
        "actions.dtype == 'int64' and actions.shape == (1024,)",
        "engine.legal_action_mask(st)[range(1024), actions].all()",
        "type(one) is int and one == actions[0]",
    ],
    "agents_search.md:0": ['bot.observation_type == "recall"',
                           'bot.last_search is not None and bot.last_search["rollouts"] > 0'],
    "agents_netsearch.md:0": ['bot.last_search is not None and bot.last_search["simulations"] > 0',
                              'action.shape == (1,) and engine.legal_action_mask(st)[0, action[0]]'],
    "observation.md:0": [
        "v['own_hand'].shape == (4, 5, 15)",
        "v['pile_size'][0].shape == (8,)",
        "v['last_turn_kind'][:, 1].shape == (4, 2, 6)",
    ],
    "red_planet/observation.md:0": [
        "v['slot_crew'].shape == (5, 5)",
        "v['roles_left'][1].shape == (9,)",
    ],
    "interfaces.md:1": [
        "obs.dtype == 'int8' and obs.shape[0] == 1024 and mask.dtype == bool and mask.shape == (1024, 100)",
        "player.shape == (1024,) and rewards.dtype == 'float32' and rewards.shape == (1024, 3)",
    ],
    "interfaces.md:2": [
        "env.unwrapped.action_masks().dtype == bool and env.unwrapped.action_masks().shape == (100,)",
    ],
    "interfaces.md:4": ["same_methods(Policy, spacemission_env.policies.Policy, ('act', 'act_batch'))"],
}


def same_methods(documented, real, names) -> bool:
    """The documented class's methods have the real one's parameters and resolved type hints."""
    import inspect
    import typing

    return all(list(inspect.signature(getattr(documented, n)).parameters)
               == list(inspect.signature(getattr(real, n)).parameters)
               and typing.get_type_hints(getattr(documented, n)) == typing.get_type_hints(getattr(real, n))
               for n in names)


def check_claim(claim: str, namespace: dict) -> bool:
    import spacemission_env.policies

    return bool(eval(claim, {"same_methods": same_methods, "spacemission_env": spacemission_env}, namespace))


def test_docs_have_examples():
    assert len(BLOCKS) >= MIN_BLOCKS, [b.id for b in BLOCKS]
    assert len({b.file for b in BLOCKS}) >= MIN_FILES


def test_python_fences_are_spelled_python():
    """An example fenced as ```py or ```Python would escape FENCE (and this test file)."""
    for path in DOCS.rglob("*.md"):
        for m in re.finditer(r"^[ \t]*```[ \t]*(\w+)", path.read_text(), flags=re.M):
            if m.group(1).lower().startswith("py") or m.group(1).lower() in ("ipython", "pycon"):
                assert m.group(1) == "python", f"{path.relative_to(ROOT)}: fence ```{m.group(1)}"


def test_directives_are_known():
    for b in BLOCKS:
        d = b.directive
        assert d is None or d == CONTINUES or d == "slow" or re.match(r"(not run|slow): \S", d), (
            f"docs/{b.file} line {b.line}: unknown directive <!-- {d} --> before a ```python block")


def test_claims_name_existing_blocks():
    ids = {b.id for b in BLOCKS}
    assert set(CLAIMS) <= ids, set(CLAIMS) - ids


@pytest.fixture
def one_torch_thread():
    """The examples' networks are tiny: one thread is much faster than contending for a
    loaded machine's cores. Examples without torch run where torch is not installed."""
    try:
        import torch
    except ImportError:
        yield
        return
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.mark.parametrize("unit", examples(BLOCKS))
def test_docs_example_runs(unit, tmp_path, monkeypatch, capsys, one_torch_thread):
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "docs_example"}
    for b in unit:
        # dont_inherit: the example runs without this file's `from __future__ import annotations`
        exec(compile(b.code, f"docs/{b.file} python block {b.index} (line {b.line})", "exec", dont_inherit=True),
             namespace)
        for claim in CLAIMS.get(b.id, []):
            assert check_claim(claim, namespace), f"docs/{b.id}: the comment's claim {claim!r} does not hold"
