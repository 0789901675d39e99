//! Tables of a benchmark in every format a paper or a page takes: one
//! [`Table`] (header, rows, the cells to mark), one exporter per format.
//! Text that came from a results file (solver labels, puzzle names) is
//! escaped for each format here, so a hostile name cannot break out of a
//! cell.

use std::fmt::Write as _;

use serde::Serialize;

/// A table: a header row and rows of cells, some of them marked (the
/// fastest of a row: bold in Markdown, LaTeX and HTML, a `*` in text and
/// CSV).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table {
    /// Column titles.
    pub head: Vec<String>,
    /// Rows, each as long as `head`.
    pub rows: Vec<Vec<String>>,
    /// Marked cells, as (row, column).
    pub marked: Vec<(usize, usize)>,
    /// Columns that hold numbers (right-aligned).
    pub numeric: Vec<bool>,
}

impl Table {
    fn is_marked(&self, r: usize, c: usize) -> bool {
        self.marked.contains(&(r, c))
    }

    /// Aligned plain text; marked cells end in `*`.
    pub fn text(&self) -> String {
        let cells: Vec<Vec<String>> = self
            .rows
            .iter()
            .enumerate()
            .map(|(r, row)| {
                row.iter()
                    .enumerate()
                    .map(|(c, v)| {
                        let v = crate::error::escape_controls(v).into_owned();
                        if self.is_marked(r, c) { v + "*" } else { v }
                    })
                    .collect()
            })
            .collect();
        let widths: Vec<usize> = (0..self.head.len())
            .map(|c| {
                cells
                    .iter()
                    .map(|r| r[c].chars().count())
                    .chain([self.head[c].chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let line = |row: &[String]| {
            let mut l = String::new();
            for (c, v) in row.iter().enumerate() {
                if self.numeric.get(c).copied().unwrap_or(false) {
                    let _ = write!(l, "{v:>w$}  ", w = widths[c]);
                } else {
                    let _ = write!(l, "{v:<w$}  ", w = widths[c]);
                }
            }
            l.trim_end().to_string() + "\n"
        };
        let head: Vec<String> = self
            .head
            .iter()
            .map(|h| crate::error::escape_controls(h).into_owned())
            .collect();
        let mut s = line(&head);
        for row in &cells {
            s.push_str(&line(row));
        }
        s
    }

    /// A GitHub-flavoured Markdown table; marked cells in bold.
    pub fn markdown(&self) -> String {
        let esc = |v: &str| {
            crate::error::escape_controls(v)
                .replace('\\', "\\\\")
                .replace('|', "\\|")
                .replace('*', "\\*")
                .replace('_', "\\_")
                .replace(['\n', '\r'], " ")
        };
        let mut s = String::from("|");
        for h in &self.head {
            let _ = write!(s, " {} |", esc(h));
        }
        s.push_str("\n|");
        for c in 0..self.head.len() {
            s.push_str(if self.numeric.get(c).copied().unwrap_or(false) {
                "---:|"
            } else {
                ":---|"
            });
        }
        s.push('\n');
        for (r, row) in self.rows.iter().enumerate() {
            s.push('|');
            for (c, v) in row.iter().enumerate() {
                if self.is_marked(r, c) {
                    let _ = write!(s, " **{}** |", esc(v));
                } else {
                    let _ = write!(s, " {} |", esc(v));
                }
            }
            s.push('\n');
        }
        s
    }

    /// A LaTeX `tabular` with booktabs rules (`\usepackage{booktabs}`);
    /// marked cells in bold.
    pub fn latex(&self) -> String {
        let spec: String = (0..self.head.len())
            .map(|c| {
                if self.numeric.get(c).copied().unwrap_or(false) {
                    'r'
                } else {
                    'l'
                }
            })
            .collect();
        let row_tex = |cells: Vec<String>| cells.join(" & ") + " \\\\\n";
        let mut s = format!("\\begin{{tabular}}{{{spec}}}\n\\toprule\n");
        s.push_str(&row_tex(
            self.head.iter().map(|h| latex_escape(h)).collect(),
        ));
        s.push_str("\\midrule\n");
        for (r, row) in self.rows.iter().enumerate() {
            s.push_str(&row_tex(
                row.iter()
                    .enumerate()
                    .map(|(c, v)| {
                        if self.is_marked(r, c) {
                            format!("\\textbf{{{}}}", latex_escape(v))
                        } else {
                            latex_escape(v)
                        }
                    })
                    .collect(),
            ));
        }
        s.push_str("\\bottomrule\n\\end{tabular}\n");
        s
    }

    /// CSV (RFC 4180 quoting); marked cells end in `*`.
    pub fn csv(&self) -> String {
        let mut s = String::new();
        let line = |cells: Vec<String>| cells.join(",") + "\n";
        s.push_str(&line(self.head.iter().map(|h| csv_field(h)).collect()));
        for (r, row) in self.rows.iter().enumerate() {
            s.push_str(&line(
                row.iter()
                    .enumerate()
                    .map(|(c, v)| {
                        if self.is_marked(r, c) {
                            csv_field(&format!("{v}*"))
                        } else {
                            csv_field(v)
                        }
                    })
                    .collect(),
            ));
        }
        s
    }

    /// An HTML `<table>` (escaped; marked cells in `<strong>`), with
    /// `class` on the table.
    pub fn html(&self, class: &str) -> String {
        let mut s = format!("<table class=\"{}\">\n<thead><tr>", html_escape(class));
        for (c, h) in self.head.iter().enumerate() {
            let _ = write!(
                s,
                "<th data-col=\"{c}\"{}>{}</th>",
                if self.numeric.get(c).copied().unwrap_or(false) {
                    " class=\"num\""
                } else {
                    ""
                },
                html_escape(h)
            );
        }
        s.push_str("</tr></thead>\n<tbody>\n");
        for (r, row) in self.rows.iter().enumerate() {
            s.push_str("<tr>");
            for (c, v) in row.iter().enumerate() {
                let num = self.numeric.get(c).copied().unwrap_or(false);
                let class = match (num, self.is_marked(r, c)) {
                    (true, true) => " class=\"num best\"",
                    (true, false) => " class=\"num\"",
                    (false, true) => " class=\"best\"",
                    (false, false) => "",
                };
                if self.is_marked(r, c) {
                    let _ = write!(s, "<td{class}><strong>{}</strong></td>", html_escape(v));
                } else {
                    let _ = write!(s, "<td{class}>{}</td>", html_escape(v));
                }
            }
            s.push_str("</tr>\n");
        }
        s.push_str("</tbody></table>\n");
        s
    }
}

/// `text` with LaTeX's special characters escaped, and control characters
/// shown escaped as on a terminal (a newline in a name as `\n`, not
/// dropped: two words must not run together). `|`, `<` and `>` are
/// escaped too: in LaTeX's default font encoding they print as other
/// glyphs (an em dash, `¡`, `¿`).
pub fn latex_escape(text: &str) -> String {
    let mut s = String::new();
    for ch in crate::error::escape_controls(text).chars() {
        match ch {
            '\\' => s.push_str("\\textbackslash{}"),
            '{' | '}' | '$' | '&' | '#' | '_' | '%' => {
                s.push('\\');
                s.push(ch);
            }
            '~' => s.push_str("\\textasciitilde{}"),
            '^' => s.push_str("\\textasciicircum{}"),
            '|' => s.push_str("\\textbar{}"),
            '<' => s.push_str("\\textless{}"),
            '>' => s.push_str("\\textgreater{}"),
            c => s.push(c),
        }
    }
    s
}

/// `text` escaped for HTML text and attribute values; characters XML
/// forbids are dropped.
pub fn html_escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&#39;"),
            '\t' | '\n' => s.push(' '),
            c if c.is_control() || matches!(c, '\u{FFFE}' | '\u{FFFF}') => {}
            c => s.push(c),
        }
    }
    s
}

/// A CSV field: control characters shown escaped, as everything from a
/// file shown on a terminal; a text that a spreadsheet would take for a
/// formula (one starting with `=`, `+`, `-` or `@`) led by `'`, which
/// makes it text there (OWASP's advice against CSV injection); quoted
/// when it holds a comma or a quote (RFC 4180). A number (`-0.5`) is no
/// formula and is left as it is.
pub fn csv_field(s: &str) -> String {
    let s = crate::error::escape_controls(s);
    let formula = s.starts_with(['=', '+', '-', '@']) && s.parse::<f64>().is_err();
    let s = if formula {
        format!("'{s}")
    } else {
        s.into_owned()
    };
    if s.contains([',', '"']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Table {
        Table {
            head: vec!["puzzle".into(), "z3/lia".into(), "a_b|c".into()],
            rows: vec![vec!["p&1".into(), "0.5".into(), "timeout".into()]],
            marked: vec![(0, 1)],
            numeric: vec![false, true, true],
        }
    }

    #[test]
    fn every_format_marks_and_escapes() {
        let t = table();
        let md = t.markdown();
        assert!(md.contains("| puzzle | z3/lia | a\\_b\\|c |"), "{md}");
        assert!(md.contains("|:---|---:|---:|"), "{md}");
        assert!(md.contains("| p&1 | **0.5** | timeout |"), "{md}");
        let tex = t.latex();
        assert!(
            tex.starts_with("\\begin{tabular}{lrr}\n\\toprule\n"),
            "{tex}"
        );
        assert!(
            tex.contains("puzzle & z3/lia & a\\_b\\textbar{}c \\\\\n\\midrule"),
            "{tex}"
        );
        assert!(tex.contains("p\\&1 & \\textbf{0.5} & timeout"), "{tex}");
        assert!(tex.ends_with("\\bottomrule\n\\end{tabular}\n"), "{tex}");
        assert_eq!(t.csv(), "puzzle,z3/lia,a_b|c\np&1,0.5*,timeout\n");
        let html = t.html("x");
        assert!(html.contains("<td>p&amp;1</td>"), "{html}");
        assert!(html.contains("<strong>0.5</strong>"), "{html}");
        assert!(t.text().contains("0.5*"));
    }

    #[test]
    fn hostile_names_cannot_break_out() {
        assert_eq!(html_escape("<script>\u{1b}]0;x\u{7}"), "&lt;script&gt;]0;x");
        assert_eq!(latex_escape("\\input{x}"), "\\textbackslash{}input\\{x\\}");
        assert_eq!(csv_field("a,\"b\""), "\"a,\"\"b\"\"\"");
    }

    /// A name a spreadsheet would run as a formula goes out as text; a
    /// number, even a negative one, stays a number.
    #[test]
    fn csv_fields_are_never_formulas() {
        assert_eq!(csv_field("=cmd|' /C calc'!A0"), "'=cmd|' /C calc'!A0");
        assert_eq!(csv_field("+1+2"), "'+1+2");
        assert_eq!(csv_field("-2+3"), "'-2+3");
        assert_eq!(csv_field("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(
            csv_field("=HYPERLINK(\"x\",1)"),
            "\"'=HYPERLINK(\"\"x\"\",1)\""
        );
        assert_eq!(csv_field("-0.5"), "-0.5");
        assert_eq!(csv_field("0.5"), "0.5");
        assert_eq!(csv_field("a=b"), "a=b");
        // A control character cannot hide the sign from the check.
        assert_eq!(csv_field("\n=1+1"), "\\n=1+1");
        let t = Table {
            head: vec!["puzzle".into(), "z3/lia".into()],
            rows: vec![vec!["=cmd".into(), "0.5".into()]],
            marked: vec![],
            numeric: vec![false, true],
        };
        assert_eq!(t.csv(), "puzzle,z3/lia\n'=cmd,0.5\n");
    }

    /// LaTeX's `|` is escaped, and a newline in a name shows as `\n`
    /// instead of joining the words around it.
    #[test]
    fn latex_keeps_bars_and_newlines_visible() {
        assert_eq!(latex_escape("a|b"), "a\\textbar{}b");
        assert_eq!(latex_escape("a\nb"), "a\\textbackslash{}nb");
        assert_eq!(latex_escape("<x>"), "\\textless{}x\\textgreater{}");
    }
}
