//! `weft replay`: the screen model on a recorded byte stream or an asciicast recording, for
//! conformance checks, bugs, and checking recordings.

use crate::cli::{ReplayArgs, ReplayFormat};
use anyhow::Context;
use std::io::{BufRead, BufReader, Read, Write};
use weft_artifacts::asciicast::{self, CastReader};
use weft_screen_model::Screen;

/// Reads the input in pieces of this size, as a pty would deliver it.
const READ_CHUNK: usize = 64 * 1024;

/// The largest screen a replay makes (columns or rows), as `--cols` and `--rows` allow.
const MAX_SIDE: u16 = 4096;

/// Runs `weft replay`; returns the exit status (2 for a malformed recording).
pub fn run(args: &ReplayArgs) -> anyhow::Result<u8> {
    let input: Box<dyn Read> = match &args.file {
        Some(path) if path.as_os_str() != "-" => Box::new(
            std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?,
        ),
        _ => Box::new(std::io::stdin().lock()),
    };
    let mut input = BufReader::with_capacity(READ_CHUNK, input);
    // A recording is told apart by its first line, a JSON header.
    let looks_like_cast = input
        .fill_buf()
        .context("cannot read the input")?
        .starts_with(b"{");
    let mut first = Vec::new();
    if looks_like_cast {
        (&mut input)
            .take(asciicast::MAX_LINE_BYTES)
            .read_until(b'\n', &mut first)
            .context("cannot read the input")?;
    }
    let screen = if looks_like_cast && asciicast::is_header(&first) {
        let name = args
            .file
            .as_ref()
            .map_or("standard input".into(), |p| p.display().to_string());
        match replay_cast(std::io::Cursor::new(first).chain(input), args) {
            Ok(screen) => screen,
            Err(e) => {
                eprintln!("weft: {name}: {e}");
                return Ok(2);
            }
        }
    } else {
        let (Some(cols), Some(rows)) = (args.cols, args.rows) else {
            eprintln!(
                "weft: replay needs --cols and --rows for a byte stream (an asciicast \
                 recording carries its own size)"
            );
            return Ok(2);
        };
        let mut screen = Screen::new(usize::from(cols), usize::from(rows));
        feed(&mut screen, &first);
        let mut buf = vec![0u8; READ_CHUNK];
        loop {
            let n = match input.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e).context("cannot read the input"),
            };
            feed(&mut screen, &buf[..n]);
        }
        screen
    };
    print_screen(&screen, args)?;
    Ok(0)
}

/// Feeds bytes to the screen; replies and events go nowhere (nobody is listening here).
fn feed(screen: &mut Screen, bytes: &[u8]) {
    screen.feed(bytes);
    screen.take_replies();
    screen.take_events();
}

/// The screen a recording ends with: its output events fed in order, its resizes applied.
/// `--cols` and `--rows` replace the header's size.
fn replay_cast(input: impl BufRead, args: &ReplayArgs) -> Result<Screen, asciicast::CastError> {
    let mut cast = CastReader::new(input)?;
    let side = |n: u16| usize::from(n.clamp(1, MAX_SIDE));
    let cols = args.cols.unwrap_or(cast.header().width);
    let rows = args.rows.unwrap_or(cast.header().height);
    let mut screen = Screen::new(side(cols), side(rows));
    while let Some(event) = cast.next_event()? {
        match event.code.as_str() {
            "o" => feed(&mut screen, event.data.as_bytes()),
            "r" => {
                if let Some((cols, rows)) = event.resize() {
                    screen.resize(side(cols), side(rows));
                }
            }
            _ => {}
        }
    }
    Ok(screen)
}

fn print_screen(screen: &Screen, args: &ReplayArgs) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match args.format {
        ReplayFormat::Text => {
            let text = if args.scrollback {
                screen.text_with_scrollback()
            } else {
                screen.text()
            };
            writeln!(out, "{text}")?;
        }
        ReplayFormat::Json => {
            let value = weft_server::capture::screen_json(screen, args.scrollback);
            serde_json::to_writer(&mut out, &value)?;
            writeln!(out)?;
        }
    }
    out.flush()?;
    Ok(())
}
