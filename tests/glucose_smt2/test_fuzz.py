"""A fuzz pass, seeded and bounded in time: random cuts, splices and
doublings of valid scripts and random token soup. Every input gets
answers or `(error …)` lines, never an internal error, and quickly."""

import random
import re
import time

from conftest import run

SEEDS = [
    "(set-logic QF_UF)\n(declare-const a Bool)\n(declare-fun b () Bool)\n(define-fun c () Bool (and a (not b)))\n"
    "(push 2)\n(assert (=> a b c))\n(check-sat)\n(get-model)\n(pop 1)\n(check-sat-assuming (a (not b)))\n"
    "(get-value (a (xor a b) c))\n(echo \"x\"\"y\")\n(get-info :all-statistics)\n(reset)\n(check-sat)\n",
    "(declare-const |x y| Bool)\n(assert (let ((p |x y|) (q true)) (ite p (= p q) (distinct p q))))\n"
    "(assert (or (and |x y| true) (not (or false |x y|))))\n(check-sat)\n(get-value (|x y|))\n(exit)\n",
]
TOKENS = ["(", ")", "(", ")", "a", "b", "|a", "|", '"', "true", "not", "and", "or", "let", "ite", "=", "=>",
          "assert", "check-sat", "push", "pop", "define-fun", "declare-const", "Bool", "()", "0", "99999999999",
          "get-value", "check-sat-assuming", ";", "\n", " ", "\x00", "\u00e9", "reset", "exit", "echo"]
STRING = re.compile(r'"(?:[^"]|"")*"')
ANSWER = ("sat", "unsat", "unknown", "unsupported", "(error ", "(model", "  (define-fun", ")", "((", "(:", " :", "(")


def mutate(rng: random.Random) -> str:
    text = rng.choice(SEEDS)
    for _ in range(rng.randint(1, 6)):
        i, j = sorted(rng.randrange(len(text) + 1) for _ in range(2))
        k = rng.random()
        if k < 0.3:
            text = text[:i] + text[j:]
        elif k < 0.6:
            text = text[:i] + text[i:j] * rng.randint(2, 4) + text[i:]
        elif k < 0.8:
            other = rng.choice(SEEDS)
            a, b = sorted(rng.randrange(len(other) + 1) for _ in range(2))
            text = text[:i] + other[a:b] + text[j:]
        else:
            text = text[:i] + " ".join(rng.choice(TOKENS) for _ in range(rng.randint(1, 20))) + text[i:]
    return text


def test_fuzzed_scripts_are_answered_or_refused() -> None:
    rng = random.Random(20261128)
    budget = time.monotonic() + 60
    cases = 0
    while cases < 3000 and time.monotonic() < budget:
        text = mutate(rng)
        start = time.monotonic()
        out = run(text, threads=rng.choice([1, 1, 2]))
        took = time.monotonic() - start
        cases += 1
        assert took < 5, "%.1f s for:\n%r" % (took, text)
        assert "internal error" not in out, "%s\nfor:\n%r" % (out, text)
        if "echo" in text:
            continue  # echo prints whatever it is given
        # Error texts may span lines (a quoted symbol may hold a line end):
        # each counts as one token, and every line is then an answer, an
        # error or part of a model.
        for line in STRING.sub('""', out).splitlines():
            assert line.startswith(ANSWER), "%r\nfor:\n%r" % (line, text)
    assert cases >= 300, cases
    print("%d fuzzed scripts" % cases)
