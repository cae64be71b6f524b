//! What a session tells others about: hooks it fires (a pane's program exited, a client came or
//! went, a window renamed itself, a bell) and messages for its clients.

use super::{ClientControl, SessionState};
use crate::events::EventKind;
use crate::ids::PaneId;
use weft_screen_model::Event;

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
            depth: self.hook_depth,
        });
    }

    /// Tells subscribers what pane `pane`'s program said about itself: a bell, a title, its
    /// directory, a shell's mark. Never waits; builds nothing when nobody listens.
    pub(super) fn publish_screen_event(&self, pane: PaneId, event: &Event) {
        if !self.feed.is_heard() {
            return;
        }
        let kind = match event {
            Event::Bell => EventKind::Bell,
            Event::TitleChanged(title) => EventKind::Title(title.clone()),
            Event::CwdChanged(url) => {
                EventKind::Cwd(super::path_of_file_url(url).unwrap_or_else(|| url.clone()))
            }
            Event::Prompt { mark, status, .. } => EventKind::Mark {
                mark: *mark,
                status: *status,
            },
            Event::ClipboardWrite { .. }
            | Event::ClipboardRead { .. }
            | Event::Notification(_)
            | Event::Passthrough(_)
            | Event::WindowNamed(_) => return,
        };
        self.feed.publish(Some(self.id), Some(pane), kind);
    }

    /// Tells subscribers that pane `pane`'s program exited.
    pub(super) fn publish_exit(&self, pane: PaneId, status: weft_pty_io::ExitStatus) {
        let kind = EventKind::PaneExited {
            status: status.code,
            signal: status.signal,
        };
        self.feed.publish(Some(self.id), Some(pane), kind);
    }

    /// Tells subscribers that pane `pane`'s program exited and the pane stays.
    pub(super) fn publish_died(&self, pane: PaneId) {
        let status = self.panes.get(&pane).and_then(|p| p.exit_code());
        let kind = EventKind::PaneDied { status };
        self.feed.publish(Some(self.id), Some(pane), kind);
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
