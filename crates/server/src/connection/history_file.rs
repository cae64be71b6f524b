//! `history-file`: the prompt's history kept in a file across servers, as tmux keeps it: read
//! when a prompt opens with the history still empty, each line entered appended at once (so a
//! server that dies keeps what was typed before).

use std::io::{Read, Seek, SeekFrom, Write};

/// The most of the file's end read: a history file that grew large (or a wrong path to a big
/// file) costs a prompt no more than this.
const MAX_READ_BYTES: u64 = 1 << 20;
/// The longest line kept from the file.
const MAX_LINE_BYTES: usize = 4096;

/// The file `history-file` names, `~/` standing for `$HOME`; none when it is not set.
pub(super) fn path_of(option: Option<String>) -> Option<std::path::PathBuf> {
    let value = option.filter(|v| !v.is_empty())?;
    Some(match value.strip_prefix("~/") {
        Some(rest) => std::path::Path::new(&std::env::var("HOME").ok()?).join(rest),
        None => value.into(),
    })
}

/// The last `keep` lines of the file at `path`, oldest first; none when it cannot be read.
pub(super) fn load(path: &std::path::Path, keep: usize) -> Vec<String> {
    let mut text = Vec::new();
    let read = std::fs::File::open(path).and_then(|mut file| {
        let len = file.metadata()?.len();
        file.seek(SeekFrom::Start(len.saturating_sub(MAX_READ_BYTES)))?;
        file.read_to_end(&mut text)
    });
    if let Err(e) = read {
        if e.kind() != std::io::ErrorKind::NotFound {
            tracing::info!(path = %path.display(), "history-file not read: {e}");
        }
        return Vec::new();
    }
    let text = String::from_utf8_lossy(&text);
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && l.len() <= MAX_LINE_BYTES)
        .collect();
    lines[lines.len().saturating_sub(keep)..]
        .iter()
        .map(|l| l.to_string())
        .collect()
}

/// Appends `line` to the file at `path`; a failure (a full disk, no such directory) loses the
/// line from the file, not from the prompt, and is logged.
pub(super) fn append(path: &std::path::Path, line: &str) {
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut file| writeln!(file, "{}", line.replace('\n', " ")));
    if let Err(e) = written {
        tracing::info!(path = %path.display(), "history-file not written: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_entered_come_back_in_order_the_newest_kept() {
        let dir = std::env::temp_dir().join(format!("weft-history-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("history");
        let _ = std::fs::remove_file(&path);
        assert!(load(&path, 10).is_empty(), "no file yet");
        for line in ["new-window", "split-window -h", "kill-pane"] {
            append(&path, line);
        }
        assert_eq!(load(&path, 2), ["split-window -h", "kill-pane"]);
        assert_eq!(load(&path, 10).len(), 3);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
