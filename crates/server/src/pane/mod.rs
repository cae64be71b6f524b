//! A pane: a program on a pty and the screen that shows it.
//!
//! ```text
//!  pty reader task --[PTY_OUTPUT_CAPACITY]--> pane task (parses into the Screen) --notify--> renderers
//!  clients, replies --(straight to the pty when nothing is queued)
//!                   --[PANE_INPUT_CAPACITY]--> pty writer task
//!  renderers, session --[PANE_COMMAND_CAPACITY]--> pane task (snapshot, capture)
//!  pane task --[PANE_EVENT_CAPACITY]--> session task (bell, working directory, clipboard, marks)
//!  exit waiter task --oneshot--> pane task
//! ```
//! The reader waits when the pane task is behind, so the program blocks on output (lossless
//! backpressure). The pane task never waits on a full input channel: replies queue locally and
//! go out when there is room, so a program blocked on output cannot deadlock its own pane.
//!
//! Who writes the screen: output is parsed in the order it was read, by the pane task, or by
//! the reader itself for a small read when nothing is queued for the pane task (an echo then
//! reaches the screen without a task switch). [`order::OutputOrder`] is that rule as a type: the
//! reader may parse only with a turn it hands out, and it hands one out only when nothing is in
//! flight. Renderers read the screen under its lock when it is free and ask the pane task
//! otherwise; an idle renderer may be lent to the parsing thread to draw an echo at once
//! ([`EchoDrawer`]).

mod copy;
mod dead_note;
mod order;
mod pipe;
mod reader;
mod record;
mod shared;
mod snapshot;
mod task;

pub use copy::{CopyResult, MouseSelect};
pub use pipe::{PipeSpec, MAX_PIPE_QUEUED_BYTES};
pub(crate) use reader::spawn_renderer;
pub use record::{
    RecordEvent, RecordQueue, RecordTap, MAX_RECORDERS_PER_PANE, MAX_RECORD_QUEUED_BYTES,
};
pub use shared::{CursorAndHistory, PaneShared, NO_STATUS};
pub(crate) use snapshot::outer_modes;
#[cfg(test)]
pub(crate) use snapshot::snapshot_of;
pub use snapshot::PaneSnapshot;

/// What a pane tells its session: its screen's events, and the program in its foreground.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PaneEvent {
    /// Something the program did (bell, title, directory, clipboard, marks).
    Screen(weft_screen_model::Event),
    /// Another program is in the pane's foreground (`automatic-rename`): its name.
    Program(String),
    /// The program exited and the pane stays, showing its status (`remain-on-exit`).
    Died,
    /// Something for the session's clients to read (a pipe that closed or drops output).
    Message(String),
    /// The program printed something while the session watched for it
    /// ([`PaneShared::watch_activity`]): sent once per watch.
    Activity,
}

/// Milliseconds on the server's monotonic clock (from its first use): when panes last printed
/// something, compared by the session for `monitor-silence`.
pub fn output_clock_ms() -> u64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    let start = *START.get_or_init(std::time::Instant::now);
    u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX)
}

use crate::direct::DirectWriter;
use crate::ids::PaneId;
use bytes::Bytes;
use order::OutputOrder;
use reader::read_pty;
use shared::Watcher;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use task::{wait_child, write_pty, PaneTask};
use tokio::sync::{mpsc, oneshot, Notify};
use tokio_util::sync::CancellationToken;
use tracing::Instrument;
use weft_pty_io::{ExitStatus, SpawnOptions};
use weft_screen_model::{Color, Rgb, Screen};

/// Chunks (up to 64 KiB each) read ahead of the pane task: enough to keep the reader busy while
pub const PTY_OUTPUT_CAPACITY: usize = 4;
/// Input messages (keys, pastes, replies) waiting for the pty: a program that stops reading
/// fills this and then senders wait, rather than memory growing.
pub const PANE_INPUT_CAPACITY: usize = 256;
/// Requests (snapshots, capture) waiting for the pane task; renderers send one at a
/// time each.
pub const PANE_COMMAND_CAPACITY: usize = 32;
/// Events (bell, working directory, clipboard, prompt marks) waiting for the session task. They
/// are rare; a program that floods them loses the excess, counted (`dropped_events`), rather
/// than stalling its output.
pub const PANE_EVENT_CAPACITY: usize = 64;
/// Replies to the program held while its input is full; more are dropped.
const MAX_PENDING_REPLY_BYTES: usize = 64 * 1024;
/// The reader's buffer until a read fills it (then [`weft_pty_io::READ_CHUNK_BYTES`]): a pty
/// hands out about 4 KiB at a time, so shells and editors never need more.
const FIRST_READ_BYTES: usize = 4 * 1024;
/// A read at least this large means output is streaming: renderers pace frames, and the
/// reader and the pane task count it towards their fair slice.
const STREAMING_CHUNK_BYTES: usize = 16 * 1024;
/// A stream's chunk is parsed in pieces of this size, and the rest waits when another pane's
/// echo does (a 64 KiB chunk of a coloured log takes a few hundred µs to parse, which a key
/// would otherwise wait behind on a busy machine).
const PARSE_PIECE_BYTES: usize = 16 * 1024;
/// After the program exits, how long to keep reading output a background job may hold open.
const EXIT_DRAIN_GRACE: std::time::Duration = std::time::Duration::from_millis(200);
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
    /// The next piece of a capture (the first one fixes what is captured): the state moves
    /// to the pane task and back with the piece, its position advanced and saying whether it
    /// is done.
    Capture {
        /// Where the capture is.
        state: Box<crate::capture::CaptureState>,
        /// The answer: the state after the piece, and the piece.
        reply: oneshot::Sender<(Box<crate::capture::CaptureState>, String)>,
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
/// A cheap, cloneable handle on a pane.
#[derive(Clone, Debug)]
pub struct PaneHandle {
    commands: mpsc::Sender<PaneCommand>,
    /// Cancelled to end the program (and, with remain-on-exit, the dead pane).
    kill: CancellationToken,
    input: mpsc::Sender<Bytes>,
    pty_in: Arc<DirectWriter>,
    /// Cancelled when the pane's program has ended.
    stop: CancellationToken,
    /// Shared state.
    pub shared: Arc<PaneShared>,
}

impl PaneHandle {
    /// The pane's id (`%N`).
    pub fn id(&self) -> PaneId {
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

    /// The rows changed after `since` of a pane whose program is gone, as it last showed:
    /// nothing parses into its screen any more, so it is read directly. `None` if something
    /// still holds the screen.
    pub fn last_snapshot(&self, since: u64) -> Option<PaneSnapshot> {
        self.shared.try_snapshot(since)
    }

    /// Resizes the pane (and its program's pty) at once. Never waits: the latest size wins.
    pub fn resize_now(&self, cols: u16, rows: u16) {
        self.shared.resize_urgent.store(true, Ordering::Release);
        self.resize_paced(cols, rows);
    }

    /// Resizes the pane as part of a stream of sizes (a user dragging a window's corner): at
    /// most one resize of the program's pty per interval, the latest size last.
    pub fn resize_paced(&self, cols: u16, rows: u16) {
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
        let revision = self.shared.seq.load(Ordering::Acquire);
        self.shared
            .input_revision
            .store(revision, Ordering::Release);
        self.shared.priority.key_sent(self.id());
        if self.shared.record.is_tapped() {
            self.shared.record.offer_input(&bytes);
        }
        self.pty_in.write_or_send(bytes, &self.input).await
    }

    /// The screen as text (or escapes, or JSON) and its revision, whole; `None` once the
    /// pane is gone. Holds the whole output: for short captures (see
    /// [`PaneHandle::capture_piece`]).
    pub async fn capture(&self, options: crate::capture::CaptureOptions) -> Option<(String, u64)> {
        let mut state = Box::new(crate::capture::CaptureState::new(options));
        let mut out = String::new();
        while !state.is_done() {
            let (next, piece) = self.capture_piece(state).await?;
            state = next;
            out.push_str(&piece);
        }
        Some((out, state.revision()))
    }

    /// The next piece of a capture (bounded: see [`crate::capture::PIECE_BYTES`]) and the
    /// capture's state after it; `None` once the pane is gone.
    pub async fn capture_piece(
        &self,
        state: Box<crate::capture::CaptureState>,
    ) -> Option<(Box<crate::capture::CaptureState>, String)> {
        let (reply, answer) = oneshot::channel();
        self.commands
            .send(PaneCommand::Capture { state, reply })
            .await
            .ok()?;
        answer.await.ok()
    }

    /// Resolves once the pane's program has ended and the output it printed last is on the
    /// screen (the pane task drained its terminal).
    pub async fn finished(&self) {
        self.stop.cancelled().await;
    }

    /// Whether the program has ended and its last output is on the screen.
    pub fn has_finished(&self) -> bool {
        self.stop.is_cancelled()
    }

    /// The screen as [`crate::capture::capture`] renders it, read here under the screen's
    /// lock: for a pane whose task may have ended (the screen lives as long as a handle).
    pub fn capture_now(&self, options: &crate::capture::CaptureOptions) -> String {
        crate::capture::capture(&self.shared.screen(), options)
    }

    /// Drops the pane's history, and tells its watchers (a view of the history redraws).
    pub fn clear_history(&self) {
        self.shared.screen().clear_history();
        self.shared.notify_watchers();
    }

    /// Puts the pane's terminal state back to a fresh terminal's and clears its screen
    /// (`send-keys -R`), and tells its watchers.
    pub fn reset_terminal(&self) {
        {
            let mut screen = self.shared.screen();
            screen.reset_terminal_state();
            self.shared.publish_from(&screen);
        }
        self.shared.notify_watchers();
    }

    /// Brings history back over the rows below the cursor (`resize-pane -T`), and tells the
    /// pane's watchers.
    pub fn trim_below_cursor(&self) {
        {
            let mut screen = self.shared.screen();
            if screen.trim_below_cursor() == 0 {
                return;
            }
            self.shared.publish_from(&screen);
        }
        self.shared.notify_watchers();
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
    /// The pane's id (`%N`).
    pub id: PaneId,
    /// Size.
    pub cols: u16,
    /// Size.
    pub rows: u16,
    /// How to start the program.
    pub spawn: SpawnOptions,
    /// History lines.
    pub scrollback_lines: usize,
    /// Keep the pane (showing the exit status) after its program exits, until killed; the
    /// session changes it with the option ([`PaneShared::set_options`]).
    pub remain_on_exit: bool,
    /// Where `weft diag` finds the pane's figures, and the session it belongs to.
    pub metrics: (Arc<crate::metrics::MetricsRegistry>, String),
    /// Server-wide: keystroke echoes before floods.
    pub priority: Arc<crate::priority::EchoPriority>,
    /// Server-wide: the users' terminals' colours, which the program's colour queries are
    /// answered with (see `crate::terminal::Terminals`).
    pub host_colors: tokio::sync::watch::Receiver<Arc<weft_screen_model::palette::HostColors>>,
    /// The configuration in force where the pane goes (`allow-passthrough`, and what
    /// commands on the pane read); the session keeps it ([`PaneShared::set_options`]).
    pub options: Arc<crate::config::Config>,
}
/// Whether the screen takes tmux's passthrough strings out of the output
/// (`allow-passthrough on` or `all`; the session decides what goes on).
pub(crate) fn passthrough_on(config: &crate::config::Config) -> bool {
    matches!(
        config.option_value("allow-passthrough").as_deref(),
        Some("on" | "all")
    )
}

/// Whether the pane's program may use the alternate screen (`alternate-screen`).
pub(crate) fn alternate_allowed(config: &crate::config::Config) -> bool {
    config.option_value("alternate-screen").as_deref() != Some("off")
}

/// `cursor-style` as a DECSCUSR number (`default`: 0, the user's terminal's own).
pub(crate) fn cursor_style(config: &crate::config::Config) -> u16 {
    let style = config.option_value("cursor-style").unwrap_or_default();
    crate::options::CURSOR_STYLES
        .iter()
        .position(|s| *s == style)
        .map_or(0, |n| n as u16)
}

/// What the screen itself does by the pane's options: `allow-passthrough`,
/// `alternate-screen`, `cursor-style`, `pane-colours`, `cursor-colour`, `scroll-on-clear`;
/// when the pane starts and whenever its options change.
pub(crate) fn options_to_screen(screen: &mut Screen, config: &crate::config::Config) {
    screen.set_passthrough(passthrough_on(config));
    screen.set_alternate_allowed(alternate_allowed(config));
    screen.set_default_cursor_style(cursor_style(config));
    screen.set_host_colours(pane_colours(config), cursor_colour(config));
    screen.set_scroll_on_clear(config.option_value("scroll-on-clear").as_deref() != Some("off"));
}

/// `pane-colours`: the palette entries drawn as other colours (unknown colours skipped, as
/// `set-option` refuses them).
pub(crate) fn pane_colours(config: &crate::config::Config) -> Vec<(u8, Color)> {
    config
        .array_elements("pane-colours")
        .into_iter()
        .filter_map(|(i, value)| {
            let i = u8::try_from(i).ok()?;
            Some((i, crate::style::colour(value.trim())??))
        })
        .collect()
}

/// `cursor-colour` as the colour to send the terminal (`none` or `default`: its own). A
/// named or numbered colour is sent as tmux sends it (`red` is `#800000`: tmux's table for the
/// first 16; the others are xterm's, which tmux's matches).
pub(crate) fn cursor_colour(config: &crate::config::Config) -> Option<Rgb> {
    let value = config.option_value("cursor-colour")?;
    match crate::style::colour(value.trim())?? {
        Color::Rgb(rgb) => Some(rgb),
        Color::Indexed(i) => Some(weft_screen_model::palette::tmux_rgb(i)),
        Color::Default => None,
    }
}

/// Starts the program and the pane's tasks. `exited` gets the pane id and exit status once;
/// `events` the screen's events (all but title changes), each with the pane id.
pub fn spawn_pane(
    spec: PaneSpec,
    exited: mpsc::Sender<(PaneId, ExitStatus)>,
    events: mpsc::Sender<(PaneId, PaneEvent)>,
) -> Result<PaneHandle, weft_pty_io::PtyError> {
    let in_readers = reader::enter_reader_runtime();
    let (pty, child, reader, writer) = weft_pty_io::spawn(&spec.spawn)?;
    drop(in_readers);
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
        kitty_flags: std::sync::atomic::AtomicU8::new(0),
        modify_other_keys: std::sync::atomic::AtomicU8::new(0),
        focus_events: AtomicBool::new(false),
        input_off: AtomicBool::new(false),
        alternate_screen: AtomicBool::new(false),
        exit_code: std::sync::atomic::AtomicI64::new(-1),
        replaced: AtomicBool::new(false),
        commands_finished: AtomicU64::new(0),
        last_command_end: AtomicU64::new(0),
        input_revision: AtomicU64::new(0),
        last_command_status: std::sync::atomic::AtomicI64::new(shared::NO_STATUS),
        metrics: Arc::new(crate::metrics::PaneMetrics::default()),
        pid: child.pid(),
        tty: pty.tty_name().map(|p| p.display().to_string()),
        size: AtomicU64::new(u64::from(spec.cols) << 16 | u64::from(spec.rows)),
        wanted_size: AtomicU64::new(u64::from(spec.cols) << 16 | u64::from(spec.rows)),
        resize: Notify::new(),
        resize_urgent: AtomicBool::new(false),
        string_open: AtomicBool::new(false),
        string_serial: AtomicU64::new(0),
        string_opened: Notify::new(),
        title: Mutex::new(String::new()),
        program: Mutex::new(String::new()),
        program_due: AtomicBool::new(false),
        program_wake: Notify::new(),
        watchers: Mutex::new(Vec::new()),
        order: OutputOrder::default(),
        events,
        replies: Mutex::new(Vec::new()),
        replies_ready: Notify::new(),
        priority: spec.priority.clone(),
        screen: Mutex::new(Screen::with_scrollback(
            usize::from(spec.cols),
            usize::from(spec.rows),
            spec.scrollback_lines,
        )),
        copy: Mutex::new(None),
        in_copy_mode: AtomicBool::new(false),
        prompts: Mutex::new(std::collections::VecDeque::new()),
        pipe: pipe::PipeSlot::default(),
        record: record::RecordSlot::default(),
        activity_wanted: AtomicBool::new(false),
        remain_on_exit: AtomicBool::new(spec.remain_on_exit),
        options: Mutex::new(spec.options.clone()),
        last_output_ms: AtomicU64::new(output_clock_ms()),
    });
    spec.metrics
        .0
        .add_pane(spec.id, &spec.metrics.1, &shared.metrics);
    reader::spawn_reader(
        read_pty(reader, output_tx, stop.clone(), shared.clone())
            .instrument(tracing::info_span!("pty_read", pane = spec.id.get())),
    );
    let pty_in = Arc::new(DirectWriter::new(writer));
    tokio::spawn(
        write_pty(pty_in.clone(), input_rx, stop.clone())
            .instrument(tracing::info_span!("pty_write", pane = spec.id.get())),
    );
    tokio::spawn(wait_child(child, exit_tx, kill_rx));
    let pane_stop = stop.clone();
    let mut host_colors = spec.host_colors.clone();
    shared
        .screen()
        .set_host_colors(host_colors.borrow_and_update().clone());
    options_to_screen(&mut shared.screen(), &spec.options);
    let task = PaneTask {
        id: spec.id,
        host_colors,
        pty,
        pty_in: pty_in.clone(),
        shared: shared.clone(),
        input: input_tx.clone(),
        kill: Some(kill_tx),
        kill_requested: kill_requested.clone(),
        stop,
    };
    tokio::spawn(
        task.run(output_rx, command_rx, exit_rx, exited)
            .instrument(tracing::info_span!("pane", pane = spec.id.get())),
    );
    Ok(PaneHandle {
        commands: command_tx,
        kill: kill_requested,
        input: input_tx,
        pty_in: pty_in.clone(),
        stop: pane_stop,
        shared,
    })
}
