//! Replies for the program and events for the host: queued within bounds, counted when
//! dropped, taken by the host.

use super::{DropCounts, Event, Screen, MAX_PENDING_EVENTS, MAX_PENDING_REPLY_BYTES};

impl Screen {
    /// Takes the bytes queued for the program (replies to queries).
    pub fn take_replies(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.replies)
    }

    /// Whether replies are waiting.
    pub fn has_replies(&self) -> bool {
        !self.replies.is_empty()
    }

    /// Takes the events queued for the host.
    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// What was dropped to keep queues bounded.
    pub fn dropped(&self) -> DropCounts {
        self.dropped
    }

    /// Queues reply bytes for the program, within [`MAX_PENDING_REPLY_BYTES`].
    pub(crate) fn reply(&mut self, bytes: &[u8]) {
        if self.replies.len() + bytes.len() > MAX_PENDING_REPLY_BYTES {
            self.dropped.reply_bytes += bytes.len() as u64;
        } else {
            self.replies.extend_from_slice(bytes);
        }
    }

    /// Queues an event, within [`MAX_PENDING_EVENTS`].
    pub(crate) fn event(&mut self, event: Event) {
        if self.events.len() >= MAX_PENDING_EVENTS {
            self.dropped.events += 1;
        } else {
            self.events.push(event);
        }
    }
}
