//! `capture-pane`: a pane's screen and history as text, with escapes, as cells or as a
//! picture; printed, or kept in a paste buffer as tmux keeps it.

use super::io::{pane_action, pane_server_action};
use super::{Entry, Long};
use crate::capture::{CaptureOptions, CaptureState};
use crate::context::ServerContext;
use crate::outcome::{CommandError, Output, TargetKind};
use crate::pane::PaneHandle;

tokio::task_local! {
    /// Set around the commands a client's keys, prompt and menus run, and hooks: nobody
    /// reads what they print, so `capture-pane` without `-p` keeps its text in a paste
    /// buffer, as tmux does (from the command line it prints, weft's scripting use).
    pub static NOBODY_READS: bool;
}

/// Whether the running command's output has no reader (see [`NOBODY_READS`]).
fn nobody_reads() -> bool {
    NOBODY_READS.try_with(|n| *n).unwrap_or(false)
}

/// `capture-pane`.
pub static CAPTURE_PANE: Entry = Entry {
    name: "capture-pane",
    aliases: &["capture", "capturep"],
    usage: "[-aCeJNpPqT] [-b buffer-name] [-t target-pane] [--ansi] [--json] [--svg] \
            [--scrollback N] [-S start-line] [-E end-line] [--join-wrapped]",
    about: "Print a pane's screen as text, with its escapes (-e, --ansi), as cells (--json) \
            or as an SVG picture of the visible screen (--svg); the revision goes to standard \
            error. -S/-E: lines from 0 at the screen's top, negative into the history, - its \
            start or the screen's end. -b keeps the text in that paste buffer instead (-p \
            prints it still), as does a binding without -p. -N keeps trailing spaces, -C \
            writes controls as octal \\xxx. -a captures the screen a program's alternate \
            screen covers (an error while there is none, unless -q). `weft capture -o FILE` \
            writes it to a file.",
    flags: "ab:CeJNpPqTE:S:t:",
    long: &[
        Long::alias("ansi", 'e', false),
        Long::alias("join-wrapped", 'J', false),
        Long::value("scrollback"),
        Long::switch("json"),
        Long::switch("svg"),
    ],
    read_only: true,
    target: Some(TargetKind::Pane),
    build: |args| {
        // tmux's -S: `-` the history's start, a negative number lines of history, 0 or
        // more the first visible row; weft's --scrollback N: N lines of history.
        let (mut scrollback, mut first_row) = (0, 0);
        match args.value('S') {
            Some("-") => scrollback = usize::MAX,
            Some(n) => match n.parse::<i64>() {
                Ok(line) if line < 0 => scrollback = line.unsigned_abs() as usize,
                Ok(line) => first_row = line as usize,
                Err(_) => return Err(args.usage(format!("-S takes a line number or -, not {n:?}"))),
            },
            None => {}
        }
        if let Some(n) = args.long_value("scrollback") {
            scrollback = n
                .parse()
                .map_err(|_| args.usage(format!("--scrollback takes a line count, not {n:?}")))?;
        }
        // tmux's -E: the last line, as -S numbers them; `-` the screen's last row.
        let last_line = match args.value('E') {
            None | Some("-") => None,
            Some(n) => Some(
                n.parse::<i64>()
                    .map_err(|_| args.usage(format!("-E takes a line number or -, not {n:?}")))?,
            ),
        };
        let options = CaptureOptions {
            ansi: args.has('e'),
            json: args.json(),
            scrollback,
            first_row,
            last_line,
            join_wrapped: args.has('J'),
            keep_trailing: args.has('N'),
            escape_controls: args.has('C'),
            svg: args.has_long("svg"),
            alternate: args.has('a'),
        };
        if options.alternate && options.svg {
            return Err(args.usage(
                "-a captures the screen the alternate one covers, as text: it does not go \
                 with --svg",
            ));
        }
        let quiet = args.has('q');
        if options.svg && (options.ansi || options.json || options.scrollback > 0) {
            return Err(args.usage(
                "--svg draws the visible screen: it goes with neither --ansi, --json nor \
                 --scrollback",
            ));
        }
        if options.json && (options.first_row > 0 || options.last_line.is_some()) {
            return Err(args.usage(
                "--json captures the screen and --scrollback lines before it: a start on \
                 the screen (-S 0 or more) or an end (-E) go with text",
            ));
        }
        args.no_arguments()?;
        let printed = args.has('p');
        // With -p it prints, -b or not, as tmux.
        let buffer = args.value('b').filter(|_| !printed).map(str::to_string);
        let text = !(options.json || options.svg);
        if buffer.is_some() && !text {
            return Err(args.usage("-b keeps text: it goes with neither --json nor --svg"));
        }
        if printed || !text {
            return Ok(pane_action(move |pane| async move {
                covered_or_quiet(&pane, &options, quiet)?;
                printed_capture(pane, options).await
            }));
        }
        Ok(pane_server_action(move |pane, ctx| async move {
            covered_or_quiet(&pane, &options, quiet)?;
            to_buffer(pane, ctx, options, buffer).await
        }))
    },
};

/// With `-a`, the pane must be showing its alternate screen, as tmux says, unless `-q`.
fn covered_or_quiet(
    pane: &PaneHandle,
    options: &CaptureOptions,
    quiet: bool,
) -> Result<(), CommandError> {
    let alternate = pane
        .shared
        .alternate_screen
        .load(std::sync::atomic::Ordering::Relaxed);
    if options.alternate && !alternate && !quiet {
        return Err(CommandError::failed(
            "capture-pane -a: the pane is not in its alternate screen, so nothing is covered \
             (-q captures nothing without saying so)",
        ));
    }
    Ok(())
}

/// The capture kept in buffer `name` (else a new automatic buffer) when `name` is given or
/// nobody reads the output; else printed.
async fn to_buffer(
    pane: PaneHandle,
    ctx: ServerContext,
    options: CaptureOptions,
    name: Option<String>,
) -> Result<Output, CommandError> {
    if name.is_none() && !nobody_reads() {
        return printed_capture(pane, options).await;
    }
    let mut state = Box::new(CaptureState::new(options));
    let mut text = String::new();
    loop {
        let (next, piece) = pane
            .capture_piece(state)
            .await
            .ok_or(CommandError::PaneGone)?;
        text.push_str(&piece);
        if text.len() > crate::buffers::MAX_BUFFER_BYTES {
            return Err(CommandError::failed(format!(
                "capture-pane: the capture is larger than a buffer holds ({} MiB); capture \
                 fewer lines with -S",
                crate::buffers::MAX_BUFFER_BYTES >> 20
            )));
        }
        state = next;
        if state.is_done() {
            break;
        }
    }
    // Nothing captured (`-aq` with no alternate screen) makes no buffer, as tmux's.
    if text.is_empty() {
        return Ok(Output::none());
    }
    // tmux's buffer ends each line, the last too.
    if !text.ends_with('\n') {
        text.push('\n');
    }
    let data = bytes::Bytes::from(text);
    let kept = match name {
        Some(name) => ctx.buffers.set(&name, data),
        None => ctx.buffers.add(data, Some(pane.id())).map(|_| ()),
    };
    kept.map_err(|e| CommandError::failed(format!("capture-pane: {e}")))?;
    Ok(Output::none())
}

/// The capture as the command's output: whole when short, else streamed piece by piece.
async fn printed_capture(
    pane: PaneHandle,
    options: CaptureOptions,
) -> Result<Output, CommandError> {
    let state = Box::new(CaptureState::new(options));
    let (state, first) = pane
        .capture_piece(state)
        .await
        .ok_or(CommandError::PaneGone)?;
    let stderr = format!("revision {}", state.revision());
    if state.is_done() {
        return Ok(Output {
            stdout: first,
            stderr,
            ..Output::default()
        });
    }
    // A long capture: the rest follows piece by piece, each taken when the client has
    // room for it.
    let (tx, rx) = tokio::sync::mpsc::channel(crate::outcome::OUTPUT_STREAM_PIECES);
    tokio::spawn(async move {
        let mut state = state;
        let mut piece = first;
        loop {
            if !piece.is_empty() && tx.send(bytes::Bytes::from(piece)).await.is_err() {
                return;
            }
            if state.is_done() {
                return;
            }
            match pane.capture_piece(state).await {
                Some((next, more)) => (state, piece) = (next, more),
                None => return,
            }
        }
    });
    Ok(Output {
        stream: Some(rx),
        stderr,
        ..Output::default()
    })
}
