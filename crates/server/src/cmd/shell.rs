//! Commands that run shell commands: run-shell and if-shell, as tmux's (configurations and
//! plugins are built on them). The shell runs in the background of the server: never on the
//! session's task, with its output bounded and a deadline.

use super::{Action, ClientRequest, Entry};
use crate::outcome::{CommandError, Output};
use futures::FutureExt;
use std::time::Duration;

/// The most of a command's output kept (the rest is dropped, said so).
const MAX_OUTPUT_BYTES: usize = 1 << 20;
/// How long a shell command may run before it is killed (with its process group) when
/// something waits for it: `run-shell` without -b from the command line or a hook, and
/// if-shell's test. One that holds nothing (`-b`, or run from a key or the prompt, whose
/// client goes on meanwhile) runs as long as it takes, as in tmux: a picker in a popup waits
/// for its user.
const SHELL_DEADLINE: Duration = Duration::from_secs(30);

tokio::task_local! {
    /// Set around a command a client runs in the background (`run-shell` from a key): the
    /// shell it starts holds nothing, so it has no deadline.
    pub static HOLDS_NOTHING: bool;
}

/// Whether the running task's shell commands hold nothing (see [`HOLDS_NOTHING`]).
fn holds_nothing() -> bool {
    HOLDS_NOTHING.try_with(|h| *h).unwrap_or(false)
}

/// `run-shell`.
pub static RUN_SHELL: Entry = Entry {
    name: "run-shell",
    aliases: &["run"],
    usage: "[-bC] [-d delay] [-t target-pane] shell-command",
    about: "Run a shell command (sh -c) and show what it printed; -b in the background, \
            without waiting; -d waits that many seconds first. The command is expanded as a \
            format for the pane (-t, else the current one) first: `run 'echo #{session_name}'`. \
            Killed after 30 s when something waits for it (the command line, a hook). -C runs \
            it as weft commands instead, after the same expansion.",
    flags: "bCEd:c:t:",
    long: &[],
    read_only: false,
    target: Some(crate::outcome::TargetKind::Pane),
    build: |args| {
        let command = args.positional.join(" ");
        if command.is_empty() {
            return Err(args.usage("a shell command is needed"));
        }
        let delay = match args.value('d') {
            Some(d) => match d.parse::<f64>() {
                Ok(secs) if secs.is_finite() && (0.0..=MAX_DELAY_SECS).contains(&secs) => {
                    Duration::from_secs_f64(secs)
                }
                _ => {
                    return Err(args.usage(format!(
                        "-d takes seconds from 0 to {MAX_DELAY_SECS}, not {d:?}"
                    )))
                }
            },
            None => Duration::ZERO,
        };
        let background = args.has('b');
        if args.has('C') {
            // As if-shell's chosen command, expanded first: the client (or the command line)
            // runs it where the command came from.
            return Ok(Action::Client(ClientRequest::IfShell {
                test: "1".into(),
                format: true,
                then: command,
                otherwise: None,
                expand: true,
            }));
        }
        // Only a command with a format in it needs a pane to expand it for; the others run
        // even on a server with no session, as tmux's do.
        if !command.contains('#') {
            return Ok(Action::Server(Box::new(move |ctx| {
                run_shell(ctx, None, command, delay, background).boxed()
            })));
        }
        Ok(Action::Pane(Box::new(move |pane, ctx| {
            async move {
                let session = ctx
                    .registry
                    .find_pane(pane.id())
                    .await
                    .ok_or(CommandError::PaneGone)?;
                let template = command.clone();
                let target = pane.id().to_string();
                let expanded = session
                    .run(
                        Box::new(move |s, _| {
                            let scope = crate::session::Scope {
                                target: Some(target),
                                from: None,
                            };
                            let (wpos, p) = s.find_pane(&scope)?;
                            let text = crate::format::expand(&template, &s.format_context(wpos, p));
                            Ok(Output::text(text))
                        }),
                        crate::session::Scope::default(),
                    )
                    .await?;
                run_shell(ctx, Some(session), expanded.stdout, delay, background).await
            }
            .boxed()
        })))
    },
};

/// The longest `run-shell -d` waits, in seconds (a day).
const MAX_DELAY_SECS: f64 = 86_400.0;

/// Runs `command` after `delay`, returning what it printed; with `background`, at once,
/// and what it printed (or its failure) is shown to the clients of `session` (else of the
/// current session) as a message when it ends, as tmux shows it.
async fn run_shell(
    ctx: crate::context::ServerContext,
    session: Option<crate::session::SessionHandle>,
    command: String,
    delay: Duration,
    background: bool,
) -> Result<Output, CommandError> {
    if background {
        tokio::spawn(async move {
            tokio::time::sleep(delay).await; // deadline-ok: the delay `-d` asks for, once
            let said = match run_within(&command, None).await {
                Ok(done) if done.code != 0 => format!("'{command}' returned {}", done.code),
                Ok(done) => done.stdout.trim_end().replace('\n', " "),
                Err(e) => {
                    tracing::warn!("run-shell -b {command:?}: {e}");
                    format!("run-shell -b: {e}")
                }
            };
            let session = match session {
                Some(s) => Some(s),
                None => ctx.registry.find_current().await,
            };
            if let (false, Some(session)) = (said.is_empty(), session) {
                session.try_send(crate::session::SessionCommand::Message(said));
            }
        });
        return Ok(Output::none());
    }
    tokio::time::sleep(delay).await; // deadline-ok: the delay `-d` asks for, once
    let deadline = (!holds_nothing()).then_some(SHELL_DEADLINE);
    let done = run_within(&command, deadline)
        .await
        .map_err(CommandError::failed)?;
    let mut out = Output::text(done.stdout.trim_end().to_string());
    if done.code != 0 {
        out.stderr = format!("'{command}' returned {}", done.code);
    }
    Ok(out)
}

/// `if-shell`.
pub static IF_SHELL: Entry = Entry {
    name: "if-shell",
    aliases: &["if"],
    usage: "[-bF] [-t target-pane] shell-command command [command]",
    about: "Run the first command (or, with -F, expand it as a format) and, if it succeeded \
            (or is not empty or 0), run the second, else the third.",
    flags: "bFt:",
    long: &[],
    read_only: false,
    target: None,
    build: |args| {
        let (test, then, otherwise) = match args.positional.as_slice() {
            [t, a] => (t.clone(), a.clone(), None),
            [t, a, b] => (t.clone(), a.clone(), Some(b.clone())),
            _ => return Err(args.usage("a shell command and one or two commands are needed")),
        };
        // Both commands are checked now: a typo fails when the line runs, not later. An empty
        // one (`{}`) does nothing.
        for line in std::iter::once(&then).chain(&otherwise) {
            if !line.trim().is_empty() {
                super::parse_line_sequence(line)?;
            }
        }
        Ok(Action::Client(ClientRequest::IfShell {
            test,
            format: args.has('F'),
            then,
            otherwise,
            expand: false,
        }))
    },
};

/// What a finished shell command printed and how it ended.
pub struct Finished {
    /// Its standard output (at most [`MAX_OUTPUT_BYTES`]).
    pub stdout: String,
    /// Its exit status (128 + n after signal n; 124 when killed at the deadline).
    pub code: i32,
}

/// Runs `command` with `sh -c`, its own process group, standard input closed; killed after
/// 30 s.
pub async fn run(command: &str) -> Result<Finished, String> {
    run_within(command, Some(SHELL_DEADLINE)).await
}

/// [`run`], killed after `deadline` if there is one.
async fn run_within(command: &str, deadline: Option<Duration>) -> Result<Finished, String> {
    use tokio::io::AsyncReadExt;
    let mut shell = tokio::process::Command::new("/bin/sh");
    shell
        .arg("-c")
        .arg(command)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .process_group(0)
        .kill_on_drop(true);
    shell.envs(crate::tmux_shim::job_env());
    let mut child = shell
        .spawn()
        .map_err(|e| format!("cannot run the shell: {e}"))?;
    let mut stdout = child.stdout.take().ok_or("no output pipe")?;
    let read = async {
        let mut buf = Vec::new();
        let mut chunk = [0u8; 8192];
        loop {
            match stdout.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) if buf.len() < MAX_OUTPUT_BYTES => {
                    let room = MAX_OUTPUT_BYTES - buf.len();
                    buf.extend_from_slice(&chunk[..n.min(room)]);
                }
                Ok(_) => {}
            }
        }
        let status = child.wait().await;
        (buf, status)
    };
    let ran = match deadline {
        Some(deadline) => tokio::time::timeout(deadline, read).await,
        None => Ok(read.await),
    };
    match ran {
        Ok((buf, status)) => {
            use std::os::unix::process::ExitStatusExt;
            let code = match status {
                Ok(s) => s.code().unwrap_or_else(|| 128 + s.signal().unwrap_or(0)),
                Err(e) => return Err(format!("cannot wait for the shell: {e}")),
            };
            Ok(Finished {
                stdout: String::from_utf8_lossy(&buf).into_owned(),
                code,
            })
        }
        Err(_) => Ok(Finished {
            stdout: String::new(),
            code: 124,
        }),
    }
}

/// The command line an if-shell runs: `then` when its test holds, else `otherwise`.
pub async fn chosen(
    ctx: &crate::context::ServerContext,
    origin: &super::run::Origin,
    test: &str,
    format: bool,
    then: String,
    otherwise: Option<String>,
    expand: bool,
) -> Option<String> {
    let chosen = if test_holds(ctx, origin, test, format).await {
        Some(then)
    } else {
        otherwise
    };
    let chosen = match chosen {
        Some(line) if expand => expand_for(ctx, origin, &line).await,
        line => line,
    };
    chosen.filter(|line| !line.trim().is_empty())
}

/// Whether an if-shell test holds: the shell command succeeded, or (`format`) the format,
/// expanded for the pane the command comes from, is not empty and not `0`.
async fn test_holds(
    ctx: &crate::context::ServerContext,
    origin: &super::run::Origin,
    test: &str,
    format: bool,
) -> bool {
    // The test is a format for the target pane either way, as in tmux: with -F it is the
    // answer, else the shell command it makes (`ps -t '#{pane_tty}' | grep -q vim`).
    let Some(expanded) = expand_for(ctx, origin, test).await else {
        return false;
    };
    if format {
        let t = expanded.trim();
        return !t.is_empty() && t != "0";
    }
    run(&expanded).await.is_ok_and(|f| f.code == 0)
}

/// `text` expanded as a format where the command runs (`display-message -p`); unchanged when
/// it has no `#`. `None`: it could not be expanded (no such pane).
///
/// A format only, as tmux's `format_single`: `display-message` also reads `%` as `strftime`'s,
/// so each `%` is kept literal (a shell test's `printf '%s'`, a prompt template's `%%`).
pub(crate) async fn expand_for(
    ctx: &crate::context::ServerContext,
    origin: &super::run::Origin,
    text: &str,
) -> Option<String> {
    if !text.contains('#') {
        return Some(text.to_string());
    }
    let kept = text.replace('%', "#{l:%}");
    let words = ["display-message", "-p", "--", &kept].map(str::to_string);
    let parsed = super::parse(&words).ok()?;
    match super::run::execute(ctx, parsed, origin).await {
        Ok(super::run::Ran::Output(out)) => Some(
            out.stdout
                .strip_suffix('\n')
                .unwrap_or(&out.stdout)
                .to_string(),
        ),
        _ => None,
    }
}
