//! A bounded recording of a test terminal's traffic, written as asciicast v2 on failure.
//!
//! Everything the program printed and everything the test sent is kept with its time since the
//! start. Memory is bounded: past the limit the oldest events are dropped and the file says how
//! many bytes went (a marker event at time 0).

use std::collections::VecDeque;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use weft_artifacts::asciicast::{push_event, Header, Utf8Carry};

/// Default bound on recorded bytes.
pub(crate) const DEFAULT_LIMIT: usize = 8 << 20;

/// What an event costs beyond its data (entry and allocation), counted against the limit so
/// that many tiny reads stay bounded too.
const ENTRY_COST: usize = 64;

/// What one event was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Program output ("o").
    Output,
    /// Input sent by the test ("i").
    Input,
    /// A resize ("r"), data `COLSxROWS`.
    Resize,
}

#[derive(Debug)]
struct Entry {
    at: Duration,
    kind: Kind,
    data: Vec<u8>,
}

/// The recording of one terminal.
#[derive(Debug)]
pub(crate) struct Recording {
    start: Instant,
    unix_start: u64,
    cols: u16,
    rows: u16,
    entries: VecDeque<Entry>,
    bytes: usize,
    limit: usize,
    dropped_bytes: u64,
    path: Option<PathBuf>,
}

impl Recording {
    pub(crate) fn new(cols: u16, rows: u16, limit: usize) -> Self {
        Recording {
            start: Instant::now(),
            unix_start: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            cols,
            rows,
            entries: VecDeque::new(),
            bytes: 0,
            limit,
            dropped_bytes: 0,
            path: None,
        }
    }

    /// Records an event now, dropping the oldest ones past the limit.
    pub(crate) fn push(&mut self, kind: Kind, data: &[u8]) {
        if self.limit == 0 {
            self.dropped_bytes += data.len() as u64;
            return;
        }
        let room = self.limit.saturating_sub(ENTRY_COST).max(1);
        let data = if data.len() > room {
            self.dropped_bytes += (data.len() - room) as u64;
            &data[data.len() - room..]
        } else {
            data
        };
        self.bytes += data.len() + ENTRY_COST;
        self.entries.push_back(Entry {
            at: self.start.elapsed(),
            kind,
            data: data.to_vec(),
        });
        while self.bytes > self.limit {
            let Some(old) = self.entries.pop_front() else {
                break;
            };
            self.bytes -= old.data.len() + ENTRY_COST;
            self.dropped_bytes += old.data.len() as u64;
        }
    }

    /// Bytes dropped to keep within the limit.
    pub(crate) fn dropped_bytes(&self) -> u64 {
        self.dropped_bytes
    }

    /// The recording as asciicast v2 text.
    pub(crate) fn to_asciicast(&self) -> String {
        let mut out = Header {
            width: self.cols,
            height: self.rows,
            timestamp: Some(self.unix_start),
            title: Some("weft-testkit".into()),
            term: None,
        }
        .to_line();
        if self.dropped_bytes > 0 {
            let note = format!(
                "weft-testkit: {} bytes of the oldest events were dropped to bound memory",
                self.dropped_bytes
            );
            push_event(&mut out, 0.0, "m", &note);
        }
        // Output may split a UTF-8 sequence between reads: carry the unfinished tail.
        let mut carry = Utf8Carry::new();
        for entry in &self.entries {
            let at = entry.at.as_secs_f64();
            match entry.kind {
                Kind::Output => {
                    let text = carry.push(&entry.data);
                    if !text.is_empty() {
                        push_event(&mut out, at, "o", &text);
                    }
                }
                Kind::Input => push_event(&mut out, at, "i", &String::from_utf8_lossy(&entry.data)),
                Kind::Resize => {
                    push_event(&mut out, at, "r", &String::from_utf8_lossy(&entry.data))
                }
            }
        }
        if !carry.is_empty() {
            let at = self.entries.back().map_or(0.0, |e| e.at.as_secs_f64());
            push_event(&mut out, at, "o", &carry.finish());
        }
        out
    }

    /// Writes the recording to its file (chosen on the first write) and returns the path.
    pub(crate) fn save(&mut self) -> Result<PathBuf, String> {
        let path = match &self.path {
            Some(p) => p.clone(),
            None => {
                let p = default_path();
                self.path = Some(p.clone());
                p
            }
        };
        self.save_to(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(path)
    }

    /// Writes the recording to `path`, creating its directory.
    pub(crate) fn save_to(&self, path: &Path) -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let mut file = std::fs::File::create(path)?;
        file.write_all(self.to_asciicast().as_bytes())?;
        file.flush()
    }
}

/// `<target>/weft-testkit/<name>.cast`: the test binary and test name (from its thread) when
/// known, else the pid and a counter.
fn default_path() -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    thread_local! {
        static PER_TEST: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }
    let dir = target_dir().join("weft-testkit");
    let thread = std::thread::current();
    let name = match thread.name().filter(|n| *n != "main") {
        Some(name) => {
            let n = PER_TEST.with(|c| {
                c.set(c.get() + 1);
                c.get()
            });
            let base: String = format!("{}{name}", binary_prefix())
                .replace("::", "__")
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            if n == 1 {
                base
            } else {
                format!("{base}-{n}")
            }
        }
        None => format!(
            "pid{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed) + 1
        ),
    };
    dir.join(format!("{name}.cast"))
}

/// The test binary's name without cargo's hash (`failure-1a2b…` gives `failure::`), so tests
/// of the same name in different binaries do not share a file.
fn binary_prefix() -> String {
    let exe = std::env::current_exe().ok();
    let stem = exe
        .as_deref()
        .and_then(Path::file_stem)
        .and_then(|s| s.to_str())
        .unwrap_or("");
    let name = match stem.rsplit_once('-') {
        Some((name, hash)) if hash.chars().all(|c| c.is_ascii_hexdigit()) => name,
        _ => stem,
    };
    if name.is_empty() {
        String::new()
    } else {
        format!("{name}::")
    }
}

/// Cargo's target directory: `CARGO_TARGET_DIR`, else `target/` beside the nearest
/// `Cargo.lock` above the current directory, else the temp directory.
pub(crate) fn target_dir() -> PathBuf {
    let cwd = std::env::current_dir().ok();
    let root = cwd.as_deref().and_then(|cwd| {
        cwd.ancestors()
            .find(|d| d.join("Cargo.lock").is_file())
            .map(Path::to_path_buf)
    });
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR").filter(|d| !d.is_empty()) {
        let dir = PathBuf::from(dir);
        if dir.is_absolute() {
            return dir;
        }
        if let Some(base) = root.or(cwd) {
            return base.join(dir);
        }
        return dir;
    }
    match root {
        Some(root) => root.join("target"),
        None => std::env::temp_dir(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_and_noted() {
        // Room for the last two events with their entry cost, not for the first.
        let mut rec = Recording::new(10, 2, 7 + 2 * ENTRY_COST);
        rec.push(Kind::Output, b"abcd");
        rec.push(Kind::Input, b"x");
        rec.push(Kind::Output, b"efghij");
        assert_eq!(rec.dropped_bytes(), 4);
        let cast = rec.to_asciicast();
        let lines: Vec<&str> = cast.lines().collect();
        assert!(lines[0].starts_with("{\"version\": 2, \"width\": 10, \"height\": 2"));
        assert!(lines[1].contains("\"m\"") && lines[1].contains("4 bytes"));
        assert!(lines[2].ends_with("\"i\", \"x\"]"));
        assert!(lines[3].ends_with("\"o\", \"efghij\"]"));
    }

    #[test]
    fn split_utf8_is_joined_and_escapes_are_json() {
        let mut rec = Recording::new(10, 2, 1000);
        let e = "é".as_bytes();
        rec.push(Kind::Output, &[b'\x1b', b'[', b'm', e[0]]);
        rec.push(Kind::Output, &[e[1], b'"']);
        let cast = rec.to_asciicast();
        let lines: Vec<&str> = cast.lines().collect();
        assert!(lines[1].ends_with("\"o\", \"\\u001b[m\"]"), "{}", lines[1]);
        assert!(lines[2].ends_with("\"o\", \"é\\\"\"]"), "{}", lines[2]);
    }
}
