//! Keys as a program inside a pane asked to receive them: the kitty keyboard protocol's flag
//! stacks ([`KeyFlagStack`]), xterm's `modifyOtherKeys` level, and the encoder that turns one
//! key into the bytes each mode calls for ([`encode`]).

mod encode;
mod stack;

pub use encode::encode;
pub use stack::{KeyFlagStack, KITTY_FLAGS_MASK, MAX_KEY_FLAG_ENTRIES};

/// Kitty flag 1: keys that are ambiguous in legacy form are sent as escape codes.
pub const KITTY_DISAMBIGUATE: u8 = 1;
/// Kitty flag 2: repeats and releases are reported too.
pub const KITTY_EVENT_TYPES: u8 = 2;
/// Kitty flag 4: the shifted and base-layout keys are reported with the key.
pub const KITTY_ALTERNATE_KEYS: u8 = 4;
/// Kitty flag 8: every key, text included, is sent as an escape code.
pub const KITTY_ALL_KEYS: u8 = 8;
/// Kitty flag 16: the text a key produces is reported with it (with flag 8).
pub const KITTY_ASSOCIATED_TEXT: u8 = 16;

/// Modifier bits, in the kitty protocol's order (its modifier parameter is 1 + these bits;
/// xterm's is 1 + the low three).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeyMods(pub u8);

impl KeyMods {
    /// Shift.
    pub const SHIFT: u8 = 1;
    /// Alt (tmux's `M-`).
    pub const ALT: u8 = 2;
    /// Control.
    pub const CTRL: u8 = 4;
    /// Super.
    pub const SUPER: u8 = 8;
    /// Hyper.
    pub const HYPER: u8 = 16;
    /// Meta (a key of its own in the kitty protocol, not tmux's `M-`).
    pub const META: u8 = 32;

    /// Whether every bit of `bits` is held.
    pub fn has(self, bits: u8) -> bool {
        self.0 & bits == bits
    }

    /// Whether the held modifiers are exactly `bits`.
    pub fn only(self, bits: u8) -> bool {
        self.0 == bits
    }
}

/// Which key: a character, or one of the named keys a program can tell apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyCode {
    /// A key that types a character (letters as their unshifted, lower-case key).
    Char(char),
    /// Enter (Return).
    Enter,
    /// Tab.
    Tab,
    /// Backspace.
    Backspace,
    /// Escape.
    Escape,
    /// Insert.
    Insert,
    /// Delete.
    Delete,
    /// Home.
    Home,
    /// End.
    End,
    /// Page Up.
    PageUp,
    /// Page Down.
    PageDown,
    /// Up arrow.
    Up,
    /// Down arrow.
    Down,
    /// Right arrow.
    Right,
    /// Left arrow.
    Left,
    /// F1 to F12.
    F(u8),
}

/// Press, repeat or release (the last two only known when the user's terminal reports them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KeyAction {
    /// The key went down.
    #[default]
    Press,
    /// The key is held and repeats.
    Repeat,
    /// The key went up.
    Release,
}

/// One key as decoded from the user's terminal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyEvent {
    /// Which key.
    pub code: KeyCode,
    /// Modifiers held.
    pub mods: KeyMods,
    /// Press, repeat or release.
    pub action: KeyAction,
    /// The character the key gives with Shift, when the user's terminal said.
    pub shifted: Option<char>,
    /// The key at the same place on a US layout, when the user's terminal said.
    pub base_layout: Option<char>,
    /// The text the key types, when the user's terminal said (else derived from the key).
    pub text: Option<String>,
}

impl KeyEvent {
    /// A press of `code` with `mods` and nothing else known.
    pub fn new(code: KeyCode, mods: u8) -> Self {
        KeyEvent {
            code,
            mods: KeyMods(mods),
            action: KeyAction::Press,
            shifted: None,
            base_layout: None,
            text: None,
        }
    }
}

/// How the program in a pane asked for keys.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeyboardMode {
    /// The kitty flags in effect (the top of the current screen's stack; 0 is off).
    pub kitty_flags: u8,
    /// xterm's `modifyOtherKeys` level (0, 1 or 2).
    pub modify_other_keys: u8,
    /// DECCKM: cursor keys in application mode.
    pub application_cursor: bool,
}

impl KeyboardMode {
    /// Whether keys go in their legacy form (no kitty flags, no `modifyOtherKeys`).
    pub fn is_legacy(&self) -> bool {
        self.kitty_flags == 0 && self.modify_other_keys == 0
    }
}
