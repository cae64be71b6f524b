//! `cargo xtask bench`: weft beside no multiplexer, tmux, GNU screen and Zellij.
//!
//! The bench plays the user's terminal ([`term`]): a pty of the given size (104x59 by
//! default) with the contender's client in it, drained as fast as possible. Each contender
//! runs on a private socket with a minimal configuration ([`contenders`]) in a session that
//! is cleaned up by pid afterwards ([`session`]). The workloads ([`workloads`]) run a small
//! program inside the pane ([`pane`]) on deterministic payloads ([`data`]); the report
//! ([`report`]) prints one Markdown table per workload and optionally JSON.

pub mod contenders;
pub mod data;
pub mod launch;
pub mod machine;
pub mod options;
pub mod pane;
pub mod procs;
pub mod relay;
pub mod report;
pub mod results;
pub mod scan;
pub mod screen;
pub mod session;
pub mod stats;
pub mod term;
pub mod tui;
pub mod workloads;

use contenders::{Contender, Kind};
use options::Options;
use std::cell::Cell;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Why a measurement did not happen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The workload means nothing for this contender.
    NotApplicable,
    /// The contender cannot do what the workload needs.
    Unsupported(String),
    /// Something went wrong.
    Failed(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::NotApplicable => write!(f, "not applicable"),
            Failure::Unsupported(why) => write!(f, "unsupported: {why}"),
            Failure::Failed(why) => write!(f, "failed: {why}"),
        }
    }
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Failure {
        Failure::Failed(e.to_string())
    }
}

/// What every workload needs.
pub struct Ctx {
    /// The arguments.
    pub opts: Options,
    /// Outer terminal width.
    pub cols: u16,
    /// Outer terminal height.
    pub rows: u16,
    /// Where sessions get their private directories.
    pub runs: PathBuf,
    /// This executable (the pane runner).
    pub runner: PathBuf,
    /// The environment every started process gets (plus its session's tag).
    pub base_env: Vec<(String, String)>,
    /// The payload cache.
    pub data: data::DataDir,
    seq: Cell<u32>,
}

impl Ctx {
    /// A number unique to this run, for session names.
    pub fn next_seq(&self) -> u32 {
        let n = self.seq.get() + 1;
        self.seq.set(n);
        n
    }

    /// A progress line on stderr.
    pub fn progress(&self, what: &str, c: &Contender, round: usize, started: Instant, msg: &str) {
        eprintln!(
            "bench: {what:<14} {:<7} round {}/{}: {msg} ({:.1} s)",
            c.name(),
            round + 1,
            self.opts.rounds,
            started.elapsed().as_secs_f64()
        );
    }

    /// Fails unless the pane got the whole terminal.
    pub fn check_size(&self, (cols, rows): (u16, u16)) -> Result<(), Failure> {
        if (cols, rows) == (self.cols, self.rows) {
            Ok(())
        } else {
            Err(Failure::Failed(format!(
                "the pane was {cols}x{rows}, not {}x{}",
                self.cols, self.rows
            )))
        }
    }
}

/// `cargo xtask bench ARGS`.
pub fn main(args: &[String]) -> ExitCode {
    let opts = match Options::parse(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("bench: {e}\nusage: {}", options::USAGE);
            return ExitCode::from(2);
        }
    };
    if opts.help {
        println!("{}", Options::help());
        return ExitCode::SUCCESS;
    }
    if cfg!(debug_assertions) {
        return launch::relaunch_release(args, opts.weft.is_none());
    }
    match run(opts, args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bench: {e}");
            ExitCode::FAILURE
        }
    }
}

fn base_env(runs: &std::path::Path) -> std::io::Result<Vec<(String, String)>> {
    use std::os::unix::fs::PermissionsExt;
    let home = runs.join("home");
    let runtime = home.join("run");
    std::fs::create_dir_all(&runtime)?;
    std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700))?;
    let user = std::env::var("USER").unwrap_or_else(|_| "root".into());
    let p = |d: PathBuf| d.to_string_lossy().into_owned();
    Ok(vec![
        (
            "PATH".into(),
            std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".into()),
        ),
        ("HOME".into(), p(home.clone())),
        ("TERM".into(), "xterm-256color".into()),
        ("LANG".into(), "C.UTF-8".into()),
        ("LC_ALL".into(), "C.UTF-8".into()),
        ("SHELL".into(), "/bin/sh".into()),
        ("USER".into(), user.clone()),
        ("LOGNAME".into(), user),
        ("XDG_CONFIG_HOME".into(), p(home.join(".config"))),
        ("XDG_CACHE_HOME".into(), p(home.join(".cache"))),
        ("XDG_DATA_HOME".into(), p(home.join(".local/share"))),
        ("XDG_RUNTIME_DIR".into(), p(runtime)),
    ])
}

/// Removes the private run directory when the bench ends, however it ends.
struct RunsDir(PathBuf);

impl Drop for RunsDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run(opts: Options, args: &[String]) -> Result<(), String> {
    let started = Instant::now();
    let machine = machine::Machine::describe();
    procs::become_subreaper();
    launch::kill_stale();
    // Held to the end of the run: when it closes, however the bench ends, the reaper cleans up.
    let _reaper = launch::start_reaper();
    let target = launch::target_dir()?;
    let weft = match &opts.weft {
        Some(p) => std::fs::canonicalize(p).map_err(|e| format!("--weft {}: {e}", p.display()))?,
        None => {
            if !opts.built {
                launch::build_weft()?;
            }
            target.join("release").join("weft")
        }
    };
    let runner = std::env::current_exe().map_err(|e| e.to_string())?;
    let (mut contenders, missing) = contenders::detect(&weft, &runner);
    if !opts.with.is_empty() {
        contenders.retain(|c| opts.with.iter().any(|w| w == c.name()));
    }
    for m in &missing {
        eprintln!("bench: {} missing, skipped: {}", m.kind.name(), m.why);
    }
    let runs = RunsDir(std::env::temp_dir().join(format!("weft-bench-{}", std::process::id())));
    std::fs::create_dir_all(&runs.0).map_err(|e| format!("{}: {e}", runs.0.display()))?;
    let ctx = Ctx {
        cols: opts.cols,
        rows: opts.rows,
        runs: runs.0.clone(),
        runner,
        base_env: base_env(&runs.0).map_err(|e| format!("{}: {e}", runs.0.display()))?,
        data: data::DataDir::new(target.join("bench-data")).map_err(|e| e.to_string())?,
        seq: Cell::new(0),
        opts,
    };
    let names: Vec<String> = contenders
        .iter()
        .map(|c| format!("{} ({})", c.name(), c.version))
        .collect();
    eprintln!("bench: contenders: {}", names.join(", "));
    let link_order = crate::link_order::coverage(&weft);
    let mut results = results::Results::default();
    for w in ctx.opts.workloads() {
        if let Err(e) = workloads::run(&ctx, &contenders, w, &mut results) {
            eprintln!("bench: {}: cannot prepare the payload: {e}", w.name());
        }
    }
    let shown_args: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| *a != options::BUILT_FLAG)
        .collect();
    let header = report::Header {
        command: format!("cargo xtask bench {}", shown_args.join(" "))
            .trim_end()
            .to_string(),
        machine,
        size: (ctx.cols, ctx.rows),
        rounds: ctx.opts.rounds,
        contenders: contenders.clone(),
        missing,
        link_order,
        elapsed_s: started.elapsed().as_secs_f64(),
    };
    print!("{}", report::markdown(&header, &results));
    if let Some(path) = &ctx.opts.json {
        let text = serde_json::to_string_pretty(&report::json(&header, &results))
            .map_err(|e| e.to_string())?;
        std::fs::write(path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
        eprintln!("bench: wrote {}", path.display());
    }
    if !contenders.iter().any(|c| c.kind == Kind::Weft) {
        return Err("weft itself was not measured".into());
    }
    Ok(())
}
