//! Start-up: from starting the client of a new session (no server running) until the shell
//! prompt of its pane is visible on the outer terminal; and from starting a client that
//! attaches to an existing detached session until that session's prompt is visible. Without
//! a multiplexer the first is the shell's own start-up.

use crate::bench::contenders::Contender;
use crate::bench::procs::wait_idle;
use crate::bench::results::{Table, Unit};
use crate::bench::session::Session;
use crate::bench::{Ctx, Failure};
use std::time::{Duration, Instant};

const NEW: &str = "new session → prompt visible, ms";
const ATTACH: &str = "attach → screen visible, ms";

/// The start-up table.
pub fn table() -> Table {
    Table::new("startup", "start-up: new session and attach".into())
        .metric(NEW, Unit::Millis, true)
        .metric(ATTACH, Unit::Millis, true)
        .about(
            "New: from starting the client (no server running) until the pane's shell prompt \
             is read from the terminal. Attach: a detached session of the same size is created \
             and left to settle, then from starting an attaching client until its prompt is \
             read. Without a multiplexer, new is the shell's own start-up.",
        )
        .target(verdict)
}

/// Both measurements of `c`, recorded in `table`.
pub fn round(ctx: &Ctx, c: &Contender, table: &mut Table, round: usize) {
    let name = c.name();
    for (metric, attach) in [(NEW, false), (ATTACH, true)] {
        let started = Instant::now();
        let result = if attach {
            measure_attach(ctx, c)
        } else {
            measure_new(ctx, c)
        };
        match result {
            Ok(ms) => {
                table.add(metric, name, ms);
                ctx.progress("startup", c, round, started, &format!("{metric}: {ms:.1}"));
            }
            Err(f) => {
                if f != Failure::NotApplicable {
                    ctx.progress("startup", c, round, started, &format!("{metric}: {f}"));
                }
                table.fail(name, round, &f);
            }
        }
    }
}

fn measure_new(ctx: &Ctx, c: &Contender) -> Result<f64, Failure> {
    let mut s = Session::new(ctx, c, None)?;
    let argv = s.runner("shell", "sh", None);
    let m = s.markers("sh");
    let t0 = Instant::now();
    let term = s.start(&argv, Some(&m.prompt))?;
    let seen = term.wait_watch(Duration::from_secs(30))?;
    Ok(seen.saturating_duration_since(t0).as_secs_f64() * 1e3)
}

fn measure_attach(ctx: &Ctx, c: &Contender) -> Result<f64, Failure> {
    if !c.has_server() {
        return Err(Failure::NotApplicable);
    }
    let mut s = Session::new(ctx, c, None)?;
    let argv = s.runner("shell", "sh", None);
    let m = s.markers("sh");
    s.start_detached(&argv)?;
    let info = s.wait_info("sh", Duration::from_secs(30))?;
    // The shell has printed its prompt once the server stops working.
    wait_idle(
        info.ppid,
        Duration::from_millis(300),
        Duration::from_secs(10),
    );
    let t0 = Instant::now();
    let term = s.attach(Some(&m.prompt))?;
    let seen = term.wait_watch(Duration::from_secs(30))?;
    Ok(seen.saturating_duration_since(t0).as_secs_f64() * 1e3)
}

/// How much later than the shell's own start-up a new session's prompt may show.
const NEW_OVER_NO_MUX_MS: f64 = 3.0;

/// A new session within [`NEW_OVER_NO_MUX_MS`] of no multiplexer, and attach no slower than
/// tmux.
fn verdict(table: &Table) -> String {
    let target = format!(
        "new session within {NEW_OVER_NO_MUX_MS} ms of no multiplexer, attach no slower than tmux"
    );
    let mut missed = Vec::new();
    let mut met = Vec::new();
    match (table.median(NEW, "weft"), table.median(NEW, "no-mux")) {
        (Some(w), Some(n)) if w - n <= NEW_OVER_NO_MUX_MS => {
            met.push(format!("new +{:.2} ms", w - n))
        }
        (Some(w), Some(n)) => missed.push(format!("new +{:.2} ms", w - n)),
        _ => missed.push("new not measured for weft and no multiplexer".to_string()),
    }
    match (table.median(ATTACH, "weft"), table.median(ATTACH, "tmux")) {
        (Some(w), Some(t)) if w <= t => met.push(format!("attach {:.2}× tmux", w / t)),
        (Some(w), Some(t)) => missed.push(format!("attach {:.2}× tmux", w / t)),
        _ => missed.push("attach not measured for weft and tmux".to_string()),
    }
    let verdict = if missed.is_empty() {
        format!("Target: {target}. **Met** ({}).", met.join(", "))
    } else {
        format!("Target: {target}. **Missed**: {}.", missed.join("; "))
    };
    verdict + &floor(table)
}

/// What the pty relay says of the floor: its new session over no multiplexer's, and weft's
/// over the relay's.
fn floor(table: &Table) -> String {
    match (
        table.median(NEW, "relay"),
        table.median(NEW, "no-mux"),
        table.median(NEW, "weft"),
    ) {
        (Some(relay), Some(bare), Some(weft)) => format!(
            " Floor: the pty relay's new session is {:+.2} ms over no multiplexer; weft's is \
             {:+.2} ms over the relay.",
            relay - bare,
            weft - relay
        ),
        _ => String::new(),
    }
}
