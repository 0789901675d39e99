//! Reading solver replies (being written).

/// Result of `(check-sat)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckSat {
    /// `sat`
    Sat,
    /// `unsat`
    Unsat,
    /// `unknown`
    Unknown,
}

/// A value in a model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// An integer.
    Int(i128),
    /// A Boolean.
    Bool(bool),
    /// A bit-vector.
    BitVec {
        /// Its value.
        value: u128,
        /// Its width.
        width: u32,
    },
}

/// Everything a solver said in a one-shot run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Answer {
    /// Each `check-sat` result, in order.
    pub results: Vec<CheckSat>,
    /// The model: every constant the solver assigned.
    pub model: std::collections::BTreeMap<String, Value>,
    /// Error messages.
    pub errors: Vec<String>,
    /// Whether it said `unsupported`.
    pub unsupported: bool,
}
