//! `weft replay`: the screen model on a recorded byte stream, for conformance checks and bugs.

use crate::cli::{ReplayArgs, ReplayFormat};
use anyhow::Context;
use screen_model::{Cell, Color, Row, Screen, UnderlineStyle};
use serde_json::{json, Map, Value};
use std::io::{Read, Write};

/// Reads the input in pieces of this size, as a pty would deliver it.
const READ_CHUNK: usize = 64 * 1024;

/// Runs `weft replay`.
pub fn run(args: &ReplayArgs) -> anyhow::Result<()> {
    let mut screen = Screen::new(usize::from(args.cols), usize::from(args.rows));
    let mut input: Box<dyn Read> = match &args.file {
        Some(path) if path.as_os_str() != "-" => Box::new(
            std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?,
        ),
        _ => Box::new(std::io::stdin().lock()),
    };
    let mut buf = vec![0u8; READ_CHUNK];
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e).context("cannot read the input"),
        };
        screen.feed(&buf[..n]);
        // Replies would go to the program; nobody is listening here.
        screen.take_replies();
        screen.take_events();
    }
    let mut out = std::io::stdout().lock();
    match args.format {
        ReplayFormat::Text => {
            let text = if args.scrollback {
                screen.text_with_scrollback()
            } else {
                screen.text()
            };
            writeln!(out, "{text}")?;
        }
        ReplayFormat::Json => {
            let value = screen_json(&screen, args.scrollback);
            serde_json::to_writer(&mut out, &value)?;
            writeln!(out)?;
        }
    }
    out.flush()?;
    Ok(())
}

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
        },
        "screen": screen.visible_rows().iter().map(row_json).collect::<Vec<_>>(),
    });
    if with_scrollback {
        let history: Vec<Value> = (0..screen.scrollback().len())
            .filter_map(|i| screen.scrollback_row(i))
            .map(|r| row_json(&r))
            .collect();
        value["scrollback"] = Value::Array(history);
    }
    value
}

fn row_json(row: &Row) -> Value {
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
        (screen_model::Attrs::BOLD, "bold"),
        (screen_model::Attrs::DIM, "dim"),
        (screen_model::Attrs::ITALIC, "italic"),
        (screen_model::Attrs::BLINK, "blink"),
        (screen_model::Attrs::INVERSE, "inverse"),
        (screen_model::Attrs::HIDDEN, "hidden"),
        (screen_model::Attrs::STRIKE, "strike"),
        (screen_model::Attrs::OVERLINE, "overline"),
        (screen_model::Attrs::PROTECTED, "protected"),
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
