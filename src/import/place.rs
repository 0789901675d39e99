//! Places in JSON text, which serde_json's `Value` forgets: a value's
//! path (`grid[3][4].value`), where that value or its key stands in the
//! text, and the first key an object holds twice (a `Value` keeps the
//! last silently). A few dozen lines of scanning over text serde_json has
//! already accepted, instead of a crate: an error needs one place, found
//! by one pass, and only once the document is known to be JSON.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

/// One step of a [`JsonPath`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// The member of an object under this key.
    Key(String),
    /// The element of a list at this index, from 0.
    Index(usize),
}

/// Where a value is inside a JSON document: the steps from the top level
/// down to it, none for the top level itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JsonPath(pub Vec<Step>);

impl JsonPath {
    /// The top level.
    pub fn root() -> Self {
        JsonPath(Vec::new())
    }

    /// The member `key` of the object here.
    pub fn key(&self, key: &str) -> Self {
        let mut steps = self.0.clone();
        steps.push(Step::Key(key.to_string()));
        JsonPath(steps)
    }

    /// The element `index` (from 0) of the list here.
    pub fn index(&self, index: usize) -> Self {
        let mut steps = self.0.clone();
        steps.push(Step::Index(index));
        JsonPath(steps)
    }
}

/// As JavaScript writes it: `grid[3][4].value`; a key that is no plain
/// name as `["a key"]`, cut short and escaped (keys come from the input);
/// the top level as `the top level`.
impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("the top level");
        }
        for (k, step) in self.0.iter().enumerate() {
            match step {
                Step::Index(i) => write!(f, "[{i}]")?,
                Step::Key(key)
                    if !key.is_empty()
                        && key
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || "_+-".contains(c)) =>
                {
                    if k > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(key)?;
                }
                Step::Key(key) => write!(f, "[\"{}\"]", super::short_key(key))?,
            }
        }
        Ok(())
    }
}

/// What is wrong with f-puzzles or SudokuPad JSON, and where: a JSON
/// file's error names the line and column, a link's the JSON path
/// (`import::json_fault`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    /// Its place, when one place can be told.
    pub at: Option<Spot>,
    /// What is wrong, and how to fix it.
    pub message: String,
}

/// A place in f-puzzles or SudokuPad JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Spot {
    /// The value at this path.
    Value(JsonPath),
    /// The key of the member at this path: a key refused whole (unknown,
    /// not yet supported, its rule refused by its element).
    Key(JsonPath),
    /// The key of the member at this path, found at this byte offset of
    /// the text (a key given twice, whose path leads to its first place).
    Found(JsonPath, usize),
    /// A line and column of the text, both from 1, the column in
    /// characters: a JSON syntax error, which has no path.
    Text(usize, usize),
}

impl Fault {
    /// A fault in the value at `path`.
    pub fn value(path: JsonPath, message: impl Into<String>) -> Self {
        Fault {
            at: Some(Spot::Value(path)),
            message: message.into(),
        }
    }

    /// A fault in the key of the member at `path`.
    pub fn key(path: JsonPath, message: impl Into<String>) -> Self {
        Fault {
            at: Some(Spot::Key(path)),
            message: message.into(),
        }
    }

    /// `refusal` of a whole puzzle as a fault at the place `path` gives
    /// for the cell it blames (where the format writes that given or
    /// solution cell).
    pub fn blamed(
        refusal: super::build::Refusal,
        path: impl Fn(super::build::Blamed) -> JsonPath,
    ) -> Self {
        Fault {
            at: refusal.blamed.map(|b| Spot::Value(path(b))),
            message: refusal.message,
        }
    }
}

/// A fault no one place shows: what the puzzle's parts say together (a
/// drawing's meaning).
impl From<String> for Fault {
    fn from(message: String) -> Self {
        Fault { at: None, message }
    }
}

/// Where a member or element stands in the text, as byte offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// Its key's opening quote; `None` for a list's element or the top
    /// level.
    pub key: Option<usize>,
    /// The first character of its value.
    pub value: usize,
}

/// Where the value at `path` stands in `text`, if `text` holds one
/// there. Where a key comes twice, the first: [`repeated_key`] refuses
/// such a document before any value is looked up.
pub fn place(text: &str, path: &JsonPath) -> Option<Place> {
    let mut s = Scan { text, at: 0 };
    s.space();
    let mut found = Place {
        key: None,
        value: s.at,
    };
    for step in &path.0 {
        found = match (s.peek()?, step) {
            (b'{', Step::Key(want)) => s.member(want)?,
            (b'[', Step::Index(want)) => s.element(*want)?,
            _ => return None,
        };
    }
    Some(found)
}

/// The first key of `text` that an object holds twice: its path (ending
/// with the key) and the byte offset of its second opening quote. `None`
/// as well for text serde_json would refuse, which this does not check.
pub fn repeated_key(text: &str) -> Option<(JsonPath, usize)> {
    let mut s = Scan { text, at: 0 };
    let mut path = JsonPath::root();
    s.space();
    match s.repeats(&mut path, 0) {
        Walk::Repeat(at) => Some((path, at)),
        Walk::Done | Walk::Lost => None,
    }
}

/// What is wrong with a key that an object of `format`'s JSON (`f-puzzles`,
/// `SudokuPad`) holds twice, and the fix: one message for every reader
/// that refuses it.
pub fn twice(format: &str, key: &str) -> String {
    format!(
        "{format} key `{}` comes twice in one object, and JSON readers differ on which they \
         keep: keep one",
        super::short_key(key)
    )
}

/// How far [`Scan::repeats`] went.
enum Walk {
    /// Through the whole value, every key once.
    Done,
    /// To the second opening quote of a key, at this byte; the path then
    /// ends with it.
    Repeat(usize),
    /// Not through the value: the text is not JSON, or nests deeper than
    /// serde_json reads.
    Lost,
}

/// Deeper than serde_json reads (its limit is 128), so never reached on
/// text it accepted; it bounds the recursion on any other.
const MAX_DEPTH: usize = 200;

/// A cursor over JSON text that is assumed valid and is never trusted:
/// every step that finds something unexpected gives up with `None`.
struct Scan<'t> {
    text: &'t str,
    at: usize,
}

impl<'t> Scan<'t> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn space(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    /// Steps over `want` (and the white space after it), or gives up.
    fn expect(&mut self, want: u8) -> Option<()> {
        (self.peek()? == want).then(|| {
            self.at += 1;
            self.space();
        })
    }

    /// The string that starts here, decoded, the cursor after it.
    fn string(&mut self) -> Option<Cow<'t, str>> {
        let start = self.at;
        let bytes = self.text.as_bytes();
        if bytes.get(start) != Some(&b'"') {
            return None;
        }
        let mut i = start + 1;
        let mut escaped = false;
        loop {
            match *bytes.get(i)? {
                b'\\' => {
                    escaped = true;
                    i += 2;
                }
                b'"' => break,
                _ => i += 1,
            }
        }
        self.at = i + 1;
        let raw = self.text.get(start..=i)?;
        if escaped {
            serde_json::from_str::<String>(raw).ok().map(Cow::Owned)
        } else {
            raw.get(1..raw.len() - 1).map(Cow::Borrowed)
        }
    }

    /// Steps over the value that starts here.
    fn skip(&mut self, depth: usize) -> Option<()> {
        match self.repeats(&mut JsonPath::root(), depth) {
            Walk::Done => Some(()),
            // Inside a value skipped on the way to another, a repeat is
            // no concern: the document was checked for them first.
            Walk::Repeat(_) | Walk::Lost => None,
        }
    }

    /// The member `want` of the object that starts here, the cursor at
    /// its value.
    fn member(&mut self, want: &str) -> Option<Place> {
        self.expect(b'{')?;
        loop {
            let key = self.at;
            let name = self.string()?;
            self.space();
            self.expect(b':')?;
            if name == want {
                return Some(Place {
                    key: Some(key),
                    value: self.at,
                });
            }
            self.skip(0)?;
            self.space();
            self.expect(b',')?;
        }
    }

    /// The element `want` of the list that starts here, the cursor at it.
    fn element(&mut self, want: usize) -> Option<Place> {
        self.expect(b'[')?;
        for _ in 0..want {
            self.skip(0)?;
            self.space();
            self.expect(b',')?;
        }
        (self.peek()? != b']').then_some(Place {
            key: None,
            value: self.at,
        })
    }

    /// Walks the value that starts here, `path` leading to it, looking
    /// for a key its object holds already; the cursor ends after the
    /// value.
    fn repeats(&mut self, path: &mut JsonPath, depth: usize) -> Walk {
        if depth > MAX_DEPTH {
            return Walk::Lost;
        }
        match self.peek() {
            Some(b'{') => {
                if self.opens(b'}') {
                    return Walk::Done;
                }
                let mut seen = HashSet::new();
                loop {
                    let at = self.at;
                    let Some(key) = self.string() else {
                        return Walk::Lost;
                    };
                    path.0.push(Step::Key(key.to_string()));
                    if !seen.insert(key) {
                        return Walk::Repeat(at);
                    }
                    self.space();
                    if self.expect(b':').is_none() {
                        return Walk::Lost;
                    }
                    match self.entry(path, depth, b'}') {
                        Ok(true) => {}
                        Ok(false) => return Walk::Done,
                        Err(end) => return end,
                    }
                }
            }
            Some(b'[') => {
                if self.opens(b']') {
                    return Walk::Done;
                }
                for index in 0.. {
                    path.0.push(Step::Index(index));
                    match self.entry(path, depth, b']') {
                        Ok(true) => {}
                        Ok(false) => return Walk::Done,
                        Err(end) => return end,
                    }
                }
                Walk::Lost
            }
            Some(b'"') => match self.string() {
                Some(_) => Walk::Done,
                None => Walk::Lost,
            },
            Some(_) => {
                let start = self.at;
                while self
                    .peek()
                    .is_some_and(|b| !b",]}".contains(&b) && !b.is_ascii_whitespace())
                {
                    self.at += 1;
                }
                if self.at > start {
                    Walk::Done
                } else {
                    Walk::Lost
                }
            }
            None => Walk::Lost,
        }
    }

    /// Steps into the object or list that starts here; whether it is
    /// empty, and then over its `close` too.
    fn opens(&mut self, close: u8) -> bool {
        self.at += 1;
        self.space();
        let empty = self.peek() == Some(close);
        if empty {
            self.at += 1;
        }
        empty
    }

    /// Walks the value of a member or element, `path` ending with it, then
    /// steps off it: over the `,` after it (`Ok(true)`: more follow) or
    /// the `close` that ends its object or list (`Ok(false)`). `Err` with
    /// how the walk ended inside.
    fn entry(&mut self, path: &mut JsonPath, depth: usize, close: u8) -> Result<bool, Walk> {
        match self.repeats(path, depth + 1) {
            Walk::Done => {}
            end => return Err(end),
        }
        path.0.pop();
        self.space();
        if self.peek() == Some(b',') {
            self.expect(b',').ok_or(Walk::Lost)?;
            return Ok(true);
        }
        self.expect(close).ok_or(Walk::Lost)?;
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "{\n  \"size\": 4,\n  \"grid\": [[{}, {\"value\": 7}], []],\n  \"s\\u0069gn\": \"é\",\n  \"odd\": [{\"cell\": \"R1C2\"}]\n}";

    fn at(path: &JsonPath) -> Option<&'static str> {
        place(TEXT, path)
            .and_then(|p| TEXT.get(p.value..))
            .map(|t| &t[..4.min(t.len())])
    }

    #[test]
    fn paths_lead_to_their_values_and_keys() {
        let root = JsonPath::root();
        assert_eq!(at(&root), Some("{\n  "));
        assert_eq!(at(&root.key("size")), Some("4,\n "));
        let value = root.key("grid").index(0).index(1).key("value");
        assert_eq!(value.to_string(), "grid[0][1].value");
        assert_eq!(at(&value), Some("7}],"));
        let key = place(TEXT, &value).and_then(|p| p.key).expect("a key");
        assert_eq!(&TEXT[key..key + 7], "\"value\"");
        // An escaped key is read as its text.
        assert_eq!(at(&root.key("sign")), Some("\"é\""));
        assert_eq!(at(&root.key("odd").index(0).key("cell")), Some("\"R1C"));
        for missing in [
            root.key("nothing"),
            root.key("grid").index(1).index(0),
            root.key("grid").index(2),
            root.key("size").key("x"),
            root.index(0),
        ] {
            assert_eq!(place(TEXT, &missing), None, "{missing}");
        }
        assert_eq!(root.key("a key").index(2).to_string(), "[\"a key\"][2]");
        assert_eq!(root.to_string(), "the top level");
    }

    #[test]
    fn a_key_given_twice_is_found_at_its_second_place() {
        assert_eq!(repeated_key(TEXT), None);
        let text = "{\"grid\": [[{\"value\": 1, \"given\": true, \"value\": 2}]], \"size\": 4}";
        let (path, at) = repeated_key(text).expect("a repeat");
        assert_eq!(path.to_string(), "grid[0][0].value");
        assert_eq!(&text[at..at + 8], "\"value\":");
        assert!(text[..at].contains("\"value\""));
        // Escapes are read: `\u0073ize` is `size`.
        let text = "{\"size\": 4, \"\\u0073ize\": 5}";
        let (path, at) = repeated_key(text).expect("a repeat");
        assert_eq!((path.to_string().as_str(), at), ("size", 12));
        // The same key in two objects is no repeat.
        assert_eq!(repeated_key("[{\"a\": 1}, {\"a\": {\"a\": []}}]"), None);
        // Nothing that is not JSON, however deep, is a repeat or a panic.
        for bad in [
            "",
            "{",
            "{\"a\"",
            "{\"a\": 1,",
            "[1, 2",
            "\"abc",
            "{a: 1, a: 2}",
        ] {
            assert_eq!(repeated_key(bad), None, "{bad}");
        }
        assert_eq!(repeated_key(&"[".repeat(100_000)), None);
    }
}
