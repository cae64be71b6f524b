//! How fast this machine can drain a pty that `cat FILE` writes into, three ways, with no
//! terminal emulation at all: the floor under any multiplexer's `cat` figure.
//!
//! - `blocking`: one thread in a blocking `read` loop (what the benchmark's "no multiplexer"
//!   terminal does);
//! - `async`: [`PtyReader::read_available`] in a task on a runtime built like weft's server
//!   (three workers, LIFO slot off), the bytes dropped;
//! - `handoff`: the same reader handing each chunk to a second task over a bounded channel,
//!   as weft's reader hands chunks to the pane task.
//!
//! `cargo run --release -p weft-pty-io --example drain_floor -- MODE /absolute/path/to/file`
//! prints the bytes drained and the time taken.

use std::error::Error;
use std::io::Read;
use std::time::{Duration, Instant};
use weft_pty_io::{SpawnOptions, READ_CHUNK_BYTES};

/// Chunks in flight between reader and consumer in `handoff` mode, as in weft's pane.
const HANDOFF_CAPACITY: usize = 4;

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(mode), Some(file)) = (args.next(), args.next()) else {
        return Err("usage: drain_floor blocking|async|handoff /absolute/path".into());
    };
    let (bytes, took) = match mode.as_str() {
        "blocking" => drain_blocking(&file)?,
        "async" | "handoff" => {
            let mut builder = tokio::runtime::Builder::new_multi_thread();
            // As weft's server does; a build without `tokio_unstable` keeps the slot.
            #[cfg(tokio_unstable)]
            builder.disable_lifo_slot();
            let runtime = builder.worker_threads(3).enable_all().build()?;
            let handoff = mode == "handoff";
            runtime.block_on(async move {
                // Spawned, so the reader runs on a worker as weft's does (not on this thread).
                match tokio::spawn(drain_async(file, handoff)).await {
                    Ok(drained) => drained,
                    Err(e) => Err(e.to_string()),
                }
            })?
        }
        other => return Err(format!("unknown mode {other}").into()),
    };
    println!("{mode}: {bytes} bytes in {:.3} s", took.as_secs_f64());
    Ok(())
}

/// The options that run `cat file` in a 104x59 pty.
fn cat(file: &str) -> SpawnOptions {
    SpawnOptions {
        command: vec!["cat".into(), file.into()],
        cols: 104,
        rows: 59,
        ..SpawnOptions::default()
    }
}

/// Drains with blocking reads on this thread (portable-pty's plain reader).
fn drain_blocking(file: &str) -> Result<(usize, Duration), Box<dyn Error>> {
    use portable_pty::{native_pty_system, CommandBuilder, PtySize};
    let start = Instant::now();
    let size = PtySize {
        rows: 59,
        cols: 104,
        pixel_width: 0,
        pixel_height: 0,
    };
    let pair = native_pty_system()
        .openpty(size)
        .map_err(|e| e.to_string())?;
    let mut command = CommandBuilder::new("cat");
    command.arg(file);
    let mut child = pair
        .slave
        .spawn_command(command)
        .map_err(|e| e.to_string())?;
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().map_err(|e| e.to_string())?;
    let mut buf = vec![0u8; READ_CHUNK_BYTES];
    let mut total = 0;
    // Ends at EOF or EIO, once the program side closes.
    while let Ok(n @ 1..) = reader.read(&mut buf) {
        total += n;
    }
    child.wait()?;
    Ok((total, start.elapsed()))
}

/// Drains with the async reader, handing chunks to a consumer task when `handoff` is set.
async fn drain_async(file: String, handoff: bool) -> Result<(usize, Duration), String> {
    let start = Instant::now();
    let (_pty, _child, mut reader, _writer) =
        weft_pty_io::spawn(&cat(&file)).map_err(|e| e.to_string())?;
    let mut buf = vec![0u8; READ_CHUNK_BYTES];
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Vec<u8>>(HANDOFF_CAPACITY);
    let consumer = tokio::spawn(async move {
        let mut total = 0;
        while let Some(chunk) = rx.recv().await {
            total += chunk.len();
        }
        total
    });
    let mut total = 0;
    while let Ok(n @ 1..) = reader.read_available(&mut buf).await {
        if handoff {
            if tx.send(buf[..n].to_vec()).await.is_err() {
                break;
            }
        } else {
            total += n;
        }
    }
    drop(tx);
    total += consumer.await.map_err(|e| e.to_string())?;
    Ok((total, start.elapsed()))
}
