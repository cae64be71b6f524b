//! One measured session of one contender: a private directory, a private socket, the fake
//! terminal with the client in it, the commands that add panes, and cleanup by pid when it
//! is dropped (also on errors and panics).
//!
//! Every process a session starts carries `WEFT_BENCH_TAG=<tag>` in its environment (servers
//! inherit it from the client that started them); cleanup finds them in /proc.

use super::contenders::{Contender, PaneKind, Place};
use super::data::Rng;
use super::pane::{Done, PaneInfo, SUBCOMMAND};
use super::term::{Spec, Term};
use super::{procs, Ctx, Failure};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The environment variable that tags the processes of a session.
pub const TAG_KEY: &str = "WEFT_BENCH_TAG";

/// Deadline for a command that adds a pane or creates a detached session.
const CLI_TIMEOUT: Duration = Duration::from_secs(20);

/// The markers a pane runner prints for one key.
#[derive(Clone, Debug)]
pub struct Markers {
    /// Printed when the runner is ready.
    pub ready: String,
    /// Printed when its work is done.
    pub done: String,
    /// A shell prompt (the shell shows it followed by `$ `; a renderer need not draw the
    /// trailing blank, so the marker stops before it).
    pub prompt: String,
}

/// A running session; ends everything it started when dropped.
pub struct Session<'a> {
    ctx: &'a Ctx,
    /// The contender.
    pub contender: &'a Contender,
    dir: PathBuf,
    name: String,
    tag: String,
    env: Vec<(String, String)>,
    term: Option<Term>,
}

impl<'a> Session<'a> {
    /// A fresh private directory and configuration (with `scrollback` lines when given).
    pub fn new(
        ctx: &'a Ctx,
        contender: &'a Contender,
        scrollback: Option<usize>,
    ) -> Result<Self, Failure> {
        let seq = ctx.next_seq();
        let tag = format!("{}-{seq}", std::process::id());
        let dir = ctx.runs.join(format!("s{seq}"));
        let name = format!("wb{seq}");
        std::fs::create_dir_all(&dir)?;
        let place = Place {
            dir: &dir,
            name: &name,
            cols: ctx.cols,
            rows: ctx.rows,
        };
        let mut env = ctx.base_env.clone();
        env.push((TAG_KEY.into(), tag.clone()));
        env.extend(contender.env(&place));
        contender.prepare(&place, scrollback)?;
        Ok(Session {
            ctx,
            contender,
            dir,
            name,
            tag,
            env,
            term: None,
        })
    }

    fn place(&self) -> Place<'_> {
        Place {
            dir: &self.dir,
            name: &self.name,
            cols: self.ctx.cols,
            rows: self.ctx.rows,
        }
    }

    fn stamp(&self, key: &str) -> String {
        self.dir.join(key).to_string_lossy().into_owned()
    }

    /// Markers unique to this session and key. No character repeats its neighbour, so a
    /// renderer that compresses repeated characters cannot split one.
    pub fn markers(&self, key: &str) -> Markers {
        let mut seed = 0xcbf2_9ce4_8422_2325u64;
        for b in self.tag.bytes().chain(key.bytes()) {
            seed = (seed ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        let mut rng = Rng::new(seed);
        let mut nonce = String::new();
        while nonce.len() < 10 {
            let c = char::from(b'a' + rng.below(26) as u8);
            if !nonce.ends_with(c) {
                nonce.push(c);
            }
        }
        Markers {
            ready: format!("WBREADY-{nonce}"),
            done: format!("WBDONE-{nonce}"),
            prompt: format!("WBPROMPT-{nonce}"),
        }
    }

    /// The command line of a pane runner in `mode` (see [`super::pane`]).
    pub fn runner(&self, mode: &str, key: &str, file: Option<&Path>) -> Vec<String> {
        let m = self.markers(key);
        let mut argv = vec![
            self.ctx.runner.to_string_lossy().into_owned(),
            SUBCOMMAND.to_string(),
            mode.to_string(),
            self.stamp(key),
        ];
        match mode {
            "stream" | "fill" | "tui" | "log" => argv.extend([m.ready, m.done]),
            "hold" | "echo" => argv.push(m.ready),
            "shell" => argv.push(m.prompt),
            _ => {}
        }
        if let Some(f) = file {
            argv.push(f.to_string_lossy().into_owned());
        }
        argv
    }

    fn spawn(&mut self, argv: &[String], watch: Option<&str>) -> Result<&Term, Failure> {
        let term = Term::spawn(&Spec {
            argv,
            env: &self.env,
            cwd: &self.dir,
            cols: self.ctx.cols,
            rows: self.ctx.rows,
            watch,
        })?;
        Ok(self.term.insert(term))
    }

    /// Starts the client creating a session whose first pane runs `pane` (without a
    /// multiplexer: `pane` itself), watching for `watch` from the first byte.
    pub fn start(&mut self, pane: &[String], watch: Option<&str>) -> Result<&Term, Failure> {
        let argv = self.contender.new_session(&self.place(), pane)?;
        self.spawn(&argv, watch)
    }

    /// Creates a detached session running `pane`.
    pub fn start_detached(&mut self, pane: &[String]) -> Result<(), Failure> {
        let argv = self
            .contender
            .new_detached(&self.place(), pane)?
            .ok_or(Failure::NotApplicable)?;
        self.cli(&argv).map_err(Failure::Failed)
    }

    /// Starts a client attaching to the session, watching for `watch` from the first byte.
    pub fn attach(&mut self, watch: Option<&str>) -> Result<&Term, Failure> {
        let argv = self
            .contender
            .attach(&self.place())
            .ok_or(Failure::NotApplicable)?;
        self.spawn(&argv, watch)
    }

    /// Adds a pane running `pane`. A weft command that fails is reported as unsupported (the
    /// command may not exist yet); other contenders' failures are failures.
    pub fn add_pane(&self, how: PaneKind, pane: &[String]) -> Result<(), Failure> {
        let argv = self
            .contender
            .add_pane(&self.place(), how, pane)
            .ok_or(Failure::NotApplicable)?;
        self.cli(&argv).map_err(|e| match self.contender.kind {
            super::contenders::Kind::Weft => Failure::Unsupported(e),
            _ => Failure::Failed(e),
        })
    }

    /// Splits `window` (`NAME:N`) with a pane running `pane`, then lays the window's panes out
    /// tiled so the next split has room (weft and tmux); `focus`: the new pane gets the
    /// focus, else it opens in the background (`-d`).
    pub fn split_tiled(&self, window: &str, pane: &[String], focus: bool) -> Result<(), Failure> {
        let line = pane.join(" ");
        let mut split = vec!["split-window"];
        if !focus {
            split.push("-d");
        }
        split.extend(["-t", window]);
        match self.contender.kind {
            super::contenders::Kind::Weft => {
                split.push("--");
                split.extend(pane.iter().map(String::as_str));
            }
            super::contenders::Kind::Tmux => split.push(&line),
            _ => return Err(Failure::NotApplicable),
        }
        self.control(&split)?;
        self.control(&["select-layout", "-t", window, "tiled"])?;
        Ok(())
    }

    /// The fake terminal, once started.
    pub fn term(&self) -> Result<&Term, Failure> {
        self.term
            .as_ref()
            .ok_or_else(|| Failure::Failed("no client started".into()))
    }

    /// The session's name (for targets such as `NAME:2`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Runs `args` of the contender's CLI on this session's running server and returns what
    /// it printed (see [`Contender::control`]). Waits for the command without polling, so
    /// only use it once the server runs (a server it started would hold no pipe: output goes
    /// to a file, but nothing bounds the wait).
    pub fn control(&self, args: &[&str]) -> Result<String, Failure> {
        let argv = self
            .contender
            .control(&self.place(), args)
            .ok_or(Failure::NotApplicable)?;
        let (prog, rest) = argv.split_first().ok_or(Failure::NotApplicable)?;
        let log = self.dir.join("control.log");
        let out = std::fs::File::create(&log)?;
        let status = Command::new(prog)
            .args(rest)
            .env_clear()
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .current_dir(&self.dir)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(Stdio::null())
            .status()?;
        let printed = std::fs::read_to_string(&log)?;
        if status.success() {
            Ok(printed)
        } else {
            Err(Failure::Failed(format!(
                "`{}` failed ({status}): {}",
                shown(&argv),
                truncate(printed.trim(), 200)
            )))
        }
    }

    /// Runs a command of the contender's CLI to completion (with a deadline). Its output goes
    /// to a file: a daemonizing server may keep a pipe open for ever.
    fn cli(&self, argv: &[String]) -> Result<(), String> {
        let (prog, args) = argv.split_first().ok_or("empty command")?;
        let log = self.dir.join("cli.log");
        let out = std::fs::File::create(&log).map_err(|e| e.to_string())?;
        let err = out.try_clone().map_err(|e| e.to_string())?;
        let mut child = Command::new(prog)
            .args(args)
            .env_clear()
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .current_dir(&self.dir)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("cannot run {prog}: {e}"))?;
        let deadline = Instant::now() + CLI_TIMEOUT;
        let status = loop {
            if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
                break status;
            }
            if Instant::now() >= deadline {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "`{}` did not finish within {CLI_TIMEOUT:?}",
                    shown(argv)
                ));
            }
            // A fixed nap is right here: std has no wait with a timeout for a child
            std::thread::sleep(Duration::from_millis(2)); // deadline-ok
        };
        if status.success() {
            return Ok(());
        }
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        Err(format!(
            "`{}` failed ({status}): {}",
            shown(argv),
            truncate(&text, 200)
        ))
    }

    /// Waits for the runner of `key` to write its info stamp.
    pub fn wait_info(&self, key: &str, timeout: Duration) -> Result<PaneInfo, Failure> {
        let path = self.dir.join(format!("{key}.info"));
        self.wait_file(&path, timeout, PaneInfo::parse)
    }

    /// Waits for the runner of `key` to write its done stamp.
    pub fn wait_done(&self, key: &str, timeout: Duration) -> Result<Done, Failure> {
        let path = self.dir.join(format!("{key}.done"));
        self.wait_file(&path, timeout, Done::parse)
    }

    fn wait_file<T>(
        &self,
        path: &Path,
        timeout: Duration,
        parse: fn(&str) -> Option<T>,
    ) -> Result<T, Failure> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(v) = std::fs::read_to_string(path)
                .ok()
                .as_deref()
                .and_then(parse)
            {
                return Ok(v);
            }
            let client_gone = self
                .term
                .as_ref()
                .is_some_and(|t| !procs::is_alive(t.pid()));
            if client_gone || Instant::now() >= deadline {
                let what = path
                    .file_name()
                    .map_or(String::new(), |f| f.to_string_lossy().into_owned());
                let tail = self.term.as_ref().map_or(String::new(), |t| t.tail());
                let why = if client_gone {
                    "the client exited"
                } else {
                    "timed out"
                };
                return Err(Failure::Failed(format!(
                    "no {what} ({why}); screen text: {tail}"
                )));
            }
            // A fixed nap is right here: the harness polls the screen it models, not weft
            std::thread::sleep(Duration::from_millis(2)); // deadline-ok
        }
    }

    /// Ends everything the session started: the contender's own shutdown command, then every
    /// tagged process by pid.
    fn cleanup(&mut self) {
        if let Some(argv) = self.contender.kill(&self.place()) {
            let _ = self.cli(&argv);
        }
        let mut pids: Vec<u32> = Vec::new();
        let has_server = self.contender.has_server();
        if let Some(term) = self.term.as_mut() {
            // After the server ends, its client exits by itself.
            let wait = if has_server {
                Duration::from_secs(2)
            } else {
                Duration::ZERO
            };
            if !term.wait_exit(wait) {
                pids.push(term.pid());
            }
        }
        let tag = self.tag.clone();
        pids.extend(
            procs::with_env(TAG_KEY, |v| v == tag)
                .into_iter()
                .map(|(p, _)| p),
        );
        procs::kill_all(&pids, Duration::from_secs(2));
        self.term = None;
        let left: Vec<u32> = procs::with_env(TAG_KEY, |v| v == tag)
            .into_iter()
            .map(|(p, _)| p)
            .filter(|&p| procs::is_alive(p))
            .collect();
        if !left.is_empty() {
            eprintln!("bench: warning: processes left after cleanup: {left:?}");
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        self.cleanup();
    }
}

/// A command line for messages, the bench's own paths shortened.
fn shown(argv: &[String]) -> String {
    argv.iter()
        .map(|a| match a.rsplit_once('/') {
            Some((_, base)) if a.starts_with('/') => base.to_string(),
            _ => a.clone(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn truncate(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}
