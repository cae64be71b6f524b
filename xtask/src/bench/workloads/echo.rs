//! Keystroke-to-echo latency: one key at a time is written to the outer pty at random gaps
//! and timed until its echo reaches the outer terminal. The pane echoes in raw mode; each
//! probe is a Greek letter (no workload or multiplexer prints one) and is followed by `!`,
//! which the pane turns into "clear the line" so no old probe is ever redrawn. Measured with
//! the pane alone, and with a second pane (split above it) flooding output.

use crate::bench::contenders::{Contender, PaneKind};
use crate::bench::data::Rng;
use crate::bench::results::{Table, Unit};
use crate::bench::session::Session;
use crate::bench::term::Term;
use crate::bench::{stats, Ctx, Failure};
use std::path::Path;
use std::time::{Duration, Instant};

const IDLE_P50: &str = "idle: p50, ms";
const IDLE_P99: &str = "idle: p99, ms";
const IDLE_LOST: &str = "idle: keystrokes not echoed within 2 s";
const IDLE_COUNT: &str = "idle: keystrokes measured";
const FLOOD_P50: &str = "other pane flooding: p50, ms";
const FLOOD_P99: &str = "other pane flooding: p99, ms";
const FLOOD_LOST: &str = "other pane flooding: keystrokes not echoed within 2 s";
const FLOOD_COUNT: &str = "other pane flooding: keystrokes measured";
const FLOOD_RATE: &str = "other pane flooding: output reaching the terminal, MB/s";

/// A keystroke not echoed by then is lost (an infinite sample).
const ECHO_TIMEOUT: Duration = Duration::from_secs(2);
/// Keystrokes typed first and not counted (the pane settles, caches warm up).
const WARMUP: usize = 5;
/// A run stops after this many lost keystrokes...
const MAX_LOST: usize = 5;
/// ...or after this long (a multiplexer that takes seconds per echo).
const RUN_LIMIT: Duration = Duration::from_secs(20);
/// Gaps between keystrokes, ms.
const GAP_MS: (u64, u64) = (10, 60);
const PROBES: &[char] = &[
    'α', 'β', 'γ', 'δ', 'ε', 'ζ', 'η', 'θ', 'ι', 'κ', 'λ', 'μ', 'ν', 'ξ', 'ο', 'π', 'ρ', 'σ', 'τ',
    'υ', 'φ', 'χ', 'ψ', 'ω',
];

/// The echo table (`probes` keystrokes a run).
pub fn table(probes: usize) -> Table {
    Table::new("echo", "keystroke → echo on the terminal, latency".into())
        .metric(IDLE_P50, Unit::Millis, true)
        .metric(IDLE_P99, Unit::Millis, true)
        .metric(IDLE_LOST, Unit::Count, false)
        .metric(IDLE_COUNT, Unit::Count, false)
        .metric(FLOOD_P50, Unit::Millis, true)
        .metric(FLOOD_P99, Unit::Millis, true)
        .metric(FLOOD_LOST, Unit::Count, false)
        .metric(FLOOD_COUNT, Unit::Count, false)
        .metric(FLOOD_RATE, Unit::MegaBytesPerSecond, false)
        .about(format!(
            "{probes} keystrokes a run (after {WARMUP} not counted), one at a time at random \
             {}–{} ms gaps: from writing the key to the outer pty until its echo is read from \
             it; the pane echoes in raw mode. A key not echoed within 2 s counts as infinite; a run \
             stops after {MAX_LOST} of those or {RUN_LIMIT:?}. \
             Flood: the session starts with a pane writing a log in a loop, then \
             `split-window` adds the echo pane below it (focused).",
            GAP_MS.0, GAP_MS.1
        ))
        .target(verdict)
}

/// One run's latencies.
pub(super) struct Sample {
    /// Median, ms.
    pub p50_ms: f64,
    /// 99th percentile, ms.
    pub p99_ms: f64,
    /// Keystrokes not echoed within the timeout.
    pub lost: usize,
    /// Keystrokes measured.
    pub typed: usize,
    /// What reached the terminal meanwhile.
    pub mb_per_s: f64,
}

/// Both runs of `c` (idle, flood), recorded in `table`.
pub fn round(ctx: &Ctx, c: &Contender, flood: &Path, table: &mut Table, round: usize) {
    let name = c.name();
    for flooding in [false, true] {
        let started = Instant::now();
        let label = if flooding {
            "echo (flood)"
        } else {
            "echo (idle)"
        };
        match measure(ctx, c, flooding.then_some(flood), round) {
            Ok(s) => {
                let (p50, p99, lost, count) = if flooding {
                    (FLOOD_P50, FLOOD_P99, FLOOD_LOST, FLOOD_COUNT)
                } else {
                    (IDLE_P50, IDLE_P99, IDLE_LOST, IDLE_COUNT)
                };
                table.add(p50, name, s.p50_ms);
                table.add(p99, name, s.p99_ms);
                table.add(lost, name, s.lost as f64);
                table.add(count, name, s.typed as f64);
                if flooding {
                    table.add(FLOOD_RATE, name, s.mb_per_s);
                }
                let msg = format!(
                    "p50 {:.3} ms, p99 {:.3} ms, {} lost",
                    s.p50_ms, s.p99_ms, s.lost
                );
                ctx.progress(label, c, round, started, &msg);
            }
            Err(f) => {
                if f != Failure::NotApplicable {
                    ctx.progress(label, c, round, started, &f.to_string());
                }
                table.fail(name, round, &f);
            }
        }
    }
}

fn measure(
    ctx: &Ctx,
    c: &Contender,
    flood: Option<&Path>,
    round: usize,
) -> Result<Sample, Failure> {
    if flood.is_some() && !c.has_server() {
        return Err(Failure::NotApplicable);
    }
    let mut s = Session::new(ctx, c, None)?;
    let m = s.markers("ec");
    let echo = s.runner("echo", "ec", None);
    if let Some(file) = flood {
        let load = s.runner("load", "ld", Some(file));
        s.start(&load, None)?;
        s.wait_info("ld", Duration::from_secs(30))?;
        s.add_pane(PaneKind::Split, &echo)?;
        s.wait_info("ec", Duration::from_secs(30))?;
    } else {
        s.start(&echo, None)?;
        s.wait_info("ec", Duration::from_secs(30))?;
        let term = s.term()?;
        term.wait_for_text(&m.ready, 0, Duration::from_secs(30))?;
        term.wait_quiet(Duration::from_millis(200), Duration::from_secs(5));
    }
    probe_run(
        ctx,
        s.term()?,
        0xec40 + round as u64 + u64::from(flood.is_some()),
    )
}

/// Types the probes into the focused pane (an `echo` runner) of `term`, one at a time at
/// random gaps drawn from `seed`, and times each echo.
pub(super) fn probe_run(ctx: &Ctx, term: &Term, seed: u64) -> Result<Sample, Failure> {
    let mut rng = Rng::new(seed);
    let mut typed = 0usize;
    let mut type_one = |rng: &mut Rng| -> Result<Option<f64>, Failure> {
        let gap = GAP_MS.0 + rng.below((GAP_MS.1 - GAP_MS.0) as usize + 1) as u64;
        // A fixed nap is right here: the gap between keystrokes is the workload
        std::thread::sleep(Duration::from_millis(gap)); // deadline-ok
        let mut key = [0u8; 4];
        let key = PROBES[typed % PROBES.len()]
            .encode_utf8(&mut key)
            .as_bytes()
            .to_vec();
        typed += 1;
        let latency = term.probe(&key, &key, ECHO_TIMEOUT)?;
        term.write(b"!")?;
        Ok(latency.map(|d| d.as_secs_f64() * 1e3))
    };
    let mut warm_lost = 0;
    for _ in 0..WARMUP {
        if type_one(&mut rng)?.is_none() {
            warm_lost += 1;
        }
    }
    if warm_lost == WARMUP {
        return Err(Failure::Failed(format!(
            "none of {WARMUP} keystrokes was echoed within {ECHO_TIMEOUT:?} (the echo pane may \
             not have the focus, or the multiplexer is too slow under load); screen text: {}",
            term.tail()
        )));
    }
    let bytes0 = term.bytes();
    let t0 = Instant::now();
    let mut latencies = Vec::with_capacity(ctx.opts.probes());
    let mut lost = 0;
    for _ in 0..ctx.opts.probes() {
        if t0.elapsed() > RUN_LIMIT {
            break;
        }
        match type_one(&mut rng)? {
            Some(ms) => latencies.push(ms),
            None => {
                lost += 1;
                latencies.push(f64::INFINITY);
                if lost >= MAX_LOST {
                    break;
                }
            }
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    Ok(Sample {
        p50_ms: stats::percentile(&latencies, 50.0).unwrap_or(f64::NAN),
        p99_ms: stats::percentile(&latencies, 99.0).unwrap_or(f64::NAN),
        lost,
        typed: latencies.len(),
        mb_per_s: (term.bytes() - bytes0) as f64 / 1e6 / secs.max(1e-9),
    })
}

/// How far above no multiplexer weft's p50 may be, idle and while another pane floods.
const P50_OVER_NO_MUX_MS: f64 = 0.08;
/// The p99 limit, idle and while another pane floods.
const P99_MS: f64 = 0.5;

/// p50 within [`P50_OVER_NO_MUX_MS`] of no multiplexer (idle), and p99 under [`P99_MS`], idle
/// and while another pane floods.
fn verdict(table: &Table) -> String {
    let target = format!(
        "p50 within {P50_OVER_NO_MUX_MS} ms of no multiplexer and p99 under {P99_MS} ms, idle \
         and while another pane floods"
    );
    let Some(bare) = table.median(IDLE_P50, "no-mux") else {
        return format!("Target: {target}. Not measured (no-mux).");
    };
    let checks = [
        (IDLE_P50, bare + P50_OVER_NO_MUX_MS, "p50"),
        (IDLE_P99, P99_MS, "p99"),
        (FLOOD_P50, bare + P50_OVER_NO_MUX_MS, "flood p50"),
        (FLOOD_P99, P99_MS, "flood p99"),
    ];
    let mut missed = Vec::new();
    let mut met = Vec::new();
    for (metric, limit, what) in checks {
        match table.median(metric, "weft") {
            Some(v) if v <= limit => met.push(format!("{what} {v:.3} ms")),
            Some(v) => missed.push(format!("{what} {v:.3} ms (limit {limit:.3})")),
            None => missed.push(format!("{what} not measured")),
        }
    }
    let verdict = if missed.is_empty() {
        format!("Target: {target}. **Met** ({}).", met.join(", "))
    } else {
        format!("Target: {target}. **Missed**: {}.", missed.join("; "))
    };
    verdict + &floor(table, bare)
}

/// What the pty relay says of the floor: its idle p50 over no multiplexer's (`bare`), and
/// weft's over the relay's.
fn floor(table: &Table, bare: f64) -> String {
    match (
        table.median(IDLE_P50, "relay"),
        table.median(IDLE_P50, "weft"),
    ) {
        (Some(relay), Some(weft)) => format!(
            " Floor: the pty relay's idle p50 is {:+.3} ms over no multiplexer; weft's is \
             {:+.3} ms over the relay.",
            relay - bare,
            weft - relay
        ),
        _ => String::new(),
    }
}
