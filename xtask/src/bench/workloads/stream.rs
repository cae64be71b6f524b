//! Streaming workloads (`cat` of the log, the vtebench-like streams): a runner in the pane
//! prints READY, waits for a keystroke, times `cat PAYLOAD` with a monotonic clock, and
//! prints DONE. The time inside the pane is what the program experiences (a multiplexer that
//! reads its pane slowly makes `cat` block); the time until the DONE marker reaches the outer
//! terminal is reported beside it.

use crate::bench::contenders::{Contender, Kind};
use crate::bench::procs::{self, Counters};
use crate::bench::results::{Table, Unit};
use crate::bench::session::Session;
use crate::bench::{Ctx, Failure};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

const INNER: &str = "time inside the pane, s";
const OUTER: &str = "keystroke → DONE on the terminal, s";
const RATE: &str = "payload ÷ time inside, MB/s";
const BYTES: &str = "bytes to the terminal, MB";
const SERVER_CPU: &str = "server CPU, s";
const CLIENT_CPU: &str = "client CPU, s";
const TERM_CPU: &str = "this fake terminal's CPU, s";

/// The table of one streaming workload.
/// How streams are measured, said under the first streaming table.
pub const ABOUT: &str = "A runner in the pane waits for a keystroke, then times `cat FILE` with a \
    monotonic clock (time inside the pane: a multiplexer that reads its pane slowly makes `cat` \
    wait). Keystroke → DONE: from writing the trigger to the outer pty until the DONE marker \
    printed after `cat` is seen on the terminal's screen. CPU: schedstat run time of the \
    threads over the run.";

/// The table of one streaming workload.
pub fn table(
    id: &str,
    title: String,
    about: &str,
    verdict: crate::bench::results::Verdict,
) -> Table {
    Table::new(id, title)
        .metric(INNER, Unit::Seconds, true)
        .metric(OUTER, Unit::Seconds, true)
        .metric(RATE, Unit::MegaBytesPerSecond, false)
        .metric(BYTES, Unit::MegaBytes, false)
        .metric(SERVER_CPU, Unit::Seconds, false)
        .metric(CLIENT_CPU, Unit::Seconds, false)
        .metric(TERM_CPU, Unit::Seconds, false)
        .about(about)
        .target(verdict)
}

struct Sample {
    inner_s: f64,
    outer_s: f64,
    bytes: u64,
    server_cpu_s: Option<f64>,
    client_cpu_s: Option<f64>,
    term_cpu_s: Option<f64>,
}

/// One run of `c`, recorded in `table`.
pub fn round(ctx: &Ctx, c: &Contender, payload: &Path, table: &mut Table, round: usize) {
    let started = Instant::now();
    match measure(ctx, c, payload) {
        Ok(s) => {
            let name = c.name();
            table.add(INNER, name, s.inner_s);
            table.add(OUTER, name, s.outer_s);
            let size = crate::bench::data::file_size(payload) as f64 / 1e6;
            table.add(RATE, name, size / s.inner_s.max(1e-9));
            table.add(BYTES, name, s.bytes as f64 / 1e6);
            for (metric, v) in [
                (SERVER_CPU, s.server_cpu_s),
                (CLIENT_CPU, s.client_cpu_s),
                (TERM_CPU, s.term_cpu_s),
            ] {
                if let Some(v) = v {
                    table.add(metric, name, v);
                }
            }
            ctx.progress(
                &table.id,
                c,
                round,
                started,
                &format!("{:.3} s inside, {:.3} s to DONE", s.inner_s, s.outer_s),
            );
        }
        Err(f) => {
            ctx.progress(&table.id, c, round, started, &f.to_string());
            table.fail(c.name(), round, &f);
        }
    }
}

fn measure(ctx: &Ctx, c: &Contender, payload: &Path) -> Result<Sample, Failure> {
    let mut s = Session::new(ctx, c, None)?;
    let argv = s.runner("stream", "st", Some(payload));
    let m = s.markers("st");
    s.start(&argv, None)?;
    let info = s.wait_info("st", Duration::from_secs(30))?;
    let term = s.term()?;
    term.wait_for_text(&m.ready, 0, Duration::from_secs(30))?;
    term.wait_quiet(Duration::from_millis(300), Duration::from_secs(5));
    let (server, client) = if c.has_server() {
        (Some(info.ppid), Some(term.pid()))
    } else {
        (None, None)
    };
    let me = Some(std::process::id());
    let cpu = |pid: Option<u32>| pid.map(procs::thread_counters);
    let (server0, client0, me0) = (cpu(server), cpu(client), cpu(me));
    let bytes0 = term.bytes();
    let mark = term.mark();
    let t0 = Instant::now();
    term.write(b"\r")?;
    let seen = term.wait_for_text(&m.done, mark, ctx.opts.stream_timeout())?;
    let (server1, client1, me1) = (cpu(server), cpu(client), cpu(me));
    let done = s.wait_done("st", Duration::from_secs(5))?;
    if !done.ok {
        return Err(Failure::Failed("cat failed in the pane".into()));
    }
    ctx.check_size((done.cols, done.rows))?;
    let delta = |a: Option<BTreeMap<u32, Counters>>, b: Option<BTreeMap<u32, Counters>>| {
        Some(procs::counters_delta(&a?, &b?).run_ns as f64 / 1e9)
    };
    Ok(Sample {
        inner_s: done.elapsed_ns as f64 / 1e9,
        outer_s: seen.saturating_duration_since(t0).as_secs_f64(),
        bytes: term.bytes() - bytes0,
        server_cpu_s: delta(server0, server1),
        client_cpu_s: delta(client0, client1),
        term_cpu_s: delta(me0, me1),
    })
}

/// The medians of `metric` per multiplexer other than weft.
fn others(table: &Table, metric: &str) -> Vec<(&'static str, f64)> {
    table
        .contenders(metric)
        .into_iter()
        .filter(|&c| c != "weft" && Kind::named(c).is_some_and(Kind::is_multiplexer))
        .filter_map(|c| Some((c, table.median(metric, c)?)))
        .collect()
}

fn faster_than_all(table: &Table, weft: f64) -> Result<(), String> {
    let slower: Vec<String> = others(table, INNER)
        .into_iter()
        .filter(|&(_, v)| v <= weft)
        .map(|(c, v)| format!("{c} {v:.3} s ≤ weft {weft:.3} s"))
        .collect();
    if slower.is_empty() {
        Ok(())
    } else {
        Err(slower.join("; "))
    }
}

fn verdict_line(target: &str, result: Result<String, String>) -> String {
    match result {
        Ok(detail) => format!("Target: {target}. **Met** ({detail})."),
        Err(why) => format!("Target: {target}. **Missed**: {why}."),
    }
}

/// Most the cat may take inside the pane, as a multiple of no multiplexer's time.
const CAT_LIMIT: f64 = 1.15;

/// cat: within [`CAT_LIMIT`] of no multiplexer and faster than every other multiplexer.
pub fn cat_verdict(table: &Table) -> String {
    let target = &format!(
        "weft within {CAT_LIMIT}× of no multiplexer and faster than tmux, Zellij and screen"
    );
    let Some(weft) = table.median(INNER, "weft") else {
        return format!("Target: {target}. Not measured.");
    };
    let result = (|| {
        let bare = table.median(INNER, "no-mux").ok_or("no-mux not measured")?;
        let r = weft / bare;
        if r > CAT_LIMIT {
            return Err(format!("weft is {r:.2}× no multiplexer"));
        }
        faster_than_all(table, weft)?;
        Ok(format!("{r:.2}× no multiplexer"))
    })();
    let floor = match (table.median(INNER, "relay"), table.median(INNER, "no-mux")) {
        (Some(relay), Some(bare)) => format!(
            " Floor: the pty relay takes {:.2}× no multiplexer; weft {:.2}× the relay.",
            relay / bare,
            weft / relay
        ),
        _ => String::new(),
    };
    verdict_line(target, result) + &floor
}

/// vtebench streams: faster than every other multiplexer.
pub fn vt_verdict(table: &Table) -> String {
    let target = "weft faster than every other multiplexer";
    let Some(weft) = table.median(INNER, "weft") else {
        return format!("Target: {target}. Not measured.");
    };
    let best = others(table, INNER)
        .into_iter()
        .map(|(_, v)| v)
        .fold(f64::INFINITY, f64::min);
    if best.is_infinite() {
        return format!("Target: {target}. Not measured: no other multiplexer ran.");
    }
    let result =
        faster_than_all(table, weft).map(|()| format!("{:.2}× the fastest other", weft / best));
    verdict_line(target, result)
}
