//! `weft replay`: the screen model on a recorded byte stream, for conformance checks and bugs.

use crate::cli::{ReplayArgs, ReplayFormat};
use anyhow::Context;
use std::io::{Read, Write};
use weft_screen_model::Screen;

/// Reads the input in pieces of this size, as a pty would deliver it.
const READ_CHUNK: usize = 64 * 1024;

/// Runs `weft replay`.
pub fn run(args: &ReplayArgs) -> anyhow::Result<()> {
    let mut screen = Screen::new(usize::from(args.cols), usize::from(args.rows));
    let mut input: Box<dyn Read> = match &args.file {
        Some(path) if path.as_os_str() != "-" => Box::new(
            std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?,
        ),
        _ => Box::new(std::io::stdin().lock()),
    };
    let mut buf = vec![0u8; READ_CHUNK];
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e).context("cannot read the input"),
        };
        screen.feed(&buf[..n]);
        // Replies would go to the program; nobody is listening here.
        screen.take_replies();
        screen.take_events();
    }
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
            let value = weft_server::capture::screen_json(&screen, args.scrollback);
            serde_json::to_writer(&mut out, &value)?;
            writeln!(out)?;
        }
    }
    out.flush()?;
    Ok(())
}
