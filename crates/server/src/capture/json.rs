//! A screen as JSON cells (`capture --json`, `weft replay --format json`).

use serde_json::{json, Map, Value};
use weft_screen_model::{Attrs, Cell, Color, Row, Screen, UnderlineStyle};

/// The JSON form of a screen: size, cursor, modes, title, and every row's cells.
pub fn screen_json(screen: &Screen, with_scrollback: bool) -> Value {
    let cursor = screen.cursor_state();
    let modes = screen.modes();
    let mut value = json!({
        "cols": screen.cols(),
        "rows": screen.rows(),
        "cursor": {
            "row": cursor.row,
            "col": cursor.col,
            "visible": cursor.visible,
            "style": cursor.style,
        },
        "title": screen.title(),
        "alternate_screen": screen.is_alternate_screen(),
        "modes": {
            "insert": modes.insert,
            "newline": modes.newline,
            "application_cursor": modes.application_cursor,
            "application_keypad": modes.application_keypad,
            "origin": modes.origin,
            "autowrap": modes.autowrap,
            "reverse_video": modes.reverse_video,
            "bracketed_paste": modes.bracketed_paste,
            "focus_events": modes.focus_events,
            "mouse_tracking": format!("{:?}", modes.mouse_tracking).to_lowercase(),
            "mouse_encoding": format!("{:?}", modes.mouse_encoding).to_lowercase(),
            "synchronized_output": modes.synchronized_output,
            "kitty_keyboard_flags": screen.keyboard_mode().kitty_flags,
            "modify_other_keys": modes.modify_other_keys,
        },
        "screen": screen.visible_rows().map(row_json).collect::<Vec<_>>(),
    });
    if with_scrollback {
        let all = super::history(screen, screen.scrollback().len());
        value["scrollback"] = Value::Array(all.iter().map(row_json).collect());
    }
    value
}

pub(super) fn row_json(row: &Row) -> Value {
    json!({
        "text": row.text(),
        "wrapped": row.is_wrapped(),
        "cells": row.cells().iter().map(cell_json).collect::<Vec<_>>(),
    })
}

fn cell_json(cell: &Cell) -> Value {
    let mut m = Map::new();
    m.insert("text".into(), Value::String(cell.text()));
    m.insert("width".into(), json!(cell.width()));
    m.insert("fg".into(), color_json(cell.fg()));
    m.insert("bg".into(), color_json(cell.bg()));
    let a = cell.attrs();
    let mut attrs = Vec::new();
    for (bit, name) in [
        (Attrs::BOLD, "bold"),
        (Attrs::DIM, "dim"),
        (Attrs::ITALIC, "italic"),
        (Attrs::BLINK, "blink"),
        (Attrs::INVERSE, "inverse"),
        (Attrs::HIDDEN, "hidden"),
        (Attrs::STRIKE, "strike"),
        (Attrs::OVERLINE, "overline"),
        (Attrs::PROTECTED, "protected"),
    ] {
        if a.contains(bit) {
            attrs.push(Value::from(name));
        }
    }
    m.insert("attrs".into(), Value::Array(attrs));
    let underline = match a.underline() {
        UnderlineStyle::None => Value::Null,
        style => Value::from(format!("{style:?}").to_lowercase()),
    };
    m.insert("underline".into(), underline);
    m.insert("underline_color".into(), color_json(cell.underline_color()));
    m.insert(
        "hyperlink".into(),
        cell.hyperlink()
            .map_or(Value::Null, |l| json!({"id": &*l.id, "uri": &*l.uri})),
    );
    Value::Object(m)
}

fn color_json(color: Color) -> Value {
    match color {
        Color::Default => Value::Null,
        Color::Indexed(i) => json!(i),
        Color::Rgb(c) => Value::String(format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b)),
    }
}
