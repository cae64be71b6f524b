//! The variables tmux's formats name, for a pane of this session (`#{pane_current_path}`,
//! `#S`, `#{window_zoomed_flag}`, ...).

use super::SessionState;
use crate::config::Config;
use crate::format::{Loop, Vars};
use crate::ids::{ClientId, PaneId};
use crate::pane::CursorAndHistory;
use std::cell::OnceCell;
use std::collections::HashMap;
use std::sync::Arc;

/// A pane's format variables with its session behind them, so loops (`#{W:...}`,
/// `#{P:...}`, `#{S:...}`) can go over the session's windows, the window's panes and the
/// server's sessions; a name that is no variable is looked up as an option (`#{@theme}`,
/// `#{status-left}`), as tmux's `format_find` does, only when asked.
///
/// The variables read from `/proc` or the pane's screen ([`PANE_PROCESS_VARS`]) are read only
/// when a format asks for them, as tmux makes each variable: a listing of 500 panes with `-F`
/// read each pane's program and directory whatever its format named.
pub struct FormatContext<'a> {
    state: &'a SessionState,
    wpos: usize,
    pane: PaneId,
    vars: HashMap<String, String>,
    config: Arc<Config>,
    /// The pane's cursor and history, read at the first format variable that names them.
    cursor_and_history: OnceCell<CursorAndHistory>,
}

/// The variables of a pane read from `/proc` (its foreground program and directory) or from
/// its screen (under the screen's lock): made only when asked for.
const PANE_PROCESS_VARS: [&str; 7] = [
    "cursor_x",
    "cursor_y",
    "history_size",
    "history_bytes",
    "history_limit",
    "pane_current_command",
    "pane_current_path",
];

impl Vars for FormatContext<'_> {
    fn get(&self, name: &str) -> Option<String> {
        self.vars
            .get(name)
            .cloned()
            .or_else(|| {
                self.state
                    .pane_process_var(self.pane, name, &self.cursor_and_history)
            })
            .or_else(|| self.config.option_value(name))
    }

    fn each(&self, over: Loop) -> Vec<(Box<dyn Vars + '_>, bool)> {
        let s = self.state;
        let item = |wpos: usize, pane: PaneId, current: bool| {
            (
                Box::new(s.format_context(wpos, pane)) as Box<dyn Vars>,
                current,
            )
        };
        match over {
            Loop::Sessions => s
                .listed
                .directory
                .sessions()
                .into_iter()
                .filter_map(|other| {
                    if other.id != s.id {
                        let vars = VarsWithOptions {
                            vars: other.format_vars(),
                            config: &self.config,
                        };
                        return Some((Box::new(vars) as Box<dyn Vars>, false));
                    }
                    let w = s.windows.get(s.current)?;
                    Some(item(s.current, w.active, true))
                })
                .collect(),
            Loop::Windows => s
                .windows
                .iter()
                .enumerate()
                .map(|(i, w)| item(i, w.active, i == s.current))
                .collect(),
            Loop::Panes => s
                .windows
                .get(self.wpos)
                .map(|w| {
                    w.layout
                        .panes()
                        .into_iter()
                        .map(|p| item(self.wpos, p, p == w.active))
                        .collect()
                })
                .unwrap_or_default(),
        }
    }
}

/// Variables made elsewhere (another session's in a loop over sessions, a buffer's, a
/// client's), with options behind them.
pub struct VarsWithOptions<'c> {
    /// The variables.
    pub vars: HashMap<String, String>,
    /// Where a name that is no variable is looked up.
    pub config: &'c Config,
}

impl Vars for VarsWithOptions<'_> {
    fn get(&self, name: &str) -> Option<String> {
        self.vars
            .get(name)
            .cloned()
            .or_else(|| self.config.option_value(name))
    }
}

/// Seconds since the Unix epoch now.
pub(super) fn epoch_seconds() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl SessionState {
    /// The format variables of pane `pane` in window `wpos` (the session's and window's too).
    pub fn format_vars(&self, wpos: usize, pane: PaneId) -> HashMap<String, String> {
        self.format_vars_for(wpos, pane, true)
    }

    /// The format context of the current window's active pane (the session's own, for
    /// `list-sessions -F`); `None` before the first window.
    pub fn current_format_context(&self) -> Option<FormatContext<'_>> {
        let w = self.windows.get(self.current)?;
        Some(self.format_context(self.current, w.active))
    }

    /// [`SessionState::format_vars`] with the session behind them, for formats with loops.
    pub fn format_context(&self, wpos: usize, pane: PaneId) -> FormatContext<'_> {
        self.format_context_named(wpos, pane, None)
    }

    /// [`SessionState::format_context`] for formats that ask for `wanted` alone (see
    /// [`crate::format::names_in`]; `None`: any name).
    pub fn format_context_named(
        &self,
        wpos: usize,
        pane: PaneId,
        wanted: Option<&[String]>,
    ) -> FormatContext<'_> {
        FormatContext {
            state: self,
            wpos,
            pane,
            vars: self.format_vars_named(wpos, pane, false, wanted),
            config: self.pane_config(wpos, pane),
            cursor_and_history: OnceCell::new(),
        }
    }

    /// Pane `pane`'s variable `name` when it is one of [`PANE_PROCESS_VARS`] and can be read;
    /// any other name costs nothing. `at` holds the cursor and history once read, so a format
    /// naming several of them reads them once, all from one moment.
    fn pane_process_var(
        &self,
        pane: PaneId,
        name: &str,
        at: &OnceCell<CursorAndHistory>,
    ) -> Option<String> {
        if !PANE_PROCESS_VARS.contains(&name) {
            return None;
        }
        let h = self.panes.get(&pane)?;
        match name {
            "pane_current_command" => foreground_command(h.shared.pid?),
            "pane_current_path" => {
                let cwd = std::fs::read_link(format!("/proc/{}/cwd", h.shared.pid?)).ok()?;
                Some(cwd.display().to_string())
            }
            _ => {
                let at = at.get_or_init(|| h.shared.cursor_and_history());
                let value = match name {
                    "cursor_x" => at.col,
                    "cursor_y" => at.row,
                    "history_size" => at.lines,
                    "history_bytes" => at.bytes,
                    "history_limit" => at.limit,
                    _ => return None,
                };
                Some(value.to_string())
            }
        }
    }

    /// [`SessionState::format_vars`]; with `processes` false, without the variables read from
    /// `/proc` (the foreground command, the directory when the shell has not said it): the
    /// status line is expanded often, and names neither by default.
    pub fn format_vars_for(
        &self,
        wpos: usize,
        pane: PaneId,
        processes: bool,
    ) -> HashMap<String, String> {
        self.format_vars_named(wpos, pane, processes, None)
    }

    /// [`SessionState::format_vars_for`], only the variables `wanted` names when given (the
    /// names a format can ask for, [`crate::format::names_in`]): the others are neither
    /// made nor stored.
    pub(super) fn format_vars_named(
        &self,
        wpos: usize,
        pane: PaneId,
        processes: bool,
        wanted: Option<&[String]>,
    ) -> HashMap<String, String> {
        let mut v = HashMap::with_capacity(if wanted.is_some() { 8 } else { 128 });
        let want = |k: &str| wanted.is_none_or(|names| names.iter().any(|n| n == k));
        // The value is made only for a name wanted.
        macro_rules! set {
            ($k:expr, $val:expr $(,)?) => {{
                let k: &str = $k;
                if want(k) {
                    v.insert(k.to_string(), $val);
                }
            }};
        }
        let flag = |b: bool| if b { "1" } else { "0" }.to_string();
        set!("session_name", self.name.clone());
        set!("session_id", self.id.to_string());
        set!("session_windows", self.windows.len().to_string());
        set!("session_created", self.created.to_string());
        set!("session_attached", self.clients.len().to_string());
        set!("session_many_attached", flag(self.clients.len() > 1));
        set!("session_width", self.cols.to_string());
        set!("session_height", self.rows.to_string());
        set!("session_last_attached", self.last_attached.to_string());
        set!("session_alerts", self.alerts());
        if let Some((id, _)) = self.format_client() {
            for (k, val) in self.client_vars(id) {
                set!(k, val);
            }
        }
        set!("version", env!("CARGO_PKG_VERSION").to_string());
        set!("pid", std::process::id().to_string());
        let uid = || rustix::process::getuid().as_raw().to_string();
        set!("uid", uid());
        set!("user", std::env::var("USER").unwrap_or_else(|_| uid()));
        set!("host_short", {
            let host = crate::format::host_name();
            host.split('.').next().unwrap_or(&host).to_string()
        });
        set!("host", crate::format::host_name());
        let Some(w) = self.windows.get(wpos) else {
            return v;
        };
        set!("window_name", w.name.clone());
        set!("window_index", w.index.to_string());
        set!("window_id", w.id.to_string());
        set!("window_active", flag(wpos == self.current));
        set!("window_zoomed_flag", flag(w.zoomed));
        set!("window_bell_flag", flag(w.bell));
        set!("window_activity_flag", flag(w.activity));
        set!("window_silence_flag", flag(w.silence));
        let last = Some(w.id) == self.last_window;
        set!("window_last_flag", flag(last));
        set!("window_start_flag", flag(wpos == 0));
        set!("window_end_flag", flag(wpos + 1 == self.windows.len()));
        set!("window_panes", w.layout.panes().len().to_string());
        set!("window_width", w.layout.cols().to_string());
        set!("window_height", w.layout.rows().to_string());
        // A window is never larger than its clients here: weft sizes it to the session.
        set!("window_bigger", "0".into());
        set!("window_offset_x", "0".into());
        set!("window_offset_y", "0".into());
        set!("window_activity", self.window_activity(wpos).to_string());
        set!("pane_synchronized", {
            let synchronized = self.window_config(wpos).option_value("synchronize-panes");
            flag(synchronized.as_deref() == Some("on"))
        });
        let marked = self.marked.filter(|m| w.layout.panes().contains(m));
        set!("window_marked_flag", flag(marked.is_some()));
        set!("pane_marked", flag(marked == Some(pane)));
        set!("pane_marked_set", flag(self.marked.is_some()));
        // tmux's order: activity, bell, silence, current, last, marked, zoomed.
        set!(
            "window_flags",
            [
                (w.activity, '#'),
                (w.bell, '!'),
                (w.silence, '~'),
                (wpos == self.current, '*'),
                (last && wpos != self.current, '-'),
                (marked.is_some(), 'M'),
                (w.zoomed, 'Z'),
            ]
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, c)| *c)
            .collect::<String>()
        );
        let order = w.layout.panes();
        if let Some(i) = order.iter().position(|p| *p == pane) {
            set!("pane_index", (i + self.pane_base_index()).to_string());
        }
        set!("pane_id", pane.to_string());
        set!("pane_active", flag(w.active == pane));
        if let Some(rect) = w.layout.rect_of(pane) {
            set!("pane_width", rect.cols.to_string());
            set!("pane_height", rect.rows.to_string());
            set!("pane_at_top", flag(rect.row == 0));
            set!("pane_at_left", flag(rect.col == 0));
            set!(
                "pane_at_bottom",
                flag(rect.row + rect.rows >= w.layout.rows()),
            );
            set!(
                "pane_at_right",
                flag(rect.col + rect.cols >= w.layout.cols()),
            );
        }
        if let Some(h) = self.panes.get(&pane) {
            // A pane's title is the host's name until its program sets one (as tmux).
            set!("pane_title", {
                let title = h.shared.title();
                if title.is_empty() {
                    crate::format::host_name()
                } else {
                    title
                }
            });
            set!("pane_in_mode", flag(h.in_copy_mode()));
            set!(
                "pane_mode",
                if h.in_copy_mode() { "copy-mode" } else { "" }.into(),
            );
            if let Some((word, line)) = h.copy_cursor_text() {
                set!("copy_cursor_word", word);
                set!("copy_cursor_line", line);
            }
            let alternate = h
                .shared
                .alternate_screen
                .load(std::sync::atomic::Ordering::Relaxed);
            set!("alternate_on", flag(alternate));
            let mouse = h
                .shared
                .mouse_reporting
                .load(std::sync::atomic::Ordering::Relaxed);
            set!("mouse_any_flag", flag(mouse != 0));
            set!("pane_pipe", flag(h.pipe_open()));
            let input_off = h
                .shared
                .input_off
                .load(std::sync::atomic::Ordering::Relaxed);
            set!("pane_input_off", flag(input_off));
            let code = h.exit_code();
            set!("pane_dead", flag(code.is_some()));
            set!(
                "pane_dead_status",
                code.map(|c| c.to_string()).unwrap_or_default(),
            );
            if let Some(pid) = h.shared.pid {
                set!("pane_pid", pid.to_string());
            }
            if let Some(tty) = &h.shared.tty {
                set!("pane_tty", tty.clone());
            }
        }
        // The shell's own report (OSC 7) wins over the process's directory.
        if let Some(cwd) = self.pane_meta.get(&pane).and_then(|m| m.cwd.clone()) {
            set!("pane_current_path", cwd);
        }
        if processes {
            let at = OnceCell::new();
            for name in PANE_PROCESS_VARS {
                if want(name) && !v.contains_key(name) {
                    if let Some(value) = self.pane_process_var(pane, name, &at) {
                        v.insert(name.to_string(), value);
                    }
                }
            }
        }
        v
    }

    /// The windows with alerts, as tmux's `session_alerts`: each index followed by `#`
    /// (activity), `!` (bell) and `~` (silence), joined by commas (`1!,3#`).
    fn alerts(&self) -> String {
        self.windows
            .iter()
            .filter(|w| w.activity || w.bell || w.silence)
            .map(|w| {
                let mut item = w.index.to_string();
                for (on, c) in [(w.activity, '#'), (w.bell, '!'), (w.silence, '~')] {
                    if on {
                        item.push(c);
                    }
                }
                item
            })
            .collect::<Vec<_>>()
            .join(",")
    }

    /// When a pane of window `wpos` last printed something, in seconds since the epoch.
    fn window_activity(&self, wpos: usize) -> u64 {
        let Some(w) = self.windows.get(wpos) else {
            return 0;
        };
        let now_ms = crate::pane::output_clock_ms();
        let last_ms = w
            .layout
            .panes()
            .iter()
            .filter_map(|p| self.panes.get(p))
            .map(|h| h.shared.last_output_ms())
            .max()
            .unwrap_or(0);
        epoch_seconds().saturating_sub(now_ms.saturating_sub(last_ms) / 1000)
    }

    /// The client formats speak of: the one the session follows (the most recently
    /// active), else the first attached.
    fn format_client(&self) -> Option<(ClientId, &super::state::ClientEntry)> {
        self.clients
            .iter()
            .find(|(id, _)| self.latest.is(**id))
            .or_else(|| self.clients.iter().min_by_key(|(id, _)| **id))
            .map(|(id, c)| (*id, c))
    }

    /// `format` expanded for each attached client, oldest first, with the client's variables
    /// over those of the session's current pane (`list-clients -F`).
    pub fn client_lines(&self, format: &str) -> Vec<String> {
        let mut ids: Vec<(u64, ClientId)> =
            self.clients.iter().map(|(id, c)| (c.since, *id)).collect();
        ids.sort_unstable();
        ids.into_iter()
            .filter_map(|(_, id)| {
                let mut context = self.current_format_context()?;
                for (k, v) in self.client_vars(id) {
                    context.vars.insert(k.to_string(), v);
                }
                Some(crate::format::expand(format, &context))
            })
            .collect()
    }

    /// The format variables of attached client `id` (`client_name`, `client_width`, ...);
    /// none when it is not attached here.
    pub fn client_vars(&self, id: ClientId) -> Vec<(&'static str, String)> {
        let Some(c) = self.clients.get(&id) else {
            return Vec::new();
        };
        vec![
            ("client_name", format!("client-{id}")),
            ("client_tty", c.tty.clone()),
            ("client_termname", c.term.clone()),
            ("client_width", c.cols.to_string()),
            ("client_height", c.rows.to_string()),
            ("client_session", self.name.clone()),
            ("client_created", c.since.to_string()),
            (
                "client_activity",
                c.activity
                    .load(std::sync::atomic::Ordering::Relaxed)
                    .to_string(),
            ),
            (
                "client_readonly",
                if c.read_only { "1" } else { "0" }.into(),
            ),
        ]
    }
}

/// The name of the program in the foreground of the terminal that `leader` leads: the
/// process group that holds the terminal, read from `/proc` (its `comm`).
fn foreground_command(leader: u32) -> Option<String> {
    let stat = std::fs::read_to_string(format!("/proc/{leader}/stat")).ok()?;
    // Fields after the command name (which may hold spaces and parentheses).
    let rest = &stat[stat.rfind(')')? + 2..];
    let tpgid: i64 = rest.split_whitespace().nth(5)?.parse().ok()?;
    let pid = if tpgid > 0 { tpgid as u32 } else { leader };
    let comm = std::fs::read_to_string(format!("/proc/{pid}/comm"))
        .or_else(|_| std::fs::read_to_string(format!("/proc/{leader}/comm")))
        .ok()?;
    Some(comm.trim_end().to_string())
}
