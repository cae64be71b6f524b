//! `pipe-pane`: a pane's output copied to a shell command's standard input (`-O`), and the
//! command's output typed into the pane (`-I`).
//!
//! The pty reader offers each chunk it reads to the pipe only while one taps the output (one
//! atomic load when none does). Output waits for the command in one buffer of at most
//! [`MAX_PIPE_QUEUED_BYTES`] (counting what is being written); a command that does not keep
//! up loses what would not fit, counted (`weft diag`, `dropped_pipe_bytes`) and said once per
//! stall to the session's clients. The pane never waits for the command.
//!
//! The command runs in a process group of its own. It ends with the pipe: its input closes,
//! and after [`PIPE_CLOSE_GRACE`] the group is killed; a task dropped with the server kills it
//! at once. A command that exits, or that cannot be written to, closes the pipe, said so.

use super::shared::PaneShared;
use super::PaneEvent;
use bytes::Bytes;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

/// The most output waiting for a pipe's command (counting the piece being written): a
/// command that stops reading costs the server at most this.
pub const MAX_PIPE_QUEUED_BYTES: usize = 4 << 20;

/// How long a closed pipe's command has to exit on its own (its input closed) before its
/// process group is killed.
const PIPE_CLOSE_GRACE: Duration = Duration::from_millis(500);

/// How much of a `-I` command's output is read at a time before it goes to the pane.
const PIPE_READ_BYTES: usize = 4096;

/// A pane's pipe, if one is open.
#[derive(Debug, Default)]
pub(crate) struct PipeSlot {
    /// Output is copied to a pipe's command: the reader's only check.
    tapped: AtomicBool,
    /// A pipe is open, in either direction (`#{pane_pipe}`, `pipe-pane -o`).
    open: AtomicBool,
    /// Numbers pipes, so a closing one never clears the slot of the one after it.
    serial: AtomicU64,
    current: Mutex<Option<OpenPipe>>,
}

#[derive(Debug)]
struct OpenPipe {
    serial: u64,
    /// Where output waits for the command (`-O`).
    queue: Option<Arc<PipeQueue>>,
    /// Cancelled to close the pipe.
    close: CancellationToken,
}

/// Output waiting for the command.
#[derive(Debug, Default)]
struct PipeQueue {
    state: Mutex<QueueState>,
    /// Output arrived.
    ready: Notify,
    /// Output started being dropped.
    overflowed: Notify,
}

#[derive(Debug, Default)]
struct QueueState {
    data: Vec<u8>,
    /// Bytes taken by the writer and not yet written.
    writing: usize,
    /// Bytes dropped since the pipe opened.
    dropped: u64,
    /// Dropping now: said once until the command catches up.
    dropping: bool,
}

impl PipeSlot {
    /// Whether a pipe is open.
    pub(crate) fn is_open(&self) -> bool {
        self.open.load(Ordering::Acquire)
    }

    /// Whether output goes to a pipe: checked by the reader for every chunk.
    #[inline]
    pub(super) fn is_tapped(&self) -> bool {
        self.tapped.load(Ordering::Relaxed)
    }

    /// Copies a chunk of output to the pipe's queue, or drops it (counted) when the queue is
    /// full. Never waits on the command.
    pub(super) fn offer(&self, chunk: &[u8], dropped_counter: &AtomicU64) {
        let queue = match self.current.lock() {
            Ok(current) => current.as_ref().and_then(|p| p.queue.clone()),
            Err(_) => None,
        };
        let Some(queue) = queue else { return };
        let Ok(mut state) = queue.state.lock() else {
            return;
        };
        if state.data.len() + state.writing + chunk.len() <= MAX_PIPE_QUEUED_BYTES {
            state.data.extend_from_slice(chunk);
            drop(state);
            queue.ready.notify_one();
            return;
        }
        state.dropped += chunk.len() as u64;
        dropped_counter.fetch_add(chunk.len() as u64, Ordering::Relaxed);
        if !state.dropping {
            state.dropping = true;
            drop(state);
            queue.overflowed.notify_one();
        }
    }

    /// Closes the open pipe, if any.
    pub(super) fn close(&self) {
        let old = self.current.lock().ok().and_then(|mut c| c.take());
        if let Some(old) = old {
            self.tapped.store(false, Ordering::Release);
            self.open.store(false, Ordering::Release);
            old.close.cancel();
        }
    }

    /// The pipe `serial` ended: clears the slot unless another pipe replaced it.
    fn ended(&self, serial: u64) {
        if let Ok(mut current) = self.current.lock() {
            if current.as_ref().is_some_and(|p| p.serial == serial) {
                *current = None;
                self.tapped.store(false, Ordering::Release);
                self.open.store(false, Ordering::Release);
            }
        }
    }
}

/// How a pipe is opened.
#[derive(Clone, Debug)]
pub struct PipeSpec {
    /// The shell command (`sh -c`).
    pub command: String,
    /// The pane's output goes to the command (`-O`).
    pub output: bool,
    /// The command's output goes to the pane (`-I`).
    pub input: bool,
    /// Where the command starts (the pane's working directory, if known).
    pub cwd: Option<std::path::PathBuf>,
}

impl super::PaneHandle {
    /// Whether a pipe is open.
    pub fn pipe_open(&self) -> bool {
        self.shared.pipe.is_open()
    }

    /// Closes the pane's pipe, if one is open.
    pub fn close_pipe(&self) {
        self.shared.pipe.close();
    }

    /// Opens a pipe (closing any open one first). Errors are sentences.
    pub fn open_pipe(&self, spec: PipeSpec) -> Result<(), String> {
        if self.stop.is_cancelled() {
            return Err("the pane's program has exited; a pipe needs a live pane".into());
        }
        self.close_pipe();
        let mut command = tokio::process::Command::new("/bin/sh");
        command
            .arg("-c")
            .arg(&spec.command)
            .stdin(piped_if(spec.output))
            .stdout(piped_if(spec.input))
            .stderr(std::process::Stdio::null())
            .process_group(0)
            .kill_on_drop(true);
        command.envs(crate::tmux_shim::job_env());
        if let Some(cwd) = spec.cwd.filter(|d| d.is_dir()) {
            command.current_dir(cwd);
        }
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start the shell for {:?}: {e}", spec.command))?;
        let slot = &self.shared.pipe;
        let serial = slot.serial.fetch_add(1, Ordering::Relaxed) + 1;
        let queue = spec.output.then(|| Arc::new(PipeQueue::default()));
        let close = CancellationToken::new();
        let pipe = RunningPipe {
            serial,
            command: spec.command,
            group: child.id(),
            stdin: child.stdin.take(),
            stdout: child.stdout.take(),
            child,
            queue: queue.clone(),
            close: close.clone(),
            pane_stop: self.stop.clone(),
            shared: self.shared.clone(),
            typing: spec.input.then(|| PaneInput {
                pty_in: self.pty_in.clone(),
                input: self.input.clone(),
            }),
        };
        if let Ok(mut current) = slot.current.lock() {
            *current = Some(OpenPipe {
                serial,
                queue,
                close,
            });
        }
        slot.open.store(true, Ordering::Release);
        slot.tapped.store(spec.output, Ordering::Release);
        tokio::spawn(pipe.run());
        Ok(())
    }
}

/// Where a `-I` command's output goes: the pane's input, as typed (without the keystroke
/// clock). Not the pane's handle: a pipe does not keep its pane's task alive.
struct PaneInput {
    pty_in: Arc<crate::direct::DirectWriter>,
    input: tokio::sync::mpsc::Sender<Bytes>,
}

impl PaneInput {
    /// Sends bytes to the program, waiting while its input is full. False once it is gone.
    async fn send(&self, bytes: Bytes) -> bool {
        self.pty_in.write_or_send(bytes, &self.input).await
    }
}

fn piped_if(yes: bool) -> std::process::Stdio {
    if yes {
        std::process::Stdio::piped()
    } else {
        std::process::Stdio::null()
    }
}

/// A pipe's command and its ends, owned by the pipe's task.
struct RunningPipe {
    serial: u64,
    command: String,
    /// The command's process group (its pid).
    group: Option<u32>,
    child: tokio::process::Child,
    stdin: Option<tokio::process::ChildStdin>,
    stdout: Option<tokio::process::ChildStdout>,
    queue: Option<Arc<PipeQueue>>,
    close: CancellationToken,
    pane_stop: CancellationToken,
    shared: Arc<PaneShared>,
    /// Where the command's output goes (`-I`).
    typing: Option<PaneInput>,
}

impl RunningPipe {
    /// Runs the pipe until it is closed, the pane ends, or the command fails; says why when
    /// it was not asked for.
    async fn run(mut self) {
        let shared = self.shared.clone();
        // Boxed, so that dropping the writer closes the command's input before the task ends.
        let mut writer = Box::pin(write_output(self.queue.clone(), self.stdin.take()));
        let mut reader = Box::pin(read_input(self.stdout.take(), self.typing.take()));
        let mut reading = true;
        let overflowed = self.queue.clone();
        let why: Option<String> = loop {
            let overflow = async {
                match &overflowed {
                    Some(q) => q.overflowed.notified().await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                _ = self.close.cancelled() => break None,
                _ = self.pane_stop.cancelled() => break None,
                status = self.child.wait() => break match status {
                    // A command typing into the pane (-I only) that finished is done, not
                    // failed.
                    Ok(s) if s.success() && self.queue.is_none() => None,
                    Ok(s) => Some(match s.code() {
                        Some(code) => format!("exited with status {code}"),
                        None => "was killed by a signal".to_string(),
                    }),
                    Err(e) => Some(format!("could not be waited for: {e}")),
                },
                Err(e) = &mut writer => break Some(format!("stopped taking output: {e}")),
                _ = &mut reader, if reading => reading = false,
                _ = overflow => {
                    let text = format!(
                        "pipe-pane {}: {:?} is not keeping up; output beyond {} MiB waiting \
                         for it is dropped (weft diag counts it)",
                        shared.id,
                        self.command,
                        MAX_PIPE_QUEUED_BYTES >> 20
                    );
                    tell(&shared, text);
                }
            }
        };
        if reading && matches!(self.child.try_wait(), Ok(Some(_))) {
            // The command ended: what it printed last still reaches the pane (unless a
            // background job keeps its output open).
            let _ = tokio::time::timeout(PIPE_CLOSE_GRACE, &mut reader).await;
        }
        shared.pipe.ended(self.serial);
        let dropped = self
            .queue
            .as_ref()
            .and_then(|q| q.state.lock().ok().map(|s| s.dropped))
            .unwrap_or(0);
        if let Some(why) = why {
            let mut text = format!(
                "pipe-pane {}: {:?} {why}; the pipe is closed",
                shared.id, self.command
            );
            if dropped > 0 {
                text.push_str(&format!(" ({dropped} bytes of output were dropped)"));
            }
            tell(&shared, text);
        }
        // Its input closes (the writer goes): a command like `cat > file` finishes on its own.
        drop(writer);
        drop(reader);
        if tokio::time::timeout(PIPE_CLOSE_GRACE, self.child.wait())
            .await
            .is_err()
        {
            self.kill_group();
            let _ = self.child.wait().await;
        }
    }

    fn kill_group(&self) {
        let Some(pid) = self.group.and_then(|g| i32::try_from(g).ok()) else {
            return;
        };
        if let Some(pid) = rustix::process::Pid::from_raw(pid) {
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
    }
}

impl Drop for RunningPipe {
    /// A pipe dropped without closing (the server ending) takes its command's group with it.
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.kill_group();
        }
    }
}

/// Tells the pane's session `text`, for its clients. Never waits.
fn tell(shared: &PaneShared, text: String) {
    tracing::info!("{text}");
    let _ = shared
        .events
        .try_send((shared.id, PaneEvent::Message(text)));
}

/// Writes queued output to the command until writing fails (the answer); never resolves
/// without a queue.
async fn write_output(
    queue: Option<Arc<PipeQueue>>,
    stdin: Option<tokio::process::ChildStdin>,
) -> Result<(), std::io::Error> {
    let (Some(queue), Some(mut stdin)) = (queue, stdin) else {
        return std::future::pending().await;
    };
    loop {
        let ready = queue.ready.notified();
        let data = match queue.state.lock() {
            Ok(mut state) => {
                let data = std::mem::take(&mut state.data);
                state.writing = data.len();
                if data.is_empty() {
                    // Caught up: a later stall is said again.
                    state.dropping = false;
                }
                data
            }
            Err(_) => return Ok(()),
        };
        if data.is_empty() {
            ready.await;
            continue;
        }
        stdin.write_all(&data).await?;
        if let Ok(mut state) = queue.state.lock() {
            state.writing = 0;
        }
    }
}

/// Types the command's output into the pane until it ends (or the pane does).
async fn read_input(stdout: Option<tokio::process::ChildStdout>, pane: Option<PaneInput>) {
    let (Some(mut stdout), Some(pane)) = (stdout, pane) else {
        return std::future::pending().await;
    };
    let mut buf = vec![0u8; PIPE_READ_BYTES];
    loop {
        match stdout.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => {
                if !pane.send(Bytes::copy_from_slice(&buf[..n])).await {
                    return;
                }
            }
        }
    }
}
