//! `report --html FILE`: one self-contained page to share a benchmark:
//! the summary (sortable by any column), the per-puzzle table, the cactus
//! and scatter plots as inline SVG, the disagreements and invalid models
//! highlighted, and the provenance of the runs. Nothing is loaded from
//! the network or another file; the only script sorts tables.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::Record;
use super::export::html_escape;
use super::plot::{self, PlotSize};
use super::summary::{Pair, Summary};
use crate::error::Result;

const STYLE: &str = "body{font-family:sans-serif;margin:2em;max-width:1400px;color:#222}\
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em}\
table{border-collapse:collapse;font-size:.9em;margin:.5em 0}\
th,td{border-bottom:1px solid #ddd;padding:.25em .6em;text-align:left}\
th{cursor:pointer;background:#f4f4f4;user-select:none}\
th.num,td.num{text-align:right;font-variant-numeric:tabular-nums}\
td.best{background:#e6f4ea}\
.alert{border:2px solid #c00;background:#fee;padding:.5em 1em;margin:1em 0}\
.alert li{color:#900}\
.plots{display:flex;flex-wrap:wrap;gap:1em}.plots svg{max-width:100%;height:auto}\
dl{display:grid;grid-template-columns:max-content auto;gap:.2em 1em}dt{font-weight:bold}\
.scroll{overflow-x:auto}";

/// Sorts a table by the clicked column: numbers by value (cells that are
/// no number, such as a status, after them), text alphabetically; a
/// second click reverses.
const SCRIPT: &str = "document.querySelectorAll('table.sortable').forEach(function(t){\
t.querySelectorAll('th').forEach(function(th,i){th.addEventListener('click',function(){\
var b=t.tBodies[0],rows=Array.from(b.rows),asc=th.dataset.dir!=='asc';\
t.querySelectorAll('th').forEach(function(h){delete h.dataset.dir});th.dataset.dir=asc?'asc':'desc';\
var key=function(r){var s=r.cells[i].textContent.trim(),n=parseFloat(s);return isNaN(n)?[1,s]:[0,n]};\
rows.sort(function(x,y){var a=key(x),c=key(y);var d=a[0]-c[0]||(a[0]?a[1].localeCompare(c[1]):a[1]-c[1]);return asc?d:-d});\
rows.forEach(function(r){b.appendChild(r)})})})});\
document.body.dataset.sortable='ready';";

/// The page for `summary`, made from `records`.
pub fn page(summary: &Summary, records: &[Record], size: PlotSize) -> Result<String> {
    let mut s = String::from("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
    let _ = write!(
        s,
        "<title>smtgrid benchmark</title><style>{STYLE}</style></head><body>\n\
         <h1>smtgrid benchmark: {} puzzles, {} pairs, {} runs</h1>\n",
        summary.puzzles,
        summary.pairs.len(),
        summary.runs
    );
    if summary.failed() {
        s.push_str("<div class=\"alert\" id=\"findings\"><strong>Findings</strong><ul>");
        for d in &summary.disagreements {
            let _ = write!(s, "<li>SOLVERS DISAGREE: {}</li>", html_escape(d));
        }
        for i in &summary.invalid_models {
            let _ = write!(s, "<li>INVALID MODEL: {}</li>", html_escape(i));
        }
        s.push_str("</ul></div>\n");
    }
    s.push_str("<h2>Summary</h2>\n<p>Click a column to sort. PAR-2 charges twice the time limit for every puzzle a pair did not solve; times are the median of the repeats.</p>\n<div class=\"scroll\" id=\"summary\">");
    s.push_str(&summary.summary_table().html("sortable summary"));
    s.push_str("</div>\n<h2>Plots</h2>\n<div class=\"plots\" id=\"plots\">");
    s.push_str(&inline(&plot::cactus_sized(summary, size)?));
    // The scatter sets the two best pairs by PAR-2 against each other.
    let mut ranked: Vec<&super::summary::PairStats> = summary.pairs.iter().collect();
    ranked.sort_by(|x, y| x.par2_s.total_cmp(&y.par2_s));
    let pairs: Vec<Pair> = ranked
        .iter()
        .map(|p| Pair {
            solver: p.solver.clone(),
            encoding: p.encoding,
        })
        .collect();
    if let [a, b, ..] = &pairs[..] {
        s.push_str(&inline(&plot::scatter_sized(summary, a, b, size)?));
    }
    s.push_str("</div>\n<h2>Per puzzle</h2>\n<p>Seconds of a solved run (± σ over repeats), else its status; the fastest of each row is shaded.</p>\n<div class=\"scroll\" id=\"per-puzzle\">");
    s.push_str(&summary.per_puzzle().html("sortable per-puzzle"));
    s.push_str("</div>\n<h2>Provenance</h2>\n<dl id=\"provenance\">");
    for (k, v) in provenance(records) {
        let _ = write!(
            s,
            "<dt>{}</dt><dd>{}</dd>",
            html_escape(&k),
            html_escape(&v)
        );
    }
    let _ = write!(
        s,
        "</dl>\n<p>Made by <code>smtgrid report --html</code>.</p>\n<script>{SCRIPT}</script>\n</body></html>\n"
    );
    Ok(s)
}

/// An SVG document as an element of the page.
fn inline(svg: &str) -> String {
    let body = match svg.find("<svg") {
        Some(i) => &svg[i..],
        None => svg,
    };
    format!("<figure>{body}</figure>")
}

/// What the records say about how they were made, as (what, values):
/// every distinct value of each setting, so that a mix shows.
pub fn provenance(records: &[Record]) -> Vec<(String, String)> {
    fn all<T: Ord>(it: impl Iterator<Item = T>) -> BTreeSet<T> {
        it.collect()
    }
    let join = |set: BTreeSet<String>| set.into_iter().collect::<Vec<_>>().join("; ");
    let mut out = vec![
        (
            "smtgrid".into(),
            join(all(records.iter().map(|r| {
                format!(
                    "{} {}",
                    r.machine.smtgrid,
                    r.machine
                        .smtgrid_commit
                        .as_deref()
                        .unwrap_or("(commit not recorded)")
                )
            }))),
        ),
        (
            "machine".into(),
            join(all(records.iter().map(|r| {
                format!(
                    "{}, {} cores, {}, kernel {}",
                    if r.machine.cpu.is_empty() {
                        "CPU not recorded"
                    } else {
                        &r.machine.cpu
                    },
                    r.machine.cores,
                    r.machine.os,
                    if r.machine.kernel.is_empty() {
                        "not recorded"
                    } else {
                        &r.machine.kernel
                    }
                )
            }))),
        ),
        (
            "time limit".into(),
            join(all(records.iter().map(|r| {
                format!("{} s", r.settings.timeout_ms as f64 / 1000.0)
            }))),
        ),
        (
            "memory limit".into(),
            join(all(records.iter().map(|r| {
                match r.settings.memory_limit_mb {
                    Some(mb) => format!(
                        "{mb} MiB ({})",
                        r.memory_limit_by
                            .map_or("mechanism not recorded", |b| match b {
                                crate::solver::MemoryLimitBy::Watcher => "watcher",
                            })
                    ),
                    None => "none".into(),
                }
            }))),
        ),
        (
            "run mode".into(),
            join(all(records.iter().map(|r| r.mode.name().to_string()))),
        ),
    ];
    let dates = all(records.iter().filter_map(|r| r.date.clone()));
    out.push((
        "dates".into(),
        match (dates.first(), dates.last()) {
            (Some(a), Some(b)) if a != b => format!("{a} to {b}"),
            (Some(a), _) => a.clone(),
            _ => "not recorded".into(),
        },
    ));
    let solvers = all(records.iter().map(|r| r.solver.clone()));
    for label in solvers {
        let of = |r: &&Record| r.solver == label;
        let versions = all(records.iter().filter(of).map(|r| {
            r.solver_version
                .clone()
                .unwrap_or_else(|| "version unknown".into())
        }));
        let binaries = all(records.iter().filter(of).filter_map(|r| {
            let path = r.measured.command.first()?;
            Some(format!(
                "{path} (sha256 {})",
                r.measured
                    .solver_sha256
                    .as_deref()
                    .unwrap_or("not recorded")
            ))
        }));
        let commands = all(records.iter().filter(of).filter_map(|r| {
            let c = &r.measured.command;
            // Each run's script is a temporary file: one placeholder
            // stands for them, so the command is given once.
            let args: Vec<&str> = c
                .iter()
                .skip(1)
                .map(|a| {
                    if a.ends_with(".smt2") {
                        "SCRIPT.smt2"
                    } else {
                        a
                    }
                })
                .collect();
            (!c.is_empty()).then(|| args.join(" "))
        }));
        out.push((
            format!("solver {label}"),
            format!(
                "{}; {}; arguments: {}",
                join(versions),
                join(binaries),
                commands.into_iter().take(3).collect::<Vec<_>>().join(" | ")
            ),
        ));
    }
    out
}
