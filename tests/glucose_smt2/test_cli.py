"""The front end as a process: the issue's hostile inputs (issue 33 #07,
#08) and its time limit, which bounds everything, reading included."""

import subprocess
import sys
import time
from typing import List

from conftest import SCRIPT


def front_end(args: List[str], data: bytes, timeout: float = 30) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT)] + args, input=data, capture_output=True, timeout=timeout)


def test_a_refused_assertion_leaves_nothing_behind() -> None:
    # #07: the clause of `x` stayed and the second assertion made it unsat.
    for bad in ["(foo)", "(ite x x)"]:
        script = "(set-logic QF_UF)\n(declare-const x Bool)\n(assert (and x %s))\n(assert (not x))\n(check-sat)\n" % bad
        r = front_end([], script.encode())
        lines = r.stdout.decode().splitlines()
        assert len(lines) == 2 and lines[0].startswith("(error") and lines[1] == "sat", lines


def test_hostile_inputs_end_quickly_without_a_traceback() -> None:
    cases = [
        (b"(set-logic QF_UF)\n(define-fun a () Bool a)\n(assert a)\n(check-sat)\n", b'(error "unknown constant a")'),
        (b"(set-logic QF_UF)\n(assert |x\n" + (b"a" * 60 + b"\n") * 15000, b'(error "unterminated |symbol|'),
        (b"(set-logic QF_UF)\n(push 100000000)\n(check-sat)\n", b'(error "push 100000000: more than'),
        (b"(" * 5000, b'(error "a command nested deeper than 1000")'),
        # Bytes that are no UTF-8 are read as U+FFFD: a name like another.
        (b"(declare-const \xff\xfe Bool)\n(assert \xff\xfe)\n(check-sat)\n", b"sat\n"),
    ]
    for data, answer in cases:
        start = time.monotonic()
        r = front_end(["--timeout=20"], data)
        assert time.monotonic() - start < 10, data[:80]
        assert r.returncode == 0 and b"Traceback" not in r.stderr, (data[:80], r.stderr[-500:])
        assert answer in r.stdout, (data[:80], r.stdout[-500:])


def test_the_time_limit_ends_a_session_waiting_for_input() -> None:
    p = subprocess.Popen([sys.executable, str(SCRIPT), "--timeout=1"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert p.stdin is not None and p.stdout is not None
    p.stdin.write(b"(declare-const a Bool)\n(check-sat)\n")
    p.stdin.flush()
    start = time.monotonic()
    try:
        code = p.wait(timeout=10)
    finally:
        p.kill()
    out = p.stdout.read()
    p.stdin.close()
    p.stdout.close()
    assert (out, code) == (b"sat\nunknown\n", 0)
    assert time.monotonic() - start < 5


def test_the_time_limit_takes_only_sensible_seconds() -> None:
    for value in ["nan", "inf", "-1", "1e300", "x"]:
        r = front_end(["--timeout=" + value], b"(check-sat)\n")
        assert r.returncode == 1 and b"--timeout takes seconds" in r.stderr, (value, r.stderr)
