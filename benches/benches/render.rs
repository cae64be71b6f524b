//! Renderer cost per frame at 104x59: a full repaint (what a new client or a redraw costs), a
//! one-line change, and one cell at the end of a full line (what a keystroke's echo costs), all
//! from a screen the TUI-redraw input left.
//!
//! `cargo bench -p weft-benches --bench render`.

use std::hint::black_box;

use criterion::{Criterion, Throughput};
use weft_renderer::{Frame, Renderer};

const COLS: usize = 104;
const ROWS: usize = 59;

/// A frame holding the screen a TUI redraw leaves (colours, attributes, wide characters).
fn busy_frame() -> Frame {
    let mut screen = weft_screen_model::Screen::new(COLS, ROWS);
    screen.feed(&weft_benches::tui_redraw(256 * 1024));
    screen.feed(&weft_benches::unicode(16 * 1024));
    let mut frame = Frame::new(COLS, ROWS);
    for r in 0..ROWS {
        if let Some(row) = screen.row(r) {
            frame.put(r, 0, row.cells());
        }
    }
    frame
}

fn bench_render(c: &mut Criterion) {
    let mut group = c.benchmark_group("render_104x59");
    group.throughput(Throughput::Elements(1));

    let mut frame = busy_frame();
    let mut renderer = Renderer::new();
    group.bench_function("full_repaint", |b| {
        b.iter(|| {
            renderer.invalidate();
            frame.mark_all_dirty();
            black_box(renderer.render(&mut frame).len())
        });
    });

    // One row alternates between two contents, as an echo line does.
    let mut frame = busy_frame();
    let mut renderer = Renderer::new();
    let _ = renderer.render(&mut frame);
    let line_a: Vec<_> = frame.row(ROWS / 2).to_vec();
    let line_b: Vec<_> = frame.row(ROWS / 2 + 1).to_vec();
    let mut flip = false;
    group.bench_function("one_line_change", |b| {
        b.iter(|| {
            flip = !flip;
            frame.put(ROWS / 2, 0, if flip { &line_b } else { &line_a });
            black_box(renderer.render(&mut frame).len())
        });
    });

    // One cell changes at the end of a full-width line, as when typing at the end of a long
    // command line: the renderer must find the one change without rescanning the row per
    // unchanged cell. Rendered into a kept buffer, as the echo path does.
    let mut frame = busy_frame();
    let mut renderer = Renderer::new();
    let _ = renderer.render(&mut frame);
    let row = ROWS / 2;
    let mut line: Vec<_> = (0..COLS)
        .map(|c| {
            let ch = char::from(b'a' + (c % 26) as u8);
            weft_screen_model::Cell::new(ch, &weft_screen_model::Pen::default(), Default::default())
        })
        .collect();
    let last = line[COLS - 1].clone();
    let other =
        weft_screen_model::Cell::new('#', &weft_screen_model::Pen::default(), Default::default());
    let mut bytes = Vec::new();
    let mut flip = false;
    group.bench_function("one_cell_at_end_of_full_line", |b| {
        b.iter(|| {
            flip = !flip;
            line[COLS - 1] = if flip { other.clone() } else { last.clone() };
            frame.put(row, 0, &line);
            renderer.render_into(&mut frame, &mut bytes);
            black_box(bytes.len())
        });
    });
    group.finish();
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    bench_render(&mut criterion);
    criterion.final_summary();
}
