//! What a client does about sessions: switching to another (`switch-client`, `new-session`
//! from the prompt), renaming one, and detaching clients. The switch itself (leaving one
//! session and attaching to the other with the same terminal and renderer) is the terminal
//! loop's, in `attached.rs`: here the client only works out where to go.

use super::ui::{After, ClientLoop};
use crate::cmd::session::{client_id, rename, session_of_client, switch_target, SwitchTo};
use crate::cmd::ClientRequest;
use crate::outcome::{not_found, CommandError, TargetKind};
use crate::session::{SessionCommand, SessionHandle};
use weft_protocol::NewSession;

impl ClientLoop {
    /// Carries out a session request typed in this client.
    pub(super) async fn session_request(&mut self, request: ClientRequest) -> After {
        let result = match request {
            ClientRequest::Switch { to, .. } => self.switch(&to).await,
            ClientRequest::RenameSession { target, name } => {
                let session = match target {
                    Some(t) => self.find(&t).await,
                    None => Ok(self.session.clone()),
                };
                match session {
                    Ok(s) => rename(&self.ctx, &s, &name).await.map(|()| After::Continue),
                    Err(e) => Err(e),
                }
            }
            ClientRequest::NewSession {
                name,
                detached,
                existing,
                cwd,
                command,
                window_name,
            } => {
                let spec = NewSession {
                    name,
                    detached,
                    cwd,
                    command,
                    window_name,
                    ..NewSession::default()
                };
                self.new_session(spec, existing).await
            }
            ClientRequest::Detach {
                others,
                session,
                how,
            } => self.detach(others, session, how).await,
            ClientRequest::FindWindow { text, how } => {
                match crate::cmd::session::find_window(&self.session, &text, how).await {
                    Ok(said) => {
                        self.message(said).await;
                        Ok(After::Continue)
                    }
                    Err(e) => Err(e),
                }
            }
            _ => Ok(After::Continue),
        };
        match result {
            Ok(after) => after,
            Err(e) => {
                self.message(e.to_string()).await;
                After::Continue
            }
        }
    }

    /// Where `switch-client` goes from this client's session.
    pub(super) async fn switch(&mut self, to: &SwitchTo) -> Result<After, CommandError> {
        let target =
            switch_target(&self.ctx, &self.session, self.last_session.as_deref(), to).await?;
        if target.id == self.session.id {
            return Ok(After::Continue);
        }
        Ok(After::Switch(target))
    }

    async fn find(&self, target: &str) -> Result<SessionHandle, CommandError> {
        self.ctx
            .registry
            .find(Some(target.to_string()))
            .await
            .ok_or_else(|| not_found(TargetKind::Session, target))
    }

    /// `new-session` from the prompt: `spec` at this client's size, shown unless detached.
    async fn new_session(
        &mut self,
        spec: NewSession,
        existing: bool,
    ) -> Result<After, CommandError> {
        if existing {
            if let Some(n) = &spec.name {
                if let Ok(found) = self.find(n).await {
                    return Ok(self.show(found));
                }
            }
        }
        let detached = spec.detached;
        let spec = NewSession {
            cols: Some(self.view.borrow().cols),
            rows: Some(self.view.borrow().rows),
            ..spec
        };
        let created = self.ctx.registry.new_session(spec).await?;
        if detached {
            return Ok(After::Continue);
        }
        Ok(self.show(created))
    }

    fn show(&self, session: SessionHandle) -> After {
        if session.id == self.session.id {
            After::Continue
        } else {
            After::Switch(session)
        }
    }

    /// `detach-client`: this client, the others (`-a`), one client by name, or every client
    /// of a session.
    async fn detach(
        &mut self,
        others: bool,
        target: Option<String>,
        how: crate::session::DetachHow,
    ) -> Result<After, CommandError> {
        if let Some(client) = target.as_deref().and_then(client_id) {
            if client == self.client {
                self.detach_how = how;
                return Ok(After::Detach);
            }
            let session = session_of_client(&self.ctx, client).await.ok_or_else(|| {
                CommandError::failed(format!(
                    "no client client-{client} (list-clients shows them)"
                ))
            })?;
            session
                .send(SessionCommand::DetachOne { client, how })
                .await;
            return Ok(After::Continue);
        }
        let handle = match target {
            Some(t) => self.find(&t).await?,
            None if !others => {
                self.detach_how = how;
                return Ok(After::Detach);
            }
            None => self.session.clone(),
        };
        let except = (others && handle.id == self.session.id).then_some(self.client);
        handle
            .send(SessionCommand::Detach {
                except,
                how: how.clone(),
            })
            .await;
        if except.is_none() && handle.id == self.session.id {
            self.detach_how = how;
            return Ok(After::Detach);
        }
        Ok(After::Continue)
    }
}
