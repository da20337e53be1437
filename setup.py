"""The project is configured in pyproject.toml; this file only makes each build start from an
empty build/lib.

setuptools copies the packages into build/lib and packs everything there into the wheel,
reusing the folder from one build to the next (pypa/setuptools#1871): a module deleted or renamed
since an earlier ``pip wheel .``/``pip install .``/``python -m build --wheel`` in the same checkout
would still be in the wheel. tests/test_packaging.py plants such a module and checks that the
wheel leaves it out.
"""
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class FreshBuildPy(build_py):
    """build_py that empties its output folder first (editable installs, which copy no
    modules and build in a temporary folder of their own, are left as they are)."""

    def run(self):
        if not getattr(self, "editable_mode", False) and Path(self.build_lib).is_dir():
            shutil.rmtree(self.build_lib)
        super().run()


setup(cmdclass={"build_py": FreshBuildPy})
