//! A client's popup (`display-popup`): a program in a box over the window, owned by the
//! client that opened it. While it is open every key, paste and click inside it goes to its
//! program, as in tmux (the prefix too). It closes on `display-popup -C`, when its program
//! exits (`-E`, or `-EE` on success), or on Escape or `C-c` once the program has exited (or at
//! any time without `-E`), and with the client. Dropping it ends its program.

use super::ui::ClientLoop;
use crate::ids::PaneId;
use crate::keys::Input;
use crate::layout::Rect;
use crate::outcome::{CommandError, Output};
use crate::pane::PaneHandle;
use crate::render::{PopupView, RenderControl};
use crate::session::popup::{CloseWhen, PopupAction};
use crate::session::Scope;
use bytes::Bytes;
use std::sync::atomic::Ordering;
use tokio::sync::{mpsc, oneshot};
use weft_pty_io::ExitStatus;

/// A client's open popup.
pub(super) struct Popup {
    /// The program's pane.
    pane: PaneHandle,
    /// Its exit status, once.
    exited: mpsc::Receiver<(PaneId, ExitStatus)>,
    /// The program has exited (the popup shows its last screen).
    done: bool,
    /// When it closes by itself.
    close: CloseWhen,
    /// Once the program has exited, any key closes it (`-k`).
    any_key: bool,
    /// The whole popup as opened, in session cells, and its border lines: where its pane is
    /// (for clicks) follows from them and the session's size (see [`PopupView::inner`]).
    wanted: Rect,
    lines: String,
    /// Told when it closes, with the exit code (a `display-popup` from the command line
    /// waits for it).
    closed: Option<oneshot::Sender<Option<i64>>>,
    /// The program's exit code, once it exited.
    exit_code: Option<i64>,
}

impl Popup {
    /// Its program has exited (its exit may not have been taken from `exited` yet: the pane
    /// says so first).
    fn finished(&self) -> bool {
        self.done || self.pane.has_finished()
    }
}

impl Drop for Popup {
    fn drop(&mut self) {
        self.pane.kill();
        if let Some(closed) = self.closed.take() {
            let _ = closed.send(self.exit_code);
        }
    }
}

/// Resolves with the popup's exit code once its program exits (-1 if that went unreported);
/// never while there is no popup or its exit was taken already.
pub(super) async fn exit_of(popup: &mut Option<Popup>) -> i64 {
    match popup {
        Some(p) if !p.done => p
            .exited
            .recv()
            .await
            .map_or(-1, |(_, status)| i64::from(status.code)),
        _ => std::future::pending().await,
    }
}

impl ClientLoop {
    /// `display-popup`: opens a popup (none while one is open, as in tmux) or closes it.
    pub(super) async fn popup_request(&mut self, action: PopupAction) {
        let PopupAction::Open {
            request,
            close,
            any_key,
            lines,
            style,
            border_style,
            target,
            closed,
        } = action
        else {
            self.close_popup().await;
            return;
        };
        if self.popup.is_some() {
            return;
        }
        let options = self.options();
        let option = |name: &str| options.option_value(name).unwrap_or_default();
        let lines = lines.unwrap_or_else(|| option("popup-border-lines"));
        let style_text = style.unwrap_or_else(|| option("popup-style"));
        let border_text = border_style.unwrap_or_else(|| option("popup-border-style"));
        let bordered = lines != "none";
        let origin = self.origin();
        let (tx, rx) = oneshot::channel();
        let started = async {
            let (session, target) =
                crate::cmd::run::resolve_target(&self.ctx, target, &origin).await?;
            let scope = Scope {
                target,
                from: origin.pane,
            };
            let start = move |s: &mut crate::session::SessionState, scope: &Scope| {
                let started = s.start_popup(request, scope, bordered)?;
                let _ = tx.send(started);
                Ok(Output::none())
            };
            session.run(Box::new(start), scope).await?;
            rx.await.map_err(|_| CommandError::SessionEnded)
        };
        let started = match started.await {
            Ok(started) => started,
            Err(e) => {
                self.message(e.to_string()).await;
                return;
            }
        };
        let base = weft_screen_model::Pen::default();
        let view = PopupView {
            pane: started.pane.clone(),
            wanted: started.rect,
            lines: lines.clone(),
            title: started.title,
            style: crate::style::pen_or(&style_text, &base),
            border_style: crate::style::pen_or(&border_text, &base),
        };
        // Keys go to the popup from now on: a prefix or key table pending is forgotten.
        self.prefix_armed = false;
        self.key_table = None;
        self.popup = Some(Popup {
            wanted: started.rect,
            lines,
            pane: started.pane,
            exited: started.exited,
            done: false,
            close,
            any_key,
            closed,
            exit_code: None,
        });
        let _ = self
            .render
            .send(RenderControl::Popup(Some(Box::new(view))))
            .await;
    }

    /// The open popup's pane, while its program runs.
    pub(super) fn popup_pane(&self) -> Option<PaneHandle> {
        self.popup
            .as_ref()
            .filter(|p| !p.finished())
            .map(|p| p.pane.clone())
    }

    /// Closes the popup, if one is open (its program ends).
    pub(super) async fn close_popup(&mut self) {
        if self.popup.take().is_some() {
            let _ = self.render.send(RenderControl::Popup(None)).await;
        }
    }

    /// The popup's program exited with `code`: the popup closes if it was opened to, else it
    /// shows the program's last screen until Escape or `C-c`.
    pub(super) async fn popup_exited(&mut self, code: i64) {
        let Some(popup) = self.popup.as_mut() else {
            return;
        };
        popup.done = true;
        popup.exit_code = Some(code);
        let closes = match popup.close {
            CloseWhen::Asked => false,
            CloseWhen::Exited => true,
            CloseWhen::Succeeded => code == 0,
        };
        if closes {
            self.close_popup().await;
        }
    }

    /// Input while the popup is open: to its program, or (Escape, `C-c`) closing it.
    pub(super) async fn popup_input(&mut self, input: Input) {
        let Some(popup) = self.popup.as_ref() else {
            return;
        };
        match input {
            Input::Key { name, bytes } => {
                let closing_key = name == "Escape" || name == "C-c";
                let finished = popup.finished();
                let may_close = popup.close == CloseWhen::Asked || finished || self.read_only;
                if (closing_key && may_close) || (finished && popup.any_key) {
                    self.close_popup().await;
                } else if !finished {
                    self.popup_key(&name, &bytes).await;
                }
            }
            // A read-only client only watches: it may close the popup, not type into it.
            _ if self.read_only => {}
            Input::Paste(text) if !popup.finished() => {
                let bracketed = popup.pane.shared.bracketed_paste.load(Ordering::Relaxed);
                popup
                    .pane
                    .send_input(super::ui::pasted(&text, bracketed))
                    .await;
            }
            Input::Paste(_) => {}
            Input::Mouse(event) => {
                if popup.finished() {
                    return;
                }
                let (cols, rows) = {
                    let view = self.view.borrow();
                    (view.cols, view.rows)
                };
                let rect = crate::render::popup_fitted(popup.wanted, cols, rows);
                let inner = crate::render::popup_inner(rect, &popup.lines);
                if let Some(report) = super::mouse::report_for(&popup.pane, &event, inner) {
                    popup.pane.send_input(report).await;
                }
            }
        }
    }

    /// A key (or a key going up) for the popup's program, in the form it asked for.
    pub(super) async fn popup_key(&self, name: &str, bytes: &Bytes) {
        let Some(popup) = self
            .popup
            .as_ref()
            .filter(|p| !p.finished() && !self.read_only)
        else {
            return;
        };
        let out =
            self.config
                .borrow()
                .key_for_program(name, bytes, popup.pane.shared.keyboard_mode());
        if !out.is_empty() {
            popup.pane.send_input(out).await;
        }
    }
}
