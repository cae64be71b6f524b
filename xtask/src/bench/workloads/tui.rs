//! A full-screen program redrawing: an htop-like monitor repaints its whole screen every
//! 100 ms for 10 s (see `bench/tui.rs`); and a log growing a line every 20 ms for 5 s, which
//! scrolls the screen each time. What reaches the user's terminal per second is what a user
//! over SSH pays for. Without a multiplexer, what the program itself writes.

use crate::bench::contenders::Contender;
use crate::bench::results::{Table, Unit};
use crate::bench::session::Session;
use crate::bench::{Ctx, Failure};
use std::time::{Duration, Instant};

const RATE: &str = "bytes to the terminal per second, KB/s";
const TOTAL: &str = "bytes to the terminal in 10 s, MB";
const LOG_RATE: &str = "a log growing a line every 20 ms: bytes to the terminal per second, KB/s";

/// The TUI table.
pub fn table() -> Table {
    Table::new(
        "tui",
        "tui: an htop-like screen repainted every 100 ms for 10 s".into(),
    )
    .metric(RATE, Unit::Count, true)
    .metric(TOTAL, Unit::MegaBytes, false)
    .metric(LOG_RATE, Unit::Count, true)
    .about(
        "A monitor of CPU bars, memory, uptime and a process table whose figures change and \
         whose order shifts repaints every line of its screen (cursor moves, text, erase to \
         the end of the line) every 100 ms, 100 times. Then a service's log prints a line \
         every 20 ms, 250 times, each scrolling the screen. Bytes read from the outer \
         terminal from the keystroke that starts each until its DONE marker, per second of \
         the run.",
    )
    .target(verdict)
}

/// One run of `c`, recorded in `table`.
pub fn round(ctx: &Ctx, c: &Contender, table: &mut Table, round: usize) {
    let started = Instant::now();
    match measure(ctx, c, "tui") {
        Ok((bytes, secs)) => {
            let name = c.name();
            table.add(RATE, name, bytes as f64 / 1e3 / secs.max(1e-9));
            table.add(TOTAL, name, bytes as f64 / 1e6);
            let msg = format!("{:.1} KB/s", bytes as f64 / 1e3 / secs.max(1e-9));
            ctx.progress("tui", c, round, started, &msg);
        }
        Err(f) => {
            ctx.progress("tui", c, round, started, &f.to_string());
            table.fail(c.name(), round, &f);
            return;
        }
    }
    let started = Instant::now();
    match measure(ctx, c, "log") {
        Ok((bytes, secs)) => {
            let rate = bytes as f64 / 1e3 / secs.max(1e-9);
            table.add(LOG_RATE, c.name(), rate);
            ctx.progress("tui", c, round, started, &format!("log {rate:.1} KB/s"));
        }
        Err(f) => {
            ctx.progress("tui", c, round, started, &f.to_string());
            table.fail(c.name(), round, &f);
        }
    }
}

/// Bytes to the terminal over a run of the pane program in `mode` (`tui` or `log`), and the
/// run's seconds.
fn measure(ctx: &Ctx, c: &Contender, mode: &str) -> Result<(u64, f64), Failure> {
    let key = &mode[..2];
    let mut s = Session::new(ctx, c, None)?;
    let argv = s.runner(mode, key, None);
    let m = s.markers(key);
    s.start(&argv, None)?;
    s.wait_info(key, Duration::from_secs(30))?;
    let term = s.term()?;
    term.wait_for_text(&m.ready, 0, Duration::from_secs(30))?;
    term.wait_quiet(Duration::from_millis(300), Duration::from_secs(5));
    let (bytes0, mark) = (term.bytes(), term.mark());
    let t0 = Instant::now();
    term.write(b"\r")?;
    term.wait_for_text(&m.done, mark, Duration::from_secs(60))?;
    let secs = t0.elapsed().as_secs_f64();
    s.wait_done(key, Duration::from_secs(5))?;
    Ok((term.bytes() - bytes0, secs))
}

/// Fewer bytes than every other multiplexer, for the monitor and for the log.
fn verdict(table: &Table) -> String {
    let target = "fewer bytes to the terminal than every other multiplexer";
    let mut said = Vec::new();
    let mut missed = false;
    for (metric, what) in [(RATE, "monitor"), (LOG_RATE, "log")] {
        let Some(weft) = table.median(metric, "weft") else {
            said.push(format!("{what} not measured"));
            missed = true;
            continue;
        };
        let fewer: Vec<String> = table
            .contenders(metric)
            .into_iter()
            .filter(|name| *name != "weft" && *name != "no-mux")
            .filter_map(|name| Some((name, table.median(metric, name)?)))
            .filter(|(_, v)| *v <= weft)
            .map(|(name, v)| format!("{name} {v:.1} KB/s"))
            .collect();
        if fewer.is_empty() {
            said.push(format!("{what} {weft:.1} KB/s"));
        } else {
            missed = true;
            said.push(format!("{what}: weft {weft:.1} KB/s; {}", fewer.join(", ")));
        }
    }
    let verdict = if missed { "**Missed**" } else { "**Met**" };
    format!("Target: {target}. {verdict} ({}).", said.join("; "))
}
