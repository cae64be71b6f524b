//! `#()` in status formats: each command's first line of output, cached by the command's
//! text. A command runs in the background (`sh -c`, its own process group), at most once at a
//! time, again at most every `status-interval`; until its first result it shows as nothing.
//! Its result reaches the session task as a message, which expands the status line again.
//! Nothing waits for a command: not the session, not a keystroke.

use std::collections::HashMap;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// Results waiting for the session task. Each run sends one, and at most [`MAX_STATUS_JOBS`]
/// run at once; a run whose result does not fit waits for room (only it waits).
pub const JOB_RESULT_CAPACITY: usize = 8;
/// The most commands a session keeps (the least recently shown go first when it is full):
/// a format cannot make the server run or remember commands without bound.
pub const MAX_STATUS_JOBS: usize = 32;
/// The most output read from one run; the first line within it is kept.
pub const MAX_JOB_OUTPUT_BYTES: usize = 64 << 10;

/// A finished run: the command's text and its first line.
#[derive(Debug)]
pub struct JobResult {
    /// The command, as the cache knows it.
    pub command: String,
    /// Its first line of output (empty when it printed none).
    pub output: String,
}

/// One command's place in the cache.
#[derive(Debug)]
struct JobEntry {
    /// The last result, once there is one.
    output: Option<String>,
    /// A run is under way.
    running: bool,
    /// When the last run started.
    started: Instant,
    /// The expansion pass that last showed it (for dropping the least recently shown).
    shown: u64,
}

/// A session's shell commands and their last output.
#[derive(Debug)]
pub struct StatusJobs {
    entries: HashMap<String, JobEntry>,
    results: mpsc::Sender<JobResult>,
    /// Cancelled when the session ends: runs under way are killed.
    stop: CancellationToken,
    /// Counts expansion passes.
    pass: u64,
}

impl StatusJobs {
    /// An empty cache whose runs report to `results`.
    pub fn new(results: mpsc::Sender<JobResult>) -> Self {
        StatusJobs {
            entries: HashMap::new(),
            results,
            stop: CancellationToken::new(),
            pass: 0,
        }
    }

    /// Starts an expansion pass: commands looked up through the result are marked shown;
    /// runs start only with `start`, and again only after `every`.
    pub fn lookup_pass(&mut self, every: Option<Duration>, start: bool) -> JobLookup<'_> {
        self.pass += 1;
        JobLookup {
            jobs: self,
            every,
            start,
            used: false,
        }
    }

    /// Takes in a finished run; whether what the command shows changed.
    pub fn finished(&mut self, result: JobResult) -> bool {
        let Some(entry) = self.entries.get_mut(&result.command) else {
            return false;
        };
        entry.running = false;
        let changed = entry.output.as_deref() != Some(&result.output);
        entry.output = Some(result.output);
        changed
    }

    /// When a command shown in the last pass is next due to run again.
    pub fn next_due(&self, every: Option<Duration>) -> Option<Instant> {
        let every = every?;
        self.entries
            .values()
            .filter(|e| e.shown == self.pass && !e.running)
            .map(|e| e.started + every)
            .min()
    }

    /// Whether a run of `command` is under way.
    #[cfg(test)]
    fn running(&self, command: &str) -> bool {
        self.entries.get(command).is_some_and(|e| e.running)
    }

    /// Makes room for one more command: drops the least recently shown command not running.
    /// False when every command kept is running.
    fn make_room(&mut self) -> bool {
        if self.entries.len() < MAX_STATUS_JOBS {
            return true;
        }
        let oldest = self
            .entries
            .iter()
            .filter(|(_, e)| !e.running)
            .min_by_key(|(_, e)| e.shown)
            .map(|(k, _)| k.clone());
        match oldest {
            Some(k) => {
                self.entries.remove(&k);
                true
            }
            None => false,
        }
    }

    /// Starts a run of `command` in the background.
    fn start(&self, command: &str) {
        let results = self.results.clone();
        let stop = self.stop.child_token();
        let command = command.to_string();
        tokio::spawn(async move {
            let output = tokio::select! {
                output = first_line(&command) => output,
                // Dropping the run kills its process group.
                () = stop.cancelled() => return,
            };
            let _ = results.send(JobResult { command, output }).await;
        });
    }
}

impl Drop for StatusJobs {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

/// One expansion pass over the cache (see [`StatusJobs::lookup_pass`]).
#[derive(Debug)]
pub struct JobLookup<'a> {
    jobs: &'a mut StatusJobs,
    every: Option<Duration>,
    start: bool,
    used: bool,
}

impl JobLookup<'_> {
    /// What `command` shows now (its last output, `None` before the first), starting a run
    /// when it has none under way and its last is older than `status-interval`.
    pub fn lookup(&mut self, command: &str) -> Option<String> {
        self.used = true;
        let now = Instant::now();
        let pass = self.jobs.pass;
        if let Some(entry) = self.jobs.entries.get_mut(command) {
            entry.shown = pass;
            let due = self.every.is_some_and(|every| now >= entry.started + every);
            let output = entry.output.clone();
            if self.start && !entry.running && due {
                entry.running = true;
                entry.started = now;
                self.jobs.start(command);
            }
            return output;
        }
        if !self.start || !self.jobs.make_room() {
            return None;
        }
        self.jobs.entries.insert(
            command.to_string(),
            JobEntry {
                output: None,
                running: true,
                started: now,
                shown: pass,
            },
        );
        self.jobs.start(command);
        None
    }

    /// Ends the pass: whether any command was shown.
    pub fn finish(self) -> bool {
        self.used
    }
}

/// Kills a run's process group when dropped (the run ended, or was cancelled with the
/// session), so no command outlives its use.
struct GroupKiller(Option<u32>);

impl Drop for GroupKiller {
    fn drop(&mut self) {
        if let Some(pid) = self
            .0
            .and_then(|p| rustix::process::Pid::from_raw(p as i32))
        {
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
    }
}

/// Runs `command` with `sh -c` (standard input closed, errors discarded, its own process
/// group) and returns its first line: read until a line ends, the output ends, or
/// [`MAX_JOB_OUTPUT_BYTES`] came; then the command's processes are killed.
async fn first_line(command: &str) -> String {
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
    let spawned = shell.spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(e) => return format!("<'{command}' didn't start: {e}>"),
    };
    // Declared after `child`, so dropped before it: the group is killed while the shell is
    // not yet reaped and its pid (the group's id) cannot belong to anyone else.
    let killer = GroupKiller(child.id());
    let Some(mut stdout) = child.stdout.take() else {
        return String::new();
    };
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    while buf.len() < MAX_JOB_OUTPUT_BYTES && !buf.contains(&b'\n') {
        match stdout.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => buf.extend_from_slice(&chunk[..n.min(MAX_JOB_OUTPUT_BYTES - buf.len())]),
        }
    }
    drop(killer);
    let _ = child.wait().await;
    let line = buf.split(|b| *b == b'\n').next().unwrap_or_default();
    String::from_utf8_lossy(line)
        .trim_end_matches('\r')
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_command_runs_once_at_a_time_and_shows_its_first_line() {
        let (tx, mut rx) = mpsc::channel(JOB_RESULT_CAPACITY);
        let mut jobs = StatusJobs::new(tx);
        let every = Some(Duration::from_secs(3600));
        let cmd = "printf 'one\\ntwo\\n'";
        assert_eq!(
            jobs.lookup_pass(every, true).lookup(cmd),
            None,
            "nothing yet"
        );
        assert!(jobs.running(cmd));
        assert_eq!(jobs.lookup_pass(every, true).lookup(cmd), None);
        let result = rx.recv().await.unwrap();
        assert_eq!(result.output, "one");
        assert!(jobs.finished(result));
        assert!(!jobs.running(cmd));
        assert_eq!(
            jobs.lookup_pass(every, true).lookup(cmd).as_deref(),
            Some("one")
        );
        assert!(!jobs.running(cmd), "not again before the interval");
        assert!(jobs.next_due(every).is_some());
        assert!(rx.try_recv().is_err(), "one run only");
    }

    #[tokio::test]
    async fn commands_start_only_when_allowed_and_the_cache_is_bounded() {
        let (tx, mut rx) = mpsc::channel(JOB_RESULT_CAPACITY);
        let mut jobs = StatusJobs::new(tx);
        assert_eq!(jobs.lookup_pass(None, false).lookup("echo x"), None);
        assert!(jobs.entries.is_empty(), "no client: nothing runs");
        for i in 0..MAX_STATUS_JOBS + 5 {
            let mut pass = jobs.lookup_pass(None, true);
            pass.lookup(&format!("echo {i}"));
            if i >= MAX_STATUS_JOBS {
                // Every one kept is running: no room.
                continue;
            }
        }
        assert!(jobs.entries.len() <= MAX_STATUS_JOBS);
        let mut done = 0;
        while done < MAX_STATUS_JOBS {
            let r = rx.recv().await.unwrap();
            jobs.finished(r);
            done += 1;
        }
        jobs.lookup_pass(None, true).lookup("echo new");
        assert!(jobs.entries.len() <= MAX_STATUS_JOBS);
        assert!(
            jobs.entries.contains_key("echo new"),
            "the oldest made room"
        );
    }
}
