//! Copy-mode search: a pane holding 100,000 lines of history, copy mode entered with the
//! prefix and `[`, then `send-keys -X search-backward` of a string near the top typed at the
//! command prompt (the same keys for weft and tmux); timed from the Enter keystroke until the
//! matched line is read from the terminal.

use crate::bench::contenders::Contender;
use crate::bench::data::{SEARCH_SHOWN, SEARCH_TARGET};
use crate::bench::procs::wait_idle;
use crate::bench::results::{Table, Unit};
use crate::bench::session::Session;
use crate::bench::{Ctx, Failure};
use std::path::Path;
use std::time::{Duration, Instant};

/// Lines of history searched (and the scrollback limit configured).
pub const LINES: usize = 100_000;

const SEARCH: &str = "Enter → match shown, ms";

/// The copy-mode table.
pub fn table() -> Table {
    Table::new(
        "copy",
        "copy mode: search 100,000 lines of history for a string near the top".into(),
    )
    .metric(SEARCH, Unit::Millis, true)
    .about(
        "100,000 lines of 80 columns go through the pane (scrollback limit 100,000), the \
         server settles, copy mode is entered with the prefix and `[`, and `send-keys -X \
         search-backward TARGET` is typed at the `:` prompt. Timed from writing the Enter \
         until the text after the target on its line (about 99,900 lines up) is read from \
         the terminal.",
    )
    .target(verdict)
}

/// One measurement of `c`, recorded in `table`.
pub fn round(ctx: &Ctx, c: &Contender, file: &Path, table: &mut Table, round: usize) {
    let name = c.name();
    if !c.has_server() || !matches!(name, "weft" | "tmux") {
        table.fail(name, round, &Failure::NotApplicable);
        return;
    }
    let started = Instant::now();
    match measure(ctx, c, file) {
        Ok(ms) => {
            table.add(SEARCH, name, ms);
            ctx.progress("copy", c, round, started, &format!("{SEARCH}: {ms:.1}"));
        }
        Err(f) => {
            ctx.progress("copy", c, round, started, &format!("{SEARCH}: {f}"));
            table.fail(name, round, &f);
        }
    }
}

fn measure(ctx: &Ctx, c: &Contender, file: &Path) -> Result<f64, Failure> {
    let mut s = Session::new(ctx, c, Some(LINES))?;
    let argv = s.runner("fill", "f0", Some(file));
    s.start(&argv, None)?;
    let info = s.wait_info("f0", Duration::from_secs(30))?;
    s.wait_done("f0", Duration::from_secs(120))?;
    wait_idle(
        info.ppid,
        Duration::from_millis(300),
        Duration::from_secs(60),
    );
    let term = s.term()?;
    let wait = Duration::from_secs(30);
    let from = term.mark();
    term.write(b"\x02[")?;
    term.wait_for_text("[0/", from, wait)?;
    term.write(b"\x02:")?;
    // The prompt is open (its drawing done) before anything is typed into it.
    term.wait_quiet(Duration::from_millis(200), wait);
    let from = term.mark();
    let typed = format!("send-keys -X search-backward {SEARCH_TARGET}");
    term.write(typed.as_bytes())?;
    term.wait_for_text(SEARCH_TARGET, from, wait)?;
    let from = term.mark();
    let t0 = Instant::now();
    term.write(b"\r")?;
    let seen = term.wait_for_text(SEARCH_SHOWN, from, wait)?;
    Ok(seen.saturating_duration_since(t0).as_secs_f64() * 1e3)
}

/// Under 50 ms.
fn verdict(table: &Table) -> String {
    let target = "a search of 100,000 lines shown in under 50 ms";
    match table.median(SEARCH, "weft") {
        None => format!("Target: {target}. Not measured."),
        Some(ms) if ms < 50.0 => format!("Target: {target}. **Met** ({ms:.1} ms)."),
        Some(ms) => format!("Target: {target}. **Missed**: {ms:.1} ms."),
    }
}
