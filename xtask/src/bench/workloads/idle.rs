//! Idle cost: a shell prompt in one pane, a client attached, nothing typed. Over the window
//! the server's wake-ups (voluntary context switches, summed over its threads) and CPU time
//! are counted, and the client's beside them. Then (weft and tmux) the same for 200 idle
//! panes: 20 windows of 10.

use crate::bench::contenders::Contender;
use crate::bench::procs::{counters_delta, thread_counters, wait_idle};
use crate::bench::results::{Table, Unit};
use crate::bench::session::Session;
use crate::bench::{Ctx, Failure};
use std::time::{Duration, Instant};

/// The measured window.
const WINDOW: Duration = Duration::from_secs(10);

const SERVER_WAKEUPS: &str = "server wake-ups in 10 s";
const SERVER_CPU: &str = "server CPU in 10 s, ms";
const CLIENT_WAKEUPS: &str = "client wake-ups in 10 s";
const CLIENT_CPU: &str = "client CPU in 10 s, ms";
const BYTES: &str = "bytes to the terminal in 10 s";
const MANY_WAKEUPS: &str = "200 idle panes: server wake-ups in 10 s";
const MANY_CPU: &str = "200 idle panes: server CPU in 10 s, ms";
/// Windows, and panes in each, of the many-panes case.
const GRID: (usize, usize) = (20, 10);

/// The idle table.
pub fn table() -> Table {
    Table::new(
        "idle",
        "idle: a shell prompt in one pane, nothing typed, 10 s".into(),
    )
    .metric(SERVER_WAKEUPS, Unit::Count, true)
    .metric(SERVER_CPU, Unit::Millis, true)
    .metric(CLIENT_WAKEUPS, Unit::Count, false)
    .metric(CLIENT_CPU, Unit::Millis, false)
    .metric(BYTES, Unit::Count, false)
    .metric(MANY_WAKEUPS, Unit::Count, true)
    .metric(MANY_CPU, Unit::Millis, true)
    .about(
        "After the prompt shows and the server's CPU time has stood still for 0.5 s, the \
         server's and the client's threads are sampled before and after 10 s: wake-ups are \
         voluntary context switches (/proc/PID/task/*/status), CPU is schedstat run time. \
         200 idle panes: 20 windows of 10 panes each holding a program that prints once and \
         waits, a client attached to the first window (weft and tmux).",
    )
    .target(verdict)
}

/// One run of `c`, recorded in `table`.
pub fn round(ctx: &Ctx, c: &Contender, table: &mut Table, round: usize) {
    let started = Instant::now();
    let name = c.name();
    match measure(ctx, c) {
        Ok(v) => {
            for (metric, value) in [
                (SERVER_WAKEUPS, v[0]),
                (SERVER_CPU, v[1]),
                (CLIENT_WAKEUPS, v[2]),
                (CLIENT_CPU, v[3]),
                (BYTES, v[4]),
            ] {
                table.add(metric, name, value);
            }
            let msg = format!("server: {} wake-ups, {:.2} ms CPU", v[0], v[1]);
            ctx.progress("idle", c, round, started, &msg);
        }
        Err(f) => {
            if f != Failure::NotApplicable {
                ctx.progress("idle", c, round, started, &f.to_string());
            }
            table.fail(name, round, &f);
        }
    }
    let started = Instant::now();
    match measure_many(ctx, c) {
        Ok((wakeups, cpu_ms)) => {
            table.add(MANY_WAKEUPS, name, wakeups);
            table.add(MANY_CPU, name, cpu_ms);
            let msg = format!("200 panes: {wakeups} wake-ups, {cpu_ms:.2} ms CPU");
            ctx.progress("idle", c, round, started, &msg);
        }
        Err(f) => {
            if f != Failure::NotApplicable {
                ctx.progress("idle (200 panes)", c, round, started, &f.to_string());
            }
            table.fail(name, round, &f);
        }
    }
}

/// Server wake-ups and CPU ms over the window with 200 idle panes.
fn measure_many(ctx: &Ctx, c: &Contender) -> Result<(f64, f64), Failure> {
    let mut s = Session::new(ctx, c, None)?;
    let server = super::memory::hold_grid(&mut s, GRID)?.ppid;
    wait_idle(server, Duration::from_millis(500), Duration::from_secs(60));
    let before = thread_counters(server);
    // A fixed nap is right here: the 10 s measurement window itself
    std::thread::sleep(WINDOW); // deadline-ok
    let after = thread_counters(server);
    if after.is_empty() {
        return Err(Failure::Failed(
            "the server exited during the window".into(),
        ));
    }
    let d = counters_delta(&before, &after);
    Ok((d.voluntary as f64, d.run_ns as f64 / 1e6))
}

/// Server wake-ups, server CPU ms, client wake-ups, client CPU ms, bytes.
fn measure(ctx: &Ctx, c: &Contender) -> Result<[f64; 5], Failure> {
    if !c.has_server() {
        return Err(Failure::NotApplicable);
    }
    let mut s = Session::new(ctx, c, None)?;
    let argv = s.runner("shell", "sh", None);
    let m = s.markers("sh");
    s.start(&argv, Some(&m.prompt))?;
    let info = s.wait_info("sh", Duration::from_secs(30))?;
    let term = s.term()?;
    term.wait_watch(Duration::from_secs(30))?;
    let (server, client) = (info.ppid, term.pid());
    wait_idle(server, Duration::from_millis(500), Duration::from_secs(10));
    term.wait_quiet(Duration::from_millis(500), Duration::from_secs(5));
    let (s0, c0, b0) = (
        thread_counters(server),
        thread_counters(client),
        term.bytes(),
    );
    // A fixed nap is right here: the 10 s measurement window itself
    std::thread::sleep(WINDOW); // deadline-ok
    let (s1, c1, b1) = (
        thread_counters(server),
        thread_counters(client),
        term.bytes(),
    );
    if s1.is_empty() {
        return Err(Failure::Failed(
            "the server exited during the window".into(),
        ));
    }
    let (sd, cd) = (counters_delta(&s0, &s1), counters_delta(&c0, &c1));
    Ok([
        sd.voluntary as f64,
        sd.run_ns as f64 / 1e6,
        cd.voluntary as f64,
        cd.run_ns as f64 / 1e6,
        (b1 - b0) as f64,
    ])
}

/// Zero server wake-ups in 10 s, with one pane and with 200.
fn verdict(table: &Table) -> String {
    let target = "zero server wake-ups in 10 idle seconds, with 1 pane and with 200";
    match (
        table.median(SERVER_WAKEUPS, "weft"),
        table.median(MANY_WAKEUPS, "weft"),
    ) {
        (None, _) | (_, None) => format!("Target: {target}. Not measured."),
        (Some(0.0), Some(0.0)) => format!("Target: {target}. **Met**."),
        (Some(one), Some(many)) => format!(
            "Target: {target}. **Missed**: {one:.0} wake-ups with 1 pane, {many:.0} with 200."
        ),
    }
}
