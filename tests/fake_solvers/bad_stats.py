#!/usr/bin/env python3
# A "z3" (run as --solver z3=PATH) that is the real z3 in every way but one:
# it answers (get-info :all-statistics) with the reply named by
# $SMTGRID_FAKE_STATS: `garbage` (a list never closed, words for numbers),
# `big` (2 MB of counters) or `flood` (70 MB, more than smtgrid takes from
# a solver). The answer before it is z3's own, so the run must still end
# with z3's verified answer and `stats` null.
import subprocess, sys, threading

MARK = "smtgrid-fake-stats"
KIND = __import__("os").environ.get("SMTGRID_FAKE_STATS", "garbage")


def bad_reply(out):
    if KIND == "garbage":
        out.write('(:decisions many :conflicts (:propagations "12"\n')
    elif KIND == "big":
        out.write("(" + ":k 1 " * 400_000 + ")\n")
    else:
        chunk = ":k 1 " * 20_000
        out.write("(")
        for _ in range(700):
            out.write(chunk)
        out.write(")\n")
    out.flush()


def swap(line):
    return f'(echo "{MARK}")\n' if line.strip() == "(get-info :all-statistics)" else line


if "--version" in sys.argv:
    print("Z3 version 9.9.9")
    sys.exit(0)
args = [a for a in sys.argv[1:]]
z3 = subprocess.Popen(["z3"] + (args if "-in" in args else args[:-1] + ["-in"]),
                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def copy_out():
    for line in z3.stdout:
        if line.strip() == MARK:
            bad_reply(sys.stdout)
        else:
            sys.stdout.write(line)
            sys.stdout.flush()


t = threading.Thread(target=copy_out)
t.start()
source = sys.stdin if "-in" in args else open(args[-1])
for line in source:
    z3.stdin.write(swap(line))
    z3.stdin.flush()
z3.stdin.close()
t.join()
sys.exit(z3.wait())
