//! A frame costs what is drawn on it: a huge terminal showing a prompt and a status line keeps
//! two rows of cells in the frame and in the renderer's copy, and still draws right.

#![allow(clippy::unwrap_used)] // Test helpers may panic on failure.

use weft_renderer::{Frame, Renderer};
use weft_screen_model::{Cell, CellFlags, Pen, Screen};

const ROW_BYTES: usize = 1000 * 24;

fn text_cells(text: &str) -> Vec<Cell> {
    text.chars()
        .map(|c| Cell::new(c, &Pen::default(), CellFlags::empty()))
        .collect()
}

#[test]
fn a_huge_frame_holds_only_its_drawn_rows() {
    let mut frame = Frame::new(1000, 500);
    frame.put(0, 0, &text_cells("$ prompt"));
    frame.put(499, 0, &text_cells("[0] status"));
    // Blank runs drawn over blank rows (a pane's empty rows) allocate nothing.
    for r in 1..499 {
        frame.put(r, 0, &text_cells("          "));
        frame.blank(r, 0, 1000);
    }
    assert!(
        frame.heap_bytes() <= 2 * ROW_BYTES,
        "{}",
        frame.heap_bytes()
    );
    let mut renderer = Renderer::new();
    let bytes = renderer.render(&mut frame);
    assert!(
        renderer.shown_heap_bytes() <= 2 * ROW_BYTES,
        "{}",
        renderer.shown_heap_bytes()
    );
    let mut term = Screen::new(1000, 500);
    term.feed(&bytes);
    assert_eq!(term.row(0).unwrap().text(), "$ prompt");
    assert_eq!(term.row(499).unwrap().text(), "[0] status");
    assert_eq!(term.row(250).unwrap().text(), "");
}

#[test]
fn a_row_drawn_then_cleared_renders_as_blank() {
    let mut frame = Frame::new(20, 3);
    let mut renderer = Renderer::new();
    frame.put(1, 0, &text_cells("hello"));
    let mut term = Screen::new(20, 3);
    term.feed(&renderer.render(&mut frame));
    assert_eq!(term.row(1).unwrap().text(), "hello");
    frame.blank(1, 0, 20);
    term.feed(&renderer.render(&mut frame));
    assert_eq!(term.row(1).unwrap().text(), "");
}
