//! Key + modifiers + mode -> bytes, against what kitty's protocol document and xterm's
//! `modifyOtherKeys` documentation (and tmux 3.5's output) say.

use super::encode;
use crate::keyboard::{KeyAction, KeyCode, KeyEvent, KeyMods, KeyboardMode};
use KeyCode::*;

const S: u8 = KeyMods::SHIFT;
const A: u8 = KeyMods::ALT;
const C: u8 = KeyMods::CTRL;
const SUPER: u8 = KeyMods::SUPER;

fn kitty(flags: u8) -> KeyboardMode {
    KeyboardMode {
        kitty_flags: flags,
        ..KeyboardMode::default()
    }
}

fn mok(level: u8) -> KeyboardMode {
    KeyboardMode {
        modify_other_keys: level,
        ..KeyboardMode::default()
    }
}

fn legacy(application_cursor: bool) -> KeyboardMode {
    KeyboardMode {
        application_cursor,
        ..KeyboardMode::default()
    }
}

fn check(rows: &[(KeyCode, u8, KeyboardMode, &str)]) {
    for (code, mods, mode, want) in rows {
        let got = encode(&KeyEvent::new(*code, *mods), mode);
        assert_eq!(
            String::from_utf8_lossy(&got),
            *want,
            "{code:?} mods {mods} in {mode:?}"
        );
    }
}

#[test]
fn kitty_disambiguate_keeps_ambiguous_keys_apart() {
    let k = kitty(1);
    check(&[
        (Char('a'), 0, k, "a"),
        (Char('a'), S, k, "A"),
        (Char('a'), C, k, "\x1b[97;5u"),
        (Char('i'), C, k, "\x1b[105;5u"),
        (Tab, 0, k, "\t"),
        (Tab, C, k, "\x1b[9;5u"),
        (Tab, S, k, "\x1b[9;2u"),
        (Enter, 0, k, "\r"),
        (Char('m'), C, k, "\x1b[109;5u"),
        (Enter, C, k, "\x1b[13;5u"),
        (Escape, 0, k, "\x1b[27u"),
        (Char('['), C, k, "\x1b[91;5u"),
        (Char('x'), A, k, "\x1b[120;3u"),
        (Char('a'), SUPER, k, "\x1b[97;9u"),
        (Char('a'), C | S, k, "\x1b[97;6u"),
        (Backspace, 0, k, "\x7f"),
        (Backspace, C, k, "\x1b[127;5u"),
        (Enter, A, k, "\x1b[13;3u"),
        (Up, 0, k, "\x1b[A"),
        (Up, C, k, "\x1b[1;5A"),
        (Left, C | S, k, "\x1b[1;6D"),
        (Home, 0, k, "\x1b[H"),
        (Insert, 0, k, "\x1b[2~"),
        (PageDown, A, k, "\x1b[6;3~"),
        (F(1), 0, k, "\x1b[P"),
        (F(3), 0, k, "\x1b[13~"),
        (F(5), 0, k, "\x1b[15~"),
        (F(5), C, k, "\x1b[15;5~"),
        (F(12), S, k, "\x1b[24;2~"),
    ]);
    let app = KeyboardMode {
        kitty_flags: 1,
        application_cursor: true,
        ..KeyboardMode::default()
    };
    check(&[(Up, 0, app, "\x1b[A")]);
}

#[test]
fn kitty_all_keys_as_escape_codes() {
    let k = kitty(8);
    check(&[
        (Char('a'), 0, k, "\x1b[97u"),
        (Char('a'), S, k, "\x1b[97;2u"),
        (Char('A'), 0, k, "\x1b[97;2u"),
        (Char('1'), 0, k, "\x1b[49u"),
        (Enter, 0, k, "\x1b[13u"),
        (Tab, 0, k, "\x1b[9u"),
        (Backspace, 0, k, "\x1b[127u"),
        (Escape, 0, k, "\x1b[27u"),
        (Up, 0, k, "\x1b[A"),
        (F(1), 0, k, "\x1b[P"),
        (Char('é'), 0, k, "\x1b[233u"),
    ]);
    check(&[
        (Char('a'), 0, kitty(8 | 16), "\x1b[97;;97u"),
        (Char('a'), S, kitty(8 | 16), "\x1b[97;2;65u"),
        (Char('a'), C, kitty(8 | 16), "\x1b[97;5u"),
        (Char('a'), S, kitty(8 | 4), "\x1b[97:65;2u"),
        (Char('a'), S, kitty(8 | 4 | 16), "\x1b[97:65;2;65u"),
        (Char('a'), C, kitty(8 | 4), "\x1b[97;5u"),
    ]);
}

#[test]
fn kitty_event_types_and_alternate_keys() {
    let with = |code, mods, action, base: Option<char>| KeyEvent {
        action,
        base_layout: base,
        ..KeyEvent::new(code, mods)
    };
    let cases = [
        (with(Char('a'), C, KeyAction::Release, None), kitty(1), ""),
        (
            with(Char('a'), C, KeyAction::Release, None),
            kitty(3),
            "\x1b[97;5:3u",
        ),
        (
            with(Char('a'), C, KeyAction::Repeat, None),
            kitty(3),
            "\x1b[97;5:2u",
        ),
        (with(Char('a'), 0, KeyAction::Repeat, None), kitty(3), "a"),
        (
            with(Char('a'), 0, KeyAction::Release, None),
            kitty(3),
            "\x1b[97;1:3u",
        ),
        (with(Enter, 0, KeyAction::Release, None), kitty(3), ""),
        (
            with(Enter, 0, KeyAction::Release, None),
            kitty(10),
            "\x1b[13;1:3u",
        ),
        (
            with(Up, 0, KeyAction::Release, None),
            kitty(3),
            "\x1b[1;1:3A",
        ),
        (with(Char('a'), 0, KeyAction::Release, None), mok(2), ""),
        // A Cyrillic layout's key at the place of US `c`, with control.
        (
            with(Char('с'), C, KeyAction::Press, Some('c')),
            kitty(5),
            "\x1b[1089::99;5u",
        ),
        (
            with(Char('с'), C, KeyAction::Press, Some('c')),
            kitty(1),
            "\x1b[1089;5u",
        ),
    ];
    for (key, mode, want) in cases {
        assert_eq!(
            String::from_utf8_lossy(&encode(&key, &mode)),
            want,
            "{key:?} {mode:?}"
        );
    }
}

#[test]
fn modify_other_keys_as_xterm_and_tmux_send_them() {
    let m2 = mok(2);
    check(&[
        (Char('i'), C, m2, "\x1b[27;5;105~"),
        (Tab, 0, m2, "\t"),
        (Char('m'), C, m2, "\x1b[27;5;109~"),
        (Enter, 0, m2, "\r"),
        (Char('['), C, m2, "\x1b[27;5;91~"),
        (Escape, 0, m2, "\x1b"),
        (Char('x'), A, m2, "\x1b[27;3;120~"),
        (Char('a'), S, m2, "A"),
        (Char('a'), C | S, m2, "\x1b[27;6;97~"),
        (Tab, S, m2, "\x1b[27;2;9~"),
        (Up, C, m2, "\x1b[1;5A"),
        (Char('a'), SUPER, m2, "a"),
    ]);
    let m1 = mok(1);
    check(&[
        (Char('i'), C, m1, "\t"),
        (Char('a'), C, m1, "\x01"),
        (Enter, C, m1, "\x1b[27;5;13~"),
        (Enter, S, m1, "\x1b[27;2;13~"),
        (Char('x'), A, m1, "\x1bx"),
        (Char('1'), C, m1, "\x1b[27;5;49~"),
        (Tab, S, m1, "\x1b[Z"),
        (Tab, C, m1, "\x1b[27;5;9~"),
        (Enter, A, m1, "\x1b\r"),
    ]);
}

#[test]
fn legacy_bytes() {
    let l = legacy(false);
    check(&[
        (Char('a'), C, l, "\x01"),
        (Char('x'), A, l, "\x1bx"),
        (Char('a'), S | A, l, "\x1bA"),
        (Char(' '), C, l, "\x00"),
        (Up, 0, l, "\x1b[A"),
        (Up, 0, legacy(true), "\x1bOA"),
        (Up, C, legacy(true), "\x1b[1;5A"),
        (F(1), 0, l, "\x1bOP"),
        (F(3), 0, l, "\x1bOR"),
        (F(1), S, l, "\x1b[1;2P"),
        (F(5), 0, l, "\x1b[15~"),
        (Delete, C, l, "\x1b[3;5~"),
        (Tab, S, l, "\x1b[Z"),
        (Tab, C, l, "\t"),
        (Backspace, C, l, "\x08"),
        (Escape, 0, l, "\x1b"),
    ]);
}
