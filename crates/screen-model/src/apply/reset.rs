//! Resets: what RIS and DECSTR clear and what they keep.

use crate::cell::Pen;
use crate::charset::CharsetState;
use crate::screen::{Event, Screen};

impl Screen {
    pub(super) fn full_reset(&mut self) {
        let limit = self.scrollback.limit();
        let scrollback = std::mem::replace(
            &mut self.scrollback,
            crate::scrollback::Scrollback::new(limit),
        );
        let fresh = Screen::with_scrollback(self.cols, self.rows, limit);
        let replies = std::mem::take(&mut self.replies);
        let events = std::mem::take(&mut self.events);
        let dropped = self.dropped;
        let seq = self.seq;
        let parser_state_kept = std::mem::replace(self, fresh);
        drop(parser_state_kept);
        self.scrollback = scrollback;
        self.replies = replies;
        self.events = events;
        self.dropped = dropped;
        self.seq = seq;
        self.touch_all();
        self.event(Event::TitleChanged(String::new()));
    }

    pub(super) fn soft_reset_state(&mut self) {
        self.modes.insert = false;
        self.modes.origin = false;
        self.modes.cursor_visible = true;
        self.modes.application_cursor = false;
        self.modes.application_keypad = false;
        self.modes.left_right_margins = false;
        self.top = 0;
        self.bottom = self.rows - 1;
        self.left = 0;
        self.right = self.cols - 1;
        self.cursor.pen = Pen::default();
        self.charsets = CharsetState::default();
        let slot = usize::from(self.alt_active);
        self.saved[slot] = None;
    }
}
