//! What a session tells others about: hooks it fires (a pane's program exited, a client came or
//! went, a window renamed itself, a bell) and messages for its clients.

use super::{ClientControl, SessionState};
use crate::ids::PaneId;

impl SessionState {
    /// Fires hook `name`, its commands to run in `pane` (else the session's active pane), if
    /// the hook is set. Never waits.
    pub(super) fn fire_hook(&self, name: &str, pane: Option<PaneId>) {
        if !self.clipboard.config.borrow().hooks.is_set(name) {
            return;
        }
        self.hooks.fire(crate::hooks::HookEvent {
            name: name.to_string(),
            session: Some(self.id),
            pane,
            depth: 0,
        });
    }

    /// Shows `text` to every attached client as a message. Never waits: a client whose
    /// control queue is full misses it (it is in the server's log too).
    pub(super) fn message_clients(&self, text: &str) {
        tracing::info!(session = %self.name, "{text}");
        for client in self.clients.values() {
            let _ = client
                .control
                .try_send(ClientControl::Message(text.to_string()));
        }
    }
}
