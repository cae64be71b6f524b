//! A session's state, owned by its task: windows, layouts, panes, clients and size, and the
//! operations commands use on them.

use super::{ClientControl, LatestClient, PaneTemplate, SessionSpec, View};
use crate::ids::{ClientId, IdAllocator, PaneId, SessionId, WindowId};
use crate::layout::Layout;
use crate::outcome::CommandError;
use crate::pane::PaneHandle;
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use tokio::sync::{mpsc, watch};
use weft_protocol::ExitNotice;
use weft_pty_io::ExitStatus;
use weft_screen_model::{handler::PromptMark, Event};

/// Exited panes remembered for `wait --exit`.
const DEAD_PANES_KEPT: usize = 32;

/// An attached client, as the session knows it.
pub(super) struct ClientEntry {
    pub(super) cols: u16,
    pub(super) rows: u16,
    pub(super) read_only: bool,
    pub(super) control: mpsc::Sender<ClientControl>,
    /// When it attached (seconds since the Unix epoch).
    pub(super) since: u64,
    /// When it last typed (seconds since the Unix epoch), stamped by its connection.
    pub(super) activity: Arc<std::sync::atomic::AtomicU64>,
    /// Its terminal's device (`/dev/pts/3`), when known.
    pub(super) tty: String,
    /// `TERM` in its environment.
    pub(super) term: String,
}

/// A window: panes in a layout.
#[derive(Debug)]
pub struct Window {
    /// The window's id (`@N`).
    pub id: WindowId,
    /// Index in the session (`0`-`9`, ...).
    pub index: u32,
    /// Name.
    pub name: String,
    /// Where the panes are.
    pub layout: Layout,
    /// The pane with focus.
    pub active: PaneId,
    /// The pane that had focus before.
    pub last_pane: Option<PaneId>,
    /// Named after its active pane's program (`automatic-rename`), until named by hand.
    pub auto_name: bool,
    /// The layout before the last preset was applied (`select-layout -o`).
    pub undo_layout: Option<Layout>,
    /// Panes by when they last had focus, the most recent last (moving focus by direction
    /// prefers the most recently used neighbour, as tmux does).
    pub recent: Vec<PaneId>,
    /// The active pane fills the window.
    pub zoomed: bool,
    /// Options set on this window (`set-option -w` without `-g`), over the session's.
    pub options: crate::option_scopes::LocalOptions,
    /// The configuration in force in the window when it sets options of its own (else the
    /// session's): kept by [`SessionState::refresh_options`].
    pub in_force: Option<Arc<crate::config::Config>>,
    /// A pane rang the bell while the window was not current (tmux's `!` flag).
    pub bell: bool,
    /// A pane printed something while the window was not current, with `monitor-activity`
    /// on (tmux's `#` flag).
    pub activity: bool,
    /// Its panes were silent for `monitor-silence` seconds while it was not current (`~`).
    pub silence: bool,
    /// Silence counts from here at the earliest (the window's creation), on
    /// [`crate::pane::output_clock_ms`]'s clock.
    pub silence_from: u64,
    /// The last output whose silence was already counted (flagged, or spent while current).
    pub silence_counted: u64,
    /// Position in the preset cycle.
    pub preset: usize,
}

/// Everything a session is, owned by its task; commands act on it through
/// [`super::SessionAction`]s.
pub struct SessionState {
    /// The session's id (`$N`).
    pub id: SessionId,
    /// Name.
    pub name: String,
    pub(super) created: u64,
    pub(super) cols: u16,
    pub(super) rows: u16,
    /// Windows in index order.
    pub windows: Vec<Window>,
    /// Position of the current window.
    pub current: usize,
    /// Id of the window shown before the current one.
    pub last_window: Option<WindowId>,
    /// The marked pane (`select-pane -m`): `join-pane`'s source when none is named.
    pub marked: Option<PaneId>,
    /// Every live pane.
    pub panes: HashMap<PaneId, PaneHandle>,
    pub(super) clients: HashMap<ClientId, ClientEntry>,
    pub(super) latest: Arc<LatestClient>,
    pub(super) view: watch::Sender<View>,
    pub(super) ids: Arc<IdAllocator>,
    /// How new panes start.
    pub template: PaneTemplate,
    /// `remain-on-exit` for the pane being started, when its command sets it for that pane
    /// alone (see [`SessionState::new_window_remaining`]).
    pub(super) pending_remain: Option<bool>,
    /// Variables (`-e NAME=VALUE`) the next pane started gets over the session's
    /// environment; taken by [`SessionState::spawn`].
    pub pending_env: Vec<(String, String)>,
    /// A window closing leaves the others' indexes alone while set (`-k` replacing one).
    pub hold_renumbering: bool,
    /// Options set on this session (`set-option` without `-g`), over the global ones.
    pub(super) local_options: crate::option_scopes::LocalOptions,
    /// Options set on one pane (`set-option -p`), over its window's. Kept by the session, so
    /// they go with a pane that moves to another window.
    pub pane_options: HashMap<PaneId, crate::option_scopes::LocalOptions>,
    /// The configuration in force in the session: the global one with `local_options` set.
    /// See [`SessionState::refresh_options`].
    pub(super) in_force: Arc<crate::config::Config>,
    /// The session's own environment changes (`set-environment` without -g), over the
    /// environment it was created with.
    pub environment: std::collections::BTreeMap<String, Option<String>>,
    pub(super) exits: mpsc::Sender<(PaneId, ExitStatus)>,
    pub(super) events: mpsc::Sender<(PaneId, crate::pane::PaneEvent)>,
    /// What the panes' programs said about themselves (working directory, marks, clipboard).
    pub pane_meta: HashMap<PaneId, PaneMeta>,
    /// Bumped when every client should repaint fully (the layout changed).
    pub generation: u64,
    /// Bumped when every client should repaint its terminal from scratch (`refresh-client`).
    pub(super) repaint: u64,
    /// Panes whose program exited recently, newest last (for `wait --exit`).
    pub(super) dead: VecDeque<PaneHandle>,
    /// The paste buffers and settings for programs' OSC 52 writes and reads.
    pub(super) clipboard: super::ClipboardAccess,
    /// An answer to a program's clipboard read is on its way (at most one at a time).
    pub(super) clipboard_answering: Arc<std::sync::atomic::AtomicBool>,
    /// Bells the clients' terminals are to ring, counted (see `alerts.rs`).
    pub(super) bells: u64,
    /// The latest notification for the terminals (OSC 9, 777, 99), numbered (see
    /// `terminal_alerts.rs`).
    pub(super) notification: Option<(u64, Arc<str>)>,
    /// The latest progress report (OSC 9;4), numbered likewise: each replaces the last.
    pub(super) progress: Option<(u64, Arc<str>)>,
    /// When the last notification that was not a progress report was let through.
    pub(super) notified_at: Option<tokio::time::Instant>,
    /// Where hooks are fired to.
    pub(super) hooks: crate::hooks::HookFeed,
    /// The hook depth of the command running in the session now (0 between commands): what
    /// the hooks it fires carry.
    pub(super) hook_depth: u8,
    /// Where subscribers hear what happens (`weft subscribe`).
    pub(super) feed: crate::events::EventFeed,
    /// The structure subscribers last heard of.
    pub(super) shape_seen: super::shape::Shape,
    /// The status line's shell commands (`#()`) and their output.
    pub(super) status_jobs: super::status_jobs::StatusJobs,
    /// When the status line is next to be expanded again (its clock turns, a command is due
    /// to run again); none while nothing in it changes with time or no client is attached.
    pub(super) status_due: Option<tokio::time::Instant>,
    /// When what the panes' programs did (a new program, a title, a bell) is next shown: their
    /// changes wait up to [`super::task::VIEW_COALESCE`] and are shown together.
    pub(super) view_due: Option<tokio::time::Instant>,
    /// When a window next becomes silent long enough to flag (`monitor-silence`).
    pub(super) silence_due: Option<tokio::time::Instant>,
    /// When the clients will have been idle for `lock-after-time` (see `lock.rs`).
    pub(super) lock_due: Option<tokio::time::Instant>,
    /// The pane last told it has focus (`focus-events`), to tell it when it loses it.
    pub(super) focus_reported: Option<PaneId>,
    /// The session's entry among every session's summaries (removed when it ends).
    pub(super) listed: super::directory::Listed,
    /// When a client last attached (seconds since the Unix epoch; 0 if none has).
    pub(super) last_attached: u64,
    /// The status line loops over sessions (`#{S:...}`): it is expanded again when another
    /// session changes.
    pub(super) status_lists_sessions: bool,
}

/// What a pane's program told the session about itself through its output.
#[derive(Clone, Debug, Default)]
pub struct PaneMeta {
    /// The working directory from OSC 7 (`file://host/path`), decoded.
    pub cwd: Option<String>,
    /// The last OSC 133 shell-integration mark.
    pub last_mark: Option<PromptMark>,
    /// The last OSC 52 clipboard write kept, as base64 (at most [`MAX_CLIPBOARD_BYTES`]
    /// decoded); it is also a paste buffer.
    pub clipboard: Option<Vec<u8>>,
}

/// The largest OSC 52 write kept, decoded: 1 MiB (larger ones are dropped whole). Each becomes
/// a paste buffer and may go on to every client's terminal.
pub const MAX_CLIPBOARD_BYTES: usize = 1024 * 1024;

/// The name of a window running `command` (or the shell): the program's base name.
pub fn window_name(command: &[String], shell: Option<&str>) -> String {
    let program = command
        .first()
        .map(String::as_str)
        .or(shell)
        .map(str::to_string)
        .or_else(|| std::env::var("SHELL").ok())
        .unwrap_or_else(|| "sh".into());
    // A shell line's first word (`htop -d 5`: `htop`).
    let program = program.split_whitespace().next().unwrap_or_default();
    crate::names::clean_name(
        program
            .rsplit('/')
            .next()
            .unwrap_or(program)
            .trim_start_matches('-'),
    )
}

impl SessionState {
    /// A session with no windows yet.
    pub(super) fn new(
        spec: SessionSpec,
        ids: Arc<IdAllocator>,
        exits: mpsc::Sender<(PaneId, ExitStatus)>,
        events: mpsc::Sender<(PaneId, crate::pane::PaneEvent)>,
        job_results: mpsc::Sender<super::status_jobs::JobResult>,
    ) -> Self {
        let created = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let (cols, rows) = (spec.cols.max(1), spec.rows.max(1));
        let global = spec.clipboard.config.borrow().clone();
        let (view, _) = watch::channel(View::empty(cols, rows, global.clone()));
        let shape_seen = super::shape::Shape::empty(&spec.name, (cols, rows));
        let state = SessionState {
            id: spec.id,
            name: spec.name,
            created,
            cols,
            rows,
            windows: Vec::new(),
            current: 0,
            last_window: None,
            marked: None,
            panes: HashMap::new(),
            clients: HashMap::new(),
            latest: Arc::new(LatestClient::none()),
            view,
            ids,
            template: spec.template,
            local_options: crate::option_scopes::LocalOptions::default(),
            pane_options: HashMap::new(),
            pending_remain: None,
            pending_env: Vec::new(),
            hold_renumbering: false,
            in_force: global,
            environment: std::collections::BTreeMap::new(),
            exits,
            events,
            pane_meta: HashMap::new(),
            generation: 0,
            repaint: 0,
            dead: VecDeque::new(),
            clipboard: spec.clipboard,
            clipboard_answering: Arc::default(),
            bells: 0,
            notification: None,
            progress: None,
            notified_at: None,
            hooks: spec.hooks,
            hook_depth: 0,
            feed: spec.events,
            shape_seen,
            status_jobs: super::status_jobs::StatusJobs::new(job_results),
            status_due: None,
            view_due: None,
            silence_due: None,
            lock_due: None,
            focus_reported: None,
            listed: spec.directory.listing(spec.id),
            last_attached: 0,
            status_lists_sessions: false,
        };
        state.publish_summary();
        state
    }

    /// The default name for a window running `command`.
    pub fn default_window_name(&self, command: &[String]) -> String {
        window_name(command, self.template.spawn.shell.as_deref())
    }

    /// Tells every client but `except` that its attachment ended, and forgets them.
    pub(super) async fn tell_clients(&mut self, message: &str, code: u8, except: Option<ClientId>) {
        let notice = ExitNotice {
            message: message.to_string(),
            code,
            ..ExitNotice::default()
        };
        self.send_exits(&notice, except).await;
    }

    /// Sends `notice` to every client but `except`, which then leave.
    pub(super) async fn send_exits(&mut self, notice: &ExitNotice, except: Option<ClientId>) {
        let leaving: Vec<ClientId> = self
            .clients
            .keys()
            .copied()
            .filter(|c| Some(*c) != except)
            .collect();
        for id in leaving {
            if let Some(client) = self.clients.remove(&id) {
                let notice = notice.clone();
                let _ = client.control.send(ClientControl::Exit(notice)).await;
            }
        }
    }

    /// A new window running `command` (the shell when empty) at the lowest free index.
    pub fn new_window(
        &mut self,
        name: Option<String>,
        command: Vec<String>,
        cwd: Option<String>,
        detached: bool,
    ) -> Result<WindowId, CommandError> {
        self.new_window_at(None, name, command, cwd, detached)
    }

    /// A new window running `command` at the lowest free index, whose pane stays after its
    /// program exits until it is killed as `remains` says (`remain-on-exit` for that pane
    /// alone; `None`: as the session's says). Returns the pane, taken before its program can
    /// end.
    pub fn new_window_remaining(
        &mut self,
        command: Vec<String>,
        cwd: Option<String>,
        detached: bool,
        remains: Option<bool>,
    ) -> Result<PaneHandle, CommandError> {
        // Given to the pane as it starts: its program may end at once.
        self.pending_remain = remains;
        let made = self.new_window(None, command, cwd, detached);
        self.pending_remain = None;
        let id = made?;
        let wpos = self
            .windows
            .iter()
            .position(|w| w.id == id)
            .ok_or_else(|| CommandError::failed("the new window is gone"))?;
        let pane = self.windows[wpos].active;
        if let Some(remains) = remains {
            // The pane's own option from now on, as `set -p remain-on-exit` would make it.
            let value = if remains { "on" } else { "off" };
            let above = self.window_config(wpos);
            let local = self.pane_options.entry(pane).or_default();
            if let Err(e) = local.set(&above, "remain-on-exit", Some(value), Default::default()) {
                tracing::warn!("remain-on-exit for {pane}: {e}");
            }
        }
        self.panes
            .get(&pane)
            .cloned()
            .ok_or_else(|| CommandError::failed("the new window has no pane"))
    }

    /// A new window at `index` (free: the caller checked), or the lowest free index.
    pub fn new_window_at(
        &mut self,
        index: Option<u32>,
        name: Option<String>,
        command: Vec<String>,
        cwd: Option<String>,
        detached: bool,
    ) -> Result<WindowId, CommandError> {
        let area = self.window_rect();
        let auto = window_name(&command, self.template.spawn.shell.as_deref());
        let config = self.config();
        let pane = self.spawn(command, cwd, (area.cols, area.rows), &config)?;
        let named = name.is_some();
        let (id, pos) = self.insert_window_at(pane.id(), name.unwrap_or(auto), index);
        self.windows[pos].auto_name = !named;
        if !detached || self.windows.len() == 1 {
            self.select_window_at(pos);
        }
        Ok(id)
    }

    /// A new window of pane `pane` at the lowest free index, placed in index order; keeps the
    /// current window current. Returns its id and position.
    pub fn insert_window(&mut self, pane: PaneId, name: String) -> (WindowId, usize) {
        self.insert_window_at(pane, name, None)
    }

    /// [`SessionState::insert_window`] at `index` when given.
    pub fn insert_window_at(
        &mut self,
        pane: PaneId,
        name: String,
        index: Option<u32>,
    ) -> (WindowId, usize) {
        let area = self.window_rect();
        let base = self.base_index();
        let index = index.unwrap_or_else(|| {
            (base..)
                .find(|i| !self.windows.iter().any(|w| w.index == *i))
                .unwrap_or(0)
        });
        let window = Window {
            id: self.ids.window(),
            index,
            name,
            layout: Layout::new(pane, area.cols, area.rows),
            active: pane,
            last_pane: None,
            recent: vec![pane],
            auto_name: true,
            undo_layout: None,
            zoomed: false,
            options: crate::option_scopes::LocalOptions::default(),
            in_force: None,
            bell: false,
            activity: false,
            silence: false,
            silence_from: crate::pane::output_clock_ms(),
            silence_counted: 0,
            preset: 0,
        };
        let id = window.id;
        let pos = self
            .windows
            .iter()
            .position(|w| w.index > index)
            .unwrap_or(self.windows.len());
        self.windows.insert(pos, window);
        if self.windows.len() > 1 && pos <= self.current {
            self.current += 1;
        }
        (id, pos)
    }

    /// Clears every window's bell, activity and silence flags (`kill-session -C`).
    pub fn clear_alerts(&mut self) {
        for w in &mut self.windows {
            w.bell = false;
            w.activity = false;
            w.silence = false;
        }
        self.generation += 1;
    }

    /// Makes the window at `pos` current (the one before becomes the last window).
    pub fn select_window_at(&mut self, pos: usize) {
        if let Some(w) = self.windows.get_mut(pos) {
            w.bell = false;
            w.activity = false;
            w.silence = false;
        }
        if pos < self.windows.len() && pos != self.current {
            self.last_window = self.windows.get(self.current).map(|w| w.id);
            self.current = pos;
        } else if pos < self.windows.len() {
            self.current = pos;
        }
        self.generation += 1;
    }

    /// Removes a pane whose program ended; empty windows close.
    pub(super) fn pane_gone(&mut self, pane: PaneId) {
        if self.marked == Some(pane) {
            self.marked = None;
        }
        self.pane_meta.remove(&pane);
        if let Some(handle) = self.panes.remove(&pane) {
            if self.dead.len() == DEAD_PANES_KEPT {
                self.dead.pop_front();
            }
            self.dead.push_back(handle);
        }
        self.leave_layout(pane);
    }

    /// Takes pane `pane` out of its window's layout (the pane itself lives on); a window left
    /// with no pane closes.
    pub fn leave_layout(&mut self, pane: PaneId) {
        let Some(wpos) = self
            .windows
            .iter()
            .position(|w| w.layout.panes().contains(&pane))
        else {
            return;
        };
        let window = &mut self.windows[wpos];
        if !window.layout.remove(pane) {
            // The last pane: the window closes.
            let id = window.id;
            self.windows.remove(wpos);
            if self.last_window == Some(id) {
                self.last_window = None;
            }
            if self.windows.is_empty() {
                return;
            }
            if wpos < self.current || self.current >= self.windows.len() {
                self.current = self.current.saturating_sub(1);
            }
            if self.renumber_on_close() && !self.hold_renumbering {
                self.renumber();
            }
            self.generation += 1;
            return;
        }
        if window.active == pane {
            window.active = window
                .last_pane
                .filter(|p| *p != pane && window.layout.panes().contains(p))
                .unwrap_or_else(|| window.layout.panes()[0]);
            window.zoomed = false;
        }
        self.generation += 1;
        self.resize_panes_of(wpos);
    }

    /// Tells each pane of window `wpos` its size from the layout (zoom: the whole window)
    /// after the layout changed (a split, a pane gone, a resize, a preset, a zoom).
    pub fn resize_panes_of(&self, wpos: usize) {
        self.resize_panes_with(wpos, false);
        let active = self.windows.get(wpos).map(|w| w.active);
        self.fire_hook("window-layout-changed", active);
    }

    /// [`SessionState::resize_panes_of`], paced or at once.
    pub(super) fn resize_panes_with(&self, wpos: usize, paced: bool) {
        let Some(w) = self.windows.get(wpos) else {
            return;
        };
        for (id, rect) in w.layout.rects() {
            let (cols, rows) = if w.zoomed && id == w.active {
                (w.layout.cols(), w.layout.rows())
            } else {
                (rect.cols, rect.rows)
            };
            if let Some(pane) = self.panes.get(&id) {
                if paced {
                    pane.resize_paced(cols, rows);
                } else if pane.shared.wanted_size() != (cols, rows)
                    || pane.shared.size() != (cols, rows)
                {
                    // Compared with the size last asked for too: a held size must not win
                    // over this one.
                    pane.resize_now(cols, rows);
                }
            }
        }
    }

    /// Focuses pane `pane` of the window at `pos` and shows that window.
    pub fn focus(&mut self, wpos: usize, pane: PaneId) {
        let w = &mut self.windows[wpos];
        w.recent.retain(|p| *p != pane);
        w.recent.push(pane);
        if w.active != pane {
            let before = w.active;
            w.last_pane = Some(before);
            w.active = pane;
            self.fire_hook("pane-focus-out", Some(before));
            self.fire_hook("pane-focus-in", Some(pane));
            // A window named after its active pane follows the focus.
            let program = self.panes.get(&pane).map(|p| p.shared.program());
            self.rename_automatically(wpos, &program.unwrap_or_default());
            let w = &mut self.windows[wpos];
            if w.zoomed {
                w.zoomed = false;
                self.resize_panes_of(wpos);
            }
        }
        self.select_window_at(wpos);
    }

    /// [`SessionState::focus`], a zoomed window staying zoomed on the new pane (tmux's `-Z`).
    pub fn focus_keeping_zoom(&mut self, wpos: usize, pane: PaneId) {
        let zoomed = self.windows[wpos].zoomed;
        self.focus(wpos, pane);
        if zoomed && !self.windows[wpos].zoomed {
            self.windows[wpos].zoomed = true;
            self.resize_panes_of(wpos);
        }
    }

    /// Acts on an event from pane `pane`'s screen.
    pub(super) fn pane_event(&mut self, pane: PaneId, event: Event) {
        match event {
            Event::Bell => {
                self.pane_bell(pane);
                // As tmux's default `bell-action any`: a bell in any window.
                self.fire_hook("alert-bell", Some(pane));
            }
            Event::Notification(text) => self.pane_notification(text),
            Event::Passthrough(payload) => self.pane_passthrough(pane, payload),
            Event::WindowNamed(name) => self.program_named_window(pane, &name),
            Event::CwdChanged(url) => {
                if let Some(path) = path_of_file_url(&url) {
                    self.pane_meta.entry(pane).or_default().cwd = Some(path);
                    self.cwd_changed(pane);
                }
            }
            Event::ClipboardWrite { base64, .. } => self.clipboard_write(pane, base64),
            Event::Prompt { mark, .. } => {
                self.pane_meta.entry(pane).or_default().last_mark = Some(mark);
            }
            // Answered only with `get-clipboard`, and only with what the pane wrote itself.
            Event::ClipboardRead { .. } => self.clipboard_read(pane),
            // Kept by the pane itself, for renderers.
            // Titles shown in the borders are drawn again.
            Event::TitleChanged(_) => {
                self.titles_changed();
                self.fire_hook("pane-title-changed", Some(pane));
            }
        }
    }
}

/// The path of an OSC 7 `file://host/path` URL, percent-decoded; `None` for anything else.
pub fn path_of_file_url(url: &str) -> Option<String> {
    let rest = url.strip_prefix("file://")?;
    let path = &rest[rest.find('/')?..];
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| char::from(b).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied(),
            bytes.get(i + 2).copied(),
        ) {
            (b'%', Some(h), Some(l)) if hex(h).is_some() && hex(l).is_some() => {
                let value = hex(h).unwrap_or(0) * 16 + hex(l).unwrap_or(0);
                out.push(u8::try_from(value).unwrap_or(b'?'));
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    let path = String::from_utf8(out).ok()?;
    // A path for display and for starting programs in: no control characters.
    (!path.chars().any(char::is_control)).then_some(path)
}

#[cfg(test)]
mod tests {
    use super::path_of_file_url;

    #[test]
    fn osc7_urls_become_paths() {
        assert_eq!(
            path_of_file_url("file://host/home/me/my%20dir").as_deref(),
            Some("/home/me/my dir")
        );
        assert_eq!(path_of_file_url("file:///tmp").as_deref(), Some("/tmp"));
        assert_eq!(path_of_file_url("http://x/y"), None);
        assert_eq!(path_of_file_url("file://host/a%0Ab"), None);
    }
}
