//! A full-screen program redrawing: an htop-like monitor repaints its whole screen every
//! 100 ms for 10 s (see `bench/tui.rs`); what reaches the user's terminal per second is what a
//! user over SSH pays for. Without a multiplexer, what the program itself writes.

use crate::bench::contenders::Contender;
use crate::bench::results::{Table, Unit};
use crate::bench::session::Session;
use crate::bench::{Ctx, Failure};
use std::time::{Duration, Instant};

const RATE: &str = "bytes to the terminal per second, KB/s";
const TOTAL: &str = "bytes to the terminal in 10 s, MB";

/// The TUI table.
pub fn table() -> Table {
    Table::new(
        "tui",
        "tui: an htop-like screen repainted every 100 ms for 10 s".into(),
    )
    .metric(RATE, Unit::Count, true)
    .metric(TOTAL, Unit::MegaBytes, false)
    .about(
        "A monitor of CPU bars, memory, uptime and a process table whose figures change and \
         whose order shifts repaints every line of its screen (cursor moves, text, erase to \
         the end of the line) every 100 ms, 100 times. Bytes read from the outer terminal \
         from the keystroke that starts it until its DONE marker, per second of the run.",
    )
    .target(verdict)
}

/// One run of `c`, recorded in `table`.
pub fn round(ctx: &Ctx, c: &Contender, table: &mut Table, round: usize) {
    let started = Instant::now();
    match measure(ctx, c) {
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
        }
    }
}

/// Bytes to the terminal over the run, and the run's seconds.
fn measure(ctx: &Ctx, c: &Contender) -> Result<(u64, f64), Failure> {
    let mut s = Session::new(ctx, c, None)?;
    let argv = s.runner("tui", "tu", None);
    let m = s.markers("tu");
    s.start(&argv, None)?;
    s.wait_info("tu", Duration::from_secs(30))?;
    let term = s.term()?;
    term.wait_for_text(&m.ready, 0, Duration::from_secs(30))?;
    term.wait_quiet(Duration::from_millis(300), Duration::from_secs(5));
    let (bytes0, mark) = (term.bytes(), term.mark());
    let t0 = Instant::now();
    term.write(b"\r")?;
    term.wait_for_text(&m.done, mark, Duration::from_secs(60))?;
    let secs = t0.elapsed().as_secs_f64();
    s.wait_done("tu", Duration::from_secs(5))?;
    Ok((term.bytes() - bytes0, secs))
}

/// Fewer bytes than every other multiplexer.
fn verdict(table: &Table) -> String {
    let target = "fewer bytes to the terminal than every other multiplexer";
    let Some(weft) = table.median(RATE, "weft") else {
        return format!("Target: {target}. Not measured.");
    };
    let more: Vec<String> = table
        .contenders(RATE)
        .into_iter()
        .filter(|name| *name != "weft" && *name != "no-mux")
        .filter_map(|name| Some((name, table.median(RATE, name)?)))
        .filter(|(_, v)| *v <= weft)
        .map(|(name, v)| format!("{name} {v:.0} KB/s"))
        .collect();
    if more.is_empty() {
        format!("Target: {target}. **Met** ({weft:.0} KB/s).")
    } else {
        format!(
            "Target: {target}. **Missed**: weft {weft:.0} KB/s; {}.",
            more.join(", ")
        )
    }
}
