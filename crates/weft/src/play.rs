//! `weft play`: an asciicast recording written to this terminal at the times it was recorded,
//! or scaled (`--speed`), with long pauses shortened (`--max-idle`).

use crate::cli::PlayArgs;
use anyhow::Context;
use std::io::{BufReader, Write};
use std::time::{Duration, Instant};
use weft_artifacts::asciicast::CastReader;

/// Runs `weft play`; returns the exit status (2 for a malformed recording, naming the line).
pub fn run(args: &PlayArgs) -> anyhow::Result<u8> {
    let name = args.file.display().to_string();
    let file = std::fs::File::open(&args.file).with_context(|| format!("cannot open {name}"))?;
    let mut cast = match CastReader::new(BufReader::new(file)) {
        Ok(cast) => cast,
        Err(e) => {
            eprintln!("weft: {name}: {e}");
            return Ok(2);
        }
    };
    let mut out = std::io::stdout().lock();
    let start = Instant::now();
    // Where the player is on the recording's clock (pauses shortened), and the last event's
    // own time.
    let mut played = 0.0f64;
    let mut last = 0.0f64;
    loop {
        let event = match cast.next_event() {
            Ok(Some(event)) => event,
            Ok(None) => break,
            Err(e) => {
                out.flush()?;
                eprintln!("weft: {name}: {e}");
                return Ok(2);
            }
        };
        let mut pause = (event.time - last).max(0.0);
        last = last.max(event.time);
        if let Some(max_idle) = args.max_idle {
            pause = pause.min(max_idle);
        }
        played += pause;
        // Resizes cannot be applied to this terminal; input was the program's, not output.
        if event.code != "o" {
            continue;
        }
        // A recording's clock beyond about 30 years is not waited for.
        let offset =
            Duration::try_from_secs_f64((played / args.speed).min(1e9)).unwrap_or(Duration::ZERO);
        let due = start.checked_add(offset).unwrap_or(start);
        let now = Instant::now();
        if due > now {
            out.flush()?;
            std::thread::sleep(due - now); // deadline-ok: until the next event's time in the cast
        }
        out.write_all(event.data.as_bytes())?;
    }
    out.flush()?;
    Ok(0)
}
