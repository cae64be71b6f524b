//! Copy-mode search over 100,000 lines of history (80-column log lines): a string near the
//! top, found by reading every line (the time a user waits after Enter, less the frame).
//!
//! `cargo bench -p weft-benches --bench copy_search`.

use std::hint::black_box;

use criterion::Criterion;
use weft_screen_model::Screen;
use weft_server::copy::search::{find, Pattern, MAX_MATCHES};
use weft_server::copy::Lines;

const LINES: usize = 100_000;

fn history() -> Screen {
    let mut screen = Screen::with_scrollback(80, 24, LINES);
    for i in 0..LINES {
        let tag = if i == 100 { "qzxjwv-target " } else { "" };
        screen.feed(
            format!(
                "{tag}2024-05-01T01:01:39.926Z WARN  [grpc::client] span exported id={i:08x}\r\n"
            )
            .as_bytes(),
        );
    }
    screen
}

fn bench_search(c: &mut Criterion) {
    let screen = history();
    let lines = Lines::new(&screen);
    let mut group = c.benchmark_group("copy_search_100k");
    for (name, text, regex) in [
        ("literal_near_top", "qzxjwv-target", false),
        ("regex_every_line", "id=0000[0-9a-f]{4}", true),
    ] {
        let pattern = Pattern::new(text, regex).expect("a pattern");
        group.bench_function(name, |b| {
            b.iter(|| {
                black_box(
                    find(&lines, &pattern, lines.first(), lines.last(), MAX_MATCHES)
                        .0
                        .len(),
                )
            })
        });
    }
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench_search(&mut c);
    c.final_summary();
}
