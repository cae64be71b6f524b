//! The workloads, and the rounds loop every one of them shares: each round runs every
//! contender once, in an order shuffled per round.

mod copy;
mod echo;
mod idle;
mod kit;
mod memory;
mod panes;
mod startup;
mod stream;
mod tui;

use super::contenders::Contender;
use super::data::{file_size, Rng, VtKind};
use super::results::Results;
use super::Ctx;

/// One workload of `cargo xtask bench`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    /// `cat` of a big log file, timed inside the pane.
    Cat,
    /// A vtebench-like stream.
    Vt(VtKind),
    /// Keystroke-to-echo latency, idle and under flood.
    Echo,
    /// Server CPU and wake-ups while nothing happens.
    Idle,
    /// Server memory: scrollback and many panes.
    Memory,
    /// New session and attach until the screen shows.
    Startup,
    /// Copy-mode search of a long history.
    Copy,
    /// A test driven by the test kit, beside the same test through weft's and tmux's CLIs.
    Kit,
    /// Eight panes streaming at once: fairness, total throughput, echo.
    Panes,
    /// A full-screen program repainting: bytes to the terminal.
    Tui,
}

impl Workload {
    /// All workloads in their default order.
    pub const ALL: [Workload; 14] = [
        Workload::Cat,
        Workload::Vt(VtKind::DenseCells),
        Workload::Vt(VtKind::CursorMotion),
        Workload::Vt(VtKind::LightCells),
        Workload::Vt(VtKind::ScrollRegion),
        Workload::Vt(VtKind::Unicode),
        Workload::Echo,
        Workload::Panes,
        Workload::Tui,
        Workload::Idle,
        Workload::Memory,
        Workload::Startup,
        Workload::Copy,
        Workload::Kit,
    ];

    /// The name `--only` takes.
    pub fn name(self) -> &'static str {
        match self {
            Workload::Cat => "cat",
            Workload::Vt(kind) => kind.name(),
            Workload::Echo => "echo",
            Workload::Idle => "idle",
            Workload::Memory => "memory",
            Workload::Startup => "startup",
            Workload::Copy => "copy",
            Workload::Kit => "kit",
            Workload::Panes => "panes",
            Workload::Tui => "tui",
        }
    }

    /// The workloads a `--only` name stands for (`vtebench`: all five streams).
    pub fn parse(name: &str) -> Option<Vec<Workload>> {
        if name == "vtebench" {
            return Some(VtKind::ALL.iter().map(|&k| Workload::Vt(k)).collect());
        }
        Workload::ALL
            .iter()
            .find(|w| w.name() == name)
            .map(|&w| vec![w])
    }
}

/// Runs `f` for every round and contender. A run that panics has cleaned up its session
/// while unwinding; the others still run.
fn rounds<'c>(ctx: &Ctx, contenders: &'c [Contender], mut f: impl FnMut(&'c Contender, usize)) {
    for round in 0..ctx.opts.rounds {
        let mut order: Vec<&Contender> = contenders.iter().collect();
        Rng::new(round as u64 + 1).shuffle(&mut order);
        for c in order {
            let run = std::panic::AssertUnwindSafe(|| f(c, round));
            if std::panic::catch_unwind(run).is_err() {
                eprintln!("bench: {} round {}: the run panicked", c.name(), round + 1);
            }
        }
    }
}

/// `2000000` as `2,000,000`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// Runs one workload against every contender, adding its table to `results`.
pub fn run(
    ctx: &Ctx,
    contenders: &[Contender],
    w: Workload,
    results: &mut Results,
) -> std::io::Result<()> {
    let contenders: Vec<Contender> = contenders
        .iter()
        .filter(|c| c.kind.measures(w.name()))
        .cloned()
        .collect();
    let contenders = &contenders[..];
    match w {
        Workload::Cat => {
            let lines = ctx.opts.log_lines();
            let file = ctx.data.log(lines)?;
            let title = format!(
                "cat: {}-line log ({}), time taken inside the pane",
                thousands(lines),
                megabytes(file_size(&file))
            );
            let table = results.table("cat", || {
                stream::table("cat", title, stream::ABOUT, stream::cat_verdict)
            });
            rounds(ctx, contenders, |c, round| {
                stream::round(ctx, c, &file, table, round)
            });
        }
        Workload::Vt(kind) => {
            let file = ctx.data.vt(kind, ctx.cols, ctx.rows, ctx.opts.vt_bytes())?;
            let title = format!(
                "{}: {} ({}), time taken inside the pane",
                kind.name(),
                kind.describe(),
                megabytes(file_size(&file))
            );
            let first_stream = !results
                .tables
                .iter()
                .any(|t| t.id == "cat" || VtKind::ALL.iter().any(|k| k.name() == t.id));
            let about = if first_stream {
                format!(
                    "{} The stream is written for a {}x{} screen.",
                    stream::ABOUT,
                    ctx.cols,
                    ctx.rows
                )
            } else {
                format!(
                    "Written for a {}x{} screen; measured like the streams above.",
                    ctx.cols, ctx.rows
                )
            };
            let table = results.table(kind.name(), || {
                stream::table(kind.name(), title, &about, stream::vt_verdict)
            });
            rounds(ctx, contenders, |c, round| {
                stream::round(ctx, c, &file, table, round)
            });
        }
        Workload::Echo => {
            // The flooding pane writes the first 4 MB of a log over and over.
            let flood = ctx.data.log(200_000)?;
            let table = results.table("echo", || echo::table(ctx.opts.probes()));
            rounds(ctx, contenders, |c, round| {
                echo::round(ctx, c, &flood, table, round)
            });
        }
        Workload::Idle => {
            let table = results.table("idle", idle::table);
            rounds(ctx, contenders, |c, round| {
                idle::round(ctx, c, table, round)
            });
        }
        Workload::Memory => {
            let fill = ctx.data.lines80(memory::LINES)?;
            let table = results.table("memory", memory::table);
            rounds(ctx, contenders, |c, round| {
                memory::round(ctx, c, &fill, table, round)
            });
        }
        Workload::Copy => {
            let file = ctx.data.search_log(copy::LINES)?;
            let table = results.table("copy", copy::table);
            rounds(ctx, contenders, |c, round| {
                copy::round(ctx, c, &file, table, round)
            });
        }
        Workload::Kit => {
            let probe = kit::build_probe().map_err(std::io::Error::other)?;
            let table = results.table("kit", kit::table);
            rounds(ctx, contenders, |c, round| {
                kit::round(ctx, c, &probe, table, round)
            });
        }
        Workload::Panes => {
            let log = ctx.data.log(panes::LINES)?;
            let size = file_size(&log) as f64 / 1e6;
            let table = results.table("panes", || panes::table(size));
            rounds(ctx, contenders, |c, round| {
                panes::round(ctx, c, &log, table, round)
            });
        }
        Workload::Tui => {
            let table = results.table("tui", tui::table);
            rounds(ctx, contenders, |c, round| tui::round(ctx, c, table, round));
        }
        Workload::Startup => {
            let table = results.table("startup", startup::table);
            rounds(ctx, contenders, |c, round| {
                startup::round(ctx, c, table, round)
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_numbers() {
        assert_eq!(thousands(2_000_000), "2,000,000");
        assert_eq!(thousands(999), "999");
        assert_eq!(Workload::parse("vtebench").map(|v| v.len()), Some(5));
        assert_eq!(Workload::parse("echo"), Some(vec![Workload::Echo]));
        assert_eq!(Workload::parse("nope"), None);
    }
}
