//! Modes: setting them (SM/RM, DECSET/DECRST), reporting them (DECRQM), and the cursor style
//! (DECSCUSR).

use crate::handler::Handler;
use crate::modes::{MouseEncoding, MouseTracking};
use crate::screen::Screen;

impl Screen {
    pub(super) fn apply_set_mode(&mut self, mode: u16, private: bool, on: bool) {
        if !private {
            match mode {
                4 => {
                    self.modes.insert = on;
                    self.update_plain_print();
                }
                20 => self.modes.newline = on,
                _ => {}
            }
            return;
        }
        // `alternate-screen off`: entering is refused; leaving still works, so that a program
        // that entered before the option changed can come back.
        if self.alternate_off && on && matches!(mode, 47 | 1047 | 1049) {
            return;
        }
        match mode {
            1 => self.modes.application_cursor = on,
            5 if self.modes.reverse_video != on => {
                self.modes.reverse_video = on;
                self.touch_all();
            }
            6 => {
                self.modes.origin = on;
                self.goto(0, 0);
            }
            7 => self.modes.autowrap = on,
            12 => self.modes.cursor_blink = on,
            25 => self.modes.cursor_visible = on,
            45 => self.modes.reverse_wrap = on,
            47 => self.switch_buffer(on),
            66 => self.modes.application_keypad = on,
            69 => {
                self.modes.left_right_margins = on;
                if !on {
                    self.left = 0;
                    self.right = self.cols - 1;
                }
            }
            1000 => self.modes.mouse_tracking = tracking(on, MouseTracking::Press),
            1002 => self.modes.mouse_tracking = tracking(on, MouseTracking::Drag),
            1003 => self.modes.mouse_tracking = tracking(on, MouseTracking::Motion),
            1004 => self.modes.focus_events = on,
            1005 => self.modes.mouse_encoding = encoding(on, MouseEncoding::Utf8),
            1006 => self.modes.mouse_encoding = encoding(on, MouseEncoding::Sgr),
            1015 => self.modes.mouse_encoding = encoding(on, MouseEncoding::Urxvt),
            1047 => {
                if !on && self.alt_active {
                    self.clear_buffer();
                }
                self.switch_buffer(on);
            }
            1048 => {
                if on {
                    self.save_cursor();
                } else {
                    self.restore_cursor();
                }
            }
            1049 => {
                if on {
                    if !self.alt_active {
                        self.saved[0] = Some(self.saved_now());
                        self.switch_buffer(true);
                    }
                    self.clear_buffer();
                } else if self.alt_active {
                    self.switch_buffer(false);
                    self.restore_cursor();
                }
            }
            2004 => self.modes.bracketed_paste = on,
            2026 => self.modes.synchronized_output = on,
            2031 => self.modes.color_scheme_updates = on,
            _ => {}
        }
    }

    pub(super) fn apply_request_mode(&mut self, mode: u16, private: bool) {
        let m = &self.modes;
        let state = if private {
            match mode {
                1 => Some(m.application_cursor),
                5 => Some(m.reverse_video),
                6 => Some(m.origin),
                7 => Some(m.autowrap),
                12 => Some(m.cursor_blink),
                25 => Some(m.cursor_visible),
                45 => Some(m.reverse_wrap),
                47 | 1047 | 1049 => Some(self.alt_active),
                66 => Some(m.application_keypad),
                69 => Some(m.left_right_margins),
                1000 => Some(m.mouse_tracking == MouseTracking::Press),
                1002 => Some(m.mouse_tracking == MouseTracking::Drag),
                1003 => Some(m.mouse_tracking == MouseTracking::Motion),
                1004 => Some(m.focus_events),
                1005 => Some(m.mouse_encoding == MouseEncoding::Utf8),
                1006 => Some(m.mouse_encoding == MouseEncoding::Sgr),
                1015 => Some(m.mouse_encoding == MouseEncoding::Urxvt),
                2004 => Some(m.bracketed_paste),
                2026 => Some(m.synchronized_output),
                2031 => Some(m.color_scheme_updates),
                _ => None,
            }
        } else {
            match mode {
                4 => Some(m.insert),
                20 => Some(m.newline),
                _ => None,
            }
        };
        let value = match state {
            Some(true) => 1,
            Some(false) => 2,
            None => 0,
        };
        let prefix = if private { "?" } else { "" };
        self.reply(format!("\x1b[{prefix}{mode};{value}$y").as_bytes());
    }

    pub(super) fn apply_set_cursor_style(&mut self, style: u16) {
        if style <= 6 {
            self.cursor_style = style;
        }
    }
}

fn tracking(on: bool, mode: MouseTracking) -> MouseTracking {
    if on {
        mode
    } else {
        MouseTracking::Off
    }
}

fn encoding(on: bool, mode: MouseEncoding) -> MouseEncoding {
    if on {
        mode
    } else {
        MouseEncoding::Default
    }
}

#[cfg(test)]
mod tests {
    use crate::screen::Screen;

    #[test]
    fn with_the_alternate_screen_off_a_program_stays_in_the_main_one() {
        let mut s = Screen::new(20, 3);
        s.set_alternate_allowed(false);
        s.feed(b"before\r\n\x1b[?1049hfull-screen\x1b[?1049l");
        assert!(!s.is_alternate_screen());
        assert!(s.text().contains("before"), "{}", s.text());
        assert!(s.text().contains("full-screen"), "{}", s.text());
        // Allowed again: it switches as usual.
        s.set_alternate_allowed(true);
        s.feed(b"\x1b[?1049h");
        assert!(s.is_alternate_screen());
        assert!(!s.text().contains("before"), "{}", s.text());
    }
}
