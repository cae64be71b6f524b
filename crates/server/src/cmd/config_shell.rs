//! Shell commands a configuration file runs while it is read: `if-shell`'s test runs here,
//! in order, with a deadline (it decides which lines apply); `run-shell` (plugin managers,
//! `powerline-daemon -q`) runs once the server takes connections (the listener runs it),
//! so that what it runs can talk to the server; `run-shell -b` is
//! started and left to run on its own.

use crate::conf_file::LineEffect;
use crate::config::Config;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// The longest an `if-shell` test in a configuration file may run before it counts as failed:
/// the server is starting and waits for it.
const TEST_DEADLINE: Duration = Duration::from_secs(5);
/// The longest `run-shell -d` waits, in seconds (while the file is read, so short).
const MAX_DELAY_SECS: f64 = 2.0;

/// Runs `test` with `sh -c` (input closed, output dropped) and says whether it exited 0. A test
/// still running at [`TEST_DEADLINE`] is killed and counts as failed.
pub(super) fn test_passes(test: &str) -> Result<bool, String> {
    let child = shell(test, Stdio::null(), Stdio::null())
        .map_err(|e| format!("if-shell: cannot run the shell: {e}"))?;
    match wait_until(child, Instant::now() + TEST_DEADLINE) {
        Ok(Some(status)) => Ok(status.success()),
        Ok(None) => Err(format!(
            "if-shell: {test:?} was still running after {} s; it was stopped and counts as \
             failed",
            TEST_DEADLINE.as_secs()
        )),
        Err(e) => Err(format!("if-shell: cannot wait for the shell: {e}")),
    }
}

/// `run-shell [-b] [-C] [-d SECS] COMMAND` in a configuration file, as tmux runs it there: the
/// command is expanded as a format (no session exists yet), then run once the server takes
/// connections, in the file's order, each waited for; a failure is a warning with what it
/// printed. `-b` starts it and goes on at once; `-C` runs it as a weft command instead.
///
/// `serving`: the file is read by a running server (`source-file`), whose configuration waits
/// for the file; the command is then started and not waited for, as with -b, since one that
/// talks back to weft would wait on that very change.
pub(super) fn run_shell(
    config: &mut Config,
    args: &super::Args,
    serving: bool,
) -> Result<LineEffect, String> {
    let command = args.positional.join(" ");
    if command.is_empty() {
        return Err("run-shell: a shell command is needed".into());
    }
    let command = crate::format::expand(&command, &crate::conf_file::config_format_vars(config));
    if args.has('C') {
        let words = crate::words::tokenize(&command).map_err(|e| e.to_string())?;
        return super::config_lines::run_line(config, &words, serving);
    }
    let delay = match args.value('d') {
        None => 0.0,
        Some(d) => match d.parse::<f64>() {
            Ok(secs) if (0.0..=MAX_DELAY_SECS).contains(&secs) => secs,
            _ => {
                return Err(format!(
                    "run-shell: -d takes seconds from 0 to {MAX_DELAY_SECS} in a configuration \
                     file, not {d:?}"
                ))
            }
        },
    };
    let command = if delay > 0.0 {
        format!("sleep {delay}; {command}")
    } else {
        command
    };
    if args.has('b') || serving {
        // The shell starts the command in the background and ends at once: the command is
        // not the server's child, so nothing here waits for it or leaves it a zombie.
        let mut shell = Command::new("/bin/sh");
        shell
            .args([
                "-c",
                "sh -c \"$1\" </dev/null >/dev/null 2>&1 &",
                "sh",
                &command,
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        shell.envs(crate::tmux_shim::job_env());
        let started = shell
            .status()
            .map_err(|e| format!("run-shell: cannot run the shell: {e}"))?;
        return if started.success() {
            Ok(LineEffect::Done)
        } else {
            Err(format!("run-shell: the shell could not start {command:?}"))
        };
    }
    Ok(LineEffect::RunOnceServing(vec![command]))
}

/// `sh -c command` with its input closed and its output where given, in a process group of
/// its own (so a deadline ends what it started too).
fn shell(command: &str, stdout: Stdio, stderr: Stdio) -> std::io::Result<std::process::Child> {
    use std::os::unix::process::CommandExt;
    let mut shell = Command::new("/bin/sh");
    shell
        .process_group(0)
        .arg("-c")
        .arg(command)
        .env(weft_protocol::paths::READING_CONFIG_ENV, "1")
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr);
    shell.envs(crate::tmux_shim::job_env());
    shell.spawn()
}

/// Waits for `child` until `deadline`: its status, or `None` when it was still running then
/// (it is killed and reaped).
fn wait_until(
    mut child: std::process::Child,
    deadline: Instant,
) -> std::io::Result<Option<ExitStatus>> {
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        if Instant::now() >= deadline {
            // The whole group, which the shell leads. Already gone (it ended just now) is
            // fine: it is reaped below either way.
            let group = i32::try_from(child.id())
                .ok()
                .and_then(rustix::process::Pid::from_raw);
            if let Some(group) = group {
                let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
            }
            let _ = child.kill();
            child.wait()?;
            return Ok(None);
        }
        // A fixed nap is right here: std has no wait with a timeout for a child, and this
        // runs once per shell line while the configuration is read.
        std::thread::sleep(Duration::from_millis(2)); // deadline-ok
    }
}
