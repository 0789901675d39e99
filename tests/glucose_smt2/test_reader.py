"""The reader: S-expressions as they arrive, in linear time, within its
bounds; malformed input is an error, never a hang or a traceback."""

import time

import pytest
from conftest import gs, run


def read(text: str, **bounds: int) -> list:
    return list(gs.Reader(iter(text.splitlines(keepends=True)), **bounds).commands())


def test_tokens_lists_symbols_strings_and_comments() -> None:
    text = '(assert (and |a b| c)) ; a comment (\n(echo "say ""hi""\n(there)")\n( x|y|z )'
    assert read(text) == [
        ["assert", ["and", "a b", "c"]],
        ["echo", '"say ""hi""\n(there)"'],
        ["x", "y", "z"],
    ]


def test_a_symbol_over_many_lines_is_one_token() -> None:
    assert read("(declare-const |a\nb\nc| Bool)") == [["declare-const", "a\nb\nc", "Bool"]]


def test_commands_come_as_soon_as_complete() -> None:
    # A session's next line may not exist yet: the first command must be
    # yielded before the reader asks for more.
    def lines():
        yield "(check-sat)\n"
        raise AssertionError("read past a complete command")

    assert next(gs.Reader(lines()).commands()) == ["check-sat"]


@pytest.mark.parametrize(
    "text, message",
    [
        ("(a))", "unexpected `)`"),
        ("x", "expected `(`"),
        ("(a (b)", "unexpected end of input"),
        ("(a |b", "unterminated |symbol|"),
        ('(echo "b', "unterminated string"),
        ("(" * 11 + ")" * 11, "nested deeper than 10"),
        ("(a " + "b " * 100 + ")", "longer than 100 characters"),
    ],
)
def test_malformed_input_is_an_error(text: str, message: str) -> None:
    with pytest.raises(gs.SmtError, match=message.replace("|", r"\|").replace("(", r"\(").replace(")", r"\)")):
        read(text, max_depth=10, max_chars=100)


def test_bounds_count_each_command_not_the_whole_input() -> None:
    assert len(read("(check-sat)\n" * 100, max_chars=100)) == 100


def test_an_unterminated_symbol_is_read_in_linear_time() -> None:
    # Issue 33 #08: 0.6 MB after an unterminated |symbol| took 14 s, each
    # further line joined to the rest and scanned again. Eight times the
    # input now takes about eight times as long; quadratic would be 64
    # times. CPU time, the least of three runs: the machine may be busy.
    def took(lines: int) -> float:
        text = "(assert |x\n" + ("a" * 60 + "\n") * lines
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            with pytest.raises(gs.SmtError, match="unterminated"):
                read(text)
            best = min(best, time.process_time() - start)
        return best

    small, large = took(16000), took(128000)
    assert large < 2.0, large
    assert large < 24 * max(small, 1e-3), (small, large)


def test_hostile_inputs_are_answered_with_errors() -> None:
    out = run("(push 100000000)\n(pop 5)\n(check-sat)\n")
    assert out.splitlines() == [
        '(error "push 100000000: more than 100000 scopes open at once")',
        '(error "pop 5 with 0 scopes open")',
        "sat",
    ]
    out = run("(define-fun a () Bool a)\n(assert a)\n(check-sat)\n")
    assert out.splitlines() == ['(error "unknown constant a")', '(error "unknown constant a")', "sat"]
