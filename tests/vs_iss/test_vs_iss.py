"""Tests of scripts/vs-iss.py: a killer in smtgrid's TOML becomes the ISS
string of the same puzzle, what either side prints is read without
trusting it, and a process that overruns its limit is killed."""

import importlib.util
import pathlib
import sys
import time
import tomllib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("vs_iss", ROOT / "scripts" / "vs-iss.py")
assert spec is not None and spec.loader is not None
vs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(vs)

# Nine 9-cell cages, one per row; row 1 written without spaces.
ROWS = "\n".join(["aaaaaaaaa"] + [" ".join(chr(ord("a") + r) * 9) for r in range(1, 9)])
KILLER = f'kind = "killer"\nbox = "3x3"\ncages = """\n{ROWS}\n"""\n[clues]\n' + "".join(
    f'{chr(ord("a") + r)} = "45"\n' for r in range(9)
)


def test_each_cage_becomes_one_iss_cage_over_its_cells():
    text = vs.iss_input(tomllib.loads(KILLER))
    parts = text.split(".")[1:]
    assert len(parts) == 9
    assert parts[0] == "Cage~45~" + "~".join(f"R1C{c}" for c in range(1, 10))
    cells = [cell for p in parts for cell in p.split("~")[2:]]
    assert sorted(cells) == sorted(f"R{r}C{c}" for r in range(1, 10) for c in range(1, 10))


def test_givens_and_cells_outside_cages():
    doc = tomllib.loads(KILLER)
    doc["cages"] = doc["cages"].replace("aaaaaaaaa", ". a a a a a a a a")
    doc["givens"] = "5 . . . . . . . .\n" + "\n".join([". " * 9] * 8)
    text = vs.iss_input(doc)
    assert ".Cage~45~R1C2~" in text and "R1C1~" not in text
    assert text.endswith(".~R1C1_5")


@pytest.mark.parametrize(
    "change, why",
    [
        ({"kind": "sudoku"}, "not killer"),
        ({"box": "2x3"}, "3x3 boxes"),
        ({"diagonals": True}, "diagonals"),
        ({"distinct-cages": False}, "repeat digits"),
        ({"cages": "a a\na a\n"}, "not 9x9"),
        ({"clues": {"a": "10|20"}}, "not a plain sum"),
    ],
)
def test_what_iss_would_read_otherwise_is_left_out(change, why):
    doc = tomllib.loads(KILLER) | change
    with pytest.raises(vs.NotAKiller, match=why):
        vs.iss_input(doc)


def test_smtgrid_counts_only_verified_answers():
    out = "\n".join([
        "[",
        '{"status": "sat", "verified": true, "unique": true, "solver": "yices2"},',
        '{"status": "sat", "verified": false, "unique": true, "solver": "z3"},',
        '{"status": "sat", "verified": true, "unique": false, "solver": "glucose"}',
        "not json",
        "[1]",
        "]",
    ])
    assert vs.read_smtgrid(out) == (2, 1, "glucose,yices2")


def test_iss_rows_and_garbage():
    assert vs.read_iss('[{"status": "unique", "ms": 12.5}]') == (True, 12.5, "unique")
    assert vs.read_iss('[{"status": "multiple", "ms": 3}]') == (False, 3.0, "multiple")
    for bad in ("", "[]", "{}", '[{"ms": "x", "status": "unique"}]', "[1]"):
        assert vs.read_iss(bad)[0] is False


def test_a_process_past_its_limit_is_killed_with_its_children():
    start = time.perf_counter()
    wall, cpu, out = vs.timed(["sh", "-c", "sleep 30 & sleep 30"], 0.5)
    assert out is None
    assert wall < 5 and time.perf_counter() - start < 5


def test_output_and_cpu_of_a_process_that_ends():
    wall, cpu, out = vs.timed([sys.executable, "-c", "print(sum(range(10**6)))"], 30)
    assert out is not None and out.strip() == str(sum(range(10**6)))
    assert cpu > 0 and wall > 0
