"""Side by side in one run: `smtgrid solve --unique` and the Interactive
Sudoku Solver (ISS) run headless in node by its own benchmark script
(`tools/perf/benchmark_puzzles.js --max-backtracks none --json`, which
proves uniqueness by default), on the same killers, one process per puzzle
each, taking turns (which goes first alternates from puzzle to puzzle so
that neither always meets the other's leftovers). Prints per puzzle and in
all the wall clock of each whole process and its CPU (user + system of the
process and every child it waited for), ISS's own in-process search time,
and at the end smtgrid once more with the whole set in one process.

Run by scripts/vs-iss, which builds smtgrid and names the machine's load.
The ISS checkout is the caller's (this project neither fetches nor builds
it). Each puzzle's ISS input (`.Cage~SUM~R1C1~…`, one cage each) is
written to a temporary file from smtgrid's TOML.

Usage: python3 vs-iss.py SMTGRID ISS_CHECKOUT CORPUS_DIR TIMEOUT_S [SMTGRID_SOLVE_ARGS...]
"""

import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

# The benchmark script inside an ISS checkout.
ISS_BENCH = "tools/perf/benchmark_puzzles.js"
# The most output read from either side per puzzle: both print a few lines.
OUTPUT_LIMIT = 1 << 20


class NotAKiller(ValueError):
    """A corpus file this comparison cannot give ISS as it stands."""


def iss_input(doc: dict) -> str:
    """The ISS constraint string of a killer in smtgrid's TOML (already
    read): one `.Cage~SUM~RrCc…` per cage, givens as `.~RrCc_V`. Only a
    9x9 with 3x3 boxes and plain sums, ISS's default shape, is taken."""
    if doc.get("kind") != "killer":
        raise NotAKiller(f"kind {doc.get('kind')!r}, not killer")
    if doc.get("box", "3x3") != "3x3":
        raise NotAKiller(f"boxes {doc.get('box')}: only ISS's default 3x3 boxes are taken")
    if doc.get("diagonals"):
        raise NotAKiller("diagonals: not given to ISS here")
    if doc.get("distinct-cages", True) is not True:
        raise NotAKiller("cages that may repeat digits: not given to ISS here")
    rows = [line.split() for line in str(doc.get("cages", "")).strip("\n").splitlines()]
    rows = [r if len(r) > 1 else list(r[0]) if r else r for r in rows]
    if len(rows) != 9 or any(len(r) != 9 for r in rows):
        raise NotAKiller("the cages grid is not 9x9")
    clues = {str(k): str(v) for k, v in doc.get("clues", {}).items()}
    cages: dict[str, list[str]] = {}
    for r, line in enumerate(rows):
        for c, label in enumerate(line):
            if label != ".":
                cages.setdefault(label, []).append(f"R{r + 1}C{c + 1}")
    parts = []
    for label, cells in cages.items():
        clue = clues.get(label, str(doc.get("default-clue", "")))
        if not clue.isdigit():
            raise NotAKiller(f"cage {label}: clue {clue!r} is not a plain sum")
        parts.append(f".Cage~{clue}~" + "~".join(cells))
    given_rows = str(doc.get("givens", "")).strip("\n").splitlines()
    for r, text in enumerate(given_rows):
        values = text.split() if len(text.split()) > 1 else list(text.strip())
        for c, v in enumerate(values):
            if v != ".":
                if not v.isdigit():
                    raise NotAKiller(f"given {v!r} at r{r + 1}c{c + 1}")
                parts.append(f".~R{r + 1}C{c + 1}_{v}")
    return "".join(parts)


@dataclass
class Run:
    """One whole process: wall and CPU seconds, whether it answered with
    a proven unique solution, and the tool's own figure if it gives one
    (ISS's in-process milliseconds)."""

    wall: float
    cpu: float
    unique: bool
    note: str
    inner_ms: float | None = None
    # Which solvers answered (smtgrid's race).
    by: str = ""


def timed(argv: list[str], timeout: float, cwd: str | None = None) -> tuple[float, float, str | None]:
    """Runs `argv` in its own process group: (wall seconds, CPU seconds of
    it and its waited-for children, its stdout, or None when it overran
    `timeout`, in which case the whole group is killed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(argv, cwd=cwd, stdout=out, stderr=subprocess.DEVNULL,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            proc.wait(timeout=timeout)
            overran = False
        except subprocess.TimeoutExpired:
            overran = True
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        out.seek(0)
        text = out.read(OUTPUT_LIMIT).decode(errors="replace")
    return wall, cpu, None if overran else text


def read_smtgrid(stdout: str) -> tuple[int, int, str]:
    """(puzzles answered with a verified grid, of them proven unique, the
    solvers that answered) in `smtgrid solve --format json` output: one
    record a line, in a JSON array when there are several."""
    solved = unique = 0
    by = []
    for line in stdout.splitlines():
        try:
            rec = json.loads(line.strip().removesuffix(","))
        except json.JSONDecodeError:
            continue
        if isinstance(rec, dict) and rec.get("status") == "sat" and rec.get("verified"):
            solved += 1
            unique += rec.get("unique") is True
            by.append(str(rec.get("solver")))
    return solved, unique, ",".join(sorted(set(by)))


def read_iss(stdout: str) -> tuple[bool, float | None, str]:
    """(proven unique, in-process ms, status) from the benchmark's --json."""
    try:
        rows = json.loads(stdout)
        row = rows[0]
        status = str(row["status"])
        return status == "unique", float(row["ms"]), status
    except (json.JSONDecodeError, KeyError, IndexError, TypeError, ValueError):
        return False, None, "unreadable output"


def smtgrid(binary: str, paths: list[Path], timeout: float, extra: list[str]) -> Run:
    argv = [binary, "solve", *map(str, paths), "--unique", "--format", "json", "--timeout", str(timeout), *extra]
    wall, cpu, out = timed(argv, timeout * len(paths) + 30)
    if out is None:
        return Run(wall, cpu, False, "killed after its limit")
    solved, unique, by = read_smtgrid(out)
    note = "" if unique == len(paths) else f"{solved} solved, {unique} unique of {len(paths)}"
    return Run(wall, cpu, unique == len(paths), note, by=by)


def iss(checkout: str, input_file: str, timeout: float) -> Run:
    argv = ["node", ISS_BENCH, "--max-backtracks", "none", "--json", "--input-file", input_file]
    wall, cpu, out = timed(argv, timeout, cwd=checkout)
    if out is None:
        return Run(wall, cpu, False, "killed after its limit")
    unique, ms, status = read_iss(out)
    return Run(wall, cpu, unique, "" if unique else status, ms)


def main() -> None:
    binary, checkout, corpus, timeout = sys.argv[1], sys.argv[2], Path(sys.argv[3]), float(sys.argv[4])
    extra = sys.argv[5:]
    if not (Path(checkout) / ISS_BENCH).is_file():
        sys.exit(f"vs-iss: {checkout} has no {ISS_BENCH}: give the path of an ISS checkout")
    paths = sorted(corpus.glob("*.toml"))
    if not paths:
        sys.exit(f"vs-iss: no *.toml in {corpus}")
    head = (f"{'puzzle':<16} | {'smtgrid wall':>12} {'cpu':>6} | {'ISS wall':>8} {'cpu':>6} {'search':>7} | "
            f"{'wall ratio':>10} {'cpu ratio':>9}  {'smtgrid by':<18} notes")
    print(head)
    print("-" * len(head))
    totals = {"sw": 0.0, "sc": 0.0, "iw": 0.0, "ic": 0.0, "ims": 0.0}
    taken: list[Path] = []
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, path in enumerate(paths):
            try:
                text = iss_input(tomllib.loads(path.read_text()))
            except (NotAKiller, tomllib.TOMLDecodeError) as e:
                print(f"{path.stem:<16} | left out: {e}")
                continue
            input_file = str(Path(tmp) / f"{path.stem}.txt")
            Path(input_file).write_text(text)
            if i % 2 == 0:
                s = smtgrid(binary, [path], timeout, extra)
                r = iss(checkout, input_file, timeout)
            else:
                r = iss(checkout, input_file, timeout)
                s = smtgrid(binary, [path], timeout, extra)
            taken.append(path)
            notes = "; ".join(f"{who}: {n}" for who, n in (("smtgrid", s.note), ("ISS", r.note)) if n)
            notes = f"{s.by:<18} {notes}".rstrip()
            if not (s.unique and r.unique):
                failed.append(path.stem)
            totals["sw"] += s.wall; totals["sc"] += s.cpu
            totals["iw"] += r.wall; totals["ic"] += r.cpu
            totals["ims"] += r.inner_ms or 0.0
            search = f"{r.inner_ms / 1000:.3f}" if r.inner_ms is not None else "-"
            print(f"{path.stem:<16} | {s.wall:>12.3f} {s.cpu:>6.3f} | {r.wall:>8.3f} {r.cpu:>6.3f} {search:>7} | "
                  f"{s.wall / r.wall:>10.2f} {s.cpu / max(r.cpu, 1e-3):>9.2f}  {notes}", flush=True)
    if not taken:
        sys.exit("vs-iss: no puzzle could be given to both")
    t = totals
    print("-" * len(head))
    print(f"{'all ' + str(len(taken)):<16} | {t['sw']:>12.3f} {t['sc']:>6.3f} | {t['iw']:>8.3f} {t['ic']:>6.3f} "
          f"{t['ims'] / 1000:>7.3f} | {t['sw'] / t['iw']:>10.2f} {t['sc'] / max(t['ic'], 1e-3):>9.2f}")
    whole = smtgrid(binary, taken, timeout, extra)
    print(f"smtgrid, the {len(taken)} in one process: {whole.wall:.3f} s wall, {whole.cpu:.3f} s CPU"
          + (f" ({whole.note})" if whole.note else "")
          + f"; ISS's search alone (node started once per puzzle): {t['ims'] / 1000:.3f} s")
    if failed:
        print("not proven unique by both: " + ", ".join(failed))


if __name__ == "__main__":
    main()
