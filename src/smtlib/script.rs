//! Building and printing SMT-LIB2 scripts.

use std::fmt::Write as _;

/// A sort of a declared constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sort {
    /// `Bool`
    Bool,
    /// `Int`
    Int,
    /// `(_ BitVec W)`
    BitVec(u32),
}

impl Sort {
    fn write(self, out: &mut String) {
        match self {
            Sort::Bool => out.push_str("Bool"),
            Sort::Int => out.push_str("Int"),
            Sort::BitVec(w) => {
                let _ = write!(out, "(_ BitVec {w})");
            }
        }
    }
}

/// An SMT-LIB2 term.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Term {
    /// A symbol: a declared constant or `true`/`false`.
    Sym(String),
    /// An integer literal; negative values print as `(- n)`.
    Int(i64),
    /// A bit-vector literal of the given width, printed as `#b…`.
    Bv {
        /// The value (must fit in `width` bits).
        value: u64,
        /// The width in bits.
        width: u32,
    },
    /// An application `(f args…)`; `f` may itself be an indexed name such
    /// as `(_ zero_extend 4)`.
    App(String, Vec<Term>),
}

impl Term {
    /// A symbol.
    pub fn sym(s: impl Into<String>) -> Term {
        Term::Sym(s.into())
    }
    /// An application.
    pub fn app(f: impl Into<String>, args: Vec<Term>) -> Term {
        Term::App(f.into(), args)
    }
    /// `(not t)`
    // Named after SMT-LIB's `not` so term-building code reads like the
    // script it prints; `std::ops::Not` would hide that behind `!`.
    #[allow(clippy::should_implement_trait)]
    pub fn not(t: Term) -> Term {
        Term::app("not", vec![t])
    }
    /// `(and …)`, simplified for zero or one argument.
    pub fn and(mut ts: Vec<Term>) -> Term {
        match ts.len() {
            0 => Term::sym("true"),
            1 => ts.pop().unwrap_or_else(|| Term::sym("true")),
            _ => Term::app("and", ts),
        }
    }
    /// `(or …)`, simplified for zero or one argument.
    pub fn or(mut ts: Vec<Term>) -> Term {
        match ts.len() {
            0 => Term::sym("false"),
            1 => ts.pop().unwrap_or_else(|| Term::sym("false")),
            _ => Term::app("or", ts),
        }
    }
    /// `(=> a b)`
    pub fn implies(a: Term, b: Term) -> Term {
        Term::app("=>", vec![a, b])
    }
    /// `(= a b)`
    pub fn eq(a: Term, b: Term) -> Term {
        Term::app("=", vec![a, b])
    }

    /// Appends the term's text to `out`.
    pub fn write(&self, out: &mut String) {
        match self {
            Term::Sym(s) => out.push_str(s),
            Term::Int(v) if *v < 0 => {
                let _ = write!(out, "(- {})", v.unsigned_abs());
            }
            Term::Int(v) => {
                let _ = write!(out, "{v}");
            }
            Term::Bv { value, width } => {
                out.push_str("#b");
                for i in (0..*width).rev() {
                    out.push(if value >> i & 1 == 1 { '1' } else { '0' });
                }
            }
            Term::App(f, args) => {
                out.push('(');
                out.push_str(f);
                for a in args {
                    out.push(' ');
                    a.write(out);
                }
                out.push(')');
            }
        }
    }
}

impl std::fmt::Display for Term {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = String::new();
        self.write(&mut s);
        f.write_str(&s)
    }
}

/// Makes `text` safe inside a `;` comment: one line, no control characters.
pub fn comment_text(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

/// Makes `text` safe inside a `|…|` quoted symbol (which may not contain
/// `|` or `\`) and on one line.
pub fn quoted_symbol_text(text: &str) -> String {
    comment_text(text).replace(['|', '\\'], "/")
}

/// A script under construction: a sequence of commands and comments,
/// printed as text as they are added (scripts can be large; building a tree
/// first would double the memory).
#[derive(Debug, Clone, Default)]
pub struct Script {
    text: String,
    declarations: usize,
    assertions: usize,
    /// The commands used, so that a solver's unsupported ones can be
    /// found without searching the text.
    commands: std::collections::BTreeSet<&'static str>,
}

impl Script {
    /// An empty script.
    pub fn new() -> Self {
        Script::default()
    }
    /// `; text` on its own line (line breaks in `text` are removed).
    pub fn comment(&mut self, text: &str) {
        self.text.push_str("; ");
        self.text.push_str(&comment_text(text));
        self.text.push('\n');
    }
    /// An empty line, to separate sections.
    pub fn blank(&mut self) {
        self.text.push('\n');
    }
    /// `(set-info :key value)`; `value` is written as given (quote it).
    pub fn set_info(&mut self, key: &str, value: &str) {
        self.commands.insert("set-info");
        let _ = writeln!(self.text, "(set-info :{key} {value})");
    }
    /// `(set-option :key value)`
    pub fn set_option(&mut self, key: &str, value: &str) {
        self.commands.insert("set-option");
        let _ = writeln!(self.text, "(set-option :{key} {value})");
    }
    /// `(set-logic L)`
    pub fn set_logic(&mut self, logic: &str) {
        self.commands.insert("set-logic");
        let _ = writeln!(self.text, "(set-logic {logic})");
    }
    /// `(declare-const name sort)`
    pub fn declare_const(&mut self, name: &str, sort: Sort) {
        self.declarations += 1;
        self.commands.insert("declare-const");
        let _ = write!(self.text, "(declare-const {name} ");
        sort.write(&mut self.text);
        self.text.push_str(")\n");
    }
    /// `(assert t)`
    pub fn assert(&mut self, t: &Term) {
        self.assertions += 1;
        self.commands.insert("assert");
        self.text.push_str("(assert ");
        t.write(&mut self.text);
        self.text.push_str(")\n");
    }
    /// `(define-fun name () sort t)`: a named term, e.g. to ask for many
    /// values with one `get-value` term.
    pub fn define_fun(&mut self, name: &str, sort: Sort, t: &Term) {
        self.commands.insert("define-fun");
        let _ = write!(self.text, "(define-fun {name} () ");
        sort.write(&mut self.text);
        self.text.push(' ');
        t.write(&mut self.text);
        self.text.push_str(")\n");
    }
    /// `(push 1)`
    pub fn push(&mut self) {
        self.bare("push", "(push 1)\n");
    }
    /// `(pop 1)`
    pub fn pop(&mut self) {
        self.bare("pop", "(pop 1)\n");
    }
    /// `(check-sat)`
    pub fn check_sat(&mut self) {
        self.bare("check-sat", "(check-sat)\n");
    }
    /// `(check-sat-assuming (lits…))`
    pub fn check_sat_assuming(&mut self, lits: &[Term]) {
        self.commands.insert("check-sat-assuming");
        self.text.push_str("(check-sat-assuming (");
        for (i, t) in lits.iter().enumerate() {
            if i > 0 {
                self.text.push(' ');
            }
            t.write(&mut self.text);
        }
        self.text.push_str("))\n");
    }
    /// `(get-unsat-assumptions)`
    pub fn get_unsat_assumptions(&mut self) {
        self.bare("get-unsat-assumptions", "(get-unsat-assumptions)\n");
    }
    /// `(get-model)`
    pub fn get_model(&mut self) {
        self.bare("get-model", "(get-model)\n");
    }
    /// A command without terms, as `text`.
    fn bare(&mut self, command: &'static str, text: &str) {
        self.commands.insert(command);
        self.text.push_str(text);
    }
    /// `(get-value (names…))`
    pub fn get_value(&mut self, names: &[String]) {
        self.commands.insert("get-value");
        self.text.push_str("(get-value (");
        self.text.push_str(&names.join(" "));
        self.text.push_str("))\n");
    }
    /// `(exit)`
    pub fn exit(&mut self) {
        self.bare("exit", "(exit)\n");
    }
    /// Appends `other`: its text, counts and commands.
    pub fn append(&mut self, other: Script) {
        self.text.push_str(&other.text);
        self.declarations += other.declarations;
        self.assertions += other.assertions;
        self.commands.extend(other.commands);
    }
    /// Whether nothing was written yet.
    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }
    /// Number of `declare-const` commands so far.
    pub fn declarations(&self) -> usize {
        self.declarations
    }
    /// Number of `assert` commands so far.
    pub fn assertions(&self) -> usize {
        self.assertions
    }
    /// The names of the commands used so far (`assert`, `get-model`, …),
    /// sorted.
    pub fn commands(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.commands.iter().copied()
    }
    /// The commands any of `scripts` uses, sorted, each once.
    pub fn commands_of(scripts: &[&Script]) -> Vec<&'static str> {
        let mut all: Vec<&'static str> = scripts.iter().flat_map(|s| s.commands()).collect();
        all.sort_unstable();
        all.dedup();
        all
    }
    /// The script text.
    pub fn as_str(&self) -> &str {
        &self.text
    }
    /// The script text, consuming the script.
    pub fn into_string(self) -> String {
        self.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_negative_ints_and_bitvectors() {
        let t = Term::app("+", vec![Term::Int(-3), Term::Bv { value: 5, width: 4 }]);
        assert_eq!(t.to_string(), "(+ (- 3) #b0101)");
    }

    #[test]
    fn comments_stay_on_one_line() {
        let mut s = Script::new();
        s.comment("a\nb\r(c)");
        assert_eq!(s.as_str(), "; a b (c)\n");
        assert_eq!(quoted_symbol_text("x|y\\z\n"), "x/y/z");
    }

    #[test]
    fn knows_its_commands() {
        let mut s = Script::new();
        s.set_logic("QF_UF");
        s.declare_const("a", Sort::Bool);
        s.assert(&Term::sym("a"));
        s.comment("(get-model) in a comment is no command");
        s.check_sat();
        assert_eq!(
            s.commands().collect::<Vec<_>>(),
            ["assert", "check-sat", "declare-const", "set-logic"]
        );
    }
}
