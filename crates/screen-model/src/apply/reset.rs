//! Resets: what RIS and DECSTR clear and what they keep.

use crate::cell::Pen;
use crate::charset::CharsetState;
use crate::screen::{Event, Screen};

impl Screen {
    /// RIS: everything the program set goes back to its start; what the host set (its
    /// colours, `pane-colours` and `cursor-colour`, the default cursor style, passthrough,
    /// `scroll-on-clear`, `alternate-screen`, the history limit) stays, as in tmux.
    pub(super) fn full_reset(&mut self) {
        let mut palette = std::mem::take(&mut self.palette);
        palette.forget_program_colours();
        let host = self.host.clone();
        let default_cursor_style = self.default_cursor_style();
        let scroll_on_clear = self.scroll_on_clear;
        let alternate_off = self.alternate_off;
        let passthrough = self.take_passthrough();
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
        self.palette = palette;
        self.host = host;
        self.set_default_cursor_style(default_cursor_style);
        self.scroll_on_clear = scroll_on_clear;
        self.alternate_off = alternate_off;
        self.restore_passthrough(passthrough);
        self.touch_all();
        self.event(Event::TitleChanged(String::new()));
    }

    /// tmux's `send-keys -R`: the terminal's state as a fresh terminal's (modes, margins,
    /// tabs, pen, character sets, keyboard flags, the program's colours, a sequence cut
    /// short), the screen cleared as ED 2 clears it and the cursor home. The history, title,
    /// the alternate screen's state and the host's settings stay.
    pub fn reset_terminal_state(&mut self) {
        self.seq += 1;
        self.reset_parser();
        self.reset_passthrough();
        self.last_char = None;
        self.join_next = false;
        self.mark_on_cursor = None;
        self.soft_reset_state();
        self.modes = crate::modes::Modes::default();
        self.key_flags = Default::default();
        self.tabs = crate::screen::default_tabs(self.cols);
        self.palette.forget_program_colours();
        self.apply_erase_in_display(crate::handler::EraseScope::All, false);
        self.cursor.row = 0;
        self.cursor.col = 0;
        self.cursor.pending_wrap = false;
        self.update_plain_print();
        self.touch_all();
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

#[cfg(test)]
mod tests {
    use crate::cell::{Color, Rgb};
    use crate::palette::HostColors;
    use crate::Screen;
    use std::sync::Arc;

    /// `send-keys -R`: modes off, the screen cleared into the history, the cursor home, a
    /// sequence cut short forgotten; the title stays.
    #[test]
    fn a_terminal_state_reset_is_a_fresh_terminal_with_the_history_kept() {
        let mut s = Screen::with_scrollback(20, 3, 100);
        s.feed(b"\x1b]2;kept\x07\x1b[?1000h\x1b[?2004h\x1b[?1h\x1b[?25l\x1b]4;1;#ff0000\x07");
        s.feed(b"\x1b[31mline\x1b[2;5r\x1b]0;cut");
        s.reset_terminal_state();
        assert_eq!(s.modes(), &crate::Modes::default());
        assert!(s.pane_colours().is_none());
        assert_eq!((s.cursor_state().row, s.cursor_state().col), (0, 0));
        assert_eq!(s.scroll_region(), (0, 2));
        assert_eq!(
            s.scrollback().len(),
            1,
            "the cleared line is in the history"
        );
        assert_eq!(s.title(), "kept");
        s.feed(b"ok");
        assert!(s.text().starts_with("ok"));
        // A passthrough string cut short does not swallow what comes after the reset.
        s.set_passthrough(true);
        s.feed(b"\x1bPtmux;\x1b\x1b]0;");
        s.reset_terminal_state();
        s.feed(b"after");
        assert!(s.text().starts_with("after"), "{}", s.text());
        assert_eq!(s.cell(0, 0).unwrap().fg(), Color::Default);
    }

    /// A reset (`reset`, `tput reset` send RIS) forgets the program's colours and keeps what
    /// the host set: queries are still answered with the user's terminal's colours, and the
    /// host's cursor style, palette entries and passthrough stay.
    #[test]
    fn a_full_reset_keeps_what_the_host_set() {
        let mut s = Screen::new(20, 4);
        let background = Rgb::new(0x20, 0x20, 0x20);
        s.set_host_colors(Arc::new(HostColors {
            background: Some(background),
            ..HostColors::default()
        }));
        s.set_default_cursor_style(2);
        s.set_passthrough(true);
        let mine = Color::Indexed(200);
        s.set_host_colours(vec![(3, mine)], Some(Rgb::new(1, 2, 3)));
        s.feed(b"\x1b]4;1;#ff0000\x07\x1b]12;#00ff00\x07");
        assert!(s.pane_colours().unwrap().entry(1).is_some());
        s.feed(b"\x1bc");
        let colours = s.pane_colours().expect("the host's entry stays");
        assert_eq!((colours.entry(1), colours.entry(3)), (None, Some(mine)));
        assert_eq!(s.cursor_state().colour, Some(Rgb::new(1, 2, 3)));
        assert_eq!(s.cursor_state().style, 2);
        s.take_replies();
        s.feed(b"\x1b]11;?\x07");
        assert_eq!(s.take_replies(), b"\x1b]11;rgb:2020/2020/2020\x07");
        s.feed(b"\x1bPtmux;\x1b\x1b]0;x\x07\x1b\\");
        assert!(s
            .take_events()
            .iter()
            .any(|e| matches!(e, crate::Event::Passthrough(_))));
    }
}
