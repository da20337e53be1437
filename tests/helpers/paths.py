"""Where the tests find the repository's files (docs, data, the spec beside the checkout)."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the repository root
SPEC = ROOT.parent / "shared" / "spec"  # the rule specs, beside the repository (as in CI)
