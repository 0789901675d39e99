//! A reader for the S-expressions solvers print.
//!
//! It works on tokens, never on lines or bare parenthesis counts: string
//! literals (`"…"`, with `""` for a quote) and quoted symbols (`|…|`) may hold
//! parentheses, semicolons and line breaks, and `;` comments run to the end
//! of the line. The reader is iterative (an explicit stack, no recursion) and
//! refuses nesting deeper than [`MAX_DEPTH`], so no input can overflow the
//! stack, and every call scans forward only, so no input can make it hang.
//! It builds at most [`MAX_NODES`] atoms and lists at a time, so no input
//! can make it build a gigantic tree (64 MB of `x x x …` would take 2 GB
//! as a tree).
//!
//! Three entry points: [`parse_all`] reads a complete text, `parse_prefix`
//! reads one expression from the front of a buffer that may still grow (an
//! interactive session), and `Stream` reads a complete text one
//! expression, or one element of a list, at a time, so that a big reply
//! (a model) never has to be held as one tree.

use std::borrow::Cow;
use std::fmt;

/// An S-expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sexp {
    /// A symbol, number or keyword. A quoted symbol `|a b|` is stored
    /// without its bars (`a b`): SMT-LIB makes `|x|` and `x` the same symbol.
    Atom(String),
    /// A string literal, unescaped (`""` inside it has become `"`).
    Str(String),
    /// A list.
    List(Vec<Sexp>),
}

/// How deeply lists may nest. Solver replies for grid puzzles nest a few
/// levels; the bound exists so that hostile or garbled output gives a
/// [`ReadError`] instead of exhausting the stack when the tree is later
/// dropped, compared or printed (those are recursive).
pub const MAX_DEPTH: usize = 2048;

/// How many atoms, strings and lists one parse may build: one call of
/// [`parse_all`] or `parse_prefix`, one expression of a `Stream`. A
/// tree takes about 64 bytes a node, so this bounds a tree to about 64 MB.
/// One entry of a model takes about 6 nodes, and a model is read one entry
/// at a time (`Stream`); no single reply to smtgrid's scripts comes near.
pub const MAX_NODES: usize = 1 << 20;

/// Text that could not be read as S-expressions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    /// What is wrong, with line and column.
    pub message: String,
    /// Byte offset in the text where the problem is.
    pub offset: usize,
}

impl ReadError {
    /// An error at `offset` of `text`; the message gets the line and column
    /// and a short excerpt, so that a report about unreadable solver output
    /// shows what the solver printed.
    pub(crate) fn at(text: &str, offset: usize, what: &str) -> ReadError {
        let offset = offset.min(text.len());
        let before = text.get(..offset).unwrap_or("");
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        let excerpt: String = text.get(offset..).unwrap_or("").chars().take(40).collect();
        ReadError {
            message: format!("line {line}, column {column}: {what} (text there: {excerpt:?})"),
            offset,
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unreadable S-expression: {}", self.message)
    }
}

impl std::error::Error for ReadError {}

impl Sexp {
    /// The text of an atom, if this is one.
    pub fn as_atom(&self) -> Option<&str> {
        match self {
            Sexp::Atom(a) => Some(a),
            _ => None,
        }
    }

    /// The elements of a list, if this is one.
    pub fn as_list(&self) -> Option<&[Sexp]> {
        match self {
            Sexp::List(items) => Some(items),
            _ => None,
        }
    }

    /// Whether this is the atom `name`.
    pub fn is_atom(&self, name: &str) -> bool {
        self.as_atom() == Some(name)
    }
}

/// Reads every S-expression in `text`, which is complete: the end of the
/// text ends the last atom. Comments and whitespace are skipped.
///
/// Truncated input (a list, string or `|symbol|` still open at the end),
/// a stray `)`, nesting deeper than [`MAX_DEPTH`] and more than
/// [`MAX_NODES`] atoms and lists in all are errors.
pub fn parse_all(text: &str) -> Result<Vec<Sexp>, ReadError> {
    Ok(parse_all_at(text)?
        .into_iter()
        .map(|(_, sexp)| sexp)
        .collect())
}

/// [`parse_all`], with the byte offset where each expression starts (for
/// error messages about one of them).
pub(crate) fn parse_all_at(text: &str) -> Result<Vec<(usize, Sexp)>, ReadError> {
    let mut out = Vec::new();
    let mut pos = 0;
    let mut budget = MAX_NODES;
    loop {
        match read_one(text, pos, true, &mut budget)? {
            Outcome::Complete { sexp, start, end } => {
                out.push((start, sexp));
                pos = end;
            }
            Outcome::Nothing => return Ok(out),
            Outcome::Incomplete { offset, what } => {
                return Err(ReadError::at(
                    text,
                    offset,
                    &format!("{what}: the text was cut short"),
                ));
            }
        }
    }
}

/// What reading one expression found.
enum Outcome {
    /// An expression, the offset of its first byte and the offset just
    /// past it.
    Complete {
        sexp: Sexp,
        start: usize,
        end: usize,
    },
    /// Only whitespace and comments up to the end.
    Nothing,
    /// The text ends inside an expression that began at `offset`.
    Incomplete { offset: usize, what: &'static str },
}

/// One token; `Atom` and `Str` borrow from the text when they can.
enum Token<'a> {
    Open,
    Close,
    Atom(&'a str),
    Str(Cow<'a, str>),
}

/// What the lexer found next.
enum Lexed<'a> {
    /// A token starting at this offset.
    Token(usize, Token<'a>),
    /// Only whitespace and comments left.
    End,
    /// A token begun at `offset` runs into the end of the text.
    Incomplete { offset: usize, what: &'static str },
}

/// Splits text into tokens. All delimiters are ASCII, so every offset it
/// stops at is a character boundary of the UTF-8 text.
struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    /// Whether the end of the text is the end of the input (see
    /// [`parse_prefix`] for why that matters).
    final_eof: bool,
}

/// Bytes that end a simple symbol, numeral or keyword.
fn is_delimiter(b: u8) -> bool {
    b.is_ascii_whitespace() || matches!(b, b'(' | b')' | b'"' | b';' | b'|')
}

impl<'a> Lexer<'a> {
    fn next_token(&mut self) -> Lexed<'a> {
        let bytes = self.text.as_bytes();
        // Skip whitespace and comments.
        loop {
            match bytes.get(self.pos) {
                None => return Lexed::End,
                Some(b) if b.is_ascii_whitespace() => self.pos += 1,
                Some(b';') => match memchr(b'\n', bytes, self.pos) {
                    Some(nl) => self.pos = nl + 1,
                    None => self.pos = bytes.len(),
                },
                Some(_) => break,
            }
        }
        let start = self.pos;
        match bytes[start] {
            b'(' => {
                self.pos += 1;
                Lexed::Token(start, Token::Open)
            }
            b')' => {
                self.pos += 1;
                Lexed::Token(start, Token::Close)
            }
            b'|' => match memchr(b'|', bytes, start + 1) {
                Some(end) => {
                    self.pos = end + 1;
                    Lexed::Token(start, Token::Atom(&self.text[start + 1..end]))
                }
                None => Lexed::Incomplete {
                    offset: start,
                    what: "a |quoted symbol| is not closed",
                },
            },
            b'"' => self.string(start),
            _ => {
                let end = bytes[start..]
                    .iter()
                    .position(|&b| is_delimiter(b))
                    .map_or(bytes.len(), |n| start + n);
                if end == bytes.len() && !self.final_eof {
                    return Lexed::Incomplete {
                        offset: start,
                        what: "an atom may continue",
                    };
                }
                self.pos = end;
                Lexed::Token(start, Token::Atom(&self.text[start..end]))
            }
        }
    }

    /// A string literal starting at `start` (its opening quote). `""`
    /// inside stands for one quote; there are no other escapes in SMT-LIB
    /// 2.6, so a backslash is an ordinary character.
    fn string(&mut self, start: usize) -> Lexed<'a> {
        let bytes = self.text.as_bytes();
        let mut search = start + 1;
        let mut owned: Option<String> = None;
        loop {
            let Some(q) = memchr(b'"', bytes, search) else {
                return Lexed::Incomplete {
                    offset: start,
                    what: "a string literal is not closed",
                };
            };
            match bytes.get(q + 1) {
                Some(b'"') => {
                    // An escaped quote: keep the text up to and with one quote.
                    owned
                        .get_or_insert_with(String::new)
                        .push_str(&self.text[search..=q]);
                    search = q + 2;
                }
                None if !self.final_eof => {
                    return Lexed::Incomplete {
                        offset: start,
                        what: "a string literal may continue",
                    };
                }
                _ => {
                    self.pos = q + 1;
                    let body = &self.text[search..q];
                    let value = match owned {
                        Some(mut s) => {
                            s.push_str(body);
                            Cow::Owned(s)
                        }
                        None => Cow::Borrowed(body),
                    };
                    return Lexed::Token(start, Token::Str(value));
                }
            }
        }
    }
}

/// The first index `>= from` where `bytes` holds `needle`.
fn memchr(needle: u8, bytes: &[u8], from: usize) -> Option<usize> {
    bytes
        .get(from..)?
        .iter()
        .position(|&b| b == needle)
        .map(|n| from + n)
}

/// Reads one expression starting at `start`.
fn read_one(
    text: &str,
    start: usize,
    final_eof: bool,
    budget: &mut usize,
) -> Result<Outcome, ReadError> {
    let mut lexer = Lexer {
        text,
        pos: start,
        final_eof,
    };
    read_with(&mut lexer, budget)
}

/// [`read_one`] on a lexer, which is left just past the expression.
fn read_with(lexer: &mut Lexer<'_>, budget: &mut usize) -> Result<Outcome, ReadError> {
    let text = lexer.text;
    // Open lists: where each began, and its elements so far.
    let mut stack: Vec<(usize, Vec<Sexp>)> = Vec::new();
    loop {
        let token = lexer.next_token();
        if let Lexed::Token(at, Token::Open | Token::Atom(_) | Token::Str(_)) = &token {
            if *budget == 0 {
                return Err(too_large(text, *at));
            }
            *budget -= 1;
        }
        let (at, done) = match token {
            Lexed::End => {
                return Ok(match stack.first() {
                    None => Outcome::Nothing,
                    Some(&(offset, _)) => Outcome::Incomplete {
                        offset,
                        what: "this list is not closed",
                    },
                });
            }
            Lexed::Incomplete { offset, what } => {
                let offset = stack.first().map_or(offset, |&(o, _)| o);
                return Ok(Outcome::Incomplete { offset, what });
            }
            Lexed::Token(at, Token::Open) => {
                if stack.len() >= MAX_DEPTH {
                    return Err(ReadError::at(
                        text,
                        at,
                        &format!("lists nest deeper than {MAX_DEPTH} levels"),
                    ));
                }
                stack.push((at, Vec::new()));
                continue;
            }
            Lexed::Token(at, Token::Close) => match stack.pop() {
                Some((open, items)) => (open, Sexp::List(items)),
                None => {
                    return Err(ReadError::at(text, at, "a `)` closes no list"));
                }
            },
            Lexed::Token(at, Token::Atom(a)) => (at, Sexp::Atom(a.to_string())),
            Lexed::Token(at, Token::Str(s)) => (at, Sexp::Str(s.into_owned())),
        };
        match stack.last_mut() {
            Some((_, items)) => items.push(done),
            None => {
                return Ok(Outcome::Complete {
                    sexp: done,
                    start: at,
                    end: lexer.pos,
                });
            }
        }
    }
}

fn too_large(text: &str, at: usize) -> ReadError {
    ReadError::at(
        text,
        at,
        &format!("the reply is too large: more than {MAX_NODES} atoms and lists in one expression"),
    )
}

/// An atom or a string literal that [`Stream::next_word`] took.
pub(crate) enum Word<'a> {
    /// A symbol, number or keyword, as [`Sexp::Atom`] holds it.
    Atom(&'a str),
    /// A string literal, unescaped, as [`Sexp::Str`] holds it.
    Str(Cow<'a, str>),
}

impl Word<'_> {
    /// The text, as [`Sexp::Atom`] or [`Sexp::Str`] would hold it.
    pub fn text(&self) -> &str {
        match self {
            Word::Atom(a) => a,
            Word::Str(s) => s,
        }
    }
}

/// Reads a complete text piece by piece: whole expressions, or the
/// elements of a list one at a time ([`Stream::open_list`],
/// [`Stream::next_in_list`]), each within its own [`MAX_NODES`].
pub(crate) struct Stream<'a> {
    lexer: Lexer<'a>,
}

impl<'a> Stream<'a> {
    /// A stream over `text`, which is complete.
    pub fn new(text: &'a str) -> Stream<'a> {
        Stream {
            lexer: Lexer {
                text,
                pos: 0,
                final_eof: true,
            },
        }
    }

    /// The text not yet read.
    pub fn rest(&self) -> &'a str {
        self.lexer.text.get(self.lexer.pos..).unwrap_or("")
    }

    /// If the next token is `(`, takes it and returns its offset.
    pub fn open_list(&mut self) -> Option<usize> {
        let before = self.lexer.pos;
        match self.lexer.next_token() {
            Lexed::Token(at, Token::Open) => Some(at),
            _ => {
                self.lexer.pos = before;
                None
            }
        }
    }

    /// If the next token is an atom or a string literal, takes it and
    /// returns it borrowed from the text where it can be: a reply's words
    /// are looked at without a copy, however long a solver made one.
    pub fn next_word(&mut self) -> Option<Word<'a>> {
        let before = self.lexer.pos;
        match self.lexer.next_token() {
            Lexed::Token(_, Token::Atom(a)) => Some(Word::Atom(a)),
            Lexed::Token(_, Token::Str(s)) => Some(Word::Str(s)),
            _ => {
                self.lexer.pos = before;
                None
            }
        }
    }

    /// The next whole expression and its offset, within its own node
    /// budget; `None` at the end of the text.
    pub fn next_expr(&mut self) -> Result<Option<(usize, Sexp)>, ReadError> {
        self.next_within(&mut { MAX_NODES })
    }

    fn next_within(&mut self, budget: &mut usize) -> Result<Option<(usize, Sexp)>, ReadError> {
        match read_with(&mut self.lexer, budget)? {
            Outcome::Complete { sexp, start, .. } => Ok(Some((start, sexp))),
            Outcome::Nothing => Ok(None),
            Outcome::Incomplete { offset, what } => Err(ReadError::at(
                self.lexer.text,
                offset,
                &format!("{what}: the text was cut short"),
            )),
        }
    }

    /// Inside a list opened at `open` by [`Stream::open_list`]: its next
    /// element, or `None` after taking its closing `)`. The element's atoms
    /// and lists are taken from `budget`.
    pub fn next_in_list(
        &mut self,
        open: usize,
        budget: &mut usize,
    ) -> Result<Option<Sexp>, ReadError> {
        let before = self.lexer.pos;
        match self.lexer.next_token() {
            Lexed::Token(_, Token::Close) => return Ok(None),
            Lexed::End | Lexed::Incomplete { .. } => {
                return Err(ReadError::at(
                    self.lexer.text,
                    open,
                    "this list is not closed: the text was cut short",
                ));
            }
            Lexed::Token(..) => self.lexer.pos = before,
        }
        match self.next_within(budget)? {
            Some((_, sexp)) => Ok(Some(sexp)),
            None => Err(ReadError::at(
                self.lexer.text,
                open,
                "this list is not closed: the text was cut short",
            )),
        }
    }
}

/// Whether `a` can be printed without bars.
fn is_simple_atom(a: &str) -> bool {
    !a.is_empty() && !a.bytes().any(is_delimiter)
}

impl fmt::Display for Sexp {
    /// Prints the expression back in SMT-LIB syntax, on one line. Atoms
    /// that need it get `|bars|`; strings get their quotes doubled.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // An atom holding `|` cannot be written as a quoted symbol at
            // all; the reader never makes one, so print it as it is.
            Sexp::Atom(a) if is_simple_atom(a) || a.contains('|') => f.write_str(a),
            Sexp::Atom(a) => write!(f, "|{a}|"),
            Sexp::Str(s) => write!(f, "\"{}\"", s.replace('"', "\"\"")),
            Sexp::List(items) => {
                f.write_str("(")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str(")")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atom(s: &str) -> Sexp {
        Sexp::Atom(s.to_string())
    }
    fn string(s: &str) -> Sexp {
        Sexp::Str(s.to_string())
    }

    #[test]
    fn atoms_lists_keywords_and_comments() {
        let got = parse_all("sat ; a comment (with a paren\n(a :key #b01 (- 3)) ;; end").unwrap();
        assert_eq!(
            got,
            vec![
                atom("sat"),
                Sexp::List(vec![
                    atom("a"),
                    atom(":key"),
                    atom("#b01"),
                    Sexp::List(vec![atom("-"), atom("3")]),
                ]),
            ]
        );
    }

    #[test]
    fn strings_hold_parentheses_quotes_semicolons_and_line_breaks() {
        let got = parse_all("(error \"a (b\n\"\"c\"\" ; d)\") x").unwrap();
        assert_eq!(
            got,
            vec![
                Sexp::List(vec![atom("error"), string("a (b\n\"c\" ; d)")]),
                atom("x")
            ]
        );
        // A backslash is an ordinary character in SMT-LIB 2.6.
        assert_eq!(
            parse_all(r#""a\" b"#).unwrap(),
            vec![string("a\\"), atom("b")]
        );
        assert_eq!(parse_all("\"\"").unwrap(), vec![string("")]);
        assert_eq!(parse_all("\"\"\"\"").unwrap(), vec![string("\"")]);
    }

    #[test]
    fn quoted_symbols_lose_their_bars_and_hold_anything_but_bars() {
        let got = parse_all("(|cell (1,2)| |a\nb \"c\" ;d| ||)").unwrap();
        assert_eq!(
            got,
            vec![Sexp::List(vec![
                atom("cell (1,2)"),
                atom("a\nb \"c\" ;d"),
                atom("")
            ])]
        );
    }

    #[test]
    fn non_ascii_text_is_kept() {
        let got = parse_all("(é \"ü(\" |ß ø|)").unwrap();
        assert_eq!(
            got,
            vec![Sexp::List(vec![atom("é"), string("ü("), atom("ß ø")])]
        );
    }

    #[test]
    fn empty_and_comment_only_input_reads_as_nothing() {
        assert_eq!(parse_all("").unwrap(), vec![]);
        assert_eq!(parse_all("  \n; only a comment").unwrap(), vec![]);
    }

    #[test]
    fn truncated_input_is_a_clear_error() {
        for (text, offset, what) in [
            ("sat\n(a (b c)", 4, "list is not closed"),
            ("(error \"line 1\nline 2", 0, "string literal is not closed"),
            ("x \"abc", 2, "string literal is not closed"),
            ("(|a b", 0, "quoted symbol| is not closed"),
            ("((", 0, "list is not closed"),
        ] {
            let e = parse_all(text).unwrap_err();
            assert_eq!(e.offset, offset, "{text:?}: {e}");
            assert!(e.message.contains(what), "{text:?}: {e}");
            assert!(e.message.contains("cut short"), "{text:?}: {e}");
        }
        let e = parse_all("sat\n  (a").unwrap_err();
        assert!(e.message.starts_with("line 2, column 3:"), "{e}");
        assert!(
            e.to_string().starts_with("unreadable S-expression: line 2"),
            "{e}"
        );
    }

    #[test]
    fn a_stray_close_paren_is_an_error() {
        let e = parse_all("sat\n)").unwrap_err();
        assert_eq!(e.offset, 4);
        assert!(e.message.contains("closes no list"), "{e}");
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let deep = "(".repeat(100_000) + &")".repeat(100_000);
        let e = parse_all(&deep).unwrap_err();
        assert_eq!(e.offset, MAX_DEPTH);
        assert!(e.message.contains("nest deeper"), "{e}");
        // Exactly the limit is fine, and the tree can be printed, compared,
        // cloned and dropped on a test thread's small stack.
        let ok = "(".repeat(MAX_DEPTH) + "x" + &")".repeat(MAX_DEPTH);
        let got = parse_all(&ok).unwrap();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].to_string(), ok);
        assert_eq!(got.clone(), got);
    }

    #[test]
    fn garbage_never_panics() {
        let samples = [
            "\u{0}\u{1}\u{7f}",
            ")))(((",
            "\"\"\"",
            "|||",
            "(;)\n)",
            "#x(",
            "é)",
            "\u{feff}sat",
        ];
        for s in samples {
            let _ = parse_all(s);
        }
        // Every prefix of a tricky text, cut at every character boundary.
        let text = "(a \"b\"\"(c\" |d)e| ;f\n (g))";
        for (i, _) in text.char_indices() {
            let _ = parse_all(&text[..i]);
        }
        assert!(parse_all(text).is_ok());
    }

    #[test]
    fn display_prints_smtlib_that_reads_back_the_same() {
        let text = "(define-fun |cell (1,2)| () Int (- 99)) (echo \"a \"\"b\"\" (c)\") :kw ||";
        let parsed = parse_all(text).unwrap();
        let printed: Vec<String> = parsed.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            printed,
            [
                "(define-fun |cell (1,2)| () Int (- 99))",
                "(echo \"a \"\"b\"\" (c)\")",
                ":kw",
                "||",
            ]
        );
        let again = parse_all(&printed.join(" ")).unwrap();
        assert_eq!(again, parsed);
    }

    #[test]
    fn accessors() {
        let s = parse_all("(a b)").unwrap().remove(0);
        assert_eq!(s.as_atom(), None);
        assert_eq!(s.as_list().map(|l| l.len()), Some(2));
        assert!(s.as_list().unwrap()[0].is_atom("a"));
        assert!(!string("a").is_atom("a"));
    }
}
