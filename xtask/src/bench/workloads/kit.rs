//! The test kit: how long a test takes that starts `sh -c 'printf …'`, waits for its text and
//! ends it. Without a multiplexer: weft's test kit in-process (`weft-testkit`'s `kit_probe`
//! example, a real pty and weft's screen model). weft: the same through a running weft server
//! in one command (`weft run --wait-exit`, which prints the final screen). tmux: as libtmux drives it (`new-session -d`,
//! `capture-pane -p` polled until the text shows, `kill-session`), polled without a pause,
//! the best case for tmux.

use crate::bench::contenders::{Contender, Kind};
use crate::bench::launch::{target_dir, workspace_root};
use crate::bench::results::{Table, Unit};
use crate::bench::session::Session;
use crate::bench::{Ctx, Failure};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// Tests timed per contender and round.
pub const RUNS: usize = 20;

const METRIC: &str = "start, text seen, ended, ms";

/// How long one test may wait for its text before the run fails.
const TEXT_TIMEOUT: Duration = Duration::from_secs(10);

/// The kit table.
pub fn table() -> Table {
    Table::new(
        "kit",
        format!("test kit: a test of `sh -c 'printf …'` ({RUNS} a round)"),
    )
    .metric(METRIC, Unit::Millis, true)
    .about(
        "From starting the program until its text was seen and it ended. No multiplexer: \
         weft's test kit in-process (a real pty, weft's screen model). weft: through a \
         running weft server in one command (`weft run --wait-exit`, which prints the final \
         screen). tmux: as libtmux does it (`new-session -d`, `capture-pane -p` polled without a pause until the text shows, \
         `kill-session`).",
    )
    .target(verdict)
}

/// Builds the in-process probe (cargo does nothing when it is up to date).
pub fn build_probe() -> Result<PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let status = Command::new(&cargo)
        .args([
            "build",
            "--release",
            "-p",
            "weft-testkit",
            "--example",
            "kit_probe",
        ])
        .current_dir(workspace_root())
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("building the kit probe failed ({status})"));
    }
    Ok(target_dir()?
        .join("release")
        .join("examples")
        .join("kit_probe"))
}

/// One round of `c`: [`RUNS`] tests, each a sample.
pub fn round(ctx: &Ctx, c: &Contender, probe: &PathBuf, table: &mut Table, round: usize) {
    let started = Instant::now();
    let samples = match c.kind {
        Kind::Bare => in_process(probe),
        Kind::Weft | Kind::Tmux => through_server(ctx, c),
        _ => Err(Failure::NotApplicable),
    };
    match samples {
        Ok(samples) => {
            let mut sorted = samples.clone();
            sorted.sort_by(f64::total_cmp);
            let median = sorted[sorted.len() / 2];
            for ms in samples {
                table.add(METRIC, c.name(), ms);
            }
            ctx.progress("kit", c, round, started, &format!("median {median:.2} ms"));
        }
        Err(f) => {
            if f != Failure::NotApplicable {
                ctx.progress("kit", c, round, started, &f.to_string());
            }
            table.fail(c.name(), round, &f);
        }
    }
}

fn in_process(probe: &PathBuf) -> Result<Vec<f64>, Failure> {
    let out = Command::new(probe).arg(RUNS.to_string()).output()?;
    if !out.status.success() {
        return Err(Failure::Failed(format!(
            "the kit probe failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    let samples: Vec<f64> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect();
    if samples.len() == RUNS {
        Ok(samples)
    } else {
        Err(Failure::Failed(format!(
            "the kit probe printed {} times, not {RUNS}",
            samples.len()
        )))
    }
}

fn through_server(ctx: &Ctx, c: &Contender) -> Result<Vec<f64>, Failure> {
    let mut s = Session::new(ctx, c, None)?;
    // A session that holds the server up, so every test finds it running, as in a suite.
    let hold = s.runner("hold", "hold", None);
    s.start_detached(&hold)?;
    s.wait_info("hold", Duration::from_secs(30))?;
    let mut samples = Vec::with_capacity(RUNS);
    for run in 0..RUNS {
        let name = format!("kit{run}");
        let text = format!("kit-{run}-done");
        let script = format!("printf 'kit-%s-%s\\n' {run} done; exec sleep 60");
        let t0 = Instant::now();
        match c.kind {
            Kind::Weft => {
                // One command: the program's final screen, printed once it has exited.
                let once = format!("printf 'kit-%s-%s\\n' {run} done");
                let screen = s.control(&["run", "--wait-exit", "--", "sh", "-c", &once])?;
                if !screen.contains(&text) {
                    return Err(Failure::Failed(format!("`{text}` was not on the screen")));
                }
                samples.push(t0.elapsed().as_secs_f64() * 1e3);
                continue;
            }
            _ => {
                s.control(&[
                    "new-session",
                    "-d",
                    "-s",
                    &name,
                    &format!("sh -c \"{script}\""),
                ])?;
                let deadline = t0 + TEXT_TIMEOUT;
                while !s
                    .control(&["capture-pane", "-p", "-t", &name])?
                    .contains(&text)
                {
                    if Instant::now() >= deadline {
                        return Err(Failure::Failed(format!("`{text}` never showed")));
                    }
                }
            }
        }
        s.control(&["kill-session", "-t", &name])?;
        samples.push(t0.elapsed().as_secs_f64() * 1e3);
    }
    Ok(samples)
}

/// In-process under 10 ms; through weft's server faster than through tmux's.
fn verdict(table: &Table) -> String {
    let target = "in-process under 10 ms; through weft's server faster than through tmux's";
    let bare = table.median(METRIC, "no-mux");
    let weft = table.median(METRIC, "weft");
    let tmux = table.median(METRIC, "tmux");
    match (bare, weft, tmux) {
        (Some(b), Some(w), Some(t)) if b < 10.0 && w < t => format!(
            "Target: {target}. **Met** ({b:.1} ms in-process, weft {:.2}× tmux).",
            w / t
        ),
        (Some(b), Some(w), Some(t)) => format!(
            "Target: {target}. **Missed** ({b:.1} ms in-process, weft {:.2}× tmux).",
            w / t
        ),
        _ => format!("Target: {target}. **Missed**: not measured for all three."),
    }
}
