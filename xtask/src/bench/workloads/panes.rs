//! Many panes at once (weft and tmux): 8 panes of one window `cat` the same log together
//! (one keystroke starts them all, with `synchronize-panes` on): how evenly they progress (the
//! slowest `cat`'s time over the fastest's: a fair multiplexer finishes them together) and
//! their total throughput beside one pane's alone; and the echo of a focused pane while 8
//! others flood.

use crate::bench::contenders::{Contender, Kind};
use crate::bench::results::{Table, Unit};
use crate::bench::session::Session;
use crate::bench::{Ctx, Failure};
use std::path::Path;
use std::time::{Duration, Instant};

/// Panes streaming at once.
const PANES: usize = 8;
/// Lines of the log each pane cats.
pub const LINES: usize = 100_000;

const SPREAD: &str = "8 panes cat at once: slowest ÷ fastest";
const TOTAL: &str = "8 panes cat at once: total MB/s";
const ALONE: &str = "1 pane cat alone: MB/s";
const ECHO_P50: &str = "echo, 8 other panes flooding: p50, ms";
const ECHO_P99: &str = "echo, 8 other panes flooding: p99, ms";
const ECHO_LOST: &str = "echo, 8 other panes flooding: keystrokes not echoed within 2 s";

/// The many-panes table.
pub fn table(log_mb: f64) -> Table {
    Table::new(
        "panes",
        format!("many panes: 8 panes streaming at once in one window, each a {LINES}-line log ({log_mb:.1} MB)"),
    )
    .metric(SPREAD, Unit::Ratio, true)
    .metric(TOTAL, Unit::MegaBytesPerSecond, false)
    .metric(ALONE, Unit::MegaBytesPerSecond, false)
    .metric(ECHO_P50, Unit::Millis, true)
    .metric(ECHO_P99, Unit::Millis, true)
    .metric(ECHO_LOST, Unit::Count, false)
    .about(
        "8 panes (`split-window`, then `select-layout tiled`) each wait for a keystroke, then \
         time `cat` of the log inside the pane; with `synchronize-panes` on, one keystroke \
         starts all 8. Slowest ÷ fastest: the longest `cat` over the shortest (1.0: every pane \
         got an even share). Total: 8 logs over the longest `cat`; alone: one pane's `cat` of \
         the same log in a session of its own. Echo: 8 panes write a log in a loop, then a \
         ninth pane, focused, echoes keystrokes as in the echo table.",
    )
    .target(verdict)
}

/// One run of each measurement of `c`, recorded in `table`.
pub fn round(ctx: &Ctx, c: &Contender, log: &Path, table: &mut Table, round: usize) {
    let name = c.name();
    if !matches!(c.kind, Kind::Weft | Kind::Tmux) {
        table.fail(name, round, &Failure::NotApplicable);
        return;
    }
    let size_mb = crate::bench::data::file_size(log) as f64 / 1e6;
    let started = Instant::now();
    match cat_together(ctx, c, log) {
        Ok(elapsed) => {
            let (slowest, fastest) = (
                elapsed.iter().copied().fold(0.0, f64::max),
                elapsed.iter().copied().fold(f64::INFINITY, f64::min),
            );
            let spread = slowest / fastest.max(1e-9);
            let total = PANES as f64 * size_mb / slowest.max(1e-9);
            table.add(SPREAD, name, spread);
            table.add(TOTAL, name, total);
            let each: Vec<String> = elapsed.iter().map(|e| format!("{e:.2}")).collect();
            let msg = format!(
                "8 at once: {spread:.2}x spread, {total:.1} MB/s in all (each pane: {} s)",
                each.join(" ")
            );
            ctx.progress("panes", c, round, started, &msg);
        }
        Err(f) => {
            ctx.progress("panes (8 cats)", c, round, started, &f.to_string());
            table.fail(name, round, &f);
        }
    }
    let started = Instant::now();
    match cat_alone(ctx, c, log) {
        Ok(secs) => {
            table.add(ALONE, name, size_mb / secs.max(1e-9));
            let msg = format!("alone: {:.1} MB/s", size_mb / secs.max(1e-9));
            ctx.progress("panes", c, round, started, &msg);
        }
        Err(f) => {
            ctx.progress("panes (1 cat)", c, round, started, &f.to_string());
            table.fail(name, round, &f);
        }
    }
    let started = Instant::now();
    let seed = 0xfa1 + round as u64;
    match echo_flooded(ctx, c, log, seed) {
        Ok(s) => {
            table.add(ECHO_P50, name, s.p50_ms);
            table.add(ECHO_P99, name, s.p99_ms);
            table.add(ECHO_LOST, name, s.lost as f64);
            let msg = format!("echo: p50 {:.3} ms, p99 {:.3} ms", s.p50_ms, s.p99_ms);
            ctx.progress("panes", c, round, started, &msg);
        }
        Err(f) => {
            ctx.progress("panes (echo)", c, round, started, &f.to_string());
            table.fail(name, round, &f);
        }
    }
}

/// Starts the session with [`PANES`] panes tiled in its first window, each running the
/// runner's `mode` on `log` under the keys `{key}0`, `{key}1`, ...; returns the window.
fn eight_panes(s: &mut Session, mode: &str, key: &str, log: &Path) -> Result<String, Failure> {
    let window = format!("{}:0", s.name());
    let first = s.runner(mode, &format!("{key}0"), Some(log));
    s.start(&first, None)?;
    s.wait_info(&format!("{key}0"), Duration::from_secs(30))?;
    for p in 1..PANES {
        let key = format!("{key}{p}");
        let argv = s.runner(mode, &key, Some(log));
        s.split_tiled(&window, &argv, false)?;
        s.wait_info(&key, Duration::from_secs(30))?;
    }
    Ok(window)
}

/// Each of the 8 panes' `cat` time, s.
fn cat_together(ctx: &Ctx, c: &Contender, log: &Path) -> Result<Vec<f64>, Failure> {
    let mut s = Session::new(ctx, c, None)?;
    let window = eight_panes(&mut s, "stream", "c", log)?;
    s.control(&[
        "set-window-option",
        "-t",
        &window,
        "synchronize-panes",
        "on",
    ])?;
    let term = s.term()?;
    for p in 0..PANES {
        let m = s.markers(&format!("c{p}"));
        term.wait_for_text(&m.ready, 0, Duration::from_secs(30))?;
    }
    term.wait_quiet(Duration::from_millis(300), Duration::from_secs(5));
    term.write(b"\r")?;
    let mut elapsed = Vec::with_capacity(PANES);
    for p in 0..PANES {
        let done = s.wait_done(&format!("c{p}"), ctx.opts.stream_timeout())?;
        if !done.ok {
            return Err(Failure::Failed(format!("cat failed in pane {p}")));
        }
        elapsed.push(done.elapsed_ns as f64 / 1e9);
    }
    Ok(elapsed)
}

/// One pane's `cat` time alone, s.
fn cat_alone(ctx: &Ctx, c: &Contender, log: &Path) -> Result<f64, Failure> {
    let mut s = Session::new(ctx, c, None)?;
    let argv = s.runner("stream", "c0", Some(log));
    let m = s.markers("c0");
    s.start(&argv, None)?;
    s.wait_info("c0", Duration::from_secs(30))?;
    let term = s.term()?;
    term.wait_for_text(&m.ready, 0, Duration::from_secs(30))?;
    term.wait_quiet(Duration::from_millis(300), Duration::from_secs(5));
    term.write(b"\r")?;
    let done = s.wait_done("c0", ctx.opts.stream_timeout())?;
    if !done.ok {
        return Err(Failure::Failed("cat failed in the pane".into()));
    }
    Ok(done.elapsed_ns as f64 / 1e9)
}

/// The echo of a ninth pane, focused, while 8 panes write `log` in a loop.
fn echo_flooded(
    ctx: &Ctx,
    c: &Contender,
    log: &Path,
    seed: u64,
) -> Result<super::echo::Sample, Failure> {
    let mut s = Session::new(ctx, c, None)?;
    let window = eight_panes(&mut s, "load", "l", log)?;
    let echo = s.runner("echo", "ec", None);
    s.split_tiled(&window, &echo, true)?;
    s.wait_info("ec", Duration::from_secs(30))?;
    super::echo::probe_run(ctx, s.term()?, seed)
}

/// Slowest within 10% of the fastest, the total at least one pane's alone, the echo's p99
/// under 2 ms.
fn verdict(table: &Table) -> String {
    let target = "8 panes at once within 10% of an even share (slowest ÷ fastest ≤ 1.10), \
                  their total at least one pane's alone, echo p99 under 2 ms meanwhile";
    let (Some(spread), Some(total), Some(alone), Some(p99)) = (
        table.median(SPREAD, "weft"),
        table.median(TOTAL, "weft"),
        table.median(ALONE, "weft"),
        table.median(ECHO_P99, "weft"),
    ) else {
        return format!("Target: {target}. Not measured.");
    };
    let mut missed = Vec::new();
    if spread > 1.10 {
        missed.push(format!("slowest ÷ fastest {spread:.2}"));
    }
    if total < alone {
        missed.push(format!("total {total:.1} MB/s under {alone:.1} alone"));
    }
    if p99 >= 2.0 {
        missed.push(format!("echo p99 {p99:.3} ms"));
    }
    if missed.is_empty() {
        format!(
            "Target: {target}. **Met** ({spread:.2}x; {total:.1} against {alone:.1} MB/s; \
             p99 {p99:.3} ms)."
        )
    } else {
        format!("Target: {target}. **Missed**: {}.", missed.join("; "))
    }
}
