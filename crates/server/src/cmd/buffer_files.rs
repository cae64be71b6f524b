//! load-buffer and save-buffer: paste buffers from and to files (or the command line's
//! standard input and output).

use super::buffers::{server, store};
use super::Entry;
use crate::buffers::MAX_BUFFER_BYTES;
use crate::outcome::{CommandError, Output};
use bytes::Bytes;
use std::path::PathBuf;

/// The pieces `save-buffer -` streams a buffer to standard output in.
const SAVE_PIECE_BYTES: usize = 64 * 1024;

/// `load-buffer`.
pub static LOAD_BUFFER: Entry = Entry {
    name: "load-buffer",
    aliases: &["loadb"],
    usage: "[-w] [-b buffer-name] [-t target-client] path",
    about: "Load a file into a buffer (a new automatic buffer without -b); `-` reads standard \
            input (from the command line only); -w also sends it to the attached terminals' \
            clipboards (OSC 52).",
    flags: "wb:t:",
    long: &[],
    read_only: false,
    target: None,
    build: |args| {
        let name = args.value('b').map(str::to_string);
        let clipboard = args.has('w');
        let path = one_path(args)?;
        Ok(server(move |ctx| async move {
            let Some(path) = path else {
                return Err(CommandError::Invalid(
                    "load-buffer -: standard input can be read only from the command line \
                     (weft load-buffer - < FILE); name a file here"
                        .into(),
                ));
            };
            let data = read_file(&full_path(&path)?).await?;
            store(&ctx, name.as_deref(), data, false, clipboard)?;
            Ok(Output::none())
        }))
    },
};

/// Reads at most [`MAX_BUFFER_BYTES`] of `path`.
async fn read_file(path: &std::path::Path) -> Result<Vec<u8>, CommandError> {
    use tokio::io::AsyncReadExt;
    let shown = path.display();
    let file = tokio::fs::File::open(path)
        .await
        .map_err(|e| CommandError::failed(format!("load-buffer: cannot open {shown}: {e}")))?;
    let mut data = Vec::new();
    file.take(MAX_BUFFER_BYTES as u64 + 1)
        .read_to_end(&mut data)
        .await
        .map_err(|e| CommandError::failed(format!("load-buffer: cannot read {shown}: {e}")))?;
    if data.len() > MAX_BUFFER_BYTES {
        return Err(CommandError::failed(format!(
            "load-buffer: {shown} is larger than {} MiB, the most a buffer holds",
            MAX_BUFFER_BYTES >> 20
        )));
    }
    Ok(data)
}

/// `save-buffer`.
pub static SAVE_BUFFER: Entry = Entry {
    name: "save-buffer",
    aliases: &["saveb"],
    usage: "[-a] [-b buffer-name] path",
    about: "Write a buffer (the newest without -b) to a file, or append to it (-a); `-` writes \
            it to standard output.",
    flags: "ab:",
    long: &[],
    read_only: true,
    target: None,
    build: |args| {
        let name = args.value('b').map(str::to_string);
        let append = args.has('a');
        let path = one_path(args)?;
        Ok(server(move |ctx| async move {
            let buffer = ctx.buffers.get(name.as_deref())?;
            let Some(path) = path else {
                return Ok(stream_out(buffer.data));
            };
            write_file(&full_path(&path)?, &buffer.data, append).await?;
            Ok(Output::none())
        }))
    },
};

/// Output that is `data` as it is, streamed in pieces (no newline added, nothing escaped).
fn stream_out(data: Bytes) -> Output {
    let (tx, rx) = tokio::sync::mpsc::channel(crate::outcome::OUTPUT_STREAM_PIECES);
    tokio::spawn(async move {
        let mut at = 0;
        while at < data.len() {
            let end = (at + SAVE_PIECE_BYTES).min(data.len());
            if tx.send(data.slice(at..end)).await.is_err() {
                return;
            }
            at = end;
        }
    });
    Output {
        stream: Some(rx),
        ..Output::default()
    }
}

async fn write_file(path: &std::path::Path, data: &[u8], append: bool) -> Result<(), CommandError> {
    use tokio::io::AsyncWriteExt;
    let shown = path.display();
    let mut file = tokio::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .append(append)
        .truncate(!append)
        .open(path)
        .await
        .map_err(|e| CommandError::failed(format!("save-buffer: cannot open {shown}: {e}")))?;
    file.write_all(data)
        .await
        .map_err(|e| CommandError::failed(format!("save-buffer: cannot write {shown}: {e}")))?;
    file.flush()
        .await
        .map_err(|e| CommandError::failed(format!("save-buffer: cannot write {shown}: {e}")))
}

/// The one path argument of load-buffer and save-buffer: `None` for `-`.
fn one_path(args: &super::Args) -> Result<Option<String>, CommandError> {
    let path = match args.positional.as_slice() {
        [path] => path.as_str(),
        [] => return Err(args.usage("a path is needed (- for standard input or output)")),
        [_, extra, ..] => return Err(args.usage(format!("unexpected argument {extra:?}"))),
    };
    Ok(Some(path.to_string()).filter(|p| p != "-"))
}

/// `path` as the server opens it: `~/` is the home directory; other relative paths are refused
/// (the command line makes them absolute before they reach the server, which runs elsewhere).
pub(super) fn full_path(path: &str) -> Result<PathBuf, CommandError> {
    let full = match path.strip_prefix("~/") {
        Some(rest) => match std::env::var_os("HOME") {
            Some(home) => PathBuf::from(home).join(rest),
            None => {
                return Err(CommandError::Invalid(
                    "~ cannot be expanded: HOME is not set; give a full path".into(),
                ))
            }
        },
        None => PathBuf::from(path),
    };
    if full.is_relative() {
        return Err(CommandError::Invalid(format!(
            "{path} is relative; give a full path (or ~/...)"
        )));
    }
    Ok(full)
}
