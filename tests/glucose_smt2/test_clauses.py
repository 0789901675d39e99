"""Clause conversion against z3: random scripts over a few Booleans (every
term the front end takes, definitions, lets, scopes, assumptions, and
assertions it must refuse) answered by both; each sat answer's model is
checked against the assertions in force, by an evaluator of this file's
own."""

import random
import subprocess
import tempfile
from typing import Any, Dict, List, Optional, Tuple

from conftest import run

# A term: a name, or (op, args...); ("let", [(name, term)...], body).
Term = Any
BAD = [("foo", "x0"), ("ite", "x0", "x0"), ("not", "x0", "x0"), "zz"]


class Script:
    """A random script, what is in force at each check-sat, and the text."""

    def __init__(self, rng: random.Random, threads: int) -> None:
        self.rng = rng
        self.vars = ["x%d" % i for i in range(rng.randint(1, 6))]
        self.defs: Dict[str, Term] = {}  # in force
        self.all_defs: Dict[str, Term] = {}  # ever made (names are not reused), for the evaluator
        self.levels: List[List[Tuple[str, Any]]] = [[]]  # per scope: ("assert", t) or ("define", name)
        self.lines = ["(set-logic QF_UF)"] + ["(declare-const %s Bool)" % v for v in self.vars]
        self.checks: List[Tuple[List[Term], List[Term]]] = []  # per check-sat: assertions, assumptions
        for _ in range(rng.randint(3, 14)):
            self.step()
        self.check([])

    def names(self) -> List[str]:
        return self.vars + list(self.defs)

    def term(self, depth: int, lets: List[str]) -> Term:
        r = self.rng
        if depth == 0 or r.random() < 0.25:
            pool = self.names() + lets + ["true", "false"]
            return r.choice(pool)
        op = r.choice(["not", "and", "or", "=>", "xor", "=", "distinct", "ite", "let", "and", "or"])
        if op == "not":
            return ("not", self.term(depth - 1, lets))
        if op == "ite":
            return ("ite",) + tuple(self.term(depth - 1, lets) for _ in range(3))
        if op == "let":
            name = "l%d" % len(lets)
            bound = self.term(depth - 1, lets)
            return ("let", [(name, bound)], self.term(depth - 1, lets + [name]))
        n = r.randint(2, 4) if op != "distinct" or r.random() < 0.2 else 2
        return (op,) + tuple(self.term(depth - 1, lets) for _ in range(n))

    def bad(self) -> Term:
        """A term z3 and the front end both refuse, somewhere inside a good one."""
        t = self.term(2, [])
        bad = self.rng.choice(BAD)
        return ("and", t, bad) if self.rng.random() < 0.5 else ("or", ("and", bad, t), t)

    def check(self, assumptions: List[Term]) -> None:
        active = [t for level in self.levels for kind, t in level if kind == "assert"]
        self.checks.append((active, assumptions))
        if assumptions:
            self.lines.append("(check-sat-assuming (%s))" % " ".join(show(a) for a in assumptions))
        else:
            self.lines.append("(check-sat)")
        self.lines.append("(get-value (%s))" % " ".join(self.vars))

    def step(self) -> None:
        r = self.rng
        k = r.random()
        if k < 0.4:
            t = self.term(r.randint(1, 4), [])
            self.levels[-1].append(("assert", t))
            self.lines.append("(assert %s)" % show(t))
        elif k < 0.5:
            self.lines.append("(assert %s)" % show(self.bad()))
        elif k < 0.6:
            name = "d%d" % len(self.all_defs)
            t = self.term(r.randint(1, 3), [])
            self.defs[name] = self.all_defs[name] = t
            self.levels[-1].append(("define", name))
            self.lines.append("(define-fun %s () Bool %s)" % (name, show(t)))
        elif k < 0.72:
            self.levels.append([])
            self.lines.append("(push 1)")
        elif k < 0.8 and len(self.levels) > 1:
            for kind, name in self.levels.pop():
                if kind == "define":
                    del self.defs[name]
            self.lines.append("(pop 1)")
        elif k < 0.9:
            self.check([])
        else:
            lits = [v if r.random() < 0.5 else ("not", v) for v in r.sample(self.vars, r.randint(1, len(self.vars)))]
            self.check(lits)

    def holds(self, t: Term, model: Dict[str, bool], lets: Optional[Dict[str, bool]] = None) -> bool:
        lets = lets or {}
        if isinstance(t, str):
            if t in lets:
                return lets[t]
            if t in ("true", "false"):
                return t == "true"
            if t in self.all_defs:
                return self.holds(self.all_defs[t], model)
            return model[t]
        op = t[0]
        if op == "let":
            inner = dict(lets)
            for name, bound in t[1]:
                inner[name] = self.holds(bound, model, lets)
            return self.holds(t[2], model, inner)
        v = [self.holds(a, model, lets) for a in t[1:]]
        return {
            "not": lambda: not v[0],
            "and": lambda: all(v),
            "or": lambda: any(v),
            "=>": lambda: (not all(v[:-1])) or v[-1],
            "xor": lambda: sum(v) % 2 == 1,
            "=": lambda: len(set(v)) == 1,
            "distinct": lambda: len(set(v)) == len(v),
            "ite": lambda: v[1] if v[0] else v[2],
        }[op]()


def show(t: Term) -> str:
    if isinstance(t, str):
        return t
    if t[0] == "let":
        return "(let (%s) %s)" % (" ".join("(%s %s)" % (n, show(b)) for n, b in t[1]), show(t[2]))
    return "(" + " ".join(show(a) for a in t) + ")"


def answers(out: str) -> Tuple[List[str], int]:
    """The sat/unsat answers and values in order, and how many errors."""
    lines = out.splitlines()
    return [x for x in lines if not x.startswith("(error")], sum(x.startswith("(error") for x in lines)


def z3_answers(z3: str, scripts: List[str]) -> List[str]:
    """z3's output for each script, from one z3 process (scripts split by
    a reset and an echoed marker)."""
    with tempfile.NamedTemporaryFile("w", suffix=".smt2") as f:
        for s in scripts:
            f.write(s + '\n(echo "=====")\n(reset)\n')
        f.flush()
        out = subprocess.run([z3, "-smt2", f.name], capture_output=True, text=True, timeout=300).stdout
    parts = out.split("=====\n")
    assert len(parts) == len(scripts) + 1, out[-2000:]
    return parts[:-1]


def compare(z3: str, seeds: range, threads: int) -> None:
    scripts = [Script(random.Random(seed), threads) for seed in seeds]
    texts = ["\n".join(s.lines) for s in scripts]
    theirs = z3_answers(z3, texts)
    for seed, s, text, ref in zip(seeds, scripts, texts, theirs, strict=True):
        mine, errors = answers(run(text, threads=threads, seed=seed % 3))
        ref_answers, ref_errors = answers(ref)
        verdicts = [x for x in mine if x in ("sat", "unsat")]
        ref_verdicts = [x for x in ref_answers if x in ("sat", "unsat")]
        assert (verdicts, errors) == (ref_verdicts, ref_errors), "seed %d:\n%s\nz3:\n%s\nglucose-smt2:\n%s" % (
            seed, text, ref, "\n".join(mine))
        check_models(s, mine, text, seed)


def check_models(s: Script, mine: List[str], text: str, seed: int) -> None:
    # Each check-sat's answer is followed by its get-value reply (an error
    # after unsat, left out above).
    i = 0
    for active, assumptions in s.checks:
        verdict = mine[i]
        i += 1
        if verdict != "sat":
            continue
        values = mine[i]
        i += 1
        model = {}
        for pair in values.strip("()").split(") ("):
            name, value = pair.split()
            model[name] = value == "true"
        for t in active + assumptions:
            assert s.holds(t, model), "seed %d: the model %s breaks %s\n%s" % (seed, model, show(t), text)


def test_random_scripts_answer_as_z3_does(z3: str) -> None:
    compare(z3, range(300), threads=1)


def test_random_scripts_with_threads_answer_as_z3_does(z3: str) -> None:
    compare(z3, range(1000, 1060), threads=2)
