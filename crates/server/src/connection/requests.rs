//! Carrying out the commands that concern the client itself (`ClientRequest`): prompts,
//! choosers, menus, popups, key tables, if-shell's choice, and the session changes in
//! `sessions.rs`.

use super::prompt::Prompt;
use super::sent_keys::encode_key_name;
use super::ui::{After, ClientLoop, Ui};
use crate::cmd::ClientRequest;
use crate::render::{Overlay, RenderControl};
use crate::session::SessionCommand;
use bytes::Bytes;

impl ClientLoop {
    /// Carries out a client command.
    pub(super) async fn client_request(&mut self, request: ClientRequest) -> After {
        match request {
            request @ (ClientRequest::Detach { .. }
            | ClientRequest::Switch { .. }
            | ClientRequest::RenameSession { .. }
            | ClientRequest::NewSession { .. }
            | ClientRequest::FindWindow { .. }) => return self.session_request(request).await,
            ClientRequest::Suspend => return After::Suspend,
            ClientRequest::Lock => return After::Lock,
            ClientRequest::Refresh { session: None } => {
                let _ = self.render.send(RenderControl::Redraw).await;
            }
            ClientRequest::Refresh { session: Some(t) } => {
                match self.ctx.registry.find(Some(t.clone())).await {
                    Some(h) => {
                        h.send(SessionCommand::Refresh).await;
                    }
                    None => self.message(format!("can't find session: {t}")).await,
                }
            }
            ClientRequest::SendPrefix { second } => {
                let prefix = {
                    let keys = &self.options().keys;
                    if second {
                        keys.prefix2.clone()
                    } else {
                        Some(keys.prefix.clone())
                    }
                };
                if let Some(Ok(bytes)) = prefix.map(|p| encode_key_name(&p)) {
                    self.forward(Bytes::from(bytes)).await;
                }
            }
            ClientRequest::Prompt {
                label,
                initial,
                template,
                one_key,
                incremental,
                numeric,
                format,
                kind,
            } => {
                let line = super::line_edit::LineEditor::new(self.expand(&initial));
                let template = if format {
                    let origin = self.origin();
                    let expanded = crate::cmd::shell::expand_for(&self.ctx, &origin, &template);
                    expanded.await.unwrap_or(template)
                } else {
                    template
                };
                self.start_prompt(Prompt {
                    label,
                    line,
                    template,
                    one_key,
                    incremental,
                    numeric,
                    kind,
                })
                .await;
            }
            ClientRequest::ChooseBuffer { template } => {
                self.open_chooser(super::chooser::Choosing::Buffers, template)
                    .await
            }
            ClientRequest::ChooseClient { template } => {
                self.open_chooser(super::chooser::Choosing::Clients, template)
                    .await
            }
            ClientRequest::KeyTable { table } => {
                let known = self.options().keys.table(&table).is_some();
                if known {
                    self.key_table = Some(table);
                } else {
                    self.message(format!(
                        "switch-client: no key table {table:?} (bind -T makes one)"
                    ))
                    .await;
                }
            }
            ClientRequest::IfShell {
                test,
                format,
                then,
                otherwise,
                expand,
            } => {
                let origin = self.origin();
                let chosen = crate::cmd::shell::chosen(
                    &self.ctx, &origin, &test, format, then, otherwise, expand,
                )
                .await;
                self.chosen_line = chosen;
            }
            ClientRequest::ChooseTree {
                windows,
                no_preview,
            } => self.open_tree(windows, no_preview).await,
            ClientRequest::DisplayPanes {
                duration,
                template,
                takes_keys,
            } => self.display_panes(duration, template, takes_keys).await,
            ClientRequest::ClockMode => self.clock_mode().await,
            ClientRequest::Popup(action) => self.popup_request(*action).await,
            ClientRequest::Menu(request) => self.open_menu(*request).await,
            // Boxed: the event's handling may run commands, which come back here.
            ClientRequest::SendMouse => Box::pin(self.send_mouse()).await,
            ClientRequest::CopyModeMouse => self.copy_mode_mouse().await,
            ClientRequest::Confirm { prompt, command } => {
                self.overlay(Some(Overlay::Prompt {
                    label: prompt,
                    input: String::new(),
                    cursor: 0,
                    vi_command: false,
                }))
                .await;
                self.ui = Ui::Confirm(command);
            }
        }
        After::Continue
    }

    /// A prompt's initial text with `#W` (the window's name) and `#S` (the session's) filled in.
    fn expand(&self, text: &str) -> String {
        if !text.contains('#') {
            return text.to_string();
        }
        let window = self.view.borrow().window_name.clone();
        text.replace("#W", &window)
            .replace("#S", &self.session.name())
    }
}
