//! `weft capture` and `weft replay --format json`: a screen as text, with escapes, or as cells.

use serde_json::{json, Map, Value};
use weft_screen_model::style::sgr_params;
use weft_screen_model::{Attrs, Cell, Color, Row, Screen, UnderlineStyle};

/// How to capture.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CaptureOptions {
    /// Keep colours and attributes as SGR sequences.
    pub ansi: bool,
    /// Cells as JSON.
    pub json: bool,
    /// Lines of history before the screen.
    pub scrollback: usize,
    /// Soft-wrapped rows as one line.
    pub join_wrapped: bool,
}

/// The screen (and `scrollback` lines of history) in the form asked for.
pub fn capture(screen: &Screen, options: &CaptureOptions) -> String {
    if options.json {
        let mut value = screen_json(screen, false);
        if options.scrollback > 0 {
            value["scrollback"] = Value::Array(
                history(screen, options.scrollback)
                    .iter()
                    .map(row_json)
                    .collect(),
            );
        }
        value["revision"] = json!(screen.seqno());
        return value.to_string();
    }
    let mut rows = history(screen, options.scrollback);
    rows.extend(screen.visible_rows().cloned());
    let mut out = String::new();
    for (i, row) in rows.iter().enumerate() {
        let joined = options.join_wrapped && row.is_wrapped();
        if options.ansi {
            push_ansi_row(&mut out, row, joined);
        } else if joined {
            for cell in row.cells() {
                cell.push_text(&mut out);
            }
        } else {
            out.push_str(&row.text());
        }
        if !joined && i + 1 < rows.len() {
            out.push('\n');
        }
    }
    // Trailing empty lines are noise for a capture.
    let trimmed = out.trim_end_matches('\n').len();
    out.truncate(trimmed);
    out
}

fn history(screen: &Screen, lines: usize) -> Vec<Row> {
    let len = screen.scrollback().len();
    (len.saturating_sub(lines)..len)
        .filter_map(|i| screen.scrollback_row(i))
        .collect()
}

fn push_ansi_row(out: &mut String, row: &Row, joined: bool) {
    let cells = if joined {
        row.cells()
    } else {
        &row.cells()[..row.used_len()]
    };
    let mut current = String::from("0");
    for cell in cells {
        if cell.is_spacer() {
            continue;
        }
        let params = sgr_params(&cell.pen());
        if params != current {
            out.push_str(&format!("\x1b[{params}m"));
            current = params;
        }
        cell.push_text(out);
    }
    if current != "0" {
        out.push_str("\x1b[0m");
    }
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
        "screen": screen.visible_rows().map(row_json).collect::<Vec<_>>(),
    });
    if with_scrollback {
        let all = history(screen, screen.scrollback().len());
        value["scrollback"] = Value::Array(all.iter().map(row_json).collect());
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
