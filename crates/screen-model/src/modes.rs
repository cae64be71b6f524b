//! Terminal modes set by SM/RM and DECSET/DECRST.

/// Which mouse events a program asked to receive.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum MouseTracking {
    /// No reports.
    #[default]
    Off,
    /// 1000: presses and releases.
    Press,
    /// 1002: also motion while a button is down.
    Drag,
    /// 1003: all motion.
    Motion,
}

/// How mouse reports are encoded.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum MouseEncoding {
    /// X10 bytes.
    #[default]
    Default,
    /// 1005: UTF-8 coordinates.
    Utf8,
    /// 1006: SGR `CSI < b;x;y M`.
    Sgr,
    /// 1015: urxvt decimal.
    Urxvt,
}

/// Every mode weft tracks. Field names say what the mode does; the doc says its number.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Modes {
    /// IRM (4): printing inserts rather than overwrites.
    pub insert: bool,
    /// LNM (20): LF also returns to column 0.
    pub newline: bool,
    /// DECCKM (1): cursor keys send application sequences.
    pub application_cursor: bool,
    /// DECSCNM (5): the whole screen is shown in reverse video.
    pub reverse_video: bool,
    /// DECOM (6): cursor addressing is relative to the scroll margins.
    pub origin: bool,
    /// DECAWM (7): printing past the right margin wraps.
    pub autowrap: bool,
    /// 12: the cursor blinks.
    pub cursor_blink: bool,
    /// DECTCEM (25): the cursor is shown.
    pub cursor_visible: bool,
    /// 45: BS at the left margin wraps to the end of the previous line.
    pub reverse_wrap: bool,
    /// DECNKM (66) / DECKPAM: the keypad sends application sequences.
    pub application_keypad: bool,
    /// DECLRMM (69): DECSLRM left/right margins are in effect.
    pub left_right_margins: bool,
    /// 1000/1002/1003.
    pub mouse_tracking: MouseTracking,
    /// 1005/1006/1015.
    pub mouse_encoding: MouseEncoding,
    /// 1004: focus in/out reports.
    pub focus_events: bool,
    /// 2004: pasted text is bracketed.
    pub bracketed_paste: bool,
    /// 2026: the program is in the middle of a synchronized update.
    pub synchronized_output: bool,
    /// 2031: the program is told when the colour scheme turns light or dark.
    pub color_scheme_updates: bool,
    /// xterm's `modifyOtherKeys` level (`CSI > 4 ; n m`): 0 off, 1 or 2.
    pub modify_other_keys: u8,
}

impl Default for Modes {
    fn default() -> Self {
        Modes {
            insert: false,
            newline: false,
            application_cursor: false,
            reverse_video: false,
            origin: false,
            autowrap: true,
            cursor_blink: false,
            cursor_visible: true,
            reverse_wrap: false,
            application_keypad: false,
            left_right_margins: false,
            mouse_tracking: MouseTracking::Off,
            mouse_encoding: MouseEncoding::Default,
            focus_events: false,
            bracketed_paste: false,
            synchronized_output: false,
            color_scheme_updates: false,
            modify_other_keys: 0,
        }
    }
}
