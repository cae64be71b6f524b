//! What a client's terminal gets besides frames, from the view: a bell, the window's title
//! (`set-titles`) and programs' notifications. Each goes out at most once per frame, just
//! before it, whatever number of changes came between two frames.

use crate::session::View;
use bytes::Bytes;
use std::sync::Arc;
use weft_renderer::TerminalCaps;

/// What the terminal was last sent. `None` counts mean "not seen yet": the first view's bells
/// and notification are taken as already delivered (a client attaching, or switching to
/// another session, does not hear old ones).
#[derive(Debug, Default)]
pub(super) struct AlertsSent {
    bells: Option<u64>,
    title: Option<Arc<str>>,
    notification: Option<u64>,
    progress: Option<u64>,
}

/// A numbered slot's number.
fn number(slot: &Option<(u64, Arc<str>)>) -> Option<u64> {
    slot.as_ref().map(|(n, _)| *n)
}

impl AlertsSent {
    /// Forgets the counts: the next view is another session's.
    pub(super) fn new_session(&mut self) {
        self.bells = None;
    }

    /// Whether `view` asks for something not sent yet (a frame is then due to carry it).
    pub(super) fn pending(&mut self, view: &View) -> bool {
        if self.bells.is_none() {
            self.bells = Some(view.bells);
            self.notification = number(&view.notification);
            self.progress = number(&view.progress);
        }
        self.bells != Some(view.bells)
            || view.title != self.title
            || number(&view.notification) != self.notification
            || number(&view.progress) != self.progress
    }

    /// Queues what `view` asks for and `caps` allows, before the next frame.
    pub(super) fn queue(&mut self, view: &View, caps: &TerminalCaps, out: &mut Vec<Bytes>) {
        self.pending(view);
        if self.bells != Some(view.bells) {
            out.push(Bytes::from_static(b"\x07"));
            self.bells = Some(view.bells);
        }
        if view.title != self.title {
            self.title.clone_from(&view.title);
            if let Some(title) = &self.title {
                out.push(Bytes::from(format!("\x1b]2;{title}\x1b\\")));
            }
        }
        for (slot, sent) in [
            (&view.notification, &mut self.notification),
            (&view.progress, &mut self.progress),
        ] {
            if number(slot) != *sent {
                *sent = number(slot);
                if let Some((_, text)) = slot.as_ref().filter(|_| caps.notifications) {
                    out.push(Bytes::from(format!("\x1b]{text}\x1b\\")));
                }
            }
        }
    }
}
