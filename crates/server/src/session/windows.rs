//! Window numbering: `base-index`, `renumber-windows`, moving and swapping windows within a
//! session (`move-window`, `swap-window`), and closing panes at once (`kill-pane`).

use super::SessionState;
use crate::outcome::CommandError;

/// tmux's `automatic-rename-format`: the program's name, which weft gives a window without
/// expanding a format (`[tmux]` in copy mode and `[dead]` aside).
const DEFAULT_RENAME_FORMAT: &str =
    "#{?pane_in_mode,[tmux],#{pane_current_command}}#{?pane_dead,[dead],}";

impl SessionState {
    /// A pane's title or program changed: with titles in the borders, clients draw them
    /// again.
    pub(super) fn titles_changed(&mut self) {
        if self.window_config(self.current).pane_border_status != crate::config::BorderStatus::Off {
            self.generation += 1;
        }
    }

    /// `select-pane -T`: gives pane `pane` the title `title`, as its program's OSC 2 would
    /// (the `pane-title-changed` hook fires), and redraws what shows it.
    pub fn set_pane_title(&mut self, pane: crate::ids::PaneId, title: &str) {
        if let Some(p) = self.panes.get(&pane) {
            p.shared.set_title(title);
        }
        self.fire_hook("pane-title-changed", Some(pane));
        // The status line and choose-tree show it.
        self.generation += 1;
    }

    /// Pane `pane` has another program in its foreground: windows it is the active pane of,
    /// and that are named automatically, take its name (`automatic-rename`).
    pub(super) fn program_changed(&mut self, pane: crate::ids::PaneId, name: &str) {
        self.titles_changed();
        for wpos in 0..self.windows.len() {
            if self.windows[wpos].active == pane {
                self.rename_automatically(wpos, name);
            }
        }
    }

    /// Pane `pane`'s program said where it is (OSC 7): a window named by a format that shows
    /// it (`#{b:pane_current_path}`) follows.
    pub(super) fn cwd_changed(&mut self, pane: crate::ids::PaneId) {
        let Some(wpos) = self
            .window_of(pane)
            .filter(|w| self.windows[*w].active == pane)
        else {
            return;
        };
        let program = self.panes.get(&pane).map(|p| p.shared.program());
        self.rename_automatically(wpos, &program.unwrap_or_default());
    }

    /// Names window `wpos`, if it is named automatically (`automatic-rename`), after its active
    /// pane, whose program is `program`: `automatic-rename-format` expanded when it is set to
    /// other than tmux's default, else the program's name.
    pub(super) fn rename_automatically(&mut self, wpos: usize, program: &str) {
        let config = self.window_config(wpos);
        let Some(w) = self.windows.get(wpos).filter(|w| w.auto_name) else {
            return;
        };
        if !config.automatic_rename {
            return;
        }
        let pane = w.active;
        let name = match config
            .option_value("automatic-rename-format")
            .filter(|f| f != DEFAULT_RENAME_FORMAT)
        {
            Some(format) => crate::format::expand(&format, &self.format_context(wpos, pane)),
            None => program.to_string(),
        };
        let name = crate::names::clean_name(&name);
        let w = &mut self.windows[wpos];
        if !name.is_empty() && w.name != name {
            w.name = name;
            self.fire_hook("window-renamed", Some(pane));
        }
    }

    /// Pane `pane`'s program named its window (`ESC k name ESC \`): with `allow-rename` on,
    /// the window takes the name and, as tmux does, stops being named automatically.
    pub(super) fn program_named_window(&mut self, pane: crate::ids::PaneId, name: &str) {
        let allowed = self
            .config_of_pane(pane)
            .option_value("allow-rename")
            .as_deref()
            == Some("on");
        let name = crate::names::clean_name(name);
        if !allowed || name.is_empty() {
            return;
        }
        let Some(wpos) = self.window_of(pane) else {
            return;
        };
        let w = &mut self.windows[wpos];
        w.auto_name = false;
        if w.name != name {
            w.name = name;
            self.fire_hook("window-renamed", Some(pane));
        }
    }

    /// What a pane runs when no command is given: `default-command` through the shell, as
    /// tmux does; empty (the login shell) while it is unset.
    pub(super) fn default_command(&self) -> Vec<String> {
        let line = self
            .config()
            .option_value("default-command")
            .unwrap_or_default();
        if line.trim().is_empty() {
            return Vec::new();
        }
        vec![self.shell(), "-c".to_string(), line]
    }

    /// The shell command lines run through: the session's, else `$SHELL`, else `/bin/sh`.
    fn shell(&self) -> String {
        self.template
            .spawn
            .shell
            .clone()
            .filter(|s| !s.is_empty())
            .or_else(|| std::env::var("SHELL").ok().filter(|s| !s.is_empty()))
            .unwrap_or_else(|| "/bin/sh".to_string())
    }

    /// What a pane runs for `command`, as tmux does: a single word that is a shell line
    /// (`'htop -d 5'`, `'make; read'`) through the shell (`shell -c LINE`); a program's bare
    /// name, or several words, as they are; nothing: `default-command`, else the shell.
    pub(super) fn program_for(&self, command: Vec<String>) -> Vec<String> {
        match command.as_slice() {
            [] => self.default_command(),
            [line] if is_shell_line(line) => vec![self.shell(), "-c".to_string(), line.clone()],
            _ => command,
        }
    }

    /// Ends pane `pane`'s program and takes the pane out of its window at once, so that a
    /// listing right after never shows it. The session's last pane only has its program ended:
    /// the session ends with it, as its task sees the exit.
    pub fn close_pane(&mut self, pane: crate::ids::PaneId) {
        let Some(handle) = self.panes.get(&pane).cloned() else {
            return;
        };
        if self.panes.len() > 1 {
            // When its exit arrives later, the pane is gone already and nothing changes.
            self.pane_gone(pane);
        }
        handle.kill();
    }

    /// The first window index (`base-index`).
    pub fn base_index(&self) -> u32 {
        self.config().base_index
    }

    /// The first pane index (`pane-base-index`).
    pub fn pane_base_index(&self) -> usize {
        self.config().pane_base_index()
    }

    /// Whether windows are renumbered when one closes (`renumber-windows`).
    pub(super) fn renumber_on_close(&self) -> bool {
        self.config().renumber_windows
    }

    /// Numbers the windows from `base-index` in their order, with no gaps.
    pub fn renumber(&mut self) {
        let base = self.base_index();
        for (i, w) in self.windows.iter_mut().enumerate() {
            w.index = base.saturating_add(u32::try_from(i).unwrap_or(u32::MAX));
        }
        self.generation += 1;
    }

    /// Moves the window at `from` to index `index`, which must be free; the current window
    /// stays current.
    pub fn move_window(&mut self, from: usize, index: u32) -> Result<(), CommandError> {
        if self.windows.get(from).is_some_and(|w| w.index == index) {
            return Ok(());
        }
        if self.windows.iter().any(|w| w.index == index) {
            return Err(CommandError::failed(format!(
                "window index {index} is in use: pick a free index, or swap-window with it"
            )));
        }
        let current = self.windows.get(self.current).map(|w| w.id);
        let mut window = self.windows.remove(from);
        window.index = index;
        let pos = self
            .windows
            .iter()
            .position(|w| w.index > index)
            .unwrap_or(self.windows.len());
        self.windows.insert(pos, window);
        self.current = current
            .and_then(|id| self.windows.iter().position(|w| w.id == id))
            .unwrap_or(0);
        self.generation += 1;
        Ok(())
    }

    /// Swaps the windows at `a` and `b` (their places and indexes); with `follow`, the window
    /// that was at `a` becomes current in its new place.
    pub fn swap_windows(&mut self, a: usize, b: usize, follow: bool) {
        if a == b || a >= self.windows.len() || b >= self.windows.len() {
            return;
        }
        let current = self.windows[self.current].id;
        let (ia, ib) = (self.windows[a].index, self.windows[b].index);
        self.windows.swap(a, b);
        self.windows[a].index = ia;
        self.windows[b].index = ib;
        self.current = self
            .windows
            .iter()
            .position(|w| w.id == current)
            .unwrap_or(0);
        if follow {
            self.select_window_at(b);
        }
        self.generation += 1;
    }
}

/// Whether one word needs a shell to run: anything but a plain path of letters, digits and
/// `-_./+@%,:=` (spaces, quotes, `;`, `$`, `~`, globs, redirections ...).
fn is_shell_line(word: &str) -> bool {
    !word
        .chars()
        .all(|c| c.is_alphanumeric() || "-_./+@%,:=".contains(c))
}
