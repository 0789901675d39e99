"""The shortcut for the lines smtgrid writes most (a declaration, a clause,
an at-most-one, each on a line of its own): the same clauses in the same
order as the general reading and conversion, and every line that only
looks like one (names not declared, defined, `true`, too many, more on the
line, under scopes) answered exactly as without the shortcut."""

import io
import time
from typing import List, Tuple

from conftest import gs

AMO = " ".join("y%d" % i for i in range(17))
SCRIPT = """(set-logic QF_UF)
(declare-const a Bool)
(declare-const b Bool)
(declare-const c Bool)
(declare-const d_1 Bool)
(define-fun e () Bool (and a b))
(assert (or a (not b) c))
(assert (or (not a) (not a)))
(assert (not (and a (or b c d_1))))
(assert (or a e))
(assert (or a zz))
(assert (not (and a (or b e))))
(assert (or a b)) (assert (or c d_1))
(assert (or a
  b))
   (assert (or b c))
(declare-const a Bool)
(push 1)
(declare-const f Bool)
(assert (or f (not c)))
(assert (not (and f (or a b))))
(check-sat)
(get-value (a b c d_1 f))
(pop 1)
(assert (or f a))
(declare-const f Bool)
(assert (or true a))
(assert (not (and false (or a b))))
(declare-const true Bool)
(assert (or true))
%s
(assert (not (and a (or %s))))
(check-sat)
(get-value (a b c d_1 f))
""" % ("\n".join("(declare-const y%d Bool)" % i for i in range(17)), AMO)


def session_run(text: str, shortcuts: bool, threads: int = 1) -> Tuple[str, List[List[int]]]:
    """The answers to `text` and the clauses given to the solver, in order,
    read with or without the shortcut."""
    out = io.StringIO()
    session = gs.Session(gs.SAT_DEFAULT, None, out, 0, threads)
    added: List[List[int]] = []
    add = session.add

    def recording(lits: List[int]) -> None:
        added.append(list(lits))
        add(lits)

    session.add = recording
    reader = gs.Reader(iter(text.splitlines(keepends=True)), shortcuts=shortcuts)
    for cmd in reader.commands():
        try:
            session.run(cmd)
        except gs.SmtError as e:
            session.say(gs.error(str(e)))
    for solver in session.solvers:
        solver.delete()
    return out.getvalue(), added


def test_the_shortcut_gives_the_general_clauses_and_answers() -> None:
    cmds = list(gs.Reader(iter(SCRIPT.splitlines(keepends=True))).commands())
    assert sum(isinstance(c, gs.Shortcut) for c in cmds) > 30
    for threads in (1, 2):
        fast = session_run(SCRIPT, True, threads)
        slow = session_run(SCRIPT, False, threads)
        assert fast == slow
        assert "unknown constant zz" in fast[0] and "already declared" in fast[0]
        assert fast[0].split("\n")[-2] != ""


def test_shortcut_lines_are_taken_as_shortcuts_and_others_are_not() -> None:
    taken = [
        "(declare-const x_1_2_3 Bool)\n",
        "(assert (or (not x_1_2_3) x_1_2_4 a998))\n",
        "(assert (not (and x (or y z))))\n",
        "(assert (or a))",
    ]
    not_taken = [
        "(declare-const x Int)\n",
        "(declare-const |x| Bool)\n",
        "(assert (or a b)) (assert c)\n",
        "(assert (or a (and b c)))\n",
        "(assert (or))\n",
        "(assert (or a b)\n",
        "(assert (not (and x (or y (not z)))))\n",
        " (assert (or a b))\n",
    ]
    for line in taken:
        assert isinstance(gs.shortcut(line), gs.Shortcut), line
    for line in not_taken:
        assert gs.shortcut(line) is None, line


def test_a_long_line_that_almost_matches_is_refused_in_linear_time() -> None:
    names = " ".join("x%d" % i for i in range(200000))
    for line in ("(assert (or %s)" % names, "(assert (or %s))) " % names + "x" * 10,
                 "(assert (not (and a (or %s)" % names):
        start = time.monotonic()
        assert gs.shortcut(line) is None
        assert time.monotonic() - start < 2.0
