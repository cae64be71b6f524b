//! The report: Markdown tables (contenders as columns, medians with min–max, ratios to no
//! multiplexer and to tmux) to paste into README.md, and the same samples as JSON.

use super::contenders::{Contender, Kind, Missing};
use super::machine::Machine;
use super::results::{Results, Status, Table, Unit};
use super::stats;
use serde_json::{json, Value};
use std::fmt::Write;

/// What the report says above the tables.
#[derive(Clone, Debug)]
pub struct Header {
    /// The command as run.
    pub command: String,
    /// Date and machine.
    pub machine: Machine,
    /// Outer terminal size.
    pub size: (u16, u16),
    /// Rounds per workload.
    pub rounds: usize,
    /// The contenders measured.
    pub contenders: Vec<Contender>,
    /// The contenders skipped.
    pub missing: Vec<Missing>,
    /// How many of the functions `crates/weft/link-order.txt` lists are in the weft binary
    /// measured (found, listed), when `nm` could tell.
    pub link_order: Option<(usize, usize)>,
    /// How long the whole run took, s.
    pub elapsed_s: f64,
}

/// A value with about three significant digits, no exponent.
pub fn num(v: f64) -> String {
    if v.is_nan() {
        return "—".into();
    }
    if v.is_infinite() {
        return "∞".into();
    }
    let a = v.abs();
    let digits = if a == 0.0 || a >= 100.0 {
        0
    } else if a >= 10.0 {
        1
    } else if a >= 1.0 {
        2
    } else {
        (2 - a.log10().floor() as i32).clamp(0, 6) as usize
    };
    format!("{v:.digits$}")
}

fn value(v: f64, unit: Unit) -> String {
    match unit {
        Unit::Count if v.is_finite() => format!("{v:.0}"),
        Unit::Millis if v.is_infinite() => "lost".into(),
        _ => num(v),
    }
}

fn cell(table: &Table, metric: &str, unit: Unit, contender: &str) -> String {
    let samples = table.samples(metric, contender);
    match (
        stats::median(samples),
        stats::min(samples),
        stats::max(samples),
    ) {
        (Some(m), Some(lo), Some(hi)) if samples.len() > 1 && lo != hi => {
            format!(
                "{} ({}–{})",
                value(m, unit),
                value(lo, unit),
                value(hi, unit)
            )
        }
        (Some(m), _, _) => value(m, unit),
        _ => match table.status.get(contender) {
            Some(Status::NotApplicable) | None => "n/a".into(),
            Some(Status::Unsupported) => "unsupported".into(),
            Some(Status::Failed) => "failed".into(),
        },
    }
}

fn ratio(table: &Table, metric: &str, contender: &str, reference: &str) -> String {
    match (
        table.median(metric, contender),
        table.median(metric, reference),
    ) {
        (Some(a), Some(b)) if b > 0.0 && b.is_finite() && a.is_finite() => format!("{:.2}×", a / b),
        _ => "—".into(),
    }
}

/// The Markdown report.
pub fn markdown(header: &Header, results: &Results) -> String {
    let mut out = String::new();
    let columns: Vec<&'static str> = header.contenders.iter().map(Contender::name).collect();
    let _ = writeln!(out, "## `{}`\n", header.command);
    let _ = writeln!(out, "- date: {}", header.machine.date);
    let _ = writeln!(out, "- machine: {}", header.machine.summary());
    let _ = writeln!(
        out,
        "- terminal: {}x{} for every contender (weft and tmux status lines off, no screen hardstatus); \
         {} round(s), contenders in shuffled order each round; run took {:.0} s",
        header.size.0, header.size.1, header.rounds, header.elapsed_s
    );
    let versions: Vec<String> = header
        .contenders
        .iter()
        .map(|c| match c.kind {
            Kind::Bare => "no-mux (the workload straight on the terminal)".to_string(),
            Kind::Relay => "relay (the bench's own: the workload on a pty whose bytes are only \
                            copied to the terminal, the floor under every pty multiplexer; \
                            in cat, echo and start-up)"
                .to_string(),
            _ => format!("{} ({})", c.name(), c.version),
        })
        .collect();
    let _ = writeln!(out, "- contenders: {}", versions.join(", "));
    for m in &header.missing {
        let _ = writeln!(out, "- missing, skipped: {} ({})", m.kind.name(), m.why);
    }
    if let Some((found, listed)) = header.link_order {
        let stale = if found < listed {
            " (a stale list: run `cargo xtask link-order`)"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "- weft's link order: {found} of the {listed} functions listed are in the binary{stale}"
        );
    }
    let _ = writeln!(
        out,
        "- cells: median (min–max) over rounds; `÷` rows: ratio of the medians"
    );
    for table in &results.tables {
        // A contender measured only in some workloads (the relay) has no column elsewhere.
        let columns: Vec<&'static str> = columns.iter().copied().filter(|c| table.ran(c)).collect();
        let _ = writeln!(out, "\n### {}\n", table.title);
        if !table.about.is_empty() {
            let _ = writeln!(out, "{}\n", table.about);
        }
        let _ = writeln!(out, "| | {} |", columns.join(" | "));
        let _ = writeln!(out, "|---|{}", "---:|".repeat(columns.len()));
        for row in &table.rows {
            let cells: Vec<String> = columns
                .iter()
                .map(|c| cell(table, row.metric, row.unit, c))
                .collect();
            let _ = writeln!(out, "| {} | {} |", row.metric, cells.join(" | "));
            if !row.ratios {
                continue;
            }
            for reference in ["no-mux", "tmux"] {
                if table.median(row.metric, reference).is_none() {
                    continue;
                }
                let cells: Vec<String> = columns
                    .iter()
                    .map(|c| ratio(table, row.metric, c, reference))
                    .collect();
                let _ = writeln!(out, "| ÷ {reference} | {} |", cells.join(" | "));
            }
        }
        if let Some(verdict) = table.verdict {
            let _ = writeln!(out, "\n{}", verdict(table));
        }
        if !table.notes.is_empty() {
            let _ = writeln!(out);
            for note in &table.notes {
                let _ = writeln!(out, "- {note}");
            }
        }
    }
    out
}

fn finite(v: Option<f64>) -> Value {
    v.filter(|x| x.is_finite()).map_or(Value::Null, Value::from)
}

/// The JSON report: every sample, plus medians and extremes.
pub fn json(header: &Header, results: &Results) -> Value {
    let tables: Vec<Value> = results
        .tables
        .iter()
        .map(|t| {
            let rows: Vec<Value> = t
                .rows
                .iter()
                .map(|r| {
                    let per: serde_json::Map<String, Value> = r
                        .samples
                        .iter()
                        .map(|(c, s)| {
                            let lost = s.iter().filter(|v| !v.is_finite()).count();
                            let v = json!({
                                "samples": s.iter().map(|&x| finite(Some(x))).collect::<Vec<_>>(),
                                "median": finite(stats::median(s)),
                                "min": finite(stats::min(s)),
                                "max": finite(stats::max(s)),
                                "infinite_samples": lost,
                            });
                            (c.to_string(), v)
                        })
                        .collect();
                    json!({ "metric": r.metric, "unit": r.unit.name(), "contenders": per })
                })
                .collect();
            let status: serde_json::Map<String, Value> = t
                .status
                .iter()
                .map(|(c, s)| {
                    let s = match s {
                        Status::NotApplicable => "not applicable",
                        Status::Unsupported => "unsupported",
                        Status::Failed => "failed",
                    };
                    (c.to_string(), Value::from(s))
                })
                .collect();
            json!({
                "id": t.id,
                "title": t.title,
                "about": t.about,
                "rows": rows,
                "status": status,
                "notes": t.notes,
                "verdict": t.verdict.map(|v| v(t)),
            })
        })
        .collect();
    json!({
        "command": header.command,
        "date": header.machine.date,
        "machine": {
            "nproc": header.machine.nproc,
            "cpu": header.machine.cpu,
            "kernel": header.machine.kernel,
        },
        "terminal": { "cols": header.size.0, "rows": header.size.1 },
        "rounds": header.rounds,
        "elapsed_s": header.elapsed_s,
        "contenders": header.contenders.iter().map(|c| json!({
            "name": c.name(), "version": c.version, "path": c.bin.to_string_lossy(),
        })).collect::<Vec<_>>(),
        "missing": header.missing.iter().map(|m| json!({ "name": m.kind.name(), "why": m.why }))
            .collect::<Vec<_>>(),
        "tables": tables,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(num(1234.5), "1234");
        assert_eq!(num(12.345), "12.3");
        assert_eq!(num(1.2345), "1.23");
        assert_eq!(num(0.012345), "0.0123");
        assert_eq!(num(0.0), "0");
        assert_eq!(num(f64::INFINITY), "∞");
    }

    #[test]
    fn cells_and_ratios() {
        let mut t = Table::new("t", "t".into()).metric("time, s", Unit::Seconds, true);
        t.add("time, s", "no-mux", 1.0);
        t.add("time, s", "weft", 1.5);
        t.add("time, s", "weft", 1.0);
        t.add("time, s", "weft", 2.0);
        t.fail("tmux", 0, &super::super::Failure::Unsupported("no".into()));
        assert_eq!(
            cell(&t, "time, s", Unit::Seconds, "weft"),
            "1.50 (1.00–2.00)"
        );
        assert_eq!(cell(&t, "time, s", Unit::Seconds, "tmux"), "unsupported");
        assert_eq!(cell(&t, "time, s", Unit::Seconds, "screen"), "n/a");
        assert_eq!(ratio(&t, "time, s", "weft", "no-mux"), "1.50×");
        assert_eq!(ratio(&t, "time, s", "weft", "tmux"), "—");
    }
}
