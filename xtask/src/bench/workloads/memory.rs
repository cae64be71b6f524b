//! Memory: the server's resident set with one idle pane, after 100,000 lines of 80 plain
//! columns went through one pane (every contender keeps 100,000 lines of scrollback), and
//! with 10 idle panes (one first pane plus 9 windows), and (weft and tmux) with 100 idle panes
//! in 10 windows. The scrollback cost per line is the difference of the first two divided by
//! the lines; the cost of an idle pane, that of the first and the last divided by 99.

use crate::bench::contenders::{Contender, Kind, PaneKind};
use crate::bench::procs::{rss_anon_kib, rss_kib, wait_idle};
use crate::bench::results::{Table, Unit};
use crate::bench::session::Session;
use crate::bench::{Ctx, Failure};
use std::path::Path;
use std::time::{Duration, Instant};

/// Lines written into the scrollback, and the scrollback limit configured everywhere.
pub const LINES: usize = 100_000;
/// Panes in the many-panes case.
const PANES: usize = 10;

const IDLE1: &str = "server RSS, 1 idle pane, MB";
const IDLE1_ANON: &str = "of which anonymous (heap, stacks), MB";
const FILLED: &str = "server RSS, 1 pane after 100,000 lines, MB";
const PER_LINE: &str = "scrollback, bytes per 80-column line";
const TEN: &str = "server RSS, 10 idle panes, MB";
const HUNDRED: &str = "server RSS, 100 idle panes in 10 windows, MB";
const PER_PANE: &str = "each further idle pane, bytes";
/// Windows, and panes in each, of the hundred-panes case.
const GRID: (usize, usize) = (10, 10);

/// The memory table.
pub fn table() -> Table {
    Table::new(
        "memory",
        "memory: server resident set (scrollback limit 100,000 lines everywhere)".into(),
    )
    .metric(IDLE1, Unit::MegaBytes, true)
    .metric(IDLE1_ANON, Unit::MegaBytes, true)
    .metric(FILLED, Unit::MegaBytes, true)
    .metric(PER_LINE, Unit::Bytes, true)
    .metric(TEN, Unit::MegaBytes, true)
    .metric(HUNDRED, Unit::MegaBytes, true)
    .metric(PER_PANE, Unit::Bytes, true)
    .about(
        "VmRSS of the server once its CPU time has stood still for 0.5 s; its anonymous part \
         (RssAnon) is the memory the server allocated, the rest is the program's code and \
         libraries it has touched. Bytes per line = (anonymous memory after 100,000 lines of \
         80 columns went through the pane − anonymous memory with 1 idle pane) ÷ 100,000: the \
         history is heap, while the code a flood runs is paged in once whatever the history's \
         length (it shows in the RSS row after 100,000 lines). 10 panes = the first pane plus 9 \
         `new-window -d`. 100 panes = 10 windows of 10 panes (`split-window -d`, then `select-layout tiled`), weft and tmux only; a \
         further pane = (RSS with 100 − RSS with 1) ÷ 99. GNU screen allocates a \
         window's whole scrollback when the window opens, so its idle figures include it and \
         its per-line difference is about 0.",
    )
    .target(verdict)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scenario {
    Idle,
    Filled,
    TenPanes,
    HundredPanes,
}

/// The three scenarios of `c`, recorded in `table`.
pub fn round(ctx: &Ctx, c: &Contender, fill: &Path, table: &mut Table, round: usize) {
    let name = c.name();
    if !c.has_server() {
        table.fail(name, round, &Failure::NotApplicable);
        return;
    }
    let mut idle_kib = None;
    let mut idle_anon_kib = None;
    for (scenario, metric) in [
        (Scenario::Idle, IDLE1),
        (Scenario::Filled, FILLED),
        (Scenario::TenPanes, TEN),
        (Scenario::HundredPanes, HUNDRED),
    ] {
        let started = Instant::now();
        match measure(ctx, c, scenario, fill) {
            Ok((kib, anon_kib)) => {
                table.add(metric, name, kib as f64 * 1024.0 / 1e6);
                ctx.progress(
                    "memory",
                    c,
                    round,
                    started,
                    &format!("{metric}: {:.1}", kib as f64 * 1024.0 / 1e6),
                );
                match scenario {
                    Scenario::Idle => {
                        idle_kib = Some(kib);
                        idle_anon_kib = Some(anon_kib);
                        table.add(IDLE1_ANON, name, anon_kib as f64 * 1024.0 / 1e6);
                    }
                    Scenario::Filled => {
                        if let Some(idle) = idle_anon_kib {
                            let per_line = (anon_kib as f64 - idle as f64) * 1024.0 / LINES as f64;
                            table.add(PER_LINE, name, per_line);
                        }
                    }
                    Scenario::TenPanes => {}
                    Scenario::HundredPanes => {
                        if let Some(idle) = idle_kib {
                            let per_pane = (kib as f64 - idle as f64) * 1024.0 / 99.0;
                            table.add(PER_PANE, name, per_pane);
                        }
                    }
                }
            }
            Err(Failure::NotApplicable) => table.fail(name, round, &Failure::NotApplicable),
            Err(f) => {
                ctx.progress("memory", c, round, started, &format!("{metric}: {f}"));
                table.fail(name, round, &f);
            }
        }
    }
}

/// The server's RSS and its anonymous part, in KiB, once it has settled.
fn measure(
    ctx: &Ctx,
    c: &Contender,
    scenario: Scenario,
    fill: &Path,
) -> Result<(u64, u64), Failure> {
    let mut s = Session::new(ctx, c, Some(LINES))?;
    let info = match scenario {
        Scenario::HundredPanes => hold_grid(&mut s, GRID)?,
        Scenario::Idle | Scenario::TenPanes => {
            let argv = s.runner("hold", "h0", None);
            s.start(&argv, None)?;
            let first = s.wait_info("h0", Duration::from_secs(30))?;
            if scenario == Scenario::TenPanes {
                for i in 1..PANES {
                    let key = format!("h{i}");
                    let argv = s.runner("hold", &key, None);
                    s.add_pane(PaneKind::Window, &argv)?;
                    s.wait_info(&key, Duration::from_secs(30))?;
                }
            }
            first
        }
        Scenario::Filled => {
            let argv = s.runner("fill", "f0", Some(fill));
            s.start(&argv, None)?;
            let info = s.wait_info("f0", Duration::from_secs(30))?;
            s.wait_done("f0", Duration::from_secs(120))?;
            info
        }
    };
    let server = info.ppid;
    wait_idle(server, Duration::from_millis(500), Duration::from_secs(60));
    rss_kib(server)
        .zip(rss_anon_kib(server))
        .ok_or_else(|| Failure::Failed("the server is gone".into()))
}

/// Starts a session of `windows` windows of `panes` idle panes each (weft and tmux), each
/// split in and laid out tiled; returns the first pane's info (its parent is the server).
pub fn hold_grid(
    s: &mut Session,
    (windows, panes): (usize, usize),
) -> Result<crate::bench::pane::PaneInfo, Failure> {
    if !matches!(s.contender.kind, Kind::Weft | Kind::Tmux) {
        return Err(Failure::NotApplicable);
    }
    let argv = s.runner("hold", "h0", None);
    s.start(&argv, None)?;
    let first = s.wait_info("h0", Duration::from_secs(30))?;
    for w in 0..windows {
        if w > 0 {
            let key = format!("h{w}-0");
            let argv = s.runner("hold", &key, None);
            s.add_pane(PaneKind::Window, &argv)?;
            s.wait_info(&key, Duration::from_secs(30))?;
        }
        let window = format!("{}:{w}", s.name());
        for p in 1..panes {
            let key = format!("h{w}-{p}");
            let argv = s.runner("hold", &key, None);
            s.split_tiled(&window, &argv, false)?;
            s.wait_info(&key, Duration::from_secs(30))?;
        }
    }
    Ok(first)
}

/// Scrollback at most 40 bytes per 80-column line; 1 idle pane no more than tmux's RSS; a
/// further idle pane at most 100 KB and 100 idle panes under 20 MB.
fn verdict(table: &Table) -> String {
    let target = "scrollback at most 40 bytes per 80-column line; 1 idle pane at most tmux's \
                  RSS; a further idle pane at most 100 KB; 100 idle panes under 20 MB";
    let checks = [
        (table.median(PER_LINE, "weft"), Some(40.0), "bytes a line"),
        (
            table.median(IDLE1, "weft"),
            table.median(IDLE1, "tmux"),
            "MB with 1 idle pane (the limit: tmux's)",
        ),
        (
            table.median(PER_PANE, "weft").map(|b| b / 1e3),
            Some(100.0),
            "KB a pane",
        ),
        (
            table.median(HUNDRED, "weft"),
            Some(20.0),
            "MB for 100 panes",
        ),
    ];
    let mut met = Vec::new();
    let mut missed = Vec::new();
    for (value, limit, what) in checks {
        match (value, limit) {
            (Some(v), Some(limit)) if v <= limit => met.push(format!("{v:.1} {what}")),
            (Some(v), Some(_)) => missed.push(format!("{v:.1} {what}")),
            _ => missed.push(format!("{what} not measured")),
        }
    }
    if missed.is_empty() {
        format!("Target: {target}. **Met** ({}).", met.join(", "))
    } else {
        format!("Target: {target}. **Missed**: {}.", missed.join("; "))
    }
}
