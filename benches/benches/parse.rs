//! Parse throughput: screen-model beside alacritty_terminal and vt100.
//!
//! Six deterministic inputs of about 4 MiB (see `weft_benches`), each fed in 64 KiB chunks
//! into a fresh 80x24 terminal with 10,000 lines of scrollback per iteration. Building the
//! terminal and dropping it are outside the timed region, for all three contenders alike.
//!
//! Two more groups feed a 400x100 terminal in 4 KiB chunks, as a pty hands a flood to a wide
//! pane: `ascii_log_400x100` the plain log, and `seq_400x100` short lines (`seq`'s numbers),
//! where each chunk's lines both scroll through and leave a screenful of short rows.
//!
//! `cargo bench -p weft-benches --bench parse [-- FILTER]`; results print as MB/s.

use std::hint::black_box;
use std::num::NonZeroU16;
use std::time::Duration;

use alacritty_terminal::event::{Event, EventListener};
use alacritty_terminal::grid::Dimensions;
use alacritty_terminal::term::{Config, Term};
use alacritty_terminal::vte::ansi::{Processor, StdSyncHandler};
use criterion::measurement::WallTime;
use criterion::{BatchSize, BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, Throughput};

const COLS: usize = 80;
const ROWS: usize = 24;
const SCROLLBACK: usize = 10_000;
const CHUNK: usize = 64 * 1024;
/// The wide terminal's size and the chunks a pty delivers to it.
const WIDE: (usize, usize) = (400, 100);
const PTY_CHUNK: usize = 4 * 1024;

/// Drops every event alacritty_terminal raises.
struct NoopListener;

impl EventListener for NoopListener {
    fn send_event(&self, _event: Event) {}
}

/// The terminal size alacritty_terminal is built with.
struct Size {
    cols: usize,
    rows: usize,
}

impl Dimensions for Size {
    fn total_lines(&self) -> usize {
        self.rows
    }

    fn screen_lines(&self) -> usize {
        self.rows
    }

    fn columns(&self) -> usize {
        self.cols
    }
}

const fn nonzero(n: u16) -> NonZeroU16 {
    match NonZeroU16::new(n) {
        Some(n) => n,
        None => panic!("terminal size must be nonzero"),
    }
}

fn weft_chunks(
    mut screen: weft_screen_model::Screen,
    input: &[u8],
    chunk_len: usize,
) -> weft_screen_model::Screen {
    for chunk in input.chunks(chunk_len) {
        screen.feed(chunk);
    }
    screen
}

type AlacrittyTerm = (Term<NoopListener>, Processor<StdSyncHandler>);

fn alacritty_sized(cols: usize, rows: usize) -> AlacrittyTerm {
    let config = Config {
        scrolling_history: SCROLLBACK,
        ..Config::default()
    };
    let size = Size { cols, rows };
    (Term::new(config, &size, NoopListener), Processor::new())
}

fn alacritty_chunks(mut term: AlacrittyTerm, input: &[u8], chunk_len: usize) -> AlacrittyTerm {
    for chunk in input.chunks(chunk_len) {
        term.1.advance(&mut term.0, chunk);
    }
    term
}

fn vt100_new() -> vt100::Parser {
    vt100::Parser::new(nonzero(ROWS as u16), nonzero(COLS as u16), SCROLLBACK)
}

fn vt100(mut parser: vt100::Parser, input: &[u8]) -> vt100::Parser {
    for chunk in input.chunks(CHUNK) {
        parser.process(chunk);
    }
    parser
}

fn parse(c: &mut Criterion) {
    for (name, input) in weft_benches::all_inputs(weft_benches::INPUT_LEN) {
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Bytes(input.len() as u64));
        // Each iteration takes milliseconds: flat sampling keeps the run near the budget.
        group.sampling_mode(SamplingMode::Flat);
        let input = input.as_slice();
        weft_and_alacritty(&mut group, input, (COLS, ROWS), CHUNK);
        group.bench_with_input(BenchmarkId::from_parameter("vt100"), input, |b, input| {
            b.iter_batched(
                vt100_new,
                |parser| vt100(parser, black_box(input)),
                BatchSize::PerIteration,
            );
        });
        group.finish();
    }
    wide(c);
}

/// What `seq` prints, `1\r\n2\r\n...` as a pty delivers it, about `len` bytes.
fn seq_lines(len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 16);
    let mut n = 1u64;
    while out.len() < len {
        out.extend_from_slice(format!("{n}\r\n").as_bytes());
        n += 1;
    }
    out
}

/// Streams through a wide terminal, in a pty's chunks (see the module's documentation).
fn wide(c: &mut Criterion) {
    let inputs = [
        (
            "ascii_log",
            weft_benches::ascii_log(weft_benches::INPUT_LEN),
        ),
        ("seq", seq_lines(weft_benches::INPUT_LEN)),
    ];
    for (name, input) in inputs {
        wide_group(c, name, &input);
    }
}

fn wide_group(c: &mut Criterion, name: &str, input: &[u8]) {
    let (cols, rows) = WIDE;
    let mut group = c.benchmark_group(format!("{name}_{cols}x{rows}"));
    group.throughput(Throughput::Bytes(input.len() as u64));
    group.sampling_mode(SamplingMode::Flat);
    weft_and_alacritty(&mut group, input, WIDE, PTY_CHUNK);
    group.finish();
}

/// Benches weft and alacritty_terminal on `input`, fed in `chunk_len` pieces into a fresh
/// terminal of `size` each iteration.
fn weft_and_alacritty(
    group: &mut BenchmarkGroup<'_, WallTime>,
    input: &[u8],
    (cols, rows): (usize, usize),
    chunk_len: usize,
) {
    group.bench_with_input(BenchmarkId::from_parameter("weft"), input, |b, input| {
        b.iter_batched(
            || weft_screen_model::Screen::with_scrollback(cols, rows, SCROLLBACK),
            |screen| weft_chunks(screen, black_box(input), chunk_len),
            BatchSize::PerIteration,
        );
    });
    group.bench_with_input(
        BenchmarkId::from_parameter("alacritty_terminal"),
        input,
        |b, input| {
            b.iter_batched(
                || alacritty_sized(cols, rows),
                |term| alacritty_chunks(term, black_box(input), chunk_len),
                BatchSize::PerIteration,
            );
        },
    );
}

fn main() {
    // What criterion_group!/criterion_main! expand to, minus the undocumented `pub fn`.
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    parse(&mut c);
    c.final_summary();
}
