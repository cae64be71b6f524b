//! What a client attaches to a session with, kept to attach to another: joining a session
//! (the session checks the client may attach) and moving there (`switch-client`).

use super::ui::{ClientLoop, Ui};
use crate::ids::ClientId;
use crate::outcome::CommandError;
use crate::render::RenderControl;
use crate::session::{Attached, ClientControl, SessionCommand, SessionHandle};
use std::sync::Arc;
use tokio::sync::mpsc;

/// What a client attaches to a session with; kept to attach to another (`switch-client`).
pub(super) struct Joining {
    pub(super) client: ClientId,
    /// The client's terminal size now.
    pub(super) size: (u16, u16),
    pub(super) read_only: bool,
    /// Where the session reaches the client's writer.
    pub(super) control: mpsc::Sender<ClientControl>,
    pub(super) terminal_session: Option<u32>,
    /// The client's environment, for update-environment.
    pub(super) env: Arc<Vec<(String, String)>>,
    /// The client's terminal device, for `#{client_tty}`.
    pub(super) tty: Option<String>,
    /// When it last typed (seconds since the epoch), for `#{client_activity}`.
    pub(super) activity: Arc<std::sync::atomic::AtomicU64>,
}

impl Joining {
    /// Attaches to `session`.
    pub(super) async fn join(&self, session: &SessionHandle) -> Result<Attached, CommandError> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        let sent = session
            .send(SessionCommand::Attach {
                client: self.client,
                cols: self.size.0,
                rows: self.size.1,
                read_only: self.read_only,
                control: self.control.clone(),
                terminal_session: self.terminal_session,
                env: self.env.clone(),
                tty: self.tty.clone(),
                activity: self.activity.clone(),
                reply,
            })
            .await;
        match if sent { answer.await.ok() } else { None } {
            Some(result) => result,
            None => Err(CommandError::SessionEnded),
        }
    }

    /// Leaves the client's session for `next`: attaches there first (so a refusal leaves the
    /// client where it was), then leaves the old one, and points the client's loop and
    /// renderer at the new session's view. The `client-session-changed` hook it fires runs
    /// `hook_depth` deep (that of the command that asked).
    pub(super) async fn switch(
        &self,
        state: &mut ClientLoop,
        info: &mut Attached,
        next: SessionHandle,
        hook_depth: u8,
    ) {
        match self.join(&next).await {
            Ok(joined) => {
                let old = std::mem::replace(&mut state.session, next);
                old.send(SessionCommand::ClientGone {
                    client: self.client,
                })
                .await;
                state.last_session = Some(old.id.to_string());
                state.ctx.metrics.move_client(self.client, &joined.name);
                state.view = joined.view.clone();
                state.ui = Ui::Normal;
                state.prefix_armed = false;
                // A drag or selection under way was in the old session's panes.
                state.drag = None;
                state.selecting = None;
                state.copy_count = None;
                let _ = state.render.send(RenderControl::Overlay(None)).await;
                let _ = state
                    .render
                    .send(RenderControl::View(joined.view.clone()))
                    .await;
                *info = joined;
                if state
                    .ctx
                    .config
                    .borrow()
                    .hooks
                    .is_set("client-session-changed")
                {
                    state.ctx.hooks.fire(crate::hooks::HookEvent {
                        name: "client-session-changed".into(),
                        session: Some(state.session.id),
                        pane: None,
                        depth: hook_depth,
                    });
                }
            }
            Err(e) => {
                let message = format!("cannot switch to session {}: {e}", next.name());
                state.message(message).await;
            }
        }
    }
}
