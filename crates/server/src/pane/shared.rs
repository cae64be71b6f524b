//! Pane state others may read without asking the pane task: the screen behind its lock, and
//! atomics mirroring its revision and modes.

use super::order::OutputOrder;
use super::snapshot::PaneSnapshot;
use super::{
    EchoDrawer, PaneEvent, MAX_PENDING_REPLY_BYTES, PARSE_PIECE_BYTES, STREAMING_CHUNK_BYTES,
};
use crate::ids::PaneId;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use tokio::sync::{mpsc, Notify};
use weft_screen_model::{Event, Screen};

/// A renderer watching a pane: woken on change, or, for a quiet change while it is idle, given
/// the frame to draw at once by whoever applied the change (see [`EchoDrawer`]).
#[derive(Debug)]
pub(super) struct Watcher {
    pub(super) notify: Weak<Notify>,
    pub(super) fast: Option<Weak<dyn EchoDrawer>>,
}

/// `last_command_status` when the shell's command-end mark said no status.
pub const NO_STATUS: i64 = i64::MIN;

/// Pane state others may read without asking the pane task.
#[derive(Debug)]
pub struct PaneShared {
    /// The pane's id (`%N`).
    pub id: PaneId,
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
    /// The kitty keyboard flags of the buffer shown (0: none pushed).
    pub kitty_flags: std::sync::atomic::AtomicU8,
    /// xterm's `modifyOtherKeys` level the program set.
    pub modify_other_keys: std::sync::atomic::AtomicU8,
    /// The program asked for focus in/out reports (1004).
    pub focus_events: AtomicBool,
    /// Keys typed and sent to the pane are dropped (`select-pane -d`; `-e` ends it).
    pub input_off: AtomicBool,
    /// The alternate screen is shown (no history to scroll).
    pub alternate_screen: AtomicBool,
    /// The program's exit code once it exited, else -1.
    pub exit_code: std::sync::atomic::AtomicI64,
    /// A new program took this pane's id (`respawn-pane`): this one's end is not reported.
    pub replaced: AtomicBool,
    /// Commands the shell reported finished (OSC 133 `D`), for `wait --command-finished`.
    pub commands_finished: AtomicU64,
    /// The screen revision the last of them came in.
    pub last_command_end: AtomicU64,
    /// The screen revision when keys were last sent to the program.
    pub input_revision: AtomicU64,
    /// The status the last of them carried; [`NO_STATUS`] when it carried none.
    pub last_command_status: std::sync::atomic::AtomicI64,
    /// The program's pid.
    pub pid: Option<u32>,
    /// The program's terminal device (`#{pane_tty}`), when the system said.
    pub tty: Option<String>,
    /// Size, packed as cols << 16 | rows.
    pub(super) size: AtomicU64,
    /// Size the session wants, packed like `size`; applied by the pane task when woken.
    pub(super) wanted_size: AtomicU64,
    /// The wanted size is to be applied at once, not paced.
    pub(super) resize_urgent: AtomicBool,
    /// The output stopped inside an unterminated OSC or DCS string.
    pub(super) string_open: AtomicBool,
    /// Counts the times output stopped inside a string (told apart by the pane task's timer).
    pub(super) string_serial: AtomicU64,
    /// Wakes the pane task to start the string's timer.
    pub(super) string_opened: Notify,
    /// Wakes the pane task to apply `wanted_size`.
    pub(super) resize: Notify,
    /// Title set by the program.
    pub(super) title: Mutex<String>,
    /// Renderers to wake on change.
    pub(super) watchers: Mutex<Vec<Watcher>>,
    /// Where the screen's events go (the session task).
    pub(super) events: mpsc::Sender<(PaneId, PaneEvent)>,
    /// The name of the program in the pty's foreground (for `automatic-rename`).
    pub(super) program: Mutex<String>,
    /// A look at the foreground program is due (set by output, cleared by the pane task when
    /// it looks): the task is woken once per look, not per chunk.
    pub(super) program_due: AtomicBool,
    /// Wakes the pane task to schedule that look.
    pub(super) program_wake: Notify,
    /// Who parses the next chunk: the reader itself only when nothing is in flight.
    pub(super) order: OutputOrder,
    /// Replies to the program (terminal answers to its queries), for the pane task to send.
    pub(super) replies: Mutex<Vec<u8>>,
    /// Wakes the pane task to send `replies`.
    pub(super) replies_ready: Notify,
    /// Figures for `weft diag`.
    pub metrics: Arc<crate::metrics::PaneMetrics>,
    /// Server-wide: keystroke echoes before floods (renderers report shown echoes here).
    pub priority: Arc<crate::priority::EchoPriority>,
    /// The screen. Output is parsed into it by the pane task, or by the reader when
    /// [`OutputOrder`] gives it a turn (never both at once: the lock, and in order: the turn);
    /// the pane task also resizes it. Renderers read it directly when it is free (no round
    /// trip through the pane task for an echo), and ask the pane task when it is busy.
    pub(super) screen: Mutex<Screen>,
    /// Copy mode's state while the pane is in it; locked after `screen`, never before.
    pub(super) copy: Mutex<Option<Box<crate::copy::CopyMode>>>,
    /// The pane is in copy mode: renderers draw its view, and echoes are not drawn from the
    /// screen directly.
    pub(super) in_copy_mode: AtomicBool,
    /// Where the shell's prompts began (OSC 133), as absolute lines.
    pub(super) prompts: super::copy::PromptMarks,
    /// The pane's `pipe-pane`, if one is open.
    pub(crate) pipe: super::pipe::PipeSlot,
    /// The pane's recordings, if any are open.
    pub(super) record: super::record::RecordSlot,
    /// The session wants to hear of the next output (`monitor-activity`).
    pub(super) activity_wanted: AtomicBool,
    /// The pane stays, showing the exit status, after its program exits (`remain-on-exit`).
    pub(super) remain_on_exit: AtomicBool,
    /// The configuration in force for this pane (its session's, window's and own options),
    /// kept by the session: what commands on the pane read options from (`mode-keys`).
    pub(super) options: Mutex<Arc<crate::config::Config>>,
    /// When the program last printed something ([`super::output_clock_ms`]); when it started,
    /// before it has.
    pub(super) last_output_ms: AtomicU64,
}

/// Where a pane's cursor is and what its history holds, for formats.
#[derive(Clone, Copy, Debug)]
pub struct CursorAndHistory {
    /// The cursor's column (`#{cursor_x}`).
    pub col: usize,
    /// The cursor's row (`#{cursor_y}`).
    pub row: usize,
    /// Lines of history (`#{history_size}`).
    pub lines: usize,
    /// Bytes of memory the history takes, packed blocks at their packed size
    /// (`#{history_bytes}`).
    pub bytes: usize,
    /// The most lines kept (`#{history_limit}`).
    pub limit: usize,
}

impl PaneShared {
    /// The screen, locked; a poisoned lock still gives it (a panic mid-parse leaves a screen
    /// that is at worst partly updated, which the next output repairs).
    pub(super) fn screen(&self) -> std::sync::MutexGuard<'_, Screen> {
        self.screen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The cursor and the history, for formats (`#{cursor_x}`, `#{history_size}`,
    /// `#{history_bytes}`); takes the screen's lock briefly.
    pub fn cursor_and_history(&self) -> CursorAndHistory {
        let screen = self.screen();
        let cursor = screen.cursor_state();
        let history = screen.scrollback();
        CursorAndHistory {
            col: cursor.col,
            row: cursor.row,
            lines: history.len(),
            bytes: history.heap_bytes(),
            limit: history.limit(),
        }
    }

    /// What a renderer needs, read directly when the pane task is not holding the screen.
    pub(super) fn try_snapshot(&self, since: u64) -> Option<PaneSnapshot> {
        match self.screen.try_lock() {
            Ok(screen) => Some(self.snapshot_from(&screen, since)),
            Err(std::sync::TryLockError::Poisoned(p)) => {
                Some(self.snapshot_from(&p.into_inner(), since))
            }
            Err(std::sync::TryLockError::WouldBlock) => None,
        }
    }

    /// Wakes every renderer watching this pane; forgets those that went away.
    pub(super) fn notify_watchers(&self) {
        for notify in self.watchers_to_wake(None) {
            notify.notify_one();
        }
    }

    /// The renderers to wake for a change; forgets those that went away. With `quiet` (a
    /// quiet change: the screen, locked by the caller), idle renderers draw it here and now
    /// instead, and are not woken: an echo reaches the terminal without a task switch.
    pub(super) fn watchers_to_wake(&self, quiet: Option<&Screen>) -> Vec<Arc<Notify>> {
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
    pub(super) fn apply_output(&self, chunk: &[u8], read_at: u64, quiet: bool) {
        self.apply_output_until(chunk, read_at, quiet, &|| false);
    }

    /// [`Self::apply_output`], stopping early when `stop()` says so (asked between pieces of
    /// [`PARSE_PIECE_BYTES`]): returns how much of `chunk` was parsed.
    pub(super) fn apply_output_until(
        &self,
        chunk: &[u8],
        read_at: u64,
        quiet: bool,
        stop: &dyn Fn() -> bool,
    ) -> usize {
        let m = &self.metrics;
        m.parse.idle_ends();
        let started = crate::metrics::Tick::now();
        // A flood's chunk is bulk work: this thread should not preempt others for it.
        let bulk = (chunk.len() >= STREAMING_CHUNK_BYTES).then(crate::sched::BulkWork::start);
        self.note_output();
        let fed = self.feed_until(chunk, Some(read_at), quiet, stop);
        drop(bulk);
        // After the feed, which writes an echo's frame itself: waking the pane task (a worker
        // unparked, the timer driver woken to arm the look) is not on the echo's path.
        if !self.program_due.swap(true, Ordering::AcqRel) {
            self.program_wake.notify_one();
        }
        let took = m.parse.busy_since(started);
        m.parse.item(fed);
        tracing::trace!(bytes = fed, us = took.as_micros() as u64, "parse");
        fed
    }

    /// Feeds bytes to the screen and tells renderers; queues the screen's replies. `read_at`:
    /// when the program's output was read (none for weft's own notes).
    pub(super) fn feed(&self, chunk: &[u8], read_at: Option<u64>, quiet: bool) {
        self.feed_until(chunk, read_at, quiet, &|| false);
    }

    /// [`Self::feed`], stopping between pieces of [`PARSE_PIECE_BYTES`] when `stop()` says
    /// so; returns how much of `chunk` the screen was given.
    fn feed_until(
        &self,
        chunk: &[u8],
        read_at: Option<u64>,
        quiet: bool,
        stop: &dyn Fn() -> bool,
    ) -> usize {
        let mut screen = self.screen();
        // History a stream pushes through is mostly dropped before anyone reads it: packed
        // only once the stream has stopped (the pane task's timer).
        if read_at.is_some() && !quiet {
            screen.defer_history_packing(true);
        }
        let mut fed = 0;
        for piece in chunk.chunks(PARSE_PIECE_BYTES) {
            screen.feed(piece);
            fed += piece.len();
            if fed < chunk.len() && stop() {
                break;
            }
        }
        let chunk = &chunk[..fed];
        if self.record.is_tapped() {
            // Under the lock: a recording holds exactly what the screen was given.
            let dropped = self.record.offer_output(chunk);
            if dropped > 0 {
                self.metrics
                    .dropped_record_bytes
                    .fetch_add(dropped, Ordering::Relaxed);
            }
        }
        // Under the screen's lock, before any renderer can draw it (an idle one does so just
        // below): the frame that shows this output ends its bytes-to-screen time.
        if let Some(read_at) = read_at {
            self.metrics.output_applied(read_at);
        }
        let replies = screen.has_replies().then(|| screen.take_replies());
        // The revision first: whoever hears of an event below (a shell's mark, an exit) finds
        // the output that came before it already counted (subscribers send it first).
        self.publish_from(&screen);
        for event in screen.take_events() {
            match event {
                Event::Prompt {
                    mark: weft_screen_model::handler::PromptMark::PromptStart,
                    row,
                    ..
                } => {
                    // Kept here too, for copy mode's next-prompt.
                    self.note_prompt(&screen, row);
                }
                Event::Prompt {
                    mark: weft_screen_model::handler::PromptMark::CommandEnd,
                    status,
                    ..
                } => self.command_finished(status, screen.seqno()),
                _ => {}
            }
            match event {
                Event::TitleChanged(title) => {
                    let clean =
                        crate::names::clean(&title, weft_screen_model::screen::MAX_TITLE_BYTES);
                    if let Ok(mut t) = self.title.lock() {
                        // The screen drops controls already; bidirectional overrides too.
                        t.clone_from(&clean);
                    }
                    // The session redraws titles shown in the borders. Never waits.
                    let changed = PaneEvent::Screen(Event::TitleChanged(clean));
                    if self.events.try_send((self.id, changed)).is_err() {
                        self.metrics.dropped_events.fetch_add(1, Ordering::Relaxed);
                    }
                }
                // The rest are the session's: it owns what they mean (bell flags, the working
                // directory, buffers). Never waits: a flood of them loses the excess, counted.
                event => {
                    if self
                        .events
                        .try_send((self.id, PaneEvent::Screen(event)))
                        .is_err()
                    {
                        self.metrics.dropped_events.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
        }
        self.note_string(&screen);
        // Inside a synchronized update nothing is drawn before it ends.
        // In copy mode the view is drawn, not the screen.
        let quiet = quiet
            && !screen.modes().synchronized_output
            && !self.in_copy_mode.load(Ordering::Acquire);
        let wake = self.watchers_to_wake(quiet.then_some(&*screen));
        // Renderers woken now find the screen free.
        drop(screen);
        for notify in wake {
            notify.notify_one();
        }
        if let Some(replies) = replies {
            self.queue_replies(&replies);
        }
        fed
    }

    /// The stream has stopped: packs the history it left unpacked (see
    /// [`Screen::defer_history_packing`]).
    pub(super) fn pack_deferred_history(&self) {
        self.screen().pack_deferred_history();
    }

    /// Notes that the program printed something: when (for `monitor-silence`), and, when the
    /// session watches for it, tells the session once (for `monitor-activity`).
    #[inline]
    fn note_output(&self) {
        self.last_output_ms
            .store(super::output_clock_ms(), Ordering::Relaxed);
        if self.activity_wanted.load(Ordering::Relaxed)
            && self.activity_wanted.swap(false, Ordering::AcqRel)
            && self
                .events
                .try_send((self.id, PaneEvent::Activity))
                .is_err()
        {
            self.metrics.dropped_events.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The configuration in force for this pane, as its session has it: the pane acts on
    /// `remain-on-exit` (read when the program exits) and `allow-passthrough` itself.
    pub fn set_options(&self, config: Arc<crate::config::Config>) {
        self.remain_on_exit
            .store(config.remain_on_exit, Ordering::Release);
        super::options_to_screen(&mut self.screen(), &config);
        *self
            .options
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = config;
    }

    /// The configuration in force for this pane.
    pub fn options(&self) -> Arc<crate::config::Config> {
        self.options
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Marks the pane's output as streaming or not, counting streaming panes server-wide.
    pub(super) fn set_streaming(&self, streaming: bool) {
        if self.streaming.swap(streaming, Ordering::AcqRel) != streaming {
            self.priority.stream_changed(streaming);
            self.priority.shares.streaming(self.id, streaming);
        }
    }

    /// Whether the session hears of this pane's next output (once), for `monitor-activity`.
    pub fn watch_activity(&self, on: bool) {
        if self.activity_wanted.load(Ordering::Relaxed) != on {
            self.activity_wanted.store(on, Ordering::Release);
        }
    }

    /// When the program last printed something, on [`super::output_clock_ms`]'s clock.
    pub fn last_output_ms(&self) -> u64 {
        self.last_output_ms.load(Ordering::Relaxed)
    }

    /// Hands replies to the pane task, which writes them to the program; beyond
    /// [`MAX_PENDING_REPLY_BYTES`] waiting (the program is not reading) they are dropped.
    pub(super) fn queue_replies(&self, replies: &[u8]) {
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
    pub(super) fn has_replies(&self) -> bool {
        self.replies.lock().is_ok_and(|r| !r.is_empty())
    }

    /// Notes whether the output stopped inside an unterminated string, so the pane task can give
    /// up on it after a while (see `STRING_TIMEOUT`).
    #[inline]
    fn note_string(&self, screen: &Screen) {
        if screen.in_string() {
            if !self.string_open.swap(true, Ordering::AcqRel) {
                self.string_serial.fetch_add(1, Ordering::AcqRel);
                self.string_opened.notify_one();
            }
        } else if self.string_open.load(Ordering::Relaxed) {
            self.string_open.store(false, Ordering::Release);
        }
    }

    /// Mirrors the screen's revision and modes into the shared atomics.
    pub(super) fn publish_from(&self, screen: &Screen) {
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
        let keyboard = screen.keyboard_mode();
        self.kitty_flags
            .store(keyboard.kitty_flags, Ordering::Relaxed);
        self.modify_other_keys
            .store(keyboard.modify_other_keys, Ordering::Relaxed);
        self.focus_events
            .store(modes.focus_events, Ordering::Relaxed);
        self.alternate_screen
            .store(screen.is_alternate_screen(), Ordering::Relaxed);
    }

    /// The size last asked for as (cols, rows): the current size, or one the pane task is about
    /// to apply.
    pub fn wanted_size(&self) -> (u16, u16) {
        let packed = self.wanted_size.load(Ordering::Acquire);
        ((packed >> 16) as u16, packed as u16)
    }

    /// How the program asked for keys, as last published.
    pub fn keyboard_mode(&self) -> weft_screen_model::keyboard::KeyboardMode {
        weft_screen_model::keyboard::KeyboardMode {
            kitty_flags: self.kitty_flags.load(Ordering::Relaxed),
            modify_other_keys: self.modify_other_keys.load(Ordering::Relaxed),
            application_cursor: self.application_cursor.load(Ordering::Relaxed),
        }
    }

    /// Current size as (cols, rows).
    pub fn size(&self) -> (u16, u16) {
        let packed = self.size.load(Ordering::Relaxed);
        ((packed >> 16) as u16, packed as u16)
    }

    /// Sets the title (`select-pane -T`), cleaned as a program's title is.
    pub fn set_title(&self, title: &str) {
        if let Ok(mut t) = self.title.lock() {
            *t = crate::names::clean(title, weft_screen_model::screen::MAX_TITLE_BYTES);
        }
    }

    /// The name of the program in the pane's foreground, once known.
    pub fn program(&self) -> String {
        self.program.lock().map(|p| p.clone()).unwrap_or_default()
    }

    /// The title the program set.
    pub fn title(&self) -> String {
        self.title.lock().map(|t| t.clone()).unwrap_or_default()
    }
}
