//! Hooks, as tmux's `set-hook`: command lines run when something happens (a window is made, a
//! pane's program exits, a client attaches, a bell rings). This module is the part every layer
//! shares: the names weft fires, the table of hooks kept in the configuration, and the feed
//! that carries a fired hook to the runner (`hook_runner`, which runs its commands off every
//! session's task).
//!
//! Firing never waits: the feed is a bounded channel, and a hook fired while it is full is
//! dropped and counted (`weft diag`).

use crate::ids::{PaneId, SessionId};
use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use tokio::sync::mpsc;

/// Fired hooks waiting for the runner: they are rare (a user's action, a program's exit, a
/// bell); a program ringing the bell in a loop loses the excess rather than queueing it.
pub const HOOK_EVENT_CAPACITY: usize = 64;

/// The most commands kept for one hook (`set-hook -a` appends).
pub const MAX_HOOK_COMMANDS: usize = 16;

/// The longest command line a hook keeps.
pub const MAX_HOOK_COMMAND_BYTES: usize = 16 * 1024;

/// The hooks weft fires besides `after-<command>` (which fires after any command of the table
/// succeeds).
pub const HOOK_NAMES: &[&str] = &[
    "alert-activity",
    "alert-bell",
    "client-attached",
    "client-detached",
    "client-session-changed",
    "pane-died",
    "pane-exited",
    "pane-focus-in",
    "pane-focus-out",
    "pane-title-changed",
    "session-closed",
    "session-created",
    "window-layout-changed",
    "window-renamed",
];

/// Whether `name` is a hook weft knows: one of [`HOOK_NAMES`], or `after-` and a command name
/// (`is_command` says which names are commands: the table sits above this module).
pub fn is_hook_name(name: &str, is_command: impl Fn(&str) -> bool) -> bool {
    HOOK_NAMES.contains(&name) || name.strip_prefix("after-").is_some_and(is_command)
}

/// The hooks set: global ones (`set-hook -g`) and each session's own, which replace the global
/// ones of the same name for that session.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hooks {
    global: BTreeMap<String, Vec<String>>,
    sessions: BTreeMap<SessionId, BTreeMap<String, Vec<String>>>,
}

impl Hooks {
    /// Sets hook `name` (of `session`, else global) to `command`, or with `append` adds it to
    /// the commands already there. Errors are sentences.
    pub fn set(
        &mut self,
        session: Option<SessionId>,
        name: &str,
        command: &str,
        append: bool,
    ) -> Result<(), String> {
        if command.len() > MAX_HOOK_COMMAND_BYTES {
            return Err(format!(
                "a hook's command may be at most {} KiB",
                MAX_HOOK_COMMAND_BYTES >> 10
            ));
        }
        let table = match session {
            Some(s) => self.sessions.entry(s).or_default(),
            None => &mut self.global,
        };
        let commands = table.entry(name.to_string()).or_default();
        if !append {
            commands.clear();
        }
        if commands.len() >= MAX_HOOK_COMMANDS {
            return Err(format!(
                "hook {name} has {MAX_HOOK_COMMANDS} commands already; set it anew without -a"
            ));
        }
        commands.push(command.to_string());
        Ok(())
    }

    /// Removes hook `name` (of `session`, else the global one); false if it was not set.
    pub fn unset(&mut self, session: Option<SessionId>, name: &str) -> bool {
        match session {
            Some(s) => {
                let Some(table) = self.sessions.get_mut(&s) else {
                    return false;
                };
                let removed = table.remove(name).is_some();
                if table.is_empty() {
                    self.sessions.remove(&s);
                }
                removed
            }
            None => self.global.remove(name).is_some(),
        }
    }

    /// Forgets the hooks of a session that ended.
    pub fn forget_session(&mut self, session: SessionId) {
        self.sessions.remove(&session);
    }

    /// Whether `session` has any hooks of its own.
    pub fn has_session_hooks(&self, session: SessionId) -> bool {
        self.sessions.contains_key(&session)
    }

    /// The commands hook `name` runs for `session`: the session's own, else the global ones.
    pub fn commands(&self, session: Option<SessionId>, name: &str) -> &[String] {
        session
            .and_then(|s| self.sessions.get(&s))
            .and_then(|t| t.get(name))
            .or_else(|| self.global.get(name))
            .map_or(&[], Vec::as_slice)
    }

    /// Whether hook `name` would run anything anywhere (checked before firing, so an unset
    /// hook costs nothing).
    pub fn is_set(&self, name: &str) -> bool {
        self.global.contains_key(name) || self.sessions.values().any(|t| t.contains_key(name))
    }

    /// `show-hooks` lines: `name[i] command`, of `session` or the global table.
    pub fn lines(&self, session: Option<SessionId>) -> Vec<String> {
        let table = match session {
            Some(s) => self.sessions.get(&s),
            None => Some(&self.global),
        };
        table
            .into_iter()
            .flatten()
            .flat_map(|(name, commands)| {
                commands
                    .iter()
                    .enumerate()
                    .map(move |(i, c)| format!("{name}[{i}] {c}"))
            })
            .collect()
    }
}

/// A hook that fired: its name, where (the session, and the pane its commands run in, if
/// any), and how deep in hooks the command that fired it ran (0: not in a hook).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HookEvent {
    /// The hook's name (`after-new-window`, `pane-exited`, ...).
    pub name: String,
    /// The session it concerns.
    pub session: Option<SessionId>,
    /// The pane its commands run in (none: the session's active pane).
    pub pane: Option<PaneId>,
    /// How many hooks deep the command that fired it ran.
    pub depth: u8,
}

/// Where hooks are fired to: cheap to clone, never waits.
#[derive(Clone, Debug)]
pub struct HookFeed {
    tx: mpsc::Sender<HookEvent>,
    metrics: Arc<crate::metrics::MetricsRegistry>,
}

impl HookFeed {
    /// A feed and the runner's end of it; hooks dropped are counted in `metrics`.
    pub fn new(metrics: Arc<crate::metrics::MetricsRegistry>) -> (Self, mpsc::Receiver<HookEvent>) {
        let (tx, rx) = mpsc::channel(HOOK_EVENT_CAPACITY);
        (HookFeed { tx, metrics }, rx)
    }

    /// Fires `event`; dropped (and counted) when the runner is behind.
    pub fn fire(&self, event: HookEvent) {
        if let Err(e) = self.tx.try_send(event) {
            if matches!(e, mpsc::error::TrySendError::Full(_)) {
                self.metrics.dropped_hooks.fetch_add(1, Ordering::Relaxed);
                tracing::debug!("a hook fired while the runner was behind: dropped");
            }
        }
    }

    /// Hooks dropped so far (the runner behind, or too many running).
    pub fn dropped(&self) -> u64 {
        self.metrics.dropped_hooks.load(Ordering::Relaxed)
    }

    /// Counts a hook the runner did not run.
    pub fn count_dropped(&self) {
        self.metrics.dropped_hooks.fetch_add(1, Ordering::Relaxed);
    }
}

tokio::task_local! {
    /// How many hooks deep the running task's commands are (set by the hook runner around a
    /// hook's commands): hooks they fire carry it, so a hook that fires itself ends.
    pub static HOOK_DEPTH: u8;
}

/// The hook depth of the running task: 0 outside a hook's commands.
pub fn current_depth() -> u8 {
    HOOK_DEPTH.try_with(|d| *d).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_hooks_replace_global_ones_and_unset_removes() {
        let mut hooks = Hooks::default();
        let s = SessionId(1);
        hooks.set(None, "after-new-window", "a", false).unwrap();
        hooks.set(None, "after-new-window", "b", true).unwrap();
        assert_eq!(hooks.commands(Some(s), "after-new-window"), ["a", "b"]);
        hooks.set(Some(s), "after-new-window", "c", false).unwrap();
        assert_eq!(hooks.commands(Some(s), "after-new-window"), ["c"]);
        assert_eq!(hooks.commands(None, "after-new-window"), ["a", "b"]);
        assert_eq!(
            hooks.lines(None),
            ["after-new-window[0] a", "after-new-window[1] b"]
        );
        assert!(hooks.unset(Some(s), "after-new-window"));
        assert!(!hooks.has_session_hooks(s));
        assert!(hooks.unset(None, "after-new-window"));
        assert!(!hooks.is_set("after-new-window"));
        assert!(!hooks.unset(None, "after-new-window"));
    }

    #[test]
    fn a_hook_holds_a_bounded_number_of_commands() {
        let mut hooks = Hooks::default();
        for _ in 0..MAX_HOOK_COMMANDS {
            hooks.set(None, "pane-exited", "x", true).unwrap();
        }
        assert!(hooks.set(None, "pane-exited", "x", true).is_err());
        assert!(hooks.set(None, "pane-exited", "x", false).is_ok());
        let long = "x".repeat(MAX_HOOK_COMMAND_BYTES + 1);
        assert!(hooks.set(None, "pane-exited", &long, false).is_err());
    }

    #[test]
    fn names_are_known_hooks_or_after_a_command() {
        let is_command = |n: &str| n == "new-window";
        assert!(is_hook_name("pane-exited", is_command));
        assert!(is_hook_name("after-new-window", is_command));
        assert!(!is_hook_name("after-bogus", is_command));
        assert!(!is_hook_name("bogus", is_command));
    }

    #[test]
    fn a_full_feed_drops_and_counts() {
        let (feed, _rx) = HookFeed::new(Arc::default());
        let event = HookEvent {
            name: "alert-bell".into(),
            session: None,
            pane: None,
            depth: 0,
        };
        for _ in 0..HOOK_EVENT_CAPACITY + 3 {
            feed.fire(event.clone());
        }
        assert_eq!(feed.dropped(), 3);
    }
}
