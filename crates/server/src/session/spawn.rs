//! Starting a pane's program: the options it starts with (the session's environment,
//! `WEFT_PANE`, the command through the shell when it is a shell line) and its pane.

use super::SessionState;
use crate::ids::PaneId;
use crate::outcome::CommandError;
use crate::pane::{spawn_pane, PaneHandle, PaneSpec};
use std::sync::Arc;

/// Sets variable `name` to `value` for the program `spawn` starts, over what it had (`None`:
/// removed from its environment).
pub(super) fn set_env(
    spawn: &mut weft_pty_io::SpawnOptions,
    name: &str,
    value: Option<&std::ffi::OsStr>,
) {
    spawn.env.retain(|(k, _)| k != name);
    spawn.env_remove.retain(|k| k != name);
    match value {
        Some(v) => spawn.env.push((name.into(), v.into())),
        None => spawn.env_remove.push(name.into()),
    }
}

impl SessionState {
    /// A pane `id` of this session started as `spawn` says, with the options of `config`
    /// (`history-limit`, `remain-on-exit`, ...).
    pub(super) fn pane_spec(
        &self,
        id: PaneId,
        spawn: weft_pty_io::SpawnOptions,
        config: Arc<crate::config::Config>,
    ) -> PaneSpec {
        PaneSpec {
            id,
            cols: spawn.cols,
            rows: spawn.rows,
            spawn,
            scrollback_lines: config.scrollback_lines,
            remain_on_exit: config.remain_on_exit,
            metrics: (self.template.metrics.clone(), self.name.clone()),
            priority: self.template.priority.clone(),
            host_colors: self.template.host_colors.clone(),
            options: config,
        }
    }

    /// How to start `command` (the shell when empty) in `cwd` at a size, with the session's
    /// environment and `WEFT_PANE` naming pane `pane` (the one `weft` commands run there act
    /// on by default).
    pub(super) fn spawn_options(
        &self,
        command: Vec<String>,
        cwd: Option<String>,
        (cols, rows): (u16, u16),
        config: &crate::config::Config,
        pane: PaneId,
    ) -> weft_pty_io::SpawnOptions {
        let mut spawn = self.template.spawn.clone();
        let command = self.program_for(command);
        spawn.command = command.into_iter().map(Into::into).collect();
        if cwd.is_some() {
            spawn.cwd = cwd.map(Into::into);
        }
        spawn.cols = cols.max(1);
        spawn.rows = rows.max(1);
        spawn.erase = Some(crate::pane_keys::backspace_byte(
            config.option_value("backspace").as_deref(),
        ))
        .filter(|&b| b != crate::pane_keys::DEL);
        // The global environment's changes, then the session's own, over the session's.
        for (name, value) in config.environment.iter().chain(&self.environment) {
            set_env(&mut spawn, name, value.as_deref().map(std::ffi::OsStr::new));
        }
        spawn.env.retain(|(k, _)| k != "WEFT_PANE");
        spawn
            .env
            .push(("WEFT_PANE".into(), pane.to_string().into()));
        spawn
    }

    /// Starts a pane running `command` (the shell when empty) at a size, with the options of
    /// `config` (the configuration in force where it goes); it belongs to no window until the
    /// caller places it.
    pub fn spawn(
        &mut self,
        command: Vec<String>,
        cwd: Option<String>,
        size: (u16, u16),
        config: &Arc<crate::config::Config>,
    ) -> Result<PaneHandle, CommandError> {
        let id = self.ids.pane();
        self.spawn_as(id, command, cwd, size, config)
    }

    /// [`SessionState::spawn`] under id `id` (`respawn-pane` keeps the pane's id, as tmux):
    /// the pane map holds the new pane there once it started.
    pub fn spawn_as(
        &mut self,
        id: PaneId,
        command: Vec<String>,
        cwd: Option<String>,
        (cols, rows): (u16, u16),
        config: &Arc<crate::config::Config>,
    ) -> Result<PaneHandle, CommandError> {
        let mut spawn = self.spawn_options(command, cwd, (cols, rows), config, id);
        for (name, value) in std::mem::take(&mut self.pending_env) {
            set_env(&mut spawn, &name, Some(std::ffi::OsStr::new(&value)));
        }
        let mut spec = self.pane_spec(id, spawn, config.clone());
        spec.remain_on_exit = self.pending_remain.unwrap_or(config.remain_on_exit);
        let pane = spawn_pane(spec, self.exits.clone(), self.events.clone())
            .map_err(|e| CommandError::failed(format!("cannot start the program: {e}")))?;
        self.panes.insert(id, pane.clone());
        Ok(pane)
    }
}
