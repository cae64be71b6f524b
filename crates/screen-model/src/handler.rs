//! The semantic interface between the escape-sequence parser and the screen.
//!
//! [`crate::parser`] turns bytes into calls on this trait; [`crate::Screen`] implements it. Each
//! method names what a sequence means, not how it is spelled, so the screen never sees raw
//! parameters and the parser never sees the grid.

use crate::cell::{Color, Hyperlink, UnderlineStyle};

/// A character set that can be designated into G0-G3.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Charset {
    /// US ASCII (`B`), the default.
    #[default]
    Ascii,
    /// DEC Special Graphics (`0`): line drawing.
    DecSpecialGraphics,
    /// The UK set (`A`): `#` shows as a pound sign.
    Uk,
}

/// Which part of the display or line an erase covers (ED/EL parameter).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EraseScope {
    /// From the cursor to the end (0).
    ToEnd,
    /// From the start to the cursor (1).
    ToStart,
    /// Everything (2).
    All,
    /// The scrollback (ED 3 only).
    Scrollback,
}

/// Which device-attributes report is asked for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DeviceAttributes {
    /// DA1 (`CSI c`).
    Primary,
    /// DA2 (`CSI > c`).
    Secondary,
}

/// One SGR instruction.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Sgr {
    /// 0: every attribute and colour back to default.
    Reset,
    /// 1.
    Bold,
    /// 2.
    Dim,
    /// 3.
    Italic,
    /// 4, 4:n, 21.
    Underline(UnderlineStyle),
    /// 5, 6.
    Blink,
    /// 7.
    Inverse,
    /// 8.
    Hidden,
    /// 9.
    Strike,
    /// 53.
    Overline,
    /// 22: neither bold nor dim.
    NormalIntensity,
    /// 23.
    NoItalic,
    /// 24.
    NoUnderline,
    /// 25.
    NoBlink,
    /// 27.
    NoInverse,
    /// 28.
    NoHidden,
    /// 29.
    NoStrike,
    /// 55.
    NoOverline,
    /// 30-37, 90-97, 38, 39.
    Foreground(Color),
    /// 40-47, 100-107, 48, 49.
    Background(Color),
    /// 58, 59.
    UnderlineColor(Color),
}

/// Which of weft's dynamic colours an OSC 10/11/12 names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DynamicColor {
    /// OSC 10: default foreground.
    Foreground,
    /// OSC 11: default background.
    Background,
    /// OSC 12: cursor colour.
    Cursor,
}

/// How an OSC or DCS was terminated, so a reply can use the same terminator.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Terminator {
    /// BEL (0x07).
    Bel,
    /// ST (`ESC \`).
    St,
}

impl Terminator {
    /// The bytes of this terminator.
    pub fn bytes(self) -> &'static [u8] {
        match self {
            Terminator::Bel => b"\x07",
            Terminator::St => b"\x1b\\",
        }
    }
}

/// OSC 133 shell-integration marks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PromptMark {
    /// `A`: a prompt starts.
    PromptStart,
    /// `B`: the command line starts.
    CommandStart,
    /// `C`: the command's output starts.
    OutputStart,
    /// `D`: the command finished.
    CommandEnd,
}

/// Keyboard protocol requests: the kitty flag stack and xterm's `modifyOtherKeys`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum KeyboardOp {
    /// `CSI > flags u`: push kitty flags.
    PushFlags(u16),
    /// `CSI < n u`: pop `n` entries.
    PopFlags(usize),
    /// `CSI = flags ; mode u`: change the top entry (mode 1 set, 2 add, 3 remove).
    SetFlags(u16, u16),
    /// `CSI ? u`: report the flags in effect.
    QueryFlags,
    /// `CSI > resource ; value m` (XTMODKEYS); `None` for `CSI > resource n` (off) or no value.
    ModifyKeys(u16, Option<u16>),
    /// `CSI ? resource m` (XTQMODKEYS): report a resource's value.
    QueryModifyKeys(u16),
}

/// Everything a sequence can ask of the screen.
pub trait Handler {
    /// Prints a character at the cursor.
    fn print(&mut self, c: char);
    /// Prints a run of printable ASCII (0x20-0x7e), as many `print` calls would.
    fn print_ascii(&mut self, run: &[u8]) {
        for &b in run {
            self.print(char::from(b));
        }
    }
    /// REP: repeats the last printed graphic character.
    fn repeat_last(&mut self, count: usize);
    /// BEL.
    fn bell(&mut self);
    /// BS.
    fn backspace(&mut self);
    /// HT / CHT: forward to the next tab stop, `count` times.
    fn tab_forward(&mut self, count: usize);
    /// CBT: back to the previous tab stop, `count` times.
    fn tab_backward(&mut self, count: usize);
    /// LF, VT, FF: down one line (and to column 0 under LNM).
    fn linefeed(&mut self);
    /// CR.
    fn carriage_return(&mut self);
    /// SO / SI / LS2 / LS3: invoke G`slot` into GL.
    fn invoke_charset(&mut self, slot: usize);
    /// SS2 / SS3: use G`slot` for the next character only.
    fn single_shift(&mut self, slot: usize);
    /// Designates `charset` into G`slot`.
    fn designate_charset(&mut self, slot: usize, charset: Charset);
    /// IND: down one line, scrolling at the bottom margin.
    fn index(&mut self);
    /// NEL: CR then IND.
    fn next_line(&mut self);
    /// RI: up one line, scrolling at the top margin.
    fn reverse_index(&mut self);
    /// HTS.
    fn set_tab_stop(&mut self);
    /// TBC: clear the tab stop at the cursor (`all == false`) or every one.
    fn clear_tab_stops(&mut self, all: bool);
    /// DECSC.
    fn save_cursor(&mut self);
    /// DECRC.
    fn restore_cursor(&mut self);
    /// RIS: full reset.
    fn reset(&mut self);
    /// DECSTR: soft reset.
    fn soft_reset(&mut self);
    /// DECALN: fill the screen with `E`.
    fn alignment_test(&mut self);
    /// DECKPAM (`true`) / DECKPNM (`false`).
    fn set_keypad_application(&mut self, on: bool);
    /// ICH.
    fn insert_blanks(&mut self, count: usize);
    /// CUU (`cr == false`) and CPL (`cr == true`).
    fn move_up(&mut self, count: usize, cr: bool);
    /// CUD (`cr == false`) and CNL (`cr == true`): stops at the bottom margin.
    fn move_down(&mut self, count: usize, cr: bool);
    /// CUF / HPR.
    fn move_forward(&mut self, count: usize);
    /// CUB.
    fn move_backward(&mut self, count: usize);
    /// VPR: down `count` rows, ignoring the scroll margins.
    fn move_down_unbounded(&mut self, count: usize);
    /// SL (`CSI n SP @`): shift the scroll region's columns left.
    fn scroll_left(&mut self, count: usize);
    /// SR (`CSI n SP A`): shift the scroll region's columns right.
    fn scroll_right(&mut self, count: usize);
    /// DECIC (`CSI n ' }`): insert blank columns at the cursor.
    fn insert_columns(&mut self, count: usize);
    /// DECDC (`CSI n ' ~`): delete columns at the cursor.
    fn delete_columns(&mut self, count: usize);
    /// Anything but a printed character came: REP has nothing to repeat until the next one.
    fn forget_last_char(&mut self);
    /// CHA / HPA: to a 0-based column.
    fn goto_col(&mut self, col: usize);
    /// VPA: to a 0-based row (relative to the origin under DECOM).
    fn goto_row(&mut self, row: usize);
    /// CUP / HVP: to a 0-based row and column.
    fn goto(&mut self, row: usize, col: usize);
    /// ED / DECSED (`selective` skips protected cells).
    fn erase_in_display(&mut self, scope: EraseScope, selective: bool);
    /// EL / DECSEL.
    fn erase_in_line(&mut self, scope: EraseScope, selective: bool);
    /// IL.
    fn insert_lines(&mut self, count: usize);
    /// DL.
    fn delete_lines(&mut self, count: usize);
    /// DCH.
    fn delete_chars(&mut self, count: usize);
    /// ECH.
    fn erase_chars(&mut self, count: usize);
    /// SU.
    fn scroll_up(&mut self, count: usize);
    /// SD.
    fn scroll_down(&mut self, count: usize);
    /// DA1 / DA2.
    fn device_attributes(&mut self, which: DeviceAttributes);
    /// DSR 5 (status) and 6 (cursor position); `private` for `CSI ? 6 n`.
    fn device_status(&mut self, kind: u16, private: bool);
    /// SM / RM / DECSET / DECRST for one mode.
    fn set_mode(&mut self, mode: u16, private: bool, on: bool);
    /// DECRQM: report whether a mode is set.
    fn request_mode(&mut self, mode: u16, private: bool);
    /// DECSTBM with 1-based margins as given (0 = default).
    fn set_scroll_region(&mut self, top: usize, bottom: usize);
    /// DECSLRM with 1-based margins as given (0 = default); only with DECLRMM on.
    fn set_left_right_margins(&mut self, left: usize, right: usize);
    /// `CSI s` with DECLRMM off: the same as DECSC.
    fn save_cursor_or_margins(&mut self, left: usize, right: usize);
    /// One SGR instruction.
    fn sgr(&mut self, sgr: Sgr);
    /// DECSCUSR.
    fn set_cursor_style(&mut self, style: u16);
    /// DECSCA: protect (`true`) the characters printed from now on.
    fn set_protection(&mut self, on: bool);
    /// XTWINOPS; only the character-size reports (18, 19) are answered.
    fn window_op(&mut self, op: u16);
    /// OSC 0 / 1 / 2.
    fn set_title(&mut self, title: &[u8], icon: bool, window: bool);
    /// OSC 4 query (`spec == None`) or set of a palette entry.
    fn palette_color(&mut self, index: u8, spec: Option<&[u8]>, terminator: Terminator);
    /// OSC 104: reset palette entries (empty: all).
    fn reset_palette(&mut self, indices: &[u8]);
    /// OSC 10/11/12 query (`spec == None`) or set.
    fn dynamic_color(&mut self, which: DynamicColor, spec: Option<&[u8]>, terminator: Terminator);
    /// OSC 110/111/112: the dynamic colour back to the terminal's own.
    fn reset_dynamic_color(&mut self, which: DynamicColor);
    /// OSC 7: the working directory, as a `file://` URL.
    fn set_cwd(&mut self, url: &[u8]);
    /// OSC 8: start (`Some`) or end (`None`) a hyperlink.
    fn set_hyperlink(&mut self, link: Option<Hyperlink>);
    /// OSC 52: a clipboard write (`data` base64) or query (`data == b"?"`).
    fn clipboard(&mut self, selection: &[u8], data: &[u8], terminator: Terminator);
    /// OSC 133 marks; `status` is the exit status a `D` mark carries (`133;D;1`).
    fn prompt_mark(&mut self, mark: PromptMark, status: Option<i32>);
    /// A desktop notification or progress report for the user's terminal: OSC 9 (and its
    /// `9;4` progress), OSC 777 and OSC 99, as `command;rest` with the parameters as sent.
    fn notification(&mut self, osc: &[u8]) {
        let _ = osc;
    }
    /// screen's window-name string (`ESC k name ESC \`): the program names its window.
    fn rename_window(&mut self, name: &str) {
        let _ = name;
    }
    /// XTVERSION (`CSI > q`): the terminal's name and version.
    fn report_version(&mut self) {}
    /// DECRQSS: `request` is the setting asked for (`m`, `r`, ` q`, ...).
    fn request_status_string(&mut self, request: &[u8]);
    /// Kitty keyboard flags and `modifyOtherKeys`.
    fn keyboard(&mut self, op: KeyboardOp);
    /// DECSET 2026 state changes are plain modes; this is called for C1 and other ignored input.
    fn unhandled(&mut self) {}
}
