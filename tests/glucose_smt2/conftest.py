"""What the tests of scripts/glucose-smt2 share: the front end loaded as a
module (the script has no .py name), and a run of a script through it in
this process."""

import importlib.machinery
import importlib.util
import io
import pathlib
import shutil
import sys
from types import ModuleType

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "glucose-smt2"


def load() -> ModuleType:
    loader = importlib.machinery.SourceFileLoader("glucose_smt2", str(SCRIPT))
    spec = importlib.util.spec_from_loader("glucose_smt2", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


gs = load()
sys.setrecursionlimit(gs.RECURSION_LIMIT)


def run(text: str, threads: int = 1, seed: int = 0) -> str:
    """What the front end answers to the script `text` (no time limit)."""
    out = io.StringIO()
    session = gs.Session(gs.SAT_DEFAULT, None, out, seed, threads)
    gs.serve(session, iter(text.splitlines(keepends=True)))
    for solver in session.solvers:
        solver.delete()
    return out.getvalue()


@pytest.fixture(scope="session")
def z3() -> str:
    """The z3 binary; the test fails, never skips, without it."""
    path = shutil.which("z3")
    assert path, "these tests compare with z3: run scripts/install-solvers and put .venv/bin first on PATH"
    return path
