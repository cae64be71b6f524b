//! Runs a parsed script against the server: each step is one of the server's commands over the
//! socket (`run-pane`, `send-keys`, `wait`, `capture-pane`, `resize-window`), so waiting is the
//! server's `wait` (woken by the pane's changes) and never a loop here.

use super::parse::{Command, Condition, Step};
use super::report::{row_diff, Screen};
use crate::cli::Cli;
use crate::client::ClientError;
use futures::{SinkExt, StreamExt};
use std::path::PathBuf;
use std::time::Duration;
use weft_protocol::{Message, Reply, Request};

/// The program's size without `size`.
const DEFAULT_SIZE: (u16, u16) = (80, 24);
/// How long waits wait without `timeout`.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);
/// Exit status of a script whose check failed (2 is a mistake in the script).
const FAILED: u8 = 1;
/// Exit status when interrupted (as a shell reports SIGINT).
const INTERRUPTED: u8 = 130;

/// What a server command answered.
struct Answer {
    stdout: String,
    stderr: String,
    code: u8,
}

/// Why a step failed: what to print after `FILE:LINE: `.
struct Failure(String);

impl From<ClientError> for Failure {
    fn from(e: ClientError) -> Self {
        Failure(format!("the server: {e}"))
    }
}

/// A script being run.
pub struct Runner<'a> {
    cli: &'a Cli,
    socket: PathBuf,
    /// The script's name as given (`-` for standard input), for messages.
    name: String,
    /// Where snapshot files are.
    base_dir: PathBuf,
    /// Rewrite snapshots that differ.
    update: bool,
    size: (u16, u16),
    timeout: Duration,
    /// The program's pane (`%N`) and its session (`$N`), once spawned.
    pane: String,
    session: Option<String>,
    /// `weft record` of the pane, once a `record` step started it.
    recorder: Option<tokio::process::Child>,
}

impl<'a> Runner<'a> {
    /// A runner for the script `name` (snapshots relative to `base_dir`).
    pub fn new(
        cli: &'a Cli,
        socket: PathBuf,
        name: String,
        base_dir: PathBuf,
        update: bool,
    ) -> Self {
        Runner {
            cli,
            socket,
            name,
            base_dir,
            update,
            size: DEFAULT_SIZE,
            timeout: DEFAULT_TIMEOUT,
            pane: String::new(),
            session: None,
            recorder: None,
        }
    }

    /// Runs the steps; kills the session it made at the end, whatever happened. Returns the
    /// exit status.
    pub async fn run(mut self, steps: Vec<Step>) -> u8 {
        let outcome = tokio::select! {
            outcome = self.steps(&steps) => Some(outcome),
            _ = tokio::signal::ctrl_c() => None,
        };
        let mut code = match outcome {
            Some(Ok(())) => 0,
            Some(Err((line, Failure(what)))) => {
                eprintln!("{}:{line}: {what}", self.name);
                if self.session.is_some() {
                    match self.screen().await {
                        Ok(screen) => eprint!("{}", screen.numbered()),
                        Err(Failure(why)) => eprintln!("(the screen cannot be read: {why})"),
                    }
                }
                FAILED
            }
            None => {
                eprintln!("{}: interrupted", self.name);
                INTERRUPTED
            }
        };
        if let Some(mut recorder) = self.recorder.take() {
            // SIGTERM ends a recording with a complete file.
            if let Some(pid) = recorder
                .id()
                .and_then(|p| rustix::process::Pid::from_raw(p as i32))
            {
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::TERM);
            }
            match recorder.wait().await {
                Ok(status) if status.success() || status.code() == Some(130) => {}
                Ok(status) => {
                    eprintln!("{}: the recording failed ({status})", self.name);
                    if code == 0 {
                        code = FAILED;
                    }
                }
                Err(e) => eprintln!("{}: the recording did not finish: {e}", self.name),
            }
        }
        if let Some(session) = self.session.take() {
            if let Err(Failure(why)) = self.command(&["kill-session", "-t", &session]).await {
                eprintln!(
                    "{}: cannot kill the script's session {session}: {why}",
                    self.name
                );
            }
        }
        code
    }

    async fn steps(&mut self, steps: &[Step]) -> Result<(), (usize, Failure)> {
        for step in steps {
            self.step(&step.command).await.map_err(|f| (step.line, f))?;
        }
        Ok(())
    }

    async fn step(&mut self, command: &Command) -> Result<(), Failure> {
        match command {
            Command::Size(cols, rows) => self.size = (*cols, *rows),
            Command::Timeout(d) => self.timeout = *d,
            Command::Sleep(d) => tokio::time::sleep(*d).await, // deadline-ok: the script's own `sleep`
            Command::Spawn(words) => self.spawn(words).await?,
            Command::Type(text) => {
                self.ok(&["send-keys", "-l", "-t", &self.pane, "--", text])
                    .await?;
            }
            Command::Key(keys) => {
                let mut words = vec!["send-keys", "-t", &self.pane, "--"];
                words.extend(keys.iter().map(String::as_str));
                self.ok(&words).await?;
            }
            Command::Wait(condition) => self.wait(condition).await?,
            Command::Expect(condition) => self.expect(condition).await?,
            Command::Snapshot(file) => self.snapshot(file).await?,
            Command::Record(file) => self.record(file).await?,
            Command::Resize(cols, rows) => {
                let (cols, rows) = (cols.to_string(), rows.to_string());
                self.ok(&["resize-window", "-t", &self.pane, "-x", &cols, "-y", &rows])
                    .await?;
            }
        }
        Ok(())
    }

    /// Starts the program in a new detached session whose pane stays after it exits (so its
    /// last screen can be checked); remembers the pane and the session.
    async fn spawn(&mut self, words: &[String]) -> Result<(), Failure> {
        let size = format!("{}x{}", self.size.0, self.size.1);
        let cwd = std::env::current_dir()
            .map(|d| d.display().to_string())
            .unwrap_or_else(|_| ".".into());
        let mut args: Vec<&str> = vec!["run-pane", "--remain", "--size", &size, "-c", &cwd, "--"];
        args.extend(words.iter().map(String::as_str));
        let pane = self.ok(&args).await?.stdout.trim().to_string();
        let session = self
            .ok(&["display-message", "-p", "-t", &pane, "#{session_id}"])
            .await;
        match session {
            Ok(session) => {
                self.pane = pane;
                self.session = Some(session.stdout.trim().to_string());
                Ok(())
            }
            Err(failure) => {
                // Nothing to kill at the end: the pane goes now.
                let _ = self.command(&["kill-pane", "-t", &pane]).await;
                Err(failure)
            }
        }
    }

    async fn wait(&mut self, condition: &Condition) -> Result<(), Failure> {
        let timeout = format!("{}", self.timeout.as_secs_f64());
        let pane = self.pane.clone();
        let mut args: Vec<String> = ["wait", "-t", &pane, "--timeout", &timeout]
            .map(str::to_string)
            .to_vec();
        let flag = |name: &str, value: String| [format!("--{name}"), value];
        args.extend(match condition {
            Condition::Text(t) => flag("text", t.clone()).to_vec(),
            Condition::Regex(r) => flag("regex", r.clone()).to_vec(),
            Condition::Absent(t) => flag("absent", t.clone()).to_vec(),
            Condition::Cursor(r, c) => flag("cursor", format!("{r},{c}")).to_vec(),
            Condition::Idle(d) => flag("idle", d.as_millis().to_string()).to_vec(),
            Condition::Exit(_) => vec!["--exit".to_string()],
        });
        let words: Vec<&str> = args.iter().map(String::as_str).collect();
        let answer = self.command(&words).await?;
        let what = describe("wait", condition);
        if answer.code != 0 {
            let reason = answer.stderr.trim().trim_start_matches("weft wait: ");
            let reason = if reason.starts_with("timed out") {
                format!("timed out after {}", seconds(self.timeout))
            } else {
                reason.to_string()
            };
            return Err(Failure(format!("{what} failed: {reason}")));
        }
        if let Condition::Exit(Some(wanted)) = condition {
            let status = answer.stdout.trim();
            if status != wanted.to_string() {
                return Err(Failure(format!(
                    "{what} failed: the program exited with status {status}"
                )));
            }
        }
        Ok(())
    }

    async fn expect(&mut self, condition: &Condition) -> Result<(), Failure> {
        let screen = self.screen().await?;
        let what = describe("expect", condition);
        let holds = match condition {
            Condition::Text(t) => screen.text.contains(t.as_str()),
            Condition::Absent(t) => !screen.text.contains(t.as_str()),
            Condition::Regex(r) => regex::Regex::new(r)
                .map_err(|e| Failure(format!("{what}: {e}")))?
                .is_match(&screen.text),
            Condition::Cursor(r, c) => screen.cursor == (*r, *c),
            // The parser keeps these for `wait`.
            Condition::Idle(_) | Condition::Exit(_) => true,
        };
        if holds {
            return Ok(());
        }
        let why = match condition {
            Condition::Absent(_) => "it is on the screen".to_string(),
            Condition::Cursor(..) => {
                format!("the cursor is at {},{}", screen.cursor.0, screen.cursor.1)
            }
            _ => "not on the screen".to_string(),
        };
        Err(Failure(format!("{what} failed: {why}")))
    }

    /// Compares the screen with `file` (beside the script); writes it when it does not exist
    /// or, with `--update`, differs.
    /// Starts `weft record` of the pane into `file` (beside the script), until the script
    /// ends, and waits until it has written its header and first frame (the screen as it is
    /// then, so nothing shown is missed however quickly the next steps run).
    async fn record(&mut self, file: &str) -> Result<(), Failure> {
        if self.pane.is_empty() {
            return Err(Failure("record: spawn a program first".into()));
        }
        if self.recorder.is_some() {
            return Err(Failure("record: the pane is being recorded already".into()));
        }
        let path = self.base_dir.join(file);
        let exe = std::env::current_exe()
            .map_err(|e| Failure(format!("record: cannot find the weft program: {e}")))?;
        let child = tokio::process::Command::new(exe)
            .arg("-S")
            .arg(&self.socket)
            .args(["record", "-t", &self.pane, "-o"])
            .arg(&path)
            .stdin(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| Failure(format!("record: cannot start weft record: {e}")))?;
        // Started once its header is in the file: a script that ends at once still leaves a
        // whole recording (SIGTERM before that would leave an empty file).
        let mut child = child;
        let deadline = tokio::time::Instant::now() + self.timeout;
        while std::fs::read_to_string(&path).map_or(0, |t| t.lines().count()) < 2 {
            if let Ok(Some(status)) = child.try_wait() {
                return Err(Failure(format!(
                    "record {file}: weft record ended ({status})"
                )));
            }
            if tokio::time::Instant::now() >= deadline {
                return Err(Failure(format!(
                    "record {file}: nothing recorded after {:?}",
                    self.timeout
                )));
            }
            // A short nap is right here: the recorder is another process, and its file is
            // the only sign that it has started.
            tokio::time::sleep(Duration::from_millis(2)).await; // deadline-ok
        }
        self.recorder = Some(child);
        Ok(())
    }

    async fn snapshot(&mut self, file: &str) -> Result<(), Failure> {
        let path = self.base_dir.join(file);
        let mut actual = self.screen().await?.text;
        if !actual.is_empty() && !actual.ends_with('\n') {
            actual.push('\n');
        }
        let write = |why: &str| {
            std::fs::write(&path, &actual).map_err(|e| {
                Failure(format!(
                    "snapshot {file}: cannot write {} ({why}): {e}",
                    path.display()
                ))
            })
        };
        let expected = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                write("a new snapshot")?;
                eprintln!("{}: snapshot {file} written", self.name);
                return Ok(());
            }
            Err(e) => {
                return Err(Failure(format!(
                    "snapshot {file}: cannot read {}: {e}",
                    path.display()
                )))
            }
        };
        let diff = row_diff(&expected, &actual);
        if diff.is_empty() {
            return Ok(());
        }
        if self.update {
            write("--update")?;
            eprintln!("{}: snapshot {file} updated", self.name);
            return Ok(());
        }
        Err(Failure(format!(
            "snapshot {file} differs from the screen (- the file, + the screen; \
             weft script --update rewrites it):\n{}",
            diff.trim_end()
        )))
    }

    /// The pane's screen as text, its size and its cursor.
    async fn screen(&self) -> Result<Screen, Failure> {
        let pane = self.pane.as_str();
        let text = self.ok(&["capture-pane", "-t", pane]).await?.stdout;
        let json = self
            .ok(&["capture-pane", "--json", "-t", pane])
            .await?
            .stdout;
        let value: serde_json::Value = serde_json::from_str(&json)
            .map_err(|e| Failure(format!("the server's capture is not JSON: {e}")))?;
        let number = |v: &serde_json::Value| {
            v.as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .unwrap_or(0)
        };
        Ok(Screen {
            text,
            size: (number(&value["cols"]), number(&value["rows"])),
            cursor: (
                number(&value["cursor"]["row"]),
                number(&value["cursor"]["col"]),
            ),
        })
    }

    /// A server command that must succeed.
    async fn ok(&self, words: &[&str]) -> Result<Answer, Failure> {
        let answer = self.command(words).await?;
        if answer.code != 0 {
            let why = if answer.stderr.trim().is_empty() {
                format!("exit status {}", answer.code)
            } else {
                answer.stderr.trim().to_string()
            };
            return Err(Failure(format!("{} failed: {why}", words[0])));
        }
        Ok(answer)
    }

    /// Runs one server command (starting the server for the first) and collects its output.
    async fn command(&self, words: &[&str]) -> Result<Answer, Failure> {
        let mut conn = if self.session.is_none() {
            crate::commands::start_or_connect(self.cli, &self.socket).await?
        } else {
            crate::client::connect(&self.socket, env!("CARGO_PKG_VERSION")).await?
        };
        let request = Request::Command {
            args: words.iter().map(|w| w.to_string()).collect(),
            pane: None,
            session: None,
        };
        conn.send(Message::Request(request))
            .await
            .map_err(|e| Failure(format!("the server: {e}")))?;
        let mut streamed = Vec::new();
        loop {
            match conn.next().await {
                Some(Ok(Message::Output(bytes))) => streamed.extend_from_slice(&bytes),
                Some(Ok(Message::Reply(reply))) => {
                    let streamed = String::from_utf8_lossy(&streamed).into_owned();
                    return Ok(match reply {
                        Reply::Ok | Reply::Attached { .. } => answer(streamed, 0),
                        Reply::Text { text } => answer(streamed + &text, 0),
                        Reply::Output {
                            stdout,
                            stderr,
                            code,
                        } => Answer {
                            stdout: stdout + &streamed,
                            stderr,
                            code,
                        },
                        Reply::Error { message, code } => Answer {
                            stdout: streamed,
                            stderr: message,
                            code: code.max(1),
                        },
                    });
                }
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(Failure(format!("the server: {e}"))),
                None => return Err(Failure("the server closed the connection".into())),
            }
        }
    }
}

fn answer(stdout: String, code: u8) -> Answer {
    Answer {
        stdout,
        stderr: String::new(),
        code,
    }
}

/// A condition as written in the script, for messages.
fn describe(verb: &str, condition: &Condition) -> String {
    match condition {
        Condition::Text(t) => format!("{verb} text {t:?}"),
        Condition::Regex(r) => format!("{verb} regex /{r}/"),
        Condition::Absent(t) => format!("{verb} absent {t:?}"),
        Condition::Cursor(r, c) => format!("{verb} cursor {r},{c}"),
        Condition::Idle(d) => format!("{verb} idle {}", seconds(*d)),
        Condition::Exit(Some(s)) => format!("{verb} exit {s}"),
        Condition::Exit(None) => format!("{verb} exit"),
    }
}

/// A duration as a person writes it.
fn seconds(d: Duration) -> String {
    if d.subsec_millis() != 0 || d.as_secs() == 0 {
        format!("{}ms", d.as_millis())
    } else {
        format!("{}s", d.as_secs())
    }
}
