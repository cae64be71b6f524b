//! The options in force in a session, its windows and its panes: the global configuration,
//! then the session's own values, the window's, the pane's (see [`crate::option_scopes`]).

use super::{Scope, SessionState};
use crate::config::Config;
use crate::ids::PaneId;
use crate::options::{Applied, SetHow};
use crate::outcome::CommandError;
use std::sync::Arc;

/// Where `set-option` without `-g` puts a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// The target session.
    Session,
    /// The target window.
    Window,
    /// The target pane.
    Pane,
}

impl SessionState {
    /// The configuration in force in the session: the global one with the session's own
    /// values.
    pub fn config(&self) -> Arc<Config> {
        self.in_force.clone()
    }

    /// The configuration in force in the window at `wpos` (the session's when it sets nothing
    /// of its own, or when there is no such window).
    pub fn window_config(&self, wpos: usize) -> Arc<Config> {
        self.windows
            .get(wpos)
            .and_then(|w| w.in_force.clone())
            .unwrap_or_else(|| self.config())
    }

    /// The configuration in force for pane `pane` of the window at `wpos`.
    pub fn pane_config(&self, wpos: usize, pane: PaneId) -> Arc<Config> {
        let window = self.window_config(wpos);
        match self.pane_options.get(&pane) {
            Some(local) => local.over(&window),
            None => window,
        }
    }

    /// Hands pane `pane` the options in force for it (after it moved to another window).
    pub fn hand_options(&self, pane: PaneId) {
        if let Some(p) = self.panes.get(&pane) {
            p.shared.set_options(self.config_of_pane(pane));
        }
    }

    /// The configuration in force for pane `pane`, wherever it is.
    pub fn config_of_pane(&self, pane: PaneId) -> Arc<Config> {
        match self.window_of(pane) {
            Some(wpos) => self.pane_config(wpos, pane),
            None => self.config(),
        }
    }

    /// Takes the global configuration (changed) and the session's own values anew: what
    /// the session, its windows and its panes have in force, and what clients draw.
    pub(super) fn refresh_options(&mut self) {
        let global = self.clipboard.config.borrow().clone();
        let in_force = self.local_options.over(&global);
        self.template.spawn.shell = in_force.default_shell.clone();
        for w in &mut self.windows {
            w.in_force = (!w.options.is_empty()).then(|| w.options.over(&in_force));
        }
        let panes = &self.panes;
        self.pane_options
            .retain(|p, local| panes.contains_key(p) && !local.is_empty());
        self.in_force = in_force;
        self.arm_idle_lock();
        for wpos in 0..self.windows.len() {
            for pane in self.windows[wpos].layout.panes() {
                let config = self.pane_config(wpos, pane);
                if let Some(p) = self.panes.get(&pane) {
                    p.shared.set_options(config);
                }
            }
        }
        // The status line or the pane-title row may have come or gone: every window is laid
        // out again.
        self.generation += 1;
        let (cols, rows) = (self.cols, self.rows);
        self.cols = 0;
        self.resize_to(cols, rows, false);
    }

    /// Sets option `name` on the session, or on the window or pane `scope` names, as
    /// `set-option` without `-g` does; the session, its clients and its programs see it at
    /// once.
    pub fn set_local_option(
        &mut self,
        level: Level,
        scope: &Scope,
        name: &str,
        value: Option<&str>,
        how: SetHow,
    ) -> Result<Applied, CommandError> {
        let invalid = |e: String| CommandError::Invalid(format!("set-option: {e}"));
        let applied = match level {
            Level::Session => {
                let global = self.clipboard.config.borrow().clone();
                self.local_options
                    .set(&global, name, value, how)
                    .map_err(invalid)?
            }
            Level::Window => {
                let (wpos, _) = self.find_pane(scope)?;
                let above = self.config();
                self.windows[wpos]
                    .options
                    .set(&above, name, value, how)
                    .map_err(invalid)?
            }
            Level::Pane => {
                let (wpos, pane) = self.find_pane(scope)?;
                let above = self.window_config(wpos);
                self.pane_options
                    .entry(pane)
                    .or_default()
                    .set(&above, name, value, how)
                    .map_err(invalid)?
            }
        };
        self.refresh_options();
        Ok(applied)
    }

    /// The configuration in force at `level` for what `scope` names, as `show-options`
    /// without `-g` lists it.
    pub fn config_at(&self, level: Level, scope: &Scope) -> Result<Arc<Config>, CommandError> {
        Ok(match level {
            Level::Session => self.config(),
            Level::Window => self.window_config(self.find_pane(scope)?.0),
            Level::Pane => {
                let (wpos, pane) = self.find_pane(scope)?;
                self.pane_config(wpos, pane)
            }
        })
    }
}
