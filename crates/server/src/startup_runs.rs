//! The configuration file's `run-shell` commands, run once the server takes connections (so
//! that a plugin manager's `tmux` commands reach it) and before it says "ready": in the
//! file's order, each waited for until its shell exits, within a deadline the starting
//! client's own wait allows. Output goes to a file, not a pipe, so a command that leaves a
//! program running in the background (`run 'daemon &'`) does not hold the start back; one
//! still running at its deadline is stopped with its whole process group.

use crate::conf_file::DeferredRun;
use std::time::{Duration, Instant};

/// The longest one command may run.
const RUN_DEADLINE: Duration = Duration::from_secs(5);
/// How long after the server process started every command must be done: the starting client
/// waits 10 s for "ready", and the file's `if-shell` tests run before these.
pub const STARTUP_BUDGET: Duration = Duration::from_secs(9);
/// The most of a failed command's output shown in its warning.
const MAX_SHOWN_BYTES: u64 = 4096;

/// Runs `runs` in order, each stopped at its deadline or at `deadline`; the warnings for those
/// that failed, each starting with its `file:line`.
pub async fn run_all(runs: Vec<DeferredRun>, deadline: Instant) -> Vec<String> {
    let mut said = Vec::new();
    for run in runs {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            said.push(format!(
                "{}: run-shell: not run: the server's start took over {} s",
                run.at,
                STARTUP_BUDGET.as_secs()
            ));
            continue;
        }
        if let Err(why) = run_one(&run.command, left.min(RUN_DEADLINE)).await {
            said.push(format!("{}: run-shell: {why}", run.at));
        }
    }
    said
}

/// Runs `command` with `sh -c` in a process group of its own, waits for the shell to exit
/// (killing the group at `limit`), and says why it failed.
async fn run_one(command: &str, limit: Duration) -> Result<(), String> {
    let mut output =
        unnamed_file().map_err(|e| format!("no file for the output of {command:?}: {e}"))?;
    let to_file = |file: &std::fs::File| {
        file.try_clone()
            .map(std::process::Stdio::from)
            .map_err(|e| format!("no file for the output of {command:?}: {e}"))
    };
    let mut shell = tokio::process::Command::new("/bin/sh");
    shell
        .arg("-c")
        .arg(command)
        .stdin(std::process::Stdio::null())
        .stdout(to_file(&output)?)
        .stderr(to_file(&output)?)
        .process_group(0);
    shell.envs(crate::tmux_shim::job_env());
    let mut child = shell
        .spawn()
        .map_err(|e| format!("cannot run the shell: {e}"))?;
    let group = child.id();
    let status = match tokio::time::timeout(limit, child.wait()).await {
        Ok(waited) => waited.map_err(|e| format!("cannot wait for the shell: {e}"))?,
        Err(_) => {
            if let Some(pid) = group.and_then(|p| rustix::process::Pid::from_raw(p as i32)) {
                let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
            }
            let _ = child.wait().await;
            return Err(format!(
                "{command:?} was still running after {:.1} s and was stopped",
                limit.as_secs_f64()
            ));
        }
    };
    if status.success() {
        return Ok(());
    }
    use std::os::unix::process::ExitStatusExt;
    let code = status.code().map_or_else(
        || format!("signal {}", status.signal().unwrap_or(0)),
        |c| c.to_string(),
    );
    let printed = read_start(&mut output);
    Err(
        format!("'{command}' returned {code}: {}", printed.trim_end())
            .trim_end_matches([':', ' '])
            .to_string(),
    )
}

/// A new file in the temporary directory with no name left (removed once open).
fn unnamed_file() -> std::io::Result<std::fs::File> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("weft-run-{}-{n}", std::process::id()));
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)?;
    std::fs::remove_file(&path)?;
    Ok(file)
}

/// The start of what was written to `file` (up to [`MAX_SHOWN_BYTES`]), as text.
fn read_start(file: &mut std::fs::File) -> String {
    use std::io::{Read, Seek};
    let mut text = Vec::new();
    let read = file
        .seek(std::io::SeekFrom::Start(0))
        .and_then(|_| file.take(MAX_SHOWN_BYTES).read_to_end(&mut text));
    if let Err(e) = read {
        return format!("(its output could not be read: {e})");
    }
    String::from_utf8_lossy(&text).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(at: &str, command: &str) -> DeferredRun {
        DeferredRun {
            at: at.into(),
            command: command.into(),
        }
    }

    #[tokio::test]
    async fn each_runs_in_order_and_failures_say_what_they_printed() {
        let dir = std::env::temp_dir().join(format!("weft-startup-runs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("log");
        let said = run_all(
            vec![
                run("f:1", &format!("echo one >> {}", log.display())),
                run("f:2", "echo why; exit 3"),
                // What it leaves running in the background does not hold the start back.
                run("f:3", &format!("sleep 30 & echo two >> {}", log.display())),
            ],
            Instant::now() + Duration::from_secs(20),
        )
        .await;
        assert_eq!(said, ["f:2: run-shell: 'echo why; exit 3' returned 3: why"]);
        assert_eq!(std::fs::read_to_string(&log).unwrap(), "one\ntwo\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[tokio::test]
    async fn past_the_deadline_commands_are_stopped_or_not_run() {
        let said = run_all(
            vec![run("f:1", "exec sleep 30"), run("f:2", "true")],
            Instant::now() + Duration::from_millis(300),
        )
        .await;
        assert_eq!(said.len(), 2, "{said:?}");
        assert!(said[0].contains("still running"), "{said:?}");
        assert!(said[1].contains("not run"), "{said:?}");
    }
}
