//! S-expressions (being written).

/// An S-expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sexp {
    /// A symbol, number or keyword.
    Atom(String),
    /// A string literal, unescaped.
    Str(String),
    /// A list.
    List(Vec<Sexp>),
}
