//! The kitty keyboard flag stacks (one per buffer) and xterm's `modifyOtherKeys`, and the
//! replies to their queries.

use crate::handler::KeyboardOp;
use crate::keyboard::{KeyFlagStack, KeyboardMode};
use crate::screen::Screen;

/// XTMODKEYS resource 4: `modifyOtherKeys`.
const MODIFY_OTHER_KEYS: u16 = 4;

impl Screen {
    pub(super) fn apply_keyboard(&mut self, op: KeyboardOp) {
        match op {
            KeyboardOp::PushFlags(flags) => self.key_flag_stack_mut().push(flags),
            KeyboardOp::PopFlags(n) => self.key_flag_stack_mut().pop(n),
            KeyboardOp::SetFlags(flags, mode) => self.key_flag_stack_mut().set(flags, mode),
            KeyboardOp::QueryFlags => {
                let reply = format!("\x1b[?{}u", self.key_flag_stack().current());
                self.reply(reply.as_bytes());
            }
            KeyboardOp::ModifyKeys(MODIFY_OTHER_KEYS, value) => {
                // Levels above 2 are not defined; xterm treats them as 2.
                self.modes.modify_other_keys = value.unwrap_or(0).min(2) as u8;
            }
            KeyboardOp::ModifyKeys(..) => {}
            KeyboardOp::QueryModifyKeys(MODIFY_OTHER_KEYS) => {
                let reply = format!("\x1b[>4;{}m", self.modes.modify_other_keys);
                self.reply(reply.as_bytes());
            }
            KeyboardOp::QueryModifyKeys(_) => {}
        }
    }

    fn key_flag_stack_mut(&mut self) -> &mut KeyFlagStack {
        &mut self.key_flags[usize::from(self.alt_active)]
    }

    fn key_flag_stack(&self) -> &KeyFlagStack {
        &self.key_flags[usize::from(self.alt_active)]
    }

    /// How the program asked for keys: the kitty flags of the buffer shown, the
    /// `modifyOtherKeys` level and cursor-key mode.
    pub fn keyboard_mode(&self) -> KeyboardMode {
        KeyboardMode {
            kitty_flags: self.key_flag_stack().current(),
            modify_other_keys: self.modes.modify_other_keys,
            application_cursor: self.modes.application_cursor,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::Screen;

    fn flags(s: &Screen) -> u8 {
        s.keyboard_mode().kitty_flags
    }

    #[test]
    fn a_program_pushes_sets_queries_and_pops_kitty_flags() {
        let mut s = Screen::new(20, 4);
        s.feed(b"\x1b[?u");
        assert_eq!(s.take_replies(), b"\x1b[?0u");
        s.feed(b"\x1b[>1u\x1b[>9u");
        assert_eq!(flags(&s), 9);
        s.feed(b"\x1b[=2;2u\x1b[?u");
        assert_eq!(s.take_replies(), b"\x1b[?11u");
        s.feed(b"\x1b[=1;3u");
        assert_eq!(flags(&s), 10);
        s.feed(b"\x1b[<u");
        assert_eq!(flags(&s), 1);
        s.feed(b"\x1b[<5u");
        assert_eq!(flags(&s), 0);
        // `CSI u` without a marker is still SCORC, and moves the cursor.
        s.feed(b"\x1b[2;3H\x1b[s\x1b[H\x1b[u");
        assert_eq!((s.cursor_state().row, s.cursor_state().col), (1, 2));
    }

    #[test]
    fn the_main_and_alternate_screens_keep_their_own_stacks() {
        let mut s = Screen::new(20, 4);
        s.feed(b"\x1b[>1u");
        s.feed(b"\x1b[?1049h");
        assert_eq!(
            flags(&s),
            0,
            "the alternate screen starts with its own, empty stack"
        );
        s.feed(b"\x1b[>8u");
        assert_eq!(flags(&s), 8);
        s.feed(b"\x1b[?1049l");
        assert_eq!(flags(&s), 1, "the main stack is as it was left");
        s.feed(b"\x1b[?1049h");
        assert_eq!(flags(&s), 8, "so is the alternate one");
        s.feed(b"\x1bc");
        assert_eq!(flags(&s), 0, "RIS clears both");
        s.feed(b"\x1b[?1049l");
        assert_eq!(flags(&s), 0);
    }

    #[test]
    fn modify_other_keys_is_set_reset_and_reported() {
        let mut s = Screen::new(20, 4);
        s.feed(b"\x1b[>4;2m");
        assert_eq!(s.keyboard_mode().modify_other_keys, 2);
        s.feed(b"\x1b[?4m");
        assert_eq!(s.take_replies(), b"\x1b[>4;2m");
        s.feed(b"\x1b[>4;1m");
        assert_eq!(s.keyboard_mode().modify_other_keys, 1);
        s.feed(b"\x1b[>4n");
        assert_eq!(s.keyboard_mode().modify_other_keys, 0);
        s.feed(b"\x1b[>4;2m\x1b[>4m");
        assert_eq!(s.keyboard_mode().modify_other_keys, 0, "no value resets it");
        s.feed(b"\x1b[>1;2m");
        assert_eq!(
            s.keyboard_mode().modify_other_keys,
            0,
            "other resources are not it"
        );
        // The pen is untouched by XTMODKEYS.
        assert_eq!(s.take_replies(), b"");
    }
}
