//! The pty reader task: reads the program's output into chunks for the pane task, or parses a
//! small read itself when its turn allows (an echo).

use super::shared::PaneShared;
use super::{FIRST_READ_BYTES, STREAMING_CHUNK_BYTES};
use bytes::Bytes;
use std::sync::Arc;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use weft_pty_io::{PtyReader, READ_CHUNK_BYTES};

/// Longest a flooding pane's reader or parser keeps a worker before letting other tasks run,
/// when tokio's LIFO slot is on (built without `tokio_unstable`): a task the flood woke (a
/// renderer) sits in that slot, which no other worker may take, for tokio's whole budget (tens
/// of ms) unless the flood yields. With the slot off (the normal build, see `server_main.rs`)
/// a free worker takes such tasks at once and yields only cost throughput. Measured on 2 cores
/// with the slot off (cat 200k lines; echo p99 with another pane flooding): no yields 0.95x
/// no-mux and 3.6 ms; a yield per 1 ms, 1.25x and 2.2 ms, but in other runs 1.7x and 4 ms:
/// on 2 busy cores the echo waits for the OS scheduler more than for tokio. With the readers
/// on a runtime of their own (see [`spawn_reader`]), 4 ms against 1 ms took the
/// 2,000,000-line cat from 2.9 to 1.7 s (median of paired runs) with dense_cells, unicode and
/// the echo under a flood unchanged.
#[cfg(not(tokio_unstable))]
const FAIR_SLICE: Option<std::time::Duration> = Some(std::time::Duration::from_millis(4));
/// See above: no yields when the LIFO slot is off.
#[cfg(tokio_unstable)]
const FAIR_SLICE: Option<std::time::Duration> = None;

/// Starts a pane's reader task. Built with `tokio_unstable`, on the server's runtime (whose LIFO
/// slot is off). Without it, on a runtime of its own ([`READER_RUNTIME`]): a reader's send wakes
/// its pane's parser from outside the server's runtime, so the wake-up goes to the shared queue,
/// where an idle worker takes it at once and parses while the reader reads on. Woken from
/// inside, the parser would sit in the reader's LIFO slot, which no other worker may take, until
/// the reader yielded: reading and parsing took turns on one core (dense_cells 1.44x slower).
pub(super) fn spawn_reader<F>(task: F)
where
    F: std::future::Future<Output = ()> + Send + 'static,
{
    match reader_runtime() {
        Some(readers) => drop(readers.spawn(task)),
        None => drop(tokio::spawn(task)),
    }
}

/// Starts a client's render task. Built with `tokio_unstable`, on the server's runtime. Without
/// it, beside the pty readers ([`READER_RUNTIME`]): a flooding pane's parser wakes the render
/// task as it draws, and woken from inside the server's runtime the task would wait in the
/// parser's LIFO slot, which no other worker may take, until the parser gave its worker up; an
/// echo in another pane that needed the render task waited with it. Woken from outside, it
/// goes to the shared queue of the readers' runtime, whose second worker takes it at once.
/// Measured in paired runs (echo under one flood, p50 / p99): 0.28-0.30 / 0.85-1.18 ms before,
/// 0.17-0.19 / 0.48-0.54 ms after. A runtime of their own (one worker) did less well (0.20-0.22
/// / 0.65-0.73 ms). The normal build's echo was worse with its render tasks apart (0.30-0.32 /
/// 0.79-0.91 ms against 0.27-0.29 / 0.66-0.70), so they stay on the server's runtime there
/// (`server`: the client's loop that starts them runs on a runtime of its own).
pub(crate) fn spawn_renderer<F>(
    task: F,
    server: &tokio::runtime::Handle,
) -> tokio::task::JoinHandle<F::Output>
where
    F: std::future::Future + Send + 'static,
    F::Output: Send + 'static,
{
    match reader_runtime() {
        Some(readers) => readers.spawn(task),
        None => server.spawn(task),
    }
}

/// Makes the readers' runtime (see [`spawn_reader`]) the current one while the guard lives, so
/// that a pty opened meanwhile is watched by that runtime's reactor: its readiness then wakes
/// the readers' thread directly, not a server worker that would have to wake it. `None` in the
/// normal build.
pub(super) fn enter_reader_runtime() -> Option<tokio::runtime::EnterGuard<'static>> {
    reader_runtime().map(tokio::runtime::Runtime::enter)
}

/// The readers' runtime, made on first use; `None` in the normal build, or if it could not be
/// made.
#[cfg(not(tokio_unstable))]
fn reader_runtime() -> Option<&'static tokio::runtime::Runtime> {
    READER_RUNTIME.get_or_init(start_reader_runtime).as_ref()
}

/// See above: the normal build's readers share the server's runtime.
#[cfg(tokio_unstable)]
fn reader_runtime() -> Option<&'static tokio::runtime::Runtime> {
    None
}

/// The readers' runtime of a build without `tokio_unstable` (see [`spawn_reader`]): two workers
/// for every pane's reader (a read is a copy; parsing is done elsewhere) and every client's
/// render task (see [`spawn_renderer`]), so that a quiet
/// pane's echo is read while a flooding pane's reader runs (with one, the echo under a flood
/// took 0.35 ms at p50 instead of 0.26), made on first use and kept for the process's life.
/// `None` if it could not be made: readers then run on the server's runtime, as they do in the
/// normal build.
#[cfg(not(tokio_unstable))]
static READER_RUNTIME: std::sync::OnceLock<Option<tokio::runtime::Runtime>> =
    std::sync::OnceLock::new();

#[cfg(not(tokio_unstable))]
fn start_reader_runtime() -> Option<tokio::runtime::Runtime> {
    crate::sched::side_runtime("weft-pty-read", 2, "pty readers")
}

/// Yields once a task has worked through large chunks for [`FAIR_SLICE`].
pub(super) struct FairSlice {
    since: std::time::Instant,
}

impl FairSlice {
    pub(super) fn new() -> Self {
        FairSlice {
            since: std::time::Instant::now(),
        }
    }

    /// After handling a chunk of `bytes`: a small one means the pty was drained (the task is
    /// about to wait anyway), a large one counts towards the slice. While several panes flood
    /// (`contended`), a large one also yields when other tasks wait for a worker: each flood
    /// would otherwise keep its worker until tokio's budget runs out (128 chunks, tens of ms),
    /// starving the other panes and the echo path behind them (8 panes flooding: the slowest
    /// took 2.9 times the fastest, an echo 15 ms at p50). One flood alone does not yield: a
    /// yield per chunk whenever anything waited (its reader, a renderer) made a lone cat twice
    /// as slow.
    pub(super) async fn after_chunk(&mut self, bytes: usize, contended: bool) {
        if bytes < STREAMING_CHUNK_BYTES {
            self.since = std::time::Instant::now();
        } else if FAIR_SLICE.is_some_and(|slice| self.since.elapsed() >= slice)
            || (contended && others_waiting())
        {
            tokio::task::yield_now().await;
            self.since = std::time::Instant::now();
        }
    }
}

/// Whether tasks of the current runtime wait for a worker, in its shared queue or a worker's
/// own. Built without `tokio_unstable`, whose metrics do not show the workers' own queues
/// (where a task woken from inside the runtime goes), always: while floods contend, that
/// build yields after every large chunk (8 panes flooding: an echo waited 21 ms at p99 with
/// 4 ms slices).
fn others_waiting() -> bool {
    #[cfg(tokio_unstable)]
    {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return false;
        };
        let metrics = runtime.metrics();
        metrics.global_queue_depth() > 0
            || (0..metrics.num_workers()).any(|w| metrics.worker_local_queue_depth(w) > 0)
    }
    #[cfg(not(tokio_unstable))]
    {
        true
    }
}

/// Quiet after which a grown read buffer is made small again (as `crate::memory` returns
/// memory after floods).
const SHRINK_AFTER_QUIET_NS: u64 = crate::memory::TRIM_AFTER_QUIET.as_nanos() as u64;

/// A chunk of program output and when it was read (for bytes-to-screen latency).
pub(super) type Chunk = (Bytes, u64);

/// Reads the pty into chunks; waits when the pane task is behind.
pub(super) async fn read_pty(
    mut reader: PtyReader,
    output: mpsc::Sender<Chunk>,
    stop: CancellationToken,
    shared: Arc<PaneShared>,
) {
    let metrics = &shared.metrics;
    // Small until output streams, and again after it: a pane that once streamed holds a
    // 64 KiB buffer only until its next output after a quiet spell.
    let mut buf = vec![0u8; FIRST_READ_BYTES];
    let mut last_read_at = 0;
    let mut unreported = 0;
    let mut slice = FairSlice::new();
    // Registered once: a fresh `cancelled()` per read would join and leave the token's waiter
    // list on every keystroke's echo.
    let stopped = stop.cancelled();
    tokio::pin!(stopped);
    loop {
        let waited = crate::metrics::Tick::now();
        let n = tokio::select! {
            biased;
            _ = &mut stopped => return,
            // A stream stops gathering (at a streaming chunk's size) when another pane's
            // echo waits: the reads still to come would keep `cat` and the kernel's tty
            // worker busy on the CPUs the echo needs.
            n = reader.read_available_while(&mut buf, |filled| {
                filled < STREAMING_CHUNK_BYTES || !shared.priority.echo_waits(shared.id)
            }) => n,
        };
        let started = crate::metrics::Tick::now();
        metrics.pty_read.idle(started - waited);
        match n {
            Ok(0) | Err(_) => return,
            Ok(n) => {
                let chunk = Bytes::copy_from_slice(&buf[..n]);
                if shared.pipe.is_tapped() {
                    shared.pipe.offer(&chunk, &metrics.dropped_pipe_bytes);
                }
                let read_at = crate::metrics::now_ns();
                // Counted here and reported in large steps: the echo path touches no
                // shared memory for it.
                unreported += n;
                if unreported >= crate::memory::REPORT_BYTES {
                    crate::memory::OUTPUT_VOLUME.add(unreported);
                    unreported = 0;
                }
                if n == buf.len() && buf.len() < READ_CHUNK_BYTES {
                    buf.resize(READ_CHUNK_BYTES, 0);
                } else if buf.len() > FIRST_READ_BYTES
                    && n < FIRST_READ_BYTES
                    && read_at.saturating_sub(last_read_at) > SHRINK_AFTER_QUIET_NS
                {
                    // The first output after a quiet spell: the flood that grew the buffer
                    // is over, and its memory goes back (see `crate::memory`).
                    buf = vec![0u8; FIRST_READ_BYTES];
                }
                last_read_at = read_at;
                metrics.pty_read.item(n);
                tracing::trace!(bytes = n, "pty read");
                let copied = crate::metrics::Tick::now();
                metrics.pty_read.busy(copied - started);
                if n < STREAMING_CHUNK_BYTES {
                    if let Some(_turn) = shared.order.turn() {
                        // Nothing queued for the pane task and a small read: an echo. Parsed
                        // here, it reaches the screen (and an idle renderer, the terminal)
                        // without waking another task.
                        shared.set_streaming(false);
                        shared.apply_output(&chunk, read_at, true);
                        continue;
                    }
                }
                shared.order.queued();
                if output.send((chunk, read_at)).await.is_err() {
                    return;
                }
                metrics.pty_read.blocked(copied.elapsed());
                // A flood always finds the pty readable and the channel open: give the worker
                // up now and then (see `FairSlice`). A small read drained the pty, so the next
                // one waits anyway.
                slice.after_chunk(n, shared.priority.floods_contend()).await;
                if n >= STREAMING_CHUNK_BYTES {
                    // Streaming: another pane's echo goes first (counted as blocked).
                    let held = crate::metrics::Tick::now();
                    tokio::select! {
                        _ = &mut stopped => return,
                        _ = shared.priority.wait_turn(shared.id) => {}
                    }
                    metrics.pty_read.blocked(held.elapsed());
                }
            }
        }
    }
}
