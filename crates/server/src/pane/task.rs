//! The pane task: parses queued output into the screen, answers renderers and the session,
//! applies resizes, writes replies to the program, and reports the program's exit.

use super::reader::{Chunk, FairSlice};
use super::shared::PaneShared;
use super::{PaneCommand, EXIT_DRAIN_GRACE, STREAMING_CHUNK_BYTES};
use crate::deadline::Deadline;
use crate::direct::DirectWriter;
use crate::ids::PaneId;
use bytes::Bytes;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot, watch};
use tokio_util::sync::CancellationToken;
use weft_pty_io::{ChildProcess, ExitStatus, Pty};
use weft_screen_model::palette::HostColors;

/// Writes queued input to the pty in order; waits while the program is not reading.
pub(super) async fn write_pty(
    pty_in: Arc<DirectWriter>,
    mut input: mpsc::Receiver<Bytes>,
    stop: CancellationToken,
) {
    loop {
        let data = tokio::select! {
            _ = stop.cancelled() => return,
            data = input.recv() => data,
        };
        let Some(data) = data else { return };
        let written = tokio::select! {
            _ = stop.cancelled() => return,
            r = pty_in.write_queued(&data) => r,
        };
        if written.is_err() {
            return;
        }
        tracing::trace!(bytes = data.len(), "pty write");
    }
}

/// The next chunk to parse: what is left of one whose parse stopped (`true`: resumed), else
/// the next one queued. Cancel-safe: nothing is taken before the first poll.
async fn next_chunk(
    rest: &mut Option<Chunk>,
    output: &mut mpsc::Receiver<Chunk>,
) -> Option<(Chunk, bool)> {
    if let Some(chunk) = rest.take() {
        return Some((chunk, true));
    }
    output.recv().await.map(|chunk| (chunk, false))
}

/// How long a stream must have stopped before the history it left unpacked is packed (see
/// `Scrollback::defer_packing`): long enough that a pause between bursts rarely packs blocks
/// the next burst drops, shorter than the allocator's trim after a flood
/// (`crate::memory::TRIM_AFTER_QUIET`), which then returns what packing freed.
const HISTORY_PACK_DELAY: std::time::Duration = std::time::Duration::from_millis(100);

/// Shortest time between two resizes of a program's terminal: a user dragging a window's corner
/// sends hundreds of sizes a second, and each one applied is a SIGWINCH and a full redraw for
/// the program. The first after a pause applies at once, the last always applies.
const RESIZE_INTERVAL: std::time::Duration = std::time::Duration::from_millis(50);

/// When to apply a wanted size: at once after a quiet [`RESIZE_INTERVAL`], else at the end of
/// it, so a storm of sizes reaches the program as at most one resize per interval, ending
/// with the latest.
#[derive(Debug)]
struct ResizePacer {
    last: Option<tokio::time::Instant>,
    pending: Option<tokio::time::Instant>,
    timer: Deadline,
}

impl Default for ResizePacer {
    fn default() -> Self {
        ResizePacer {
            last: None,
            pending: None,
            timer: Deadline::new(),
        }
    }
}

impl ResizePacer {
    /// A new size is wanted at `now`: true to apply it now, else it is due later.
    fn wanted(&mut self, now: tokio::time::Instant) -> bool {
        match self.last {
            Some(last) if now < last + RESIZE_INTERVAL => {
                let at = last + RESIZE_INTERVAL;
                self.pending = Some(at);
                self.timer.set(Some(at));
                false
            }
            _ => {
                self.applied(now);
                true
            }
        }
    }

    /// A size was applied at `now`.
    fn applied(&mut self, now: tokio::time::Instant) {
        self.last = Some(now);
        self.pending = None;
        self.timer.set(None);
    }

    /// Resolves when a held size is due; never while none is held.
    async fn due(&mut self) {
        if self.pending.is_some() {
            self.timer.wait().await;
        } else {
            std::future::pending::<()>().await;
        }
    }
}

/// How long output may stay inside an unterminated OSC or DCS string (everything after it
/// swallowed) before the pane gives up on the string, as tmux does after 5 s.
const STRING_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// How long after output the pane looks at which program is in its foreground
/// (`automatic-rename`): a program started or ended shows some output first (the shell's echo
/// and prompt), and it is in place a moment later; at most four looks a second.
const PROGRAM_CHECK_DELAY: std::time::Duration = std::time::Duration::from_millis(250);

/// How long a program has to exit after `SIGHUP` before it gets `SIGKILL`.
const HANG_UP_GRACE: std::time::Duration = std::time::Duration::from_millis(500);

/// Waits for the program to exit (or ends it on request: `SIGHUP`, as closing its terminal
/// does, then `SIGKILL` if it is still there after [`HANG_UP_GRACE`]) and reports the status.
pub(super) async fn wait_child(
    mut child: ChildProcess,
    exit: oneshot::Sender<ExitStatus>,
    kill: oneshot::Receiver<()>,
) {
    let status = tokio::select! {
        status = child.wait_exit() => status,
        _ = kill => {
            let _ = child.hang_up();
            match tokio::time::timeout(HANG_UP_GRACE, child.wait_exit()).await {
                Ok(status) => status,
                Err(_) => {
                    let _ = child.force_kill();
                    child.wait_exit().await
                }
            }
        }
    };
    let status = status.unwrap_or(ExitStatus {
        code: 1,
        signal: None,
    });
    let _ = exit.send(status);
}

pub(super) struct PaneTask {
    pub(super) id: PaneId,
    pub(super) pty: Pty,
    pub(super) pty_in: Arc<DirectWriter>,
    pub(super) shared: Arc<PaneShared>,
    pub(super) input: mpsc::Sender<Bytes>,
    pub(super) kill: Option<oneshot::Sender<()>>,
    /// Cancelled by [`PaneHandle::kill`].
    pub(super) kill_requested: CancellationToken,
    pub(super) stop: CancellationToken,
    /// The users' terminals' colours, which the program's colour queries are answered with.
    pub(super) host_colors: watch::Receiver<Arc<HostColors>>,
}

impl PaneTask {
    pub(super) async fn run(
        mut self,
        mut output: mpsc::Receiver<Chunk>,
        mut commands: mpsc::Receiver<PaneCommand>,
        mut exit: oneshot::Receiver<ExitStatus>,
        exited: mpsc::Sender<(PaneId, ExitStatus)>,
    ) {
        let mut output_open = true;
        // The pane was killed (not its program ending, nor its pty closing): no
        // remain-on-exit.
        let mut ended_on_request = false;
        let mut host_colors_open = true;
        let input = self.input.clone();
        let mut slice = FairSlice::new();
        // While another pane's echo is pending, a streaming pane parses nothing more.
        let mut hold: Option<tokio::time::Instant> = None;
        let mut hold_timer = Deadline::new();
        let mut resizes = ResizePacer::default();
        // An unterminated string's deadline, and which string it is for.
        let mut string_at: Option<(tokio::time::Instant, u64)> = None;
        let mut string_timer = Deadline::new();
        // When to look at the program in the pty's foreground again: armed by output, fired
        // once (no polling: a quiet pane is never looked at).
        let mut program_at: Option<tokio::time::Instant> = None;
        let mut program_timer = Deadline::new();
        // When to pack the history a stream left unpacked: armed by streaming chunks, fired
        // once the stream has stopped for [`HISTORY_PACK_DELAY`].
        let mut pack_at: Option<tokio::time::Instant> = None;
        let mut pack_timer = Deadline::new();
        let priority = self.shared.priority.clone();
        // What is left of a chunk whose parse stopped for another pane's echo (see
        // [`next_chunk`]).
        let mut rest: Option<Chunk> = None;
        // Registered once, like the reader's stop token.
        let kill_requested = self.kill_requested.clone();
        let killed = kill_requested.cancelled();
        tokio::pin!(killed);
        let status = loop {
            let released = priority.released();
            tokio::pin!(released);
            released.as_mut().enable();
            if hold.is_some() {
                hold = priority.hold_for(self.id);
            }
            hold_timer.set(hold);
            string_timer.set(string_at.map(|(at, _)| at));
            program_timer.set(program_at);
            pack_timer.set(pack_at);
            tokio::select! {
                biased;
                status = &mut exit => {
                    break status.unwrap_or(ExitStatus { code: 1, signal: None });
                }
                command = commands.recv() => match command {
                    Some(command) => self.handle(command),
                    None => {
                        ended_on_request = true;
                        self.request_kill();
                    }
                },
                _ = &mut killed, if self.kill.is_some() => {
                    ended_on_request = true;
                    self.request_kill();
                }
                _ = self.shared.resize.notified() => {
                    let now = tokio::time::Instant::now();
                    if self.shared.resize_urgent.swap(false, Ordering::AcqRel) {
                        resizes.applied(now);
                        self.apply_wanted_size();
                    } else if resizes.wanted(now) {
                        self.apply_wanted_size();
                    }
                }
                _ = self.shared.string_opened.notified() => {
                    let serial = self.shared.string_serial.load(Ordering::Acquire);
                    string_at = Some((tokio::time::Instant::now() + STRING_TIMEOUT, serial));
                }
                _ = string_timer.wait(), if string_at.is_some() => {
                    if let Some((_, serial)) = string_at.take() {
                        self.abandon_string(serial);
                    }
                }
                _ = self.shared.program_wake.notified() => {
                    program_at = Some(tokio::time::Instant::now() + PROGRAM_CHECK_DELAY);
                }
                _ = program_timer.wait(), if program_at.is_some() => {
                    program_at = None;
                    self.shared.program_due.store(false, Ordering::Release);
                    self.check_program();
                }
                _ = pack_timer.wait(), if pack_at.is_some() => {
                    pack_at = None;
                    self.shared.pack_deferred_history();
                }
                _ = resizes.due() => {
                    resizes.applied(tokio::time::Instant::now());
                    self.apply_wanted_size();
                }
                changed = self.host_colors.changed(), if host_colors_open => match changed {
                    Ok(()) => self.apply_host_colors(),
                    Err(_) => host_colors_open = false,
                },
                _ = self.shared.replies_ready.notified() => {}
                permit = input.reserve(), if self.shared.has_replies() => {
                    if let Ok(permit) = permit {
                        let replies = self
                            .shared
                            .replies
                            .lock()
                            .map(|mut r| std::mem::take(&mut *r))
                            .unwrap_or_default();
                        let replies = Bytes::from(replies);
                        self.pty_in.write_or_queue_into(replies, permit);
                    }
                }
                _ = &mut released, if hold.is_some() => hold = None,
                _ = hold_timer.wait() => hold = None,
                chunk = next_chunk(&mut rest, &mut output), if output_open && hold.is_none() => match chunk {
                    Some(((chunk, read_at), resumed)) => {
                        let streaming = resumed
                            || chunk.len() >= STREAMING_CHUNK_BYTES
                            || !output.is_empty();
                        self.shared.set_streaming(streaming);
                        // A stream's chunk stops at a piece's end when another pane's echo
                        // waits; the rest is parsed once the echo is shown.
                        let id = self.id;
                        let fed = self.shared.apply_output_until(&chunk, read_at, !streaming, &|| {
                            streaming && priority.echo_waits(id)
                        });
                        if fed < chunk.len() {
                            rest = Some((chunk.slice(fed..), read_at));
                        } else {
                            self.shared.order.parsed();
                        }
                        slice
                            .after_chunk(fed, priority.floods_contend())
                            .await;
                        if streaming && priority.floods_contend() {
                            // Far ahead of the slowest flood: it gives way (once).
                            priority.shares.parsed(self.id, fed).await;
                        }
                        if streaming {
                            hold = priority.hold_for(self.id);
                            pack_at = Some(tokio::time::Instant::now() + HISTORY_PACK_DELAY);
                        }
                    }
                    None => {
                        // Nothing holds the terminal open any more: a program that closed it
                        // and kept running is gone as far as the pane goes (tmux marks such a
                        // pane dead). It hears SIGHUP, as from a closed terminal.
                        output_open = false;
                        self.request_kill();
                    }
                },
            }
        };
        self.shared
            .exit_code
            .store(i64::from(status.code), Ordering::Release);
        // No longer one of the floods that take turns.
        self.shared.set_streaming(false);
        // Show what the program printed last: read until the pty closes, or until a deadline
        // when a background job keeps it open.
        let deadline = tokio::time::Instant::now() + EXIT_DRAIN_GRACE;
        if let Some((chunk, read_at)) = rest.take() {
            self.shared.apply_output(&chunk, read_at, false);
            self.shared.order.parsed();
        }
        while output_open {
            tokio::select! {
                chunk = output.recv() => match chunk {
                    Some((chunk, read_at)) => {
                        self.shared.apply_output(&chunk, read_at, false);
                        self.shared.order.parsed();
                    }
                    None => output_open = false,
                },
                command = commands.recv() => match command {
                    Some(command) => self.handle(command),
                    None => break,
                },
                _ = tokio::time::sleep_until(deadline) => break,
            }
        }
        let remains = self.shared.remain_on_exit.load(Ordering::Acquire) && !ended_on_request;
        if remains {
            // The status line goes on the screen before the pane says it has finished, so a
            // waiter for the pane's text that wakes on the end sees it (`wait --text`).
            let note = format!(
                "\r\n\x1b[0m{}",
                super::dead_note::dead_note(&self.shared.options(), &status, self.id)
            );
            self.apply(note.as_bytes());
        }
        self.stop.cancel();
        // No more output comes to stop a stream: what history waited is packed now.
        self.shared.pack_deferred_history();
        // Waiters for the exit wake now.
        self.shared.notify_watchers();
        if remains {
            // Keep showing the screen, with the status, until the pane is killed.
            // Never waits: with the session's queue full the hook is missed.
            let _ = self
                .shared
                .events
                .try_send((self.id, super::PaneEvent::Died));
            loop {
                tokio::select! {
                    _ = &mut killed => break,
                    command = commands.recv() => match command {
                        None => break,
                        Some(command) => self.handle(command),
                    },
                    _ = self.shared.resize.notified() => self.apply_wanted_size(),
                }
            }
        }
        // Respawned: the id is the new program's, whose end is its own to report.
        if !self.shared.replaced.load(Ordering::Acquire) {
            let _ = exited.send((self.id, status)).await;
        }
    }

    /// Gives up on the unterminated string `serial` if the output is still stuck in it: later
    /// output shows again.
    fn abandon_string(&mut self, serial: u64) {
        let shared = &self.shared;
        if !shared.string_open.load(Ordering::Acquire)
            || shared.string_serial.load(Ordering::Acquire) != serial
        {
            return;
        }
        shared.screen().abandon_string();
        shared.string_open.store(false, Ordering::Release);
        shared
            .metrics
            .abandoned_strings
            .fetch_add(1, Ordering::Relaxed);
        tracing::debug!(pane = self.id.get(), "gave up on an unterminated string");
        self.publish();
    }

    /// Resizes the screen and the pty to the size the session wants.
    /// The users' terminals' colours changed: the screen answers with the new ones, and tells
    /// a program that asked for colour scheme reports (mode 2031) when the scheme turned.
    fn apply_host_colors(&mut self) {
        let colors = self.host_colors.borrow_and_update().clone();
        let mut screen = self.shared.screen();
        screen.set_host_colors(colors);
        let replies = screen.has_replies().then(|| screen.take_replies());
        drop(screen);
        if let Some(replies) = replies {
            self.shared.queue_replies(&replies);
        }
    }

    fn apply_wanted_size(&mut self) {
        let packed = self.shared.wanted_size.load(Ordering::Acquire);
        let (cols, rows) = (((packed >> 16) as u16).max(1), (packed as u16).max(1));
        let mut screen = self.shared.screen();
        let changed = screen.cols() != usize::from(cols) || screen.rows() != usize::from(rows);
        screen.resize(usize::from(cols), usize::from(rows));
        if changed && self.shared.record.is_tapped() {
            let size = (screen.cols() as u16, screen.rows() as u16);
            self.shared.record.offer_resize(size.0, size.1);
        }
        drop(screen);
        let _ = self.pty.resize(cols, rows);
        self.shared
            .size
            .store(u64::from(cols) << 16 | u64::from(rows), Ordering::Relaxed);
        self.publish();
    }

    fn handle(&mut self, command: PaneCommand) {
        match command {
            PaneCommand::Snapshot { since, reply } => {
                let snapshot = self.shared.snapshot_from(&self.shared.screen(), since);
                let _ = reply.send(snapshot);
            }
            PaneCommand::Capture { mut state, reply } => {
                let piece = state.next_piece(&self.shared.screen());
                let _ = reply.send((state, piece));
            }
        }
    }

    /// Looks at the program in the pty's foreground; tells the session when it changed.
    fn check_program(&mut self) {
        let Some(pgid) = self.pty.foreground_process() else {
            return;
        };
        let Ok(comm) = std::fs::read_to_string(format!("/proc/{pgid}/comm")) else {
            return;
        };
        let name = comm.trim().to_string();
        if self.shared.program() == name {
            return;
        }
        // Never waits: with the session's queue full the change is not kept, and the next
        // look (after the next output) brings it.
        let sent = self
            .shared
            .events
            .try_send((self.id, super::PaneEvent::Program(name.clone())));
        if sent.is_ok() {
            if let Ok(mut program) = self.shared.program.lock() {
                *program = name;
            }
        }
    }

    fn request_kill(&mut self) {
        if let Some(kill) = self.kill.take() {
            let _ = kill.send(());
        }
    }

    /// Feeds bytes of weft's own (the dead pane's note) to the screen.
    fn apply(&mut self, chunk: &[u8]) {
        self.shared.feed(chunk, None, false);
    }

    fn publish(&self) {
        self.shared.publish_from(&self.shared.screen());
        self.shared.notify_watchers();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_storm_of_sizes_applies_once_per_interval_and_the_last_one_lands() {
        let mut pacer = ResizePacer::default();
        let start = tokio::time::Instant::now();
        assert!(pacer.wanted(start), "the first applies at once");
        // More sizes within the interval are held, not applied.
        for ms in (2..50).step_by(2) {
            assert!(!pacer.wanted(start + std::time::Duration::from_millis(ms)));
        }
        // The held one is due at the end of the interval, and only then.
        pacer.due().await;
        let due = tokio::time::Instant::now();
        assert_eq!(due, start + RESIZE_INTERVAL);
        pacer.applied(due);
        // Nothing held: never due.
        let never = tokio::time::timeout(std::time::Duration::from_secs(3600), pacer.due()).await;
        assert!(never.is_err());
        // After a quiet interval a size applies at once again.
        assert!(pacer.wanted(due + RESIZE_INTERVAL));
    }
}
