//! A pane: a program on a pty and the screen that shows it, owned by one task.
//!
//! ```text
//!  pty reader task --[PTY_OUTPUT_CAPACITY]--> pane task (writes the Screen) --notify--> renderers
//!  clients, replies --(straight to the pty when nothing is queued)
//!                   --[PANE_INPUT_CAPACITY]--> pty writer task
//!  renderers, session --[PANE_COMMAND_CAPACITY]--> pane task (snapshot, resize, kill)
//!  exit waiter task --oneshot--> pane task
//! ```
//! The reader waits when the pane task is behind, so the program blocks on output (lossless
//! backpressure). The pane task never waits on a full input channel: replies queue locally and
//! go out when there is room, so a program blocked on output cannot deadlock its own pane.
//! Renderers read the screen under its lock when the pane task is not parsing, and ask the pane
//! task otherwise; input goes straight to the pty when nothing is queued ahead of it and the
//! pty takes it whole, so a key's echo crosses as few tasks as possible.

use crate::deadline::Deadline;
use crate::direct::DirectWriter;
use bytes::Bytes;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use tokio::sync::{mpsc, oneshot, Notify};
use tokio_util::sync::CancellationToken;
use tracing::Instrument;
use weft_pty_io::{ChildProcess, ExitStatus, Pty, PtyReader, SpawnOptions, READ_CHUNK_BYTES};
use weft_renderer::OuterModes;
use weft_screen_model::{Cell, CursorState, Screen};

/// Chunks (up to 64 KiB each) read ahead of the pane task: enough to keep the reader busy while
/// the screen parses, small enough that a flood holds at most 256 KiB per pane.
pub const PTY_OUTPUT_CAPACITY: usize = 4;
/// Input messages (keys, pastes, replies) waiting for the pty: a program that stops reading
/// fills this and then senders wait, rather than memory growing.
pub const PANE_INPUT_CAPACITY: usize = 256;
/// Requests (snapshots, resizes) waiting for the pane task; renderers send one at a time each.
pub const PANE_COMMAND_CAPACITY: usize = 32;
/// Replies to the program held while its input is full; more are dropped.
const MAX_PENDING_REPLY_BYTES: usize = 64 * 1024;
/// The reader's buffer until a read fills it (then [`READ_CHUNK_BYTES`]): a pty hands out
/// about 4 KiB at a time, so shells and editors never need more.
const FIRST_READ_BYTES: usize = 4 * 1024;
/// A read at least this large means output is streaming: renderers pace frames, and the
/// reader and the pane task count it towards their `FAIR_SLICE`.
const STREAMING_CHUNK_BYTES: usize = 16 * 1024;
/// After the program exits, how long to keep reading output a background job may hold open.
const EXIT_DRAIN_GRACE: std::time::Duration = std::time::Duration::from_millis(200);

/// What a renderer needs of a pane.
#[derive(Debug)]
pub struct PaneSnapshot {
    /// Screen revision this reflects.
    pub seq: u64,
    /// Columns.
    pub cols: usize,
    /// Rows.
    pub rows: usize,
    /// Rows changed after the `since` asked for: index and cells.
    pub changed: Vec<(usize, Vec<Cell>)>,
    /// Cursor.
    pub cursor: CursorState,
    /// Modes to mirror to the client's terminal when this pane has focus.
    pub modes: OuterModes,
}

/// Requests to the pane task.
#[derive(Debug)]
pub enum PaneCommand {
    /// Rows changed after `since` (0: all), cursor and modes.
    Snapshot {
        /// Last revision the asker saw.
        since: u64,
        /// Where to answer.
        reply: oneshot::Sender<PaneSnapshot>,
    },
    /// `rows` rows ending `offset` lines above the live screen (history view), and how many
    /// history lines there are.
    History {
        /// Lines above the bottom of the live screen.
        offset: usize,
        /// Rows wanted.
        rows: usize,
        /// The answer.
        reply: oneshot::Sender<(Vec<Vec<Cell>>, usize)>,
    },
    /// The screen as text, escapes or JSON, with its revision.
    Capture {
        /// How.
        options: crate::capture::CaptureOptions,
        /// The answer: output and revision.
        reply: oneshot::Sender<(String, u64)>,
    },
}

/// A renderer that lends its state, while idle, to whoever applies a quiet change to a pane (an
/// echo), so the frame is drawn at once on that thread instead of after a task switch. The
/// renderer implements it (`render::fast::FastSlot`); the pane only calls it, under the
/// screen's lock.
pub trait EchoDrawer: Send + Sync + std::fmt::Debug {
    /// Draws the quiet change of pane `shared` from `screen` (locked by the caller) if the
    /// renderer is idle and can, without ever waiting for it; false: the caller wakes the
    /// renderer instead.
    fn try_draw(&self, shared: &PaneShared, screen: &Screen) -> bool;
}

/// A renderer watching a pane: woken on change, or, for a quiet change while it is idle, given
/// the frame to draw at once by whoever applied the change (see [`EchoDrawer`]).
#[derive(Debug)]
struct Watcher {
    notify: Weak<Notify>,
    fast: Option<Weak<dyn EchoDrawer>>,
}

/// Pane state others may read without asking the pane task.
#[derive(Debug)]
pub struct PaneShared {
    /// `%N` number.
    pub id: u64,
    /// Latest screen revision.
    pub seq: AtomicU64,
    /// The program is inside a synchronized update (DECSET 2026).
    pub sync: AtomicBool,
    /// The last output applied was a large read or had more queued behind it: output is
    /// streaming, so renderers pace frames. False once a small read drained the pty.
    pub streaming: AtomicBool,
    /// The program enabled bracketed paste (2004).
    pub bracketed_paste: AtomicBool,
    /// Mouse reports the program wants: 0 none, 1 presses, 2 drags, 3 all motion.
    pub mouse_reporting: std::sync::atomic::AtomicU8,
    /// The program wants SGR (1006) mouse reports.
    pub mouse_sgr: AtomicBool,
    /// The program wants application cursor keys (DECCKM).
    pub application_cursor: AtomicBool,
    /// The alternate screen is shown (no history to scroll).
    pub alternate_screen: AtomicBool,
    /// The program's exit code once it exited, else -1.
    pub exit_code: std::sync::atomic::AtomicI64,
    /// The program's pid.
    pub pid: Option<u32>,
    /// Size, packed as cols << 16 | rows.
    size: AtomicU64,
    /// Size the session wants, packed like `size`; applied by the pane task when woken.
    wanted_size: AtomicU64,
    /// Wakes the pane task to apply `wanted_size`.
    resize: Notify,
    /// Title set by the program.
    title: Mutex<String>,
    /// Renderers to wake on change.
    watchers: Mutex<Vec<Watcher>>,
    /// Chunks handed to the pane task and not yet applied. The reader applies a small chunk
    /// itself only when this is 0: then everything it read before is on the screen already,
    /// so output is applied in order.
    in_flight: AtomicUsize,
    /// Replies to the program (terminal answers to its queries), for the pane task to send.
    replies: Mutex<Vec<u8>>,
    /// Wakes the pane task to send `replies`.
    replies_ready: Notify,
    /// Figures for `weft diag`.
    pub metrics: Arc<crate::metrics::PaneMetrics>,
    /// Server-wide: keystroke echoes before floods (renderers report shown echoes here).
    pub priority: Arc<crate::priority::EchoPriority>,
    /// The screen. Only the pane task changes it; renderers read it directly when it is free
    /// (no round trip through the pane task for an echo), and ask the pane task when it is
    /// busy parsing.
    screen: Mutex<Screen>,
}

impl PaneShared {
    /// The screen, locked; a poisoned lock still gives it (a panic mid-parse leaves a screen
    /// that is at worst partly updated, which the next output repairs).
    fn screen(&self) -> std::sync::MutexGuard<'_, Screen> {
        self.screen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// What a renderer needs, read directly when the pane task is not holding the screen.
    fn try_snapshot(&self, since: u64) -> Option<PaneSnapshot> {
        match self.screen.try_lock() {
            Ok(screen) => Some(snapshot_of(&screen, since)),
            Err(std::sync::TryLockError::Poisoned(p)) => Some(snapshot_of(&p.into_inner(), since)),
            Err(std::sync::TryLockError::WouldBlock) => None,
        }
    }

    /// Wakes every renderer watching this pane; forgets those that went away.
    fn notify_watchers(&self) {
        for notify in self.watchers_to_wake(None) {
            notify.notify_one();
        }
    }

    /// The renderers to wake for a change; forgets those that went away. With `quiet` (a
    /// quiet change: the screen, locked by the caller), idle renderers draw it here and now
    /// instead, and are not woken: an echo reaches the terminal without a task switch.
    fn watchers_to_wake(&self, quiet: Option<&Screen>) -> Vec<Arc<Notify>> {
        let mut wake = Vec::new();
        if let Ok(mut watchers) = self.watchers.lock() {
            watchers.retain(|w| {
                let Some(notify) = w.notify.upgrade() else {
                    return false;
                };
                let drawn = match (quiet, w.fast.as_ref().and_then(Weak::upgrade)) {
                    (Some(screen), Some(slot)) => slot.try_draw(self, screen),
                    _ => false,
                };
                if !drawn {
                    wake.push(notify);
                }
                true
            });
        }
        wake
    }

    /// Program output read at `read_at`: parsed, timed, and shown to renderers. `quiet`: the
    /// pty was drained by a small read (an echo, not a stream).
    fn apply_output(&self, chunk: &[u8], read_at: u64, quiet: bool) {
        let m = &self.metrics;
        m.parse.idle_ends();
        let started = crate::metrics::Tick::now();
        // A flood's chunk is bulk work: this thread should not preempt others for it.
        let bulk = (chunk.len() >= STREAMING_CHUNK_BYTES).then(crate::sched::BulkWork::start);
        self.feed(chunk, Some(read_at), quiet);
        drop(bulk);
        let took = m.parse.busy_since(started);
        m.parse.item(chunk.len());
        tracing::trace!(bytes = chunk.len(), us = took.as_micros() as u64, "parse");
    }

    /// Feeds bytes to the screen and tells renderers; queues the screen's replies. `read_at`:
    /// when the program's output was read (none for weft's own notes).
    fn feed(&self, chunk: &[u8], read_at: Option<u64>, quiet: bool) {
        let mut screen = self.screen();
        screen.feed(chunk);
        // Under the screen's lock, before any renderer can draw it (an idle one does so just
        // below): the frame that shows this output ends its bytes-to-screen time.
        if let Some(read_at) = read_at {
            self.metrics.output_applied(read_at);
        }
        let replies = screen.has_replies().then(|| screen.take_replies());
        for event in screen.take_events() {
            if let weft_screen_model::Event::TitleChanged(title) = event {
                if let Ok(mut t) = self.title.lock() {
                    *t = title;
                }
            }
        }
        self.publish_from(&screen);
        // Inside a synchronized update nothing is drawn before it ends.
        let quiet = quiet && !screen.modes().synchronized_output;
        let wake = self.watchers_to_wake(quiet.then_some(&*screen));
        // Renderers woken now find the screen free.
        drop(screen);
        for notify in wake {
            notify.notify_one();
        }
        if let Some(replies) = replies {
            self.queue_replies(&replies);
        }
    }

    /// Hands replies to the pane task, which writes them to the program; beyond
    /// [`MAX_PENDING_REPLY_BYTES`] waiting (the program is not reading) they are dropped.
    fn queue_replies(&self, replies: &[u8]) {
        if let Ok(mut pending) = self.replies.lock() {
            if pending.len() + replies.len() <= MAX_PENDING_REPLY_BYTES {
                pending.extend_from_slice(replies);
            } else {
                self.metrics
                    .dropped_reply_bytes
                    .fetch_add(replies.len() as u64, Ordering::Relaxed);
            }
        }
        self.replies_ready.notify_one();
    }

    /// Whether replies wait for the pane task.
    fn has_replies(&self) -> bool {
        self.replies.lock().is_ok_and(|r| !r.is_empty())
    }

    /// Mirrors the screen's revision and modes into the shared atomics.
    fn publish_from(&self, screen: &Screen) {
        self.seq.store(screen.seqno(), Ordering::Release);
        let modes = screen.modes();
        self.sync
            .store(modes.synchronized_output, Ordering::Release);
        self.bracketed_paste
            .store(modes.bracketed_paste, Ordering::Relaxed);
        self.mouse_reporting.store(
            match modes.mouse_tracking {
                weft_screen_model::MouseTracking::Off => 0,
                weft_screen_model::MouseTracking::Press => 1,
                weft_screen_model::MouseTracking::Drag => 2,
                weft_screen_model::MouseTracking::Motion => 3,
            },
            Ordering::Relaxed,
        );
        self.mouse_sgr.store(
            modes.mouse_encoding == weft_screen_model::MouseEncoding::Sgr,
            Ordering::Relaxed,
        );
        self.application_cursor
            .store(modes.application_cursor, Ordering::Relaxed);
        self.alternate_screen
            .store(screen.is_alternate_screen(), Ordering::Relaxed);
    }

    /// Current size as (cols, rows).
    pub fn size(&self) -> (u16, u16) {
        let packed = self.size.load(Ordering::Relaxed);
        ((packed >> 16) as u16, packed as u16)
    }

    /// The title the program set.
    pub fn title(&self) -> String {
        self.title.lock().map(|t| t.clone()).unwrap_or_default()
    }
}

/// A cheap, cloneable handle on a pane.
#[derive(Clone, Debug)]
pub struct PaneHandle {
    commands: mpsc::Sender<PaneCommand>,
    /// Cancelled to end the program (and, with remain-on-exit, the dead pane).
    kill: CancellationToken,
    input: mpsc::Sender<Bytes>,
    pty_in: Arc<DirectWriter>,
    /// Shared state.
    pub shared: Arc<PaneShared>,
}

impl PaneHandle {
    /// The `%N` number.
    pub fn id(&self) -> u64 {
        self.shared.id
    }

    /// The rows changed after `since`; `None` once the pane is gone. Read directly when the
    /// screen is free, else asked of the pane task (which answers between chunks).
    pub async fn snapshot(&self, since: u64) -> Option<PaneSnapshot> {
        if self.commands.is_closed() {
            return None;
        }
        if let Some(snapshot) = self.shared.try_snapshot(since) {
            return Some(snapshot);
        }
        let (reply, answer) = oneshot::channel();
        self.commands
            .send(PaneCommand::Snapshot { since, reply })
            .await
            .ok()?;
        answer.await.ok()
    }

    /// Resizes the pane (and its program's pty). Never waits: the latest size wins.
    pub fn resize_now(&self, cols: u16, rows: u16) {
        self.shared
            .wanted_size
            .store(u64::from(cols) << 16 | u64::from(rows), Ordering::Release);
        self.shared.resize.notify_one();
    }

    /// Ends the pane's program. Never waits.
    pub fn kill(&self) {
        self.kill.cancel();
    }

    /// Sends bytes to the program, waiting while its input is full. False once it is gone.
    /// Starts the keystroke-to-echo clock.
    pub async fn send_input(&self, bytes: Bytes) -> bool {
        self.shared.metrics.key_arrived();
        self.shared.priority.key_sent(self.id());
        match self.pty_in.write_or_queue(bytes) {
            None => true,
            Some(rest) => self.input.send(rest).await.is_ok(),
        }
    }

    /// The screen as text (or escapes, or JSON) and its revision; `None` once the pane is gone.
    pub async fn capture(&self, options: crate::capture::CaptureOptions) -> Option<(String, u64)> {
        let (reply, answer) = oneshot::channel();
        self.commands
            .send(PaneCommand::Capture { options, reply })
            .await
            .ok()?;
        answer.await.ok()
    }

    /// History view rows: `rows` rows ending `offset` lines above the live screen, and the
    /// number of history lines.
    pub async fn history(&self, offset: usize, rows: usize) -> Option<(Vec<Vec<Cell>>, usize)> {
        let (reply, answer) = oneshot::channel();
        self.commands
            .send(PaneCommand::History {
                offset,
                rows,
                reply,
            })
            .await
            .ok()?;
        answer.await.ok()
    }

    /// The program's exit code, once it exited.
    pub fn exit_code(&self) -> Option<i64> {
        let code = self.shared.exit_code.load(Ordering::Acquire);
        (code >= 0).then_some(code)
    }

    /// Wakes `notify` whenever the pane changes.
    pub fn watch(&self, notify: &Arc<Notify>) {
        self.watch_with(notify, None);
    }

    /// Wakes `notify` whenever the pane changes, or for a quiet change draws it through `fast`
    /// when that renderer is idle.
    pub fn watch_with(&self, notify: &Arc<Notify>, fast: Option<Weak<dyn EchoDrawer>>) {
        if let Ok(mut w) = self.shared.watchers.lock() {
            w.push(Watcher {
                notify: Arc::downgrade(notify),
                fast,
            });
        }
    }
}

/// Everything needed to start a pane.
#[derive(Clone, Debug)]
pub struct PaneSpec {
    /// `%N` number.
    pub id: u64,
    /// Size.
    pub cols: u16,
    /// Size.
    pub rows: u16,
    /// How to start the program.
    pub spawn: SpawnOptions,
    /// History lines.
    pub scrollback_lines: usize,
    /// Keep the pane (showing the exit status) after its program exits, until killed.
    pub remain_on_exit: bool,
    /// Where `weft diag` finds the pane's figures, and the session it belongs to.
    pub metrics: (Arc<crate::metrics::MetricsRegistry>, String),
    /// Server-wide: keystroke echoes before floods.
    pub priority: Arc<crate::priority::EchoPriority>,
}

/// Starts the program and the pane's tasks. `exited` gets the pane id and exit status once.
pub fn spawn_pane(
    spec: PaneSpec,
    exited: mpsc::Sender<(u64, ExitStatus)>,
) -> Result<PaneHandle, weft_pty_io::PtyError> {
    let (pty, child, reader, writer) = weft_pty_io::spawn(&spec.spawn)?;
    let (output_tx, output_rx) = mpsc::channel(PTY_OUTPUT_CAPACITY);
    let (input_tx, input_rx) = mpsc::channel(PANE_INPUT_CAPACITY);
    let (command_tx, command_rx) = mpsc::channel(PANE_COMMAND_CAPACITY);
    let (exit_tx, exit_rx) = oneshot::channel();
    let (kill_tx, kill_rx) = oneshot::channel();
    let stop = CancellationToken::new();
    let kill_requested = CancellationToken::new();
    let shared = Arc::new(PaneShared {
        id: spec.id,
        seq: AtomicU64::new(0),
        sync: AtomicBool::new(false),
        streaming: AtomicBool::new(false),
        bracketed_paste: AtomicBool::new(false),
        mouse_reporting: std::sync::atomic::AtomicU8::new(0),
        mouse_sgr: AtomicBool::new(false),
        application_cursor: AtomicBool::new(false),
        alternate_screen: AtomicBool::new(false),
        exit_code: std::sync::atomic::AtomicI64::new(-1),
        metrics: Arc::new(crate::metrics::PaneMetrics::default()),
        pid: child.pid(),
        size: AtomicU64::new(u64::from(spec.cols) << 16 | u64::from(spec.rows)),
        wanted_size: AtomicU64::new(u64::from(spec.cols) << 16 | u64::from(spec.rows)),
        resize: Notify::new(),
        title: Mutex::new(String::new()),
        watchers: Mutex::new(Vec::new()),
        in_flight: AtomicUsize::new(0),
        replies: Mutex::new(Vec::new()),
        replies_ready: Notify::new(),
        priority: spec.priority.clone(),
        screen: Mutex::new(Screen::with_scrollback(
            usize::from(spec.cols),
            usize::from(spec.rows),
            spec.scrollback_lines,
        )),
    });
    spec.metrics
        .0
        .add_pane(spec.id, &spec.metrics.1, &shared.metrics);
    tokio::spawn(
        read_pty(reader, output_tx, stop.clone(), shared.clone())
            .instrument(tracing::info_span!("pty_read", pane = spec.id)),
    );
    let pty_in = Arc::new(DirectWriter::new(writer));
    tokio::spawn(
        write_pty(pty_in.clone(), input_rx, stop.clone())
            .instrument(tracing::info_span!("pty_write", pane = spec.id)),
    );
    tokio::spawn(wait_child(child, exit_tx, kill_rx));
    let task = PaneTask {
        id: spec.id,
        pty,
        pty_in: pty_in.clone(),
        shared: shared.clone(),
        input: input_tx.clone(),
        kill: Some(kill_tx),
        kill_requested: kill_requested.clone(),
        stop,
        remain_on_exit: spec.remain_on_exit,
    };
    tokio::spawn(
        task.run(output_rx, command_rx, exit_rx, exited)
            .instrument(tracing::info_span!("pane", pane = spec.id)),
    );
    Ok(PaneHandle {
        commands: command_tx,
        kill: kill_requested,
        input: input_tx,
        pty_in: pty_in.clone(),
        shared,
    })
}

/// Longest a flooding pane's reader or parser keeps a worker before letting other tasks run,
/// when tokio's LIFO slot is on (built without `tokio_unstable`): a task the flood woke (a
/// renderer) sits in that slot, which no other worker may take, for tokio's whole budget (tens
/// of ms) unless the flood yields. With the slot off (the normal build, see `server_main.rs`)
/// a free worker takes such tasks at once and yields only cost throughput. Measured on 2 cores
/// with the slot off (cat 200k lines; echo p99 with another pane flooding): no yields 0.95x
/// no-mux and 3.6 ms; a yield per 1 ms, 1.25x and 2.2 ms, but in other runs 1.7x and 4 ms:
/// on 2 busy cores the echo waits for the OS scheduler more than for tokio.
#[cfg(not(tokio_unstable))]
const FAIR_SLICE: Option<std::time::Duration> = Some(std::time::Duration::from_millis(1));
/// See above: no yields when the LIFO slot is off.
#[cfg(tokio_unstable)]
const FAIR_SLICE: Option<std::time::Duration> = None;

/// Yields once a task has worked through large chunks for [`FAIR_SLICE`].
struct FairSlice {
    since: std::time::Instant,
}

impl FairSlice {
    fn new() -> Self {
        FairSlice {
            since: std::time::Instant::now(),
        }
    }

    /// After handling a chunk of `bytes`: a small one means the pty was drained (the task is
    /// about to wait anyway), a large one counts towards the slice.
    async fn after_chunk(&mut self, bytes: usize) {
        if bytes < STREAMING_CHUNK_BYTES {
            self.since = std::time::Instant::now();
        } else if FAIR_SLICE.is_some_and(|slice| self.since.elapsed() >= slice) {
            tokio::task::yield_now().await;
            self.since = std::time::Instant::now();
        }
    }
}

/// A chunk of program output and when it was read (for bytes-to-screen latency).
type Chunk = (Bytes, u64);

/// Reads the pty into chunks; waits when the pane task is behind.
async fn read_pty(
    mut reader: PtyReader,
    output: mpsc::Sender<Chunk>,
    stop: CancellationToken,
    shared: Arc<PaneShared>,
) {
    let metrics = &shared.metrics;
    // Small until output streams: an idle pane does not hold a 64 KiB buffer.
    let mut buf = vec![0u8; FIRST_READ_BYTES];
    let mut slice = FairSlice::new();
    // Registered once: a fresh `cancelled()` per read would join and leave the token's waiter
    // list on every keystroke's echo.
    let stopped = stop.cancelled();
    tokio::pin!(stopped);
    loop {
        let waited = crate::metrics::Tick::now();
        let n = tokio::select! {
            biased;
            _ = &mut stopped => return,
            n = reader.read_available(&mut buf) => n,
        };
        let started = crate::metrics::Tick::now();
        metrics.pty_read.idle(started - waited);
        match n {
            Ok(0) | Err(_) => return,
            Ok(n) => {
                let chunk = Bytes::copy_from_slice(&buf[..n]);
                if n == buf.len() && buf.len() < READ_CHUNK_BYTES {
                    buf.resize(READ_CHUNK_BYTES, 0);
                }
                let read_at = crate::metrics::now_ns();
                metrics.pty_read.item(n);
                tracing::trace!(bytes = n, "pty read");
                let copied = crate::metrics::Tick::now();
                metrics.pty_read.busy(copied - started);
                if n < STREAMING_CHUNK_BYTES && shared.in_flight.load(Ordering::Acquire) == 0 {
                    // Nothing queued for the pane task and a small read: an echo. Applied
                    // here, it reaches the screen (and an idle renderer, the terminal)
                    // without waking another task.
                    shared.streaming.store(false, Ordering::Release);
                    shared.apply_output(&chunk, read_at, true);
                    continue;
                }
                shared.in_flight.fetch_add(1, Ordering::AcqRel);
                if output.send((chunk, read_at)).await.is_err() {
                    return;
                }
                metrics.pty_read.blocked(copied.elapsed());
                // A flood always finds the pty readable and the channel open: give the worker
                // up now and then (see `FairSlice`). A small read drained the pty, so the next
                // one waits anyway.
                slice.after_chunk(n).await;
                if n >= STREAMING_CHUNK_BYTES {
                    // Streaming: another pane's echo goes first (counted as blocked).
                    let held = crate::metrics::Tick::now();
                    tokio::select! {
                        _ = &mut stopped => return,
                        _ = shared.priority.wait_turn(shared.id) => {}
                    }
                    metrics.pty_read.blocked(held.elapsed());
                }
            }
        }
    }
}

/// Writes queued input to the pty in order; waits while the program is not reading.
async fn write_pty(
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

/// Waits for the program to exit (or kills it on request) and reports the status.
async fn wait_child(
    mut child: ChildProcess,
    exit: oneshot::Sender<ExitStatus>,
    kill: oneshot::Receiver<()>,
) {
    let status = tokio::select! {
        status = child.wait_exit() => status,
        _ = kill => {
            let _ = child.kill();
            child.wait_exit().await
        }
    };
    let status = status.unwrap_or(ExitStatus {
        code: 1,
        signal: None,
    });
    let _ = exit.send(status);
}

struct PaneTask {
    id: u64,
    pty: Pty,
    pty_in: Arc<DirectWriter>,
    shared: Arc<PaneShared>,
    input: mpsc::Sender<Bytes>,
    kill: Option<oneshot::Sender<()>>,
    /// Cancelled by [`PaneHandle::kill`].
    kill_requested: CancellationToken,
    stop: CancellationToken,
    remain_on_exit: bool,
}

impl PaneTask {
    async fn run(
        mut self,
        mut output: mpsc::Receiver<Chunk>,
        mut commands: mpsc::Receiver<PaneCommand>,
        mut exit: oneshot::Receiver<ExitStatus>,
        exited: mpsc::Sender<(u64, ExitStatus)>,
    ) {
        let mut output_open = true;
        let input = self.input.clone();
        let mut slice = FairSlice::new();
        // While another pane's echo is pending, a streaming pane parses nothing more.
        let mut hold: Option<tokio::time::Instant> = None;
        let mut hold_timer = Deadline::new();
        let priority = self.shared.priority.clone();
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
            tokio::select! {
                biased;
                status = &mut exit => {
                    break status.unwrap_or(ExitStatus { code: 1, signal: None });
                }
                command = commands.recv() => match command {
                    Some(command) => self.handle(command),
                    None => self.request_kill(),
                },
                _ = &mut killed, if self.kill.is_some() => self.request_kill(),
                _ = self.shared.resize.notified() => self.apply_wanted_size(),
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
                        if let Some(rest) = self.pty_in.write_or_queue(replies) {
                            permit.send(rest);
                        }
                    }
                }
                _ = &mut released, if hold.is_some() => hold = None,
                _ = hold_timer.wait() => hold = None,
                chunk = output.recv(), if output_open && hold.is_none() => match chunk {
                    Some((chunk, read_at)) => {
                        let streaming = chunk.len() >= STREAMING_CHUNK_BYTES || !output.is_empty();
                        self.shared.streaming.store(streaming, Ordering::Release);
                        self.shared.apply_output(&chunk, read_at, !streaming);
                        self.shared.in_flight.fetch_sub(1, Ordering::AcqRel);
                        slice.after_chunk(chunk.len()).await;
                        if streaming {
                            hold = priority.hold_for(self.id);
                        }
                    }
                    None => output_open = false,
                },
            }
        };
        self.shared
            .exit_code
            .store(i64::from(status.code), Ordering::Release);
        // Show what the program printed last: read until the pty closes, or until a deadline
        // when a background job keeps it open.
        let deadline = tokio::time::Instant::now() + EXIT_DRAIN_GRACE;
        while output_open {
            tokio::select! {
                chunk = output.recv() => match chunk {
                    Some((chunk, read_at)) => {
                        self.shared.apply_output(&chunk, read_at, false);
                        self.shared.in_flight.fetch_sub(1, Ordering::AcqRel);
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
        self.stop.cancel();
        // Waiters for the exit wake now.
        self.shared.notify_watchers();
        if self.remain_on_exit && self.kill.is_some() {
            // Keep showing the screen, with the status, until the pane is killed.
            let note = match &status.signal {
                Some(sig) => format!(
                    "\r\n\x1b[0mPane is dead (signal {sig}, status {})",
                    status.code
                ),
                None => format!("\r\n\x1b[0mPane is dead (status {})", status.code),
            };
            self.apply(note.as_bytes());
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
        let _ = exited.send((self.id, status)).await;
    }

    /// Resizes the screen and the pty to the size the session wants.
    fn apply_wanted_size(&mut self) {
        let packed = self.shared.wanted_size.load(Ordering::Acquire);
        let (cols, rows) = (((packed >> 16) as u16).max(1), (packed as u16).max(1));
        self.shared
            .screen()
            .resize(usize::from(cols), usize::from(rows));
        let _ = self.pty.resize(cols, rows);
        self.shared
            .size
            .store(u64::from(cols) << 16 | u64::from(rows), Ordering::Relaxed);
        self.publish();
    }

    fn handle(&mut self, command: PaneCommand) {
        match command {
            PaneCommand::Snapshot { since, reply } => {
                let snapshot = snapshot_of(&self.shared.screen(), since);
                let _ = reply.send(snapshot);
            }
            PaneCommand::History {
                offset,
                rows,
                reply,
            } => {
                let screen = self.shared.screen();
                let history = screen.scrollback().len();
                let visible = screen.rows();
                let total = history + visible;
                let end = total.saturating_sub(offset.min(history));
                let start = end.saturating_sub(rows);
                let lines = (start..end)
                    .map(|i| {
                        if i < history {
                            screen
                                .scrollback_row(i)
                                .map(|r| r.cells().to_vec())
                                .unwrap_or_default()
                        } else {
                            screen
                                .row(i - history)
                                .map(|r| r.cells().to_vec())
                                .unwrap_or_default()
                        }
                    })
                    .collect();
                let _ = reply.send((lines, history));
            }
            PaneCommand::Capture { options, reply } => {
                let (text, seq) = {
                    let screen = self.shared.screen();
                    (crate::capture::capture(&screen, &options), screen.seqno())
                };
                let _ = reply.send((text, seq));
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

/// The rows of `screen` changed after revision `since` (all of them for 0), cursor and modes.
pub(crate) fn snapshot_of(screen: &Screen, since: u64) -> PaneSnapshot {
    let changed = screen
        .visible_rows()
        .enumerate()
        .filter(|(i, _)| since == 0 || screen.row_seq(*i) > since)
        .map(|(i, row)| (i, row.cells().to_vec()))
        .collect();
    PaneSnapshot {
        seq: screen.seqno(),
        cols: screen.cols(),
        rows: screen.rows(),
        changed,
        cursor: screen.cursor_state(),
        modes: outer_modes(screen.modes()),
    }
}

/// The modes of a pane that the client's terminal mirrors when the pane has the focus.
pub(crate) fn outer_modes(m: &weft_screen_model::Modes) -> OuterModes {
    OuterModes {
        application_cursor: m.application_cursor,
        application_keypad: m.application_keypad,
        bracketed_paste: m.bracketed_paste,
        focus_events: m.focus_events,
        mouse_tracking: m.mouse_tracking,
        mouse_encoding: m.mouse_encoding,
    }
}
