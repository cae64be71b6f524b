//! Whole-pipeline throughput without a client: `cat` of a 4 MiB log on a real pty (pty-io,
//! non-blocking reads under tokio) into a 104x59 screen with 10,000 lines of scrollback: what
//! a pane costs before any rendering.
//!
//! `cargo bench -p weft-benches --bench pipeline`; results print as MB/s.

use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use weft_pty_io::{spawn, SpawnOptions, READ_CHUNK_BYTES};

const COLS: u16 = 104;
const ROWS: u16 = 59;
const SCROLLBACK: usize = 10_000;
const PAYLOAD_BYTES: usize = 4 * 1024 * 1024;

/// Runs `cat path` on a pty and parses everything it prints; returns the bytes seen.
async fn cat_through_a_pane(path: &std::path::Path) -> usize {
    let options = SpawnOptions {
        command: vec!["cat".into(), path.as_os_str().to_owned()],
        cols: COLS,
        rows: ROWS,
        ..SpawnOptions::default()
    };
    let Ok((_pty, mut child, mut reader, _writer)) = spawn(&options) else {
        panic!("cannot spawn cat on a pty");
    };
    let mut screen = weft_screen_model::Screen::with_scrollback(
        usize::from(COLS),
        usize::from(ROWS),
        SCROLLBACK,
    );
    let mut buf = vec![0u8; READ_CHUNK_BYTES];
    let mut seen = 0;
    while let Ok(n) = reader.read_available(&mut buf).await {
        if n == 0 {
            break;
        }
        screen.feed(&buf[..n]);
        seen += n;
    }
    let _ = child.wait_exit().await;
    seen
}

fn bench_pipeline(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("weft-bench-pipeline-{}", std::process::id()));
    let path = dir.join("log.txt");
    let written = std::fs::create_dir_all(&dir)
        .and_then(|()| std::fs::write(&path, weft_benches::sgr_log(PAYLOAD_BYTES)));
    assert!(written.is_ok(), "cannot write the payload: {written:?}");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build();
    let Ok(runtime) = runtime else {
        panic!("cannot start a tokio runtime");
    };

    let mut group = c.benchmark_group("pipeline");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Bytes(PAYLOAD_BYTES as u64));
    group.bench_function("cat_sgr_log_pty_to_screen", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                let seen = runtime.block_on(cat_through_a_pane(&path));
                // The pty turns LF into CRLF, so at least the payload arrives.
                assert!(seen >= PAYLOAD_BYTES, "only {seen} bytes arrived");
            }
            start.elapsed()
        });
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    bench_pipeline(&mut criterion);
    criterion.final_summary();
}
