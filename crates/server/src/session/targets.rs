//! Finding the window or pane a target names within a session, as tmux reads targets:
//! windows by `:N`/`N` index, `@N` id or name; panes by `%N`, `window.N`, `.+`/`.-`, or the
//! window's active pane.

use super::{Scope, SessionState};
use crate::ids::{PaneId, WindowId};
use crate::outcome::{not_found, CommandError, TargetKind};

impl SessionState {
    /// The position of the window a target means, or the current one without a target.
    pub fn find_window(&self, target: Option<&str>) -> Result<usize, CommandError> {
        let Some(t) = target
            .map(|t| t.split('.').next().unwrap_or(t))
            .filter(|t| !t.is_empty())
        else {
            return Ok(self.current);
        };
        let t = t.strip_prefix(':').unwrap_or(t);
        if t.is_empty() {
            return Ok(self.current);
        }
        let missing = || not_found(TargetKind::Window, t);
        if let Some(id) = WindowId::parse(t) {
            return self
                .windows
                .iter()
                .position(|w| w.id == id)
                .ok_or_else(missing);
        }
        if let Ok(index) = t.parse::<u32>() {
            return self
                .windows
                .iter()
                .position(|w| w.index == index)
                .ok_or_else(missing);
        }
        self.windows
            .iter()
            .position(|w| w.name == t)
            .ok_or_else(missing)
    }

    /// The position of the window `scope` means: its target, or without one the window of the
    /// pane the command came from (a command typed in a pane, or a menu's, acts on that pane's
    /// window, as in tmux), or the current one.
    pub fn scope_window(&self, scope: &Scope) -> Result<usize, CommandError> {
        match (scope.target().filter(|t| !t.is_empty()), scope.from) {
            (None, Some(from)) => Ok(self.window_of(from).unwrap_or(self.current)),
            (target, _) => self.find_window(target),
        }
    }

    /// The window position and id of the pane `scope` means: its target, or without one the
    /// pane the command came from, or the current window's active pane.
    pub fn find_pane(&self, scope: &Scope) -> Result<(usize, PaneId), CommandError> {
        let target = scope.target();
        if let Some(id) = target.and_then(PaneId::parse) {
            let w = self
                .window_of(id)
                .ok_or_else(|| not_found(TargetKind::Pane, id.to_string()))?;
            return Ok((w, id));
        }
        if target.is_none() {
            if let Some((w, p)) = scope.from.and_then(|p| self.window_of(p).map(|w| (w, p))) {
                return Ok((w, p));
            }
        }
        if let Some(step) = target
            .and_then(|t| t.strip_prefix('.'))
            .filter(|s| *s == "+" || *s == "-")
        {
            // The next or previous pane of the current window.
            let wpos = self.current;
            let window = &self.windows[wpos];
            let order = window.layout.panes();
            let here = scope
                .from
                .filter(|p| order.contains(p))
                .unwrap_or(window.active);
            let i = order.iter().position(|p| *p == here).unwrap_or(0);
            let j = if step == "+" {
                (i + 1) % order.len()
            } else {
                (i + order.len() - 1) % order.len()
            };
            return Ok((wpos, order[j]));
        }
        let wpos = self.find_window(target)?;
        let window = &self.windows[wpos];
        match target.and_then(|t| t.split_once('.')).map(|(_, p)| p) {
            Some(index) if !index.is_empty() => {
                let id = index
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| i.checked_sub(self.pane_base_index()))
                    .and_then(|i| window.layout.panes().get(i).copied())
                    .ok_or_else(|| not_found(TargetKind::Pane, index))?;
                Ok((wpos, id))
            }
            _ => Ok((wpos, window.active)),
        }
    }

    /// The position of the window holding pane `pane`.
    pub fn window_of(&self, pane: PaneId) -> Option<usize> {
        self.windows
            .iter()
            .position(|w| w.layout.panes().contains(&pane))
    }
}
