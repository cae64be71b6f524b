//! Resize reflow of 100,000 lines of history: a window 80 columns wide, full of ~90-character
//! log lines (each wrapped over two rows), made 100 columns wide and back, the time a user
//! waits for the resize.
//!
//! `cargo bench -p weft-benches --bench reflow`.

use criterion::{BatchSize, Criterion};
use weft_screen_model::Screen;

const LINES: usize = 100_000;

fn history() -> Screen {
    let mut screen = Screen::with_scrollback(80, 24, LINES);
    for i in 0..LINES {
        screen.feed(
            format!(
                "2024-05-01T01:01:39.926Z WARN  [grpc::client] span exported id={i:08x} \
                 status=ok\r\n"
            )
            .as_bytes(),
        );
    }
    screen
}

fn bench_reflow(c: &mut Criterion) {
    let mut group = c.benchmark_group("reflow_100k");
    group.sample_size(10);
    for (name, cols) in [("wider_80_to_100", 100), ("narrower_80_to_60", 60)] {
        group.bench_function(name, |b| {
            b.iter_batched(
                history,
                |mut s| {
                    s.resize(cols, 24);
                    s
                },
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench_reflow(&mut c);
    c.final_summary();
}
