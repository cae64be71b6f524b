//! The variables tmux's formats name, for a pane of this session (`#{pane_current_path}`,
//! `#S`, `#{window_zoomed_flag}`, ...).

use super::SessionState;
use crate::format::{Loop, Vars};
use crate::ids::PaneId;
use std::collections::HashMap;

/// A pane's format variables with its session behind them, so loops (`#{W:...}`,
/// `#{P:...}`, `#{S:...}`) can go over the session's windows and the window's panes.
pub struct FormatContext<'a> {
    state: &'a SessionState,
    wpos: usize,
    vars: HashMap<String, String>,
}

impl Vars for FormatContext<'_> {
    fn get(&self, name: &str) -> Option<String> {
        self.vars.get(name).cloned()
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
            // The session alone: a session's task knows no other session.
            Loop::Sessions => s
                .windows
                .get(s.current)
                .map(|w| vec![item(s.current, w.active, true)])
                .unwrap_or_default(),
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

impl SessionState {
    /// The format variables of pane `pane` in window `wpos` (the session's and window's too).
    pub fn format_vars(&self, wpos: usize, pane: PaneId) -> HashMap<String, String> {
        self.format_vars_for(wpos, pane, true)
    }

    /// [`SessionState::format_vars`] with the session behind them, for formats with loops.
    pub fn format_context(&self, wpos: usize, pane: PaneId) -> FormatContext<'_> {
        FormatContext {
            state: self,
            wpos,
            vars: self.format_vars(wpos, pane),
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
        let mut v = HashMap::new();
        let mut set = |k: &str, val: String| {
            v.insert(k.to_string(), val);
        };
        let flag = |b: bool| if b { "1" } else { "0" }.to_string();
        set("session_name", self.name.clone());
        set("session_id", self.id.to_string());
        set("session_windows", self.windows.len().to_string());
        set("session_created", self.created.to_string());
        set("session_attached", self.clients.len().to_string());
        set("session_width", self.cols.to_string());
        set("session_height", self.rows.to_string());
        set("version", env!("CARGO_PKG_VERSION").to_string());
        set("pid", std::process::id().to_string());
        let host = host_name();
        set(
            "host_short",
            host.split('.').next().unwrap_or(&host).to_string(),
        );
        set("host", host);
        let Some(w) = self.windows.get(wpos) else {
            return v;
        };
        set("window_name", w.name.clone());
        set("window_index", w.index.to_string());
        set("window_id", w.id.to_string());
        set("window_active", flag(wpos == self.current));
        set("window_zoomed_flag", flag(w.zoomed));
        set("window_bell_flag", flag(w.bell));
        set("window_activity_flag", flag(w.activity));
        set("window_silence_flag", flag(w.silence));
        let last = Some(w.id) == self.last_window;
        set("window_last_flag", flag(last));
        set("window_start_flag", flag(wpos == 0));
        set("window_end_flag", flag(wpos + 1 == self.windows.len()));
        set("window_panes", w.layout.panes().len().to_string());
        // tmux's order: activity, bell, silence, current, last, zoomed.
        let flags: String = [
            (w.activity, '#'),
            (w.bell, '!'),
            (w.silence, '~'),
            (wpos == self.current, '*'),
            (last && wpos != self.current, '-'),
            (w.zoomed, 'Z'),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, c)| *c)
        .collect();
        set("window_flags", flags);
        let order = w.layout.panes();
        if let Some(i) = order.iter().position(|p| *p == pane) {
            set("pane_index", (i + self.pane_base_index()).to_string());
        }
        set("pane_id", pane.to_string());
        set("pane_active", flag(w.active == pane));
        if let Some(rect) = w.layout.rect_of(pane) {
            set("pane_width", rect.cols.to_string());
            set("pane_height", rect.rows.to_string());
        }
        if let Some(h) = self.panes.get(&pane) {
            // A pane's title is the host's name until its program sets one (as tmux).
            let title = h.shared.title();
            set(
                "pane_title",
                if title.is_empty() { host_name() } else { title },
            );
            set("pane_in_mode", flag(h.in_copy_mode()));
            set("pane_pipe", flag(h.pipe_open()));
            let code = h.exit_code();
            set("pane_dead", flag(code.is_some()));
            set(
                "pane_dead_status",
                code.map(|c| c.to_string()).unwrap_or_default(),
            );
            if let Some(pid) = h.shared.pid {
                set("pane_pid", pid.to_string());
            }
            if let Some(pid) = h.shared.pid.filter(|_| processes) {
                if let Some(cmd) = foreground_command(pid) {
                    set("pane_current_command", cmd);
                }
                if let Ok(cwd) = std::fs::read_link(format!("/proc/{pid}/cwd")) {
                    set("pane_current_path", cwd.display().to_string());
                }
            }
        }
        // The shell's own report (OSC 7) wins over the process's directory.
        if let Some(cwd) = self.pane_meta.get(&pane).and_then(|m| m.cwd.clone()) {
            set("pane_current_path", cwd);
        }
        v
    }
}

/// The host's name, read once: the status line asks for it at every expansion.
fn host_name() -> String {
    static HOST: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HOST.get_or_init(|| {
        std::fs::read_to_string("/proc/sys/kernel/hostname")
            .map(|h| h.trim_end().to_string())
            .unwrap_or_default()
    })
    .clone()
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
