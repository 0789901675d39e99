"""Side by side on the killers of puzzles/killers/: `smtgrid solve --unique`
(one process per puzzle, wall clock of the whole process) and an OR-Tools
CP-SAT model of the same puzzle (one worker; its first solution, then a
second solve with that solution excluded to prove it unique; model building
and solving timed in-process). Prints per set: solved, unique proven, total
and max time for each. Run by scripts/bench-killers, which installs ortools.

Usage: python3 bench-killers.py SMTGRID TIMEOUT_S DIR [SMTGRID_ARGS...]
"""

import json
import subprocess
import sys
import time
import tomllib
from collections import defaultdict
from pathlib import Path

from ortools.sat.python import cp_model


def read_killer(path):
    """The cage of each cell (None outside cages), the clues, the box
    shape and the diagonals flag of a killer in smtgrid's TOML."""
    doc = tomllib.loads(path.read_text())
    rows = [line.split() for line in doc["cages"].strip("\n").splitlines()]
    br, bc = (int(x) for x in doc["box"].split("x"))
    clues = {k: int(v) for k, v in doc["clues"].items()}
    return rows, clues, (br, bc), bool(doc.get("diagonals", False))


def cpsat(path, timeout):
    """(first-solution seconds, solved, seconds to prove it unique or None,
    unique) with one CP-SAT worker."""
    start = time.perf_counter()
    rows, clues, (br, bc), diagonals = read_killer(path)
    n = len(rows)
    m = cp_model.CpModel()
    x = [[m.NewIntVar(1, n, f"x{r}{c}") for c in range(n)] for r in range(n)]
    units = [[x[r][c] for c in range(n)] for r in range(n)]
    units += [[x[r][c] for r in range(n)] for c in range(n)]
    units += [
        [x[r][c] for r in range(r0, r0 + br) for c in range(c0, c0 + bc)]
        for r0 in range(0, n, br)
        for c0 in range(0, n, bc)
    ]
    if diagonals:
        units += [[x[i][i] for i in range(n)], [x[i][n - 1 - i] for i in range(n)]]
    for u in units:
        m.AddAllDifferent(u)
    cages = defaultdict(list)
    for r, line in enumerate(rows):
        for c, label in enumerate(line):
            if label != ".":
                cages[label].append(x[r][c])
    for label, cells in cages.items():
        m.AddAllDifferent(cells)
        m.Add(sum(cells) == clues[label])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = timeout
    status = solver.Solve(m)
    first = time.perf_counter() - start
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return first, False, None, False
    values = [[solver.Value(v) for v in line] for line in x]
    differs = []
    for r in range(n):
        for c in range(n):
            b = m.NewBoolVar("")
            m.Add(x[r][c] != values[r][c]).OnlyEnforceIf(b)
            differs.append(b)
    m.AddBoolOr(differs)
    solver.parameters.max_time_in_seconds = max(timeout - first, 0.01)
    status = solver.Solve(m)
    both = time.perf_counter() - start
    return first, True, both, status == cp_model.INFEASIBLE


def smtgrid(binary, path, timeout, extra):
    """(seconds of the whole process, solved and verified, unique proven)."""
    start = time.perf_counter()
    out = subprocess.run(
        [binary, "solve", str(path), "--unique", "--format", "json",
         "--timeout", str(timeout), *extra],
        capture_output=True, text=True, check=False,
    )
    wall = time.perf_counter() - start
    solved = unique = False
    for line in out.stdout.splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue
        if rec.get("status") == "sat" and rec.get("verified"):
            solved = True
            unique = unique or rec.get("unique") is True
    return wall, solved, unique


def main():
    binary, timeout, root = sys.argv[1], float(sys.argv[2]), Path(sys.argv[3])
    extra = sys.argv[4:]
    sets = defaultdict(list)
    for path in sorted(root.rglob("*.toml")):
        name = path.stem.rsplit("-", 1)[0] if path.parent == root else path.parent.name
        sets[name.split("-")[0]].append(path)
    head = (f"{'set':<11} {'n':>3} | {'smtgrid solved':>14} {'unique':>6} {'total s':>8} "
            f"{'max s':>6} | {'CP-SAT solved':>13} {'1st total':>9} {'1st max':>7} "
            f"{'unique':>6} {'+uniq total':>11}")
    print(head)
    print("-" * len(head))
    grand = defaultdict(float)
    slow = []
    for name, paths in sets.items():
        s = [smtgrid(binary, p, timeout, extra) for p in paths]
        c = [cpsat(p, timeout) for p in paths]
        for p, (w, ok, u) in zip(paths, s):
            if not (ok and u) or w > 5:
                slow.append(f"  smtgrid {p.name}: {w:.2f} s, solved {ok}, unique {u}")
        row = {
            "s_solved": sum(ok for _, ok, _ in s),
            "s_unique": sum(u for _, _, u in s),
            "s_total": sum(w for w, _, _ in s),
            "s_max": max(w for w, _, _ in s),
            "c_solved": sum(ok for _, ok, _, _ in c),
            "c_total": sum(f for f, _, _, _ in c),
            "c_max": max(f for f, _, _, _ in c),
            "c_unique": sum(u for _, _, _, u in c),
            "c_utotal": sum(b or f for f, _, b, _ in c),
        }
        for k, v in row.items():
            grand[k] = grand[k] + v if not k.endswith("max") else max(grand[k], v)
        print(f"{name:<11} {len(paths):>3} | {row['s_solved']:>14} {row['s_unique']:>6} "
              f"{row['s_total']:>8.2f} {row['s_max']:>6.2f} | {row['c_solved']:>13} "
              f"{row['c_total']:>9.2f} {row['c_max']:>7.2f} {row['c_unique']:>6} "
              f"{row['c_utotal']:>11.2f}", flush=True)
    g = grand
    count = sum(len(p) for p in sets.values())
    print("-" * len(head))
    print(f"{'all':<11} {count:>3} | {int(g['s_solved']):>14} {int(g['s_unique']):>6} "
          f"{g['s_total']:>8.2f} {g['s_max']:>6.2f} | {int(g['c_solved']):>13} "
          f"{g['c_total']:>9.2f} {g['c_max']:>7.2f} {int(g['c_unique']):>6} "
          f"{g['c_utotal']:>11.2f}")
    if slow:
        print("smtgrid puzzles over 5 s or not proven unique:")
        print("\n".join(slow))


if __name__ == "__main__":
    main()
