//! Scripts for incremental sessions: the rules of one puzzle shape are
//! stated once, and each puzzle of that shape is then one short question
//! (`push`, its givens, `check-sat`, `pop`) with one short `get-value` to
//! read its cells back.
//!
//! Two choices make a question cheap, both measured with yices2 on the
//! 17-clue sudokus (README, "Incremental sessions"): at-most-one is
//! written as plain binary clauses, and the one-hot Bools are read back
//! packed into bit-vectors of up to 1024 bits, one for a 9×9 (`get-value`
//! costs per term asked, about 7 µs each in yices2, so 729 Bools cost more
//! than the solving itself).

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::onehot::Form;
use super::{
    CellRead, Decoder, Encoding, Interrupted, Options, Settings, encode_body, one_hot, read_cell,
};
use crate::cancel::Cancel;
use crate::model::{CellId, Model};
use crate::smtlib::{Script, Sort, Term, Value};

/// Bools packed into one read-back bit-vector. A 9×9 fits one: yices2
/// writes each term of a `get-value` reply in four small writes, and each
/// costs it a system call and smtgrid a read (six terms of 128 bits took
/// about 29 writes a puzzle, one of 729 bits takes 9).
const PACK_BITS: usize = 1024;

/// A shape's rules for an incremental session, and how to ask about one
/// puzzle of that shape.
#[derive(Debug, Clone)]
pub struct Shared {
    /// Which encoding made it.
    pub encoding: Encoding,
    /// The logic the session is started for.
    pub logic: &'static str,
    /// Sent once per session: options, logic, declarations, the shape's
    /// assertions and the read-back definitions.
    pub setup: String,
    /// The SMT-LIB commands the session uses, sorted.
    pub commands: Vec<&'static str>,
    decoder: Decoder,
    /// The `get-value` that reads every undecided cell back: constants by
    /// name (`Int` and bit-vector cells) and the packed one-hot Bools.
    /// Empty when every cell is decided.
    read_back: String,
    /// Read-back bit-vectors: each definition's name and the Bools it
    /// packs, most significant bit first.
    packs: Vec<(String, Vec<String>)>,
}

/// Encodes `shape` (a model without givens, see
/// [`Model::split_givens`](crate::model::Model::split_givens)) for an
/// incremental session. Propagation runs on the shape alone, so what it
/// decides holds for every puzzle of the shape.
pub fn encode_shared(
    shape: &Model,
    encoding: Encoding,
    cancel: &Cancel,
) -> Result<Shared, Interrupted> {
    let settings = Settings {
        options: Options::default(),
        form: Form::Clauses,
    };
    let body = encode_body(shape, encoding, &settings, cancel)?;
    let mut names = Vec::new();
    let mut bools = Vec::new();
    for c in &body.decoder.cells {
        match c {
            CellRead::Known(_) => {}
            CellRead::Int(n) | CellRead::Bv(n, _) => names.push(n.clone()),
            CellRead::OneHot(vars) => bools.extend(vars.iter().map(|(_, n)| n.clone())),
        }
    }
    // Packing needs bit-vectors; a Bool-only logic gains them.
    let logic = match (body.logic, bools.is_empty()) {
        ("QF_UF", false) => "QF_BV",
        (l, _) => l,
    };
    let mut head = Script::new();
    // produce-models must come before set-logic: yices rejects it after.
    head.set_option("produce-models", "true");
    head.set_logic(logic);
    let mut tail = Script::new();
    let mut packs = Vec::new();
    for (i, chunk) in bools.chunks(PACK_BITS).enumerate() {
        let bit = |n: &String| {
            let one = |value| Term::Bv { value, width: 1 };
            Term::app("ite", vec![Term::sym(n), one(1), one(0)])
        };
        let t = match chunk {
            [one] => bit(one),
            _ => Term::app("concat", chunk.iter().map(bit).collect()),
        };
        let name = format!("smtgrid_cells_{i}");
        tail.define_fun(&name, Sort::BitVec(chunk.len() as u32), &t);
        packs.push((name, chunk.to_vec()));
    }
    let terms: Vec<String> = names
        .into_iter()
        .chain(packs.iter().map(|(n, _)| n.clone()))
        .collect();
    let mut read_back = Script::new();
    if !terms.is_empty() {
        read_back.get_value(&terms);
    }
    // The other commands each question uses.
    let mut ask = Script::new();
    ask.push();
    ask.pop();
    ask.check_sat();
    let commands = Script::commands_of(&[&head, &body.script, &tail, &ask, &read_back]);
    let mut setup = head.into_string();
    setup.push_str(body.script.as_str());
    setup.push_str(tail.as_str());
    Ok(Shared {
        encoding,
        logic,
        setup,
        commands,
        decoder: body.decoder,
        read_back: read_back.into_string(),
        packs,
    })
}

impl Shared {
    /// The question for one puzzle: `push`, its givens, `check-sat`, and
    /// the `get-value` that reads every undecided cell back. The
    /// `get-value` is sent at once to save a round trip; after `unsat` the
    /// solver answers it with an error and goes on (every profile with an
    /// interactive mode does, see `tests/it/incremental.rs`). A given that no
    /// candidate of its cell allows is asserted as `false`.
    pub fn question(&self, givens: &[(CellId, i64)]) -> String {
        let mut s = Script::new();
        self.state_givens(&mut s, givens);
        self.ask(s)
    }

    /// The uniqueness question of a puzzle whose verified solution is
    /// `values`: a blocking clause that excludes it, `check-sat` and the
    /// read-back. Without `givens` it is asked in the puzzle's own scope,
    /// right after its first answer, and the solver goes on from what it
    /// learnt; with them (the puzzle's scope was closed when later puzzles
    /// were asked in the same batch), it opens a scope of its own and
    /// states them again. Either way [`Shared::end_question`] ends it.
    pub fn another(&self, values: &[i64], givens: Option<&[(CellId, i64)]>) -> String {
        let mut s = Script::new();
        if let Some(givens) = givens {
            self.state_givens(&mut s, givens);
        }
        s.assert(&self.decoder.block(values));
        self.ask(s)
    }

    /// Opens a puzzle's scope and asserts its givens.
    fn state_givens(&self, s: &mut Script, givens: &[(CellId, i64)]) {
        let lits: Vec<Term> = givens
            .iter()
            .map(|&(cell, v)| self.decoder.holds(cell, v))
            .collect();
        s.push();
        if !lits.is_empty() {
            s.assert(&Term::and(lits));
        }
    }

    /// `s`, then `check-sat` and the read-back.
    fn ask(&self, mut s: Script) -> String {
        s.check_sat();
        let mut question = s.into_string();
        question.push_str(&self.read_back);
        question
    }

    /// Ends a question, whatever its answer; sent before the next one.
    pub fn end_question(&self) -> &'static str {
        "(pop 1)\n"
    }

    /// Whether propagation on the shape decided every cell, so that an
    /// empty reply is a complete one.
    pub fn all_known(&self) -> bool {
        self.decoder.all_known()
    }

    /// Every cell's value from a `get-value` reply, or a message naming
    /// what is missing or of the wrong sort.
    pub fn decode(&self, reply: &BTreeMap<String, Value>) -> Result<Vec<i64>, String> {
        let mut packs = Vec::with_capacity(self.packs.len());
        for (name, bools) in &self.packs {
            let width = bools.len();
            match reply.get(name) {
                Some(v) => match v.bits() {
                    Some(bits) if bits.len() == width => packs.push(bits),
                    _ => return Err(format!("{name} is {v}, expected {width} bits")),
                },
                None => return Err(format!("the solver's reply has no value for {name}")),
            }
        }
        // The packed Bools, most significant bit first, in the order the
        // one-hot cells list them; read a cell's worth at a time, as a
        // question decodes every cell every time.
        let bits: Cow<[bool]> = match packs.len() {
            1 => packs.swap_remove(0),
            _ => Cow::Owned(packs.concat()),
        };
        let mut rest: &[bool] = &bits;
        let mut values = Vec::with_capacity(self.decoder.cells.len());
        for c in &self.decoder.cells {
            values.push(match c {
                CellRead::OneHot(vars) => {
                    let (cell, after) = rest.split_at(vars.len().min(rest.len()));
                    rest = after;
                    one_hot(vars, |i, _| Ok(cell.get(i).copied().unwrap_or(false)))?
                }
                other => read_cell(other, reply)?,
            });
        }
        Ok(values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lower::lower;
    use crate::parse::parse_str;

    fn mini() -> Model {
        let p = parse_str(
            "kind = \"sudoku\"\ngivens = \"\"\"\n4 . 1 .\n. 2 . .\n. . 3 .\n. 4 . 1\n\"\"\"\n",
            &crate::Location::file("mini.toml"),
            None,
        )
        .expect("parses");
        lower(&p[0])
    }

    #[test]
    fn onehot_questions_and_packed_read_back() {
        let (shape, givens) = mini().split_givens();
        assert_eq!(givens.len(), 6);
        let s = encode_shared(&shape, Encoding::Onehot, &Cancel::new()).expect("encodes");
        assert_eq!(s.logic, "QF_BV");
        assert!(s.setup.contains("(or (not x_1_1_1) (not x_1_1_2))"));
        assert!(!s.setup.contains("(not (and"));
        // 16 cells × 4 candidates = 64 Bools: one pack.
        let q = s.question(&givens);
        assert!(
            q.starts_with("(push 1)\n(assert (and x_1_1_4 x_1_3_1 "),
            "{q}"
        );
        assert!(
            q.ends_with("(check-sat)\n(get-value (smtgrid_cells_0))\n"),
            "{q}"
        );
        assert!(s.question(&[(0, 9)]).contains("(assert false)"));
        // The uniqueness question: in the puzzle's scope the blocking
        // clause alone, in a scope of its own the givens again first.
        let values = [4; 16];
        let another = s.another(&values, None);
        assert!(
            another.starts_with("(assert (or (not x_1_1_4) (not x_1_2_4) "),
            "{another}"
        );
        assert!(
            another.ends_with("(check-sat)\n(get-value (smtgrid_cells_0))\n"),
            "{another}"
        );
        let restated = s.another(&values, Some(&givens));
        let block = another.split("(check-sat)").next().unwrap_or_default();
        assert_eq!(
            restated,
            q.replacen("(check-sat)", &format!("{block}(check-sat)"), 1)
        );
        // x_1_1 = 4, every other cell 1: the most significant bit is x_1_1_1.
        let mut bits = 0u128;
        for cell in 0..16 {
            let v = if cell == 0 { 4 } else { 1 };
            bits |= 1 << (63 - (cell * 4 + v - 1));
        }
        let reply = BTreeMap::from([(
            "smtgrid_cells_0".to_string(),
            Value::BitVec {
                value: bits,
                width: 64,
            },
        )]);
        let values = s.decode(&reply).expect("decodes");
        assert_eq!(values[0], 4);
        assert!(values[1..].iter().all(|&v| v == 1));
        let short = BTreeMap::from([(
            "smtgrid_cells_0".to_string(),
            Value::BitVec { value: 1, width: 8 },
        )]);
        assert_eq!(
            s.decode(&short),
            Err("smtgrid_cells_0 is #b00000001, expected 64 bits".into())
        );
    }

    #[test]
    fn session_scripts_keep_within_the_encodings_size_bounds() {
        let nine = crate::puzzle::Puzzle::blank("nine", crate::puzzle::Kind::Sudoku, 9);
        for model in [mini(), lower(&nine)] {
            let (shape, _) = model.split_givens();
            for e in Encoding::ALL {
                let s = encode_shared(&shape, e, &Cancel::new()).expect("encodes");
                let bound = super::super::size_bound(&shape, e);
                assert!(
                    s.setup.len() as u64 <= bound,
                    "{e}: {} > {bound}",
                    s.setup.len()
                );
            }
        }
    }

    #[test]
    fn int_cells_are_asked_by_name() {
        let (shape, givens) = mini().split_givens();
        let s = encode_shared(&shape, Encoding::Lia, &Cancel::new()).expect("encodes");
        assert_eq!(s.logic, "QF_LIA");
        let q = s.question(&givens);
        assert!(q.contains("(= x_1_1 4)"), "{q}");
        assert!(q.contains("(check-sat)\n(get-value (x_1_1 x_1_2 "), "{q}");
        let reply: BTreeMap<String, Value> = (0..16)
            .map(|i| (format!("x_{}_{}", i / 4 + 1, i % 4 + 1), Value::Int(2)))
            .collect();
        assert_eq!(s.decode(&reply), Ok(vec![2; 16]));
    }
}
