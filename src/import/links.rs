//! Layer 1: a link or string, as a setter pastes it, into the text it
//! carries: f-puzzles links (`https://www.f-puzzles.com/?load=…`, with or
//! without `www.`), SudokuPad links (`https://sudokupad.app/…`) with an
//! f-puzzles (`fpuzzles…`, `fpuz…`) or SudokuPad (`scl…`, `ctc…`) payload,
//! and Interactive Sudoku Solver strings (`.Thermo~R1C1~R1C2…`). Nothing
//! here knows what a puzzle means; nothing here goes online, so links that
//! only name a puzzle stored on a server are refused with that reason.

/// The longest compressed payload read, in characters. lz-string output
/// grows at worst with the square of its input (each code may repeat the
/// entry before it with one more character), and the crate decodes without
/// a limit, so the input is what bounds it: the longest payload of a
/// 100-puzzle public set is 7,875 characters; the worst payload of this
/// length (`tests::a_bomb_at_the_cap_stays_bounded`: 8,100 codes) decodes
/// to about 33 M units in 0.6 s before [`MAX_DECODED`] refuses it.
pub const MAX_PAYLOAD: usize = 16 * 1024;

/// The most UTF-16 units a payload may decode to; more is refused.
pub const MAX_DECODED: usize = 8 << 20;

/// What a link or string carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Payload {
    /// f-puzzles JSON text.
    Fpuzzles(String),
    /// SudokuPad's own puzzle text (JSON, or its abbreviated "zipped" form).
    Scl(String),
    /// An Interactive Sudoku Solver constraint string.
    Iss(String),
}

/// Whether `line` looks like something [`decode`] reads: a link of a
/// known site, or an ISS constraint string.
pub fn looks_like(line: &str) -> bool {
    let t = line.trim();
    let lower = t.to_ascii_lowercase();
    let site = strip_scheme(&lower);
    site.starts_with("f-puzzles.com")
        || site.starts_with("www.f-puzzles.com")
        || site.starts_with("sudokupad.app")
        || site.starts_with("www.sudokupad.app")
        || site.starts_with("app.crackingthecryptic.com")
        || is_iss(t)
        || is_iss_text(t)
}

/// Whether `t` is one of ISS's text forms ([`super::iss::text_form`]) that
/// no sudoku line is: a jigsaw's givens then layout (2·n² characters,
/// never a square), givens above 9×9, pencil marks (n³ characters). Text
/// of n² characters up to 9×9 is a sudoku line, as ISS reads it too (its
/// plain givens come before its pencil marks, so a 4×4's 64 marks are an
/// 8×8 line there as well).
pub fn is_iss_text(t: &str) -> bool {
    let len = t.chars().filter(|c| !c.is_whitespace()).count();
    !(1..=9).any(|n| n * n == len) && super::iss::text_form(t).is_some()
}

/// Whether `t` is an ISS constraint string: `.Type~…`, `.~R1C1_5` or a
/// flag such as `.AntiKnight`, after any empty pieces (`..Cage~…`: ISS
/// reads an empty piece as givens that give nothing). A sudoku line
/// (`..3.5…`) has only dots and digits.
fn is_iss(t: &str) -> bool {
    let rest = t.trim_start_matches('.');
    rest.len() < t.len()
        && rest
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '~')
}

fn strip_scheme(s: &str) -> &str {
    s.strip_prefix("https://")
        .or_else(|| s.strip_prefix("http://"))
        .unwrap_or(s)
}

/// Reads a link or string into its payload, or says why it cannot.
pub fn decode(line: &str) -> Result<Payload, String> {
    let t = line.trim();
    // ISS tries its text forms before its constraint strings.
    if let Some(s) = super::iss::text_form(t) {
        return Ok(Payload::Iss(s));
    }
    if is_iss(t) {
        return Ok(Payload::Iss(t.to_string()));
    }
    let rest = strip_scheme(t);
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let host = host.to_ascii_lowercase();
    match host.as_str() {
        "f-puzzles.com" | "www.f-puzzles.com" => fpuzzles_link(path).map(Payload::Fpuzzles),
        "sudokupad.app" | "www.sudokupad.app" | "app.crackingthecryptic.com" => {
            sudokupad_link(path)
        }
        _ => Err(format!(
            "`{}` is not a link smtgrid reads: give an f-puzzles link \
             (https://www.f-puzzles.com/?load=…), a SudokuPad link (https://sudokupad.app/…) or an \
             Interactive Sudoku Solver string (.Cage~10~R1C1~R1C2…)",
            shorten(t)
        )),
    }
}

/// `text` cut to 60 characters for a message.
pub fn shorten(text: &str) -> String {
    let mut s: String = text.chars().take(60).collect();
    if text.chars().count() > 60 {
        s.push('…');
    }
    s
}

/// The value of query parameter `key` in `path` (`?a=1&key=…`), up to the
/// next `&` or `#`.
fn query<'a>(path: &'a str, key: &str) -> Option<&'a str> {
    let q = path.split_once('?')?.1;
    q.split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=')?;
        (k == key).then(|| v.split('#').next().unwrap_or(v))
    })
}

fn fpuzzles_link(path: &str) -> Result<String, String> {
    if let Some(p) = query(path, "load") {
        return lz_base64(&percent_decode(p)?).map_err(|e| format!("the f-puzzles link {e}"));
    }
    if query(path, "id").is_some() {
        return Err(
            "this f-puzzles link (?id=…) names a puzzle stored on f-puzzles' server, and smtgrid \
             never goes online: open it in f-puzzles and copy the long link (?load=…)"
                .into(),
        );
    }
    Err("this f-puzzles link has no ?load=… payload".into())
}

fn sudokupad_link(path: &str) -> Result<Payload, String> {
    // The puzzle is the path, or `?puzzleid=…`; `sudoku/` is an old path.
    let raw = query(path, "puzzleid").unwrap_or_else(|| {
        let p = path.strip_prefix("sudoku/").unwrap_or(path);
        p.split(['?', '#']).next().unwrap_or(p)
    });
    let id = percent_decode(raw)?;
    let (prefix, body) = ["fpuzzles", "fpuz", "scl", "ctc", "scf"]
        .iter()
        .find_map(|pre| id.strip_prefix(pre).map(|b| (*pre, b)))
        .unwrap_or(("", id.as_str()));
    match prefix {
        "fpuzzles" | "fpuz" => fpuz_payload(body).map(Payload::Fpuzzles),
        "scl" | "ctc" => lz_base64(body)
            .map(Payload::Scl)
            .map_err(|e| format!("the SudokuPad link {e}")),
        "scf" => Err(
            "this SudokuPad link holds the compact format (scf…), which smtgrid does not read: \
             open it in SudokuPad and share it again as a self-contained link"
                .into(),
        ),
        _ if id.is_empty() => Err("this SudokuPad link names no puzzle".into()),
        _ => Err(format!(
            "this SudokuPad link ({}) names a puzzle stored on SudokuPad's server, and smtgrid \
             never goes online: a self-contained link starts https://sudokupad.app/scl… or \
             …/fpuzzles… (in SudokuPad, share with the puzzle data included)",
            shorten(&id)
        )),
    }
}

/// An f-puzzles payload inside a SudokuPad path. A server that collapses
/// `//` in paths to `/` breaks base64 text holding `//`; as SudokuPad does,
/// a payload that does not decode to JSON is tried again with each lone
/// `/` doubled. (A collapsed payload that still decodes to JSON cannot be
/// told from a sound one, and is read as it is.)
fn fpuz_payload(body: &str) -> Result<String, String> {
    let json = |t: &String| serde_json::from_str::<serde_json::Value>(t).is_ok();
    let first = lz_base64(body);
    if first.as_ref().is_ok_and(json) || !body.contains('/') {
        return first.map_err(|e| format!("the SudokuPad link of f-puzzles JSON {e}"));
    }
    let mut repaired = String::with_capacity(body.len() + 8);
    let chars: Vec<char> = body.chars().collect();
    for (i, &ch) in chars.iter().enumerate() {
        repaired.push(ch);
        let lone = ch == '/' && chars.get(i + 1) != Some(&'/') && (i == 0 || chars[i - 1] != '/');
        if lone {
            repaired.push('/');
        }
    }
    match lz_base64(&repaired) {
        Ok(t) if json(&t) => Ok(t),
        _ => first.map_err(|e| format!("the SudokuPad link of f-puzzles JSON {e}")),
    }
}

/// `%XX` escapes decoded (a `+` stays a `+`, as base64 needs it).
pub fn percent_decode(s: &str) -> Result<String, String> {
    if !s.contains('%') {
        return Ok(s.to_string());
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = b
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            match hex {
                Some(v) => {
                    out.push(v);
                    i += 3;
                    continue;
                }
                None => {
                    return Err("has a broken %-escape (a % not followed by two hex digits)".into());
                }
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8(out).map_err(|_| "decodes to bytes that are not UTF-8 text".to_string())
}

/// lz-string's `decompressFromBase64`, bounded: the error completes
/// "the link …".
pub fn lz_base64(payload: &str) -> Result<String, String> {
    let payload = payload.trim();
    if payload.is_empty() {
        return Err("has an empty payload".into());
    }
    if payload.len() > MAX_PAYLOAD {
        return Err(format!(
            "has a payload of {} characters, more than the {MAX_PAYLOAD} smtgrid decodes",
            payload.len()
        ));
    }
    // A `+` that passed through a form encoder arrives as a space.
    let fixed: String = payload
        .chars()
        .filter(|c| !matches!(c, '\n' | '\r' | '\t'))
        .map(|c| if c == ' ' { '+' } else { c })
        .collect();
    if let Some(bad) = fixed
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=')))
    {
        return Err(format!(
            "has `{bad}` in its payload, which is not base64 (A–Z, a–z, 0–9, +, /)"
        ));
    }
    let units = lz_str::decompress_from_base64(&fixed).ok_or_else(|| {
        "has a payload that does not decompress (lz-string): is the link cut short?".to_string()
    })?;
    if units.is_empty() {
        return Err("has a payload that decompresses to nothing: is the link cut short?".into());
    }
    if units.len() > MAX_DECODED {
        return Err(format!(
            "payload decompresses to more than {} MB of text, more than a puzzle holds",
            MAX_DECODED >> 20
        ));
    }
    String::from_utf16(&units).map_err(|_| {
        "payload decompresses to text that is not valid UTF-16: is the link cut short?".into()
    })
}

/// The lz-string `compressToBase64` of `text`, as f-puzzles writes it.
pub fn lz_compress(text: &str) -> String {
    lz_str::compress_to_base64(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_told_apart() {
        let json = "{\"size\":4}";
        let z = lz_compress(json);
        for link in [
            format!("https://www.f-puzzles.com/?load={z}"),
            format!("http://f-puzzles.com/?load={z}"),
            format!("f-puzzles.com/?load={z}"),
            format!("https://sudokupad.app/fpuzzles{z}"),
            format!("https://sudokupad.app/fpuz{z}"),
            format!("https://sudokupad.app/?puzzleid=fpuzzles{z}"),
        ] {
            assert!(looks_like(&link), "{link}");
            assert_eq!(decode(&link), Ok(Payload::Fpuzzles(json.into())), "{link}");
        }
        let scl = format!("https://sudokupad.app/scl{}", lz_compress("{cells:[]}"));
        assert_eq!(decode(&scl), Ok(Payload::Scl("{cells:[]}".into())));
        assert!(matches!(decode(".Cage~3~R1C1~R1C2"), Ok(Payload::Iss(_))));
        assert!(looks_like(".AntiKnight."));
        assert!(matches!(decode("..Cage~3~R1C1~R1C2"), Ok(Payload::Iss(_))));
        assert!(!looks_like("..3.5...."));
        assert!(!looks_like("kind = \"sudoku\""));
        // ISS's jigsaw text (givens then layout) is no sudoku line; 81
        // digits and dots are.
        let three = format!("1{}{}", ".".repeat(80), "000111222".repeat(9));
        assert!(!looks_like(&three), "three regions of 27 cells: no layout");
        let layout: String = (0..81).map(|i| char::from(b'0' + (i / 9) as u8)).collect();
        let jigsaw = format!("1{}{layout}", ".".repeat(80));
        assert!(is_iss_text(&jigsaw) && looks_like(&jigsaw));
        assert!(
            matches!(decode(&jigsaw), Ok(Payload::Iss(s)) if s.contains(".Jigsaw~9x9~000000000"))
        );
        assert!(!is_iss_text(&format!("1{}", ".".repeat(80))));
    }

    #[test]
    fn server_links_and_broken_payloads_are_refused_with_the_reason() {
        let e = decode("https://sudokupad.app/8bNmDd4J9G").expect_err("short");
        assert!(e.contains("never goes online"), "{e}");
        let e = decode("https://f-puzzles.com/?id=abc").expect_err("short");
        assert!(e.contains("never goes online"), "{e}");
        let z = lz_compress("{\"size\": 9, \"grid\": []}");
        let e = decode(&format!(
            "https://f-puzzles.com/?load={}",
            &z[..z.len() / 2]
        ))
        .expect_err("truncated");
        assert!(e.contains("cut short"), "{e}");
        assert!(decode("https://f-puzzles.com/?load=%G1").is_err());
        assert!(decode("https://example.com/x").is_err());
    }

    #[test]
    fn collapsed_slashes_are_repaired() {
        // Find a text whose payload holds `//`, then collapse it.
        // A literal U+FFFF is sixteen 1 bits: `//` in base64.
        let (text, z) = (1..200)
            .map(|i| {
                let t = format!(
                    "{{\"size\":9,\"title\":\"{i}{}\"}}",
                    "\u{ffff}".repeat(i % 7 + 1)
                );
                let z = lz_compress(&t);
                (t, z)
            })
            .find(|(_, z)| {
                let broken = lz_base64(&z.replace("//", "/"));
                z.contains("//")
                    && !z.contains("///")
                    && broken.as_deref().map_or(true, |t| {
                        serde_json::from_str::<serde_json::Value>(t).is_err()
                    })
            })
            .expect("some payload holds //");
        let collapsed = z.replace("//", "/");
        assert_eq!(
            decode(&format!("https://sudokupad.app/fpuzzles{collapsed}")),
            Ok(Payload::Fpuzzles(text))
        );
    }

    /// The worst lz-string payload of `codes` codes after one `a`: each
    /// code is the next dictionary entry, so entry k is k+1 `a`s.
    fn bomb(codes: usize) -> String {
        fn put(bits: &mut Vec<bool>, v: u64, n: u32) {
            bits.extend((0..n).map(|i| v >> i & 1 == 1));
        }
        let mut bits = Vec::new();
        put(&mut bits, 0, 2);
        put(&mut bits, u64::from(b'a'), 8);
        let (mut next, mut width, mut enlarge) = (4u64, 3u32, 4u64);
        for _ in 0..codes {
            put(&mut bits, next, width);
            next += 1;
            enlarge -= 1;
            if enlarge == 0 {
                enlarge = 1 << width;
                width += 1;
            }
        }
        put(&mut bits, 2, width);
        const KEY: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        bits.chunks(6)
            .map(|c| {
                let v = c
                    .iter()
                    .enumerate()
                    .fold(0, |v, (i, &b)| v | usize::from(b) << (5 - i));
                char::from(KEY[v])
            })
            .collect()
    }

    #[test]
    fn a_bomb_at_the_cap_stays_bounded() {
        assert_eq!(lz_base64(&bomb(3)), Ok("a".repeat(1 + 2 + 3 + 4)));
        let mut codes = 1000;
        while bomb(codes + 100).len() <= MAX_PAYLOAD {
            codes += 100;
        }
        let z = bomb(codes);
        let start = std::time::Instant::now();
        let e = lz_base64(&z).expect_err("refused");
        let took = start.elapsed();
        assert!(e.contains("more than"), "{e}");
        assert!(took < std::time::Duration::from_secs(10), "{took:?}");
        eprintln!(
            "a {}-character bomb of {codes} codes refused in {took:?}",
            z.len()
        );
        let e = lz_base64(&bomb(codes + 2000)).expect_err("over the cap");
        assert!(e.contains("payload of"), "{e}");
    }
}
