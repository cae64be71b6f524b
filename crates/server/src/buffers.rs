//! Paste buffers, server-wide, as tmux keeps them: a stack of automatic buffers (`buffer0`,
//! `buffer1`, ..., newest first, the oldest dropped beyond `buffer-limit`) and buffers the user
//! named (never dropped automatically). Also what makes pasting safe (the filter that keeps a
//! pasted text from carrying escape sequences into a program) and the feed that carries OSC 52
//! clipboard writes to every attached client's terminal.

use crate::ids::PaneId;
use bytes::Bytes;
use std::sync::{Mutex, MutexGuard};
use tokio::sync::broadcast;

/// The largest buffer kept: 16 MiB. A paste buffer is text a user copies or a program hands
/// over; more than this is a mistake (a binary piped to `load-buffer`), and every buffer lives
/// in the server's memory until it is deleted.
pub const MAX_BUFFER_BYTES: usize = 16 << 20;

/// Automatic buffers kept unless `buffer-limit` says otherwise (tmux's default).
pub const DEFAULT_BUFFER_LIMIT: usize = 50;

/// The most text sent to the clients' clipboards in one OSC 52 write: 1 MiB. Terminals cap
/// what they accept (xterm, kitty and foot at about this), and each attached client's
/// terminal receives the whole encoded write.
pub const MAX_CLIPBOARD_TEXT_BYTES: usize = 1 << 20;

/// Clipboard writes waiting for each attached client: a few. Only the newest matters (a
/// clipboard holds one text), so a client that falls behind skips the older ones, and the
/// server holds at most this many writes of at most [`MAX_CLIPBOARD_TEXT_BYTES`] each.
pub const CLIPBOARD_FEED_CAPACITY: usize = 4;

/// One paste buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buffer {
    /// `bufferN` for an automatic buffer, else the user's name.
    pub name: String,
    /// The text (any bytes).
    pub data: Bytes,
    /// Named automatically (and dropped beyond the limit).
    pub automatic: bool,
    /// Creation order, increasing: a later buffer has a larger number.
    pub order: u64,
    /// When it was created or last set, seconds since the epoch.
    pub created: u64,
    /// The pane whose program wrote it (OSC 52), if one did.
    pub pane: Option<PaneId>,
}

/// Why a buffer operation did nothing; each is a sentence for the user.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BufferError {
    /// No buffer has this name (or there are none).
    #[error("{}", match .0 { Some(n) => format!("no buffer {n}"), None => "no buffers".to_string() })]
    NotFound(Option<String>),
    /// The buffer would be larger than [`MAX_BUFFER_BYTES`].
    #[error("the buffer would be larger than {} MiB; paste less at a time", MAX_BUFFER_BYTES >> 20)]
    TooLarge,
    /// A rename to a name already taken, or an empty name.
    #[error("{0}")]
    BadName(String),
}

#[derive(Debug, Default)]
struct Inner {
    /// Newest first.
    list: Vec<Buffer>,
    /// The number the next automatic buffer's name takes.
    next_index: u64,
    /// The next creation order.
    next_order: u64,
    /// Automatic buffers kept.
    limit: usize,
}

/// The server's paste buffers, shared by commands, sessions and clients.
#[derive(Debug)]
pub struct Buffers {
    inner: Mutex<Inner>,
    clipboard: broadcast::Sender<Bytes>,
}

impl Default for Buffers {
    fn default() -> Self {
        Buffers::new(DEFAULT_BUFFER_LIMIT)
    }
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl Buffers {
    /// No buffers; at most `limit` automatic ones kept.
    pub fn new(limit: usize) -> Self {
        let (clipboard, _) = broadcast::channel(CLIPBOARD_FEED_CAPACITY);
        Buffers {
            inner: Mutex::new(Inner {
                limit,
                ..Inner::default()
            }),
            clipboard,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves a consistent list (every change is one step).
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Keeps at most `limit` automatic buffers from now on (`buffer-limit`); drops the oldest
    /// beyond it now.
    pub fn set_limit(&self, limit: usize) {
        let mut inner = self.lock();
        inner.limit = limit;
        inner.trim();
    }

    /// Adds a new automatic buffer (`bufferN`) on top; returns its name. `pane`: the pane
    /// whose program wrote it.
    pub fn add(&self, data: Bytes, pane: Option<PaneId>) -> Result<String, BufferError> {
        if data.len() > MAX_BUFFER_BYTES {
            return Err(BufferError::TooLarge);
        }
        let mut inner = self.lock();
        let name = loop {
            let name = format!("buffer{}", inner.next_index);
            inner.next_index += 1;
            if !inner.list.iter().any(|b| b.name == name) {
                break name;
            }
        };
        inner.push(name.clone(), data, true, pane);
        inner.trim();
        Ok(name)
    }

    /// Sets buffer `name` to `data` (a named buffer, created or replaced; it moves to the top).
    pub fn set(&self, name: &str, data: Bytes) -> Result<(), BufferError> {
        if name.is_empty() {
            return Err(BufferError::BadName(
                "a buffer name may not be empty".into(),
            ));
        }
        if data.len() > MAX_BUFFER_BYTES {
            return Err(BufferError::TooLarge);
        }
        let mut inner = self.lock();
        inner.list.retain(|b| b.name != name);
        inner.push(name.to_string(), data, false, None);
        Ok(())
    }

    /// Replaces buffer `name`'s text with `data` where it is (automatic or named, in its place
    /// in the list), as tmux's `paste_replace`, only while its text is still `before`: false
    /// when it is gone or was changed meanwhile.
    pub fn replace_if_unchanged(
        &self,
        name: &str,
        before: &[u8],
        data: Bytes,
    ) -> Result<bool, BufferError> {
        if data.len() > MAX_BUFFER_BYTES {
            return Err(BufferError::TooLarge);
        }
        let mut inner = self.lock();
        match inner
            .list
            .iter_mut()
            .find(|b| b.name == name && b.data == before)
        {
            Some(buffer) => {
                buffer.data = data;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Appends `data` to buffer `name`, or to the newest buffer; a new buffer (named `name`, or
    /// automatic) when there is none. Returns the buffer's name.
    pub fn append(&self, name: Option<&str>, data: &[u8]) -> Result<String, BufferError> {
        let mut inner = self.lock();
        let found = match name {
            Some(n) => inner.list.iter_mut().find(|b| b.name == n),
            None => inner.list.first_mut(),
        };
        match found {
            Some(buffer) => {
                if buffer.data.len() + data.len() > MAX_BUFFER_BYTES {
                    return Err(BufferError::TooLarge);
                }
                let mut joined = Vec::with_capacity(buffer.data.len() + data.len());
                joined.extend_from_slice(&buffer.data);
                joined.extend_from_slice(data);
                buffer.data = Bytes::from(joined);
                Ok(buffer.name.clone())
            }
            None => {
                drop(inner);
                match name {
                    Some(n) => self.set(n, Bytes::copy_from_slice(data)).map(|()| n.into()),
                    None => self.add(Bytes::copy_from_slice(data), None),
                }
            }
        }
    }

    /// Renames buffer `from` (or the newest) to `to`; the buffer becomes a named one.
    pub fn rename(&self, from: Option<&str>, to: &str) -> Result<(), BufferError> {
        if to.is_empty() {
            return Err(BufferError::BadName(
                "a buffer name may not be empty".into(),
            ));
        }
        let mut inner = self.lock();
        let index = inner.find(from)?;
        if inner.list[index].name == to {
            return Ok(());
        }
        if inner.list.iter().any(|b| b.name == to) {
            return Err(BufferError::BadName(format!(
                "a buffer called {to} exists already; delete it first or choose another name"
            )));
        }
        let buffer = &mut inner.list[index];
        buffer.name = to.to_string();
        buffer.automatic = false;
        Ok(())
    }

    /// Buffer `name`, or the newest.
    pub fn get(&self, name: Option<&str>) -> Result<Buffer, BufferError> {
        let inner = self.lock();
        let index = inner.find(name)?;
        Ok(inner.list[index].clone())
    }

    /// Deletes buffer `name`, or the newest; returns it.
    pub fn delete(&self, name: Option<&str>) -> Result<Buffer, BufferError> {
        let mut inner = self.lock();
        let index = inner.find(name)?;
        Ok(inner.list.remove(index))
    }

    /// Every buffer, newest first.
    pub fn list(&self) -> Vec<Buffer> {
        self.lock().list.clone()
    }

    /// The newest buffer pane `pane`'s own program wrote (for its OSC 52 reads).
    pub fn newest_from(&self, pane: PaneId) -> Option<Buffer> {
        self.lock()
            .list
            .iter()
            .find(|b| b.pane == Some(pane))
            .cloned()
    }

    /// Sends `text` to every attached client's clipboard as OSC 52 (its terminal decides
    /// what to do with it). False when it is larger than [`MAX_CLIPBOARD_TEXT_BYTES`] and was
    /// not sent.
    pub fn to_clients(&self, text: &[u8]) -> bool {
        if text.len() > MAX_CLIPBOARD_TEXT_BYTES {
            tracing::info!(
                bytes = text.len(),
                "a copy too large for the terminals' clipboards"
            );
            return false;
        }
        // No client attached is not an error.
        let _ = self.clipboard.send(Bytes::from(osc52(text, "\x07")));
        true
    }

    /// The clipboard writes for one attached client's terminal, from now on.
    pub fn clipboard_feed(&self) -> broadcast::Receiver<Bytes> {
        self.clipboard.subscribe()
    }
}

impl Inner {
    fn push(&mut self, name: String, data: Bytes, automatic: bool, pane: Option<PaneId>) {
        let order = self.next_order;
        self.next_order += 1;
        self.list.insert(
            0,
            Buffer {
                name,
                data,
                automatic,
                order,
                created: now_secs(),
                pane,
            },
        );
    }

    /// Drops the oldest automatic buffers beyond the limit.
    fn trim(&mut self) {
        let mut automatic = self.list.iter().filter(|b| b.automatic).count();
        while automatic > self.limit {
            match self.list.iter().rposition(|b| b.automatic) {
                Some(i) => {
                    self.list.remove(i);
                    automatic -= 1;
                }
                None => break,
            }
        }
    }

    fn find(&self, name: Option<&str>) -> Result<usize, BufferError> {
        match name {
            Some(n) => self
                .list
                .iter()
                .position(|b| b.name == n)
                .ok_or_else(|| BufferError::NotFound(Some(n.to_string()))),
            None if self.list.is_empty() => Err(BufferError::NotFound(None)),
            None => Ok(0),
        }
    }
}

/// `ESC ] 52 ; c ; BASE64` and `end` (BEL, or `ESC \`): a clipboard write or an answer to a
/// program's read.
pub fn osc52(text: &[u8], end: &str) -> Vec<u8> {
    use base64::Engine;
    let mut out = b"\x1b]52;c;".to_vec();
    out.extend_from_slice(
        base64::engine::general_purpose::STANDARD
            .encode(text)
            .as_bytes(),
    );
    out.extend_from_slice(end.as_bytes());
    out
}

/// What a paste sends a program: `text` with every ESC and every C0 and C1 control removed
/// except TAB, LF and CR (so no pasted text can end a bracketed paste early or carry an
/// escape sequence), line feeds replaced by `separator` unless `keep_lf`, and the bracketed
/// paste markers around it when `bracketed`.
pub fn paste_bytes(text: &[u8], keep_lf: bool, separator: &[u8], bracketed: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + 12);
    if bracketed {
        out.extend_from_slice(b"\x1b[200~");
    }
    let mut i = 0;
    while i < text.len() {
        let b = text[i];
        // C1 controls as UTF-8: U+0080..U+009F are C2 80..C2 9F.
        if b == 0xc2 && text.get(i + 1).is_some_and(|n| (0x80..=0x9f).contains(n)) {
            i += 2;
            continue;
        }
        match b {
            b'\n' if keep_lf => out.push(b'\n'),
            b'\n' => out.extend_from_slice(separator),
            b'\t' | b'\r' => out.push(b),
            // C0 controls (ESC among them) and DEL.
            0x00..=0x1f | 0x7f => {}
            _ => out.push(b),
        }
        i += 1;
    }
    if bracketed {
        out.extend_from_slice(b"\x1b[201~");
    }
    out
}

/// The text of a buffer as a user reads it in a list: its first line, controls shown as `^X`
/// or `\ooo`, cut to `width` characters.
pub fn preview(data: &[u8], width: usize) -> String {
    let line = data.split(|&b| b == b'\n').next().unwrap_or_default();
    let text = String::from_utf8_lossy(line);
    let mut out = String::new();
    for c in text.chars() {
        if out.chars().count() >= width {
            break;
        }
        match c {
            '\x00'..='\x1f' => {
                out.push('^');
                out.push(char::from(c as u8 + b'@'));
            }
            '\x7f' => out.push_str("^?"),
            '\u{80}'..='\u{9f}' => out.push_str(&format!("\\{:03o}", c as u32)),
            // Bidirectional overrides would reorder the list's columns.
            c if crate::names::is_forbidden(c) => out.push('?'),
            c => out.push(c),
        }
    }
    out.chars().take(width).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(s: &str) -> Bytes {
        Bytes::copy_from_slice(s.as_bytes())
    }

    #[test]
    fn automatic_buffers_are_numbered_newest_first_and_limited() {
        let buffers = Buffers::new(2);
        assert_eq!(buffers.add(b("a"), None).unwrap(), "buffer0");
        buffers.set("keep", b("k")).unwrap();
        assert_eq!(buffers.add(b("b"), None).unwrap(), "buffer1");
        assert_eq!(buffers.add(b("c"), None).unwrap(), "buffer2");
        let names: Vec<_> = buffers.list().into_iter().map(|b| b.name).collect();
        assert_eq!(
            names,
            ["buffer2", "buffer1", "keep"],
            "the oldest automatic went"
        );
        assert_eq!(buffers.get(None).unwrap().data, b("c"));
        buffers.set_limit(0);
        let names: Vec<_> = buffers.list().into_iter().map(|b| b.name).collect();
        assert_eq!(names, ["keep"], "named buffers are never dropped");
    }

    #[test]
    fn set_append_rename_delete() {
        let buffers = Buffers::default();
        assert_eq!(buffers.get(None), Err(BufferError::NotFound(None)));
        assert_eq!(buffers.append(None, b"x").unwrap(), "buffer0");
        assert_eq!(buffers.append(None, b"y").unwrap(), "buffer0");
        assert_eq!(buffers.get(Some("buffer0")).unwrap().data, b("xy"));
        buffers.set("n", b("1")).unwrap();
        assert_eq!(buffers.append(Some("n"), b"2").unwrap(), "n");
        assert_eq!(buffers.get(None).unwrap().data, b("12"));
        assert!(matches!(
            buffers.rename(Some("n"), "buffer0"),
            Err(BufferError::BadName(_))
        ));
        buffers.rename(Some("buffer0"), "mine").unwrap();
        assert!(!buffers.get(Some("mine")).unwrap().automatic);
        assert_eq!(buffers.delete(None).unwrap().name, "n");
        assert_eq!(
            buffers.delete(Some("n")),
            Err(BufferError::NotFound(Some("n".into())))
        );
        assert_eq!(buffers.list().len(), 1);
    }

    #[test]
    fn sizes_are_capped() {
        let buffers = Buffers::default();
        let big = Bytes::from(vec![b'a'; MAX_BUFFER_BYTES]);
        buffers.add(big, None).unwrap();
        assert_eq!(buffers.append(None, b"x"), Err(BufferError::TooLarge));
        let bigger = Bytes::from(vec![b'a'; MAX_BUFFER_BYTES + 1]);
        assert_eq!(buffers.add(bigger, None), Err(BufferError::TooLarge));
    }

    #[test]
    fn a_pane_reads_back_only_what_it_wrote() {
        let buffers = Buffers::default();
        let (p1, p2) = (PaneId::parse("%1").unwrap(), PaneId::parse("%2").unwrap());
        buffers.add(b("one"), Some(p1)).unwrap();
        buffers.add(b("two"), Some(p2)).unwrap();
        buffers.add(b("user"), None).unwrap();
        assert_eq!(buffers.newest_from(p1).unwrap().data, b("one"));
        assert_eq!(buffers.newest_from(p2).unwrap().data, b("two"));
        assert!(buffers.newest_from(PaneId::parse("%3").unwrap()).is_none());
    }

    #[test]
    fn the_paste_filter_removes_every_control_but_tab_lf_cr() {
        let planted = b"x\x1b[201~\x15touch FILE\r";
        assert_eq!(
            paste_bytes(planted, true, b"\r", true),
            b"\x1b[200~x[201~touch FILE\r\x1b[201~"
        );
        // C1 controls as UTF-8 (CSI is U+009B), DEL and NUL go; other UTF-8 stays.
        let text = "a\u{9b}201~b\u{7f}\0c\u{e9}\u{a0}\td".as_bytes();
        assert_eq!(
            paste_bytes(text, false, b"\r", false),
            "a201~bc\u{e9}\u{a0}\td".as_bytes()
        );
        assert_eq!(paste_bytes(b"1\n2\n", false, b"\r", false), b"1\r2\r");
        assert_eq!(paste_bytes(b"1\n2", true, b"\r", false), b"1\n2");
        assert_eq!(paste_bytes(b"1\n2", false, b"; ", false), b"1; 2");
        // Every byte sequence: no ESC and no C1 survives, whatever the cut.
        let all: Vec<u8> = (0..=255u8).chain([0xc2, 0x9b, 0xc2]).collect();
        let out = paste_bytes(&all, true, b"\r", false);
        assert!(!out.contains(&0x1b));
        assert!(!out
            .windows(2)
            .any(|w| w[0] == 0xc2 && (0x80..=0x9f).contains(&w[1])));
    }

    #[test]
    fn osc52_and_previews() {
        assert_eq!(osc52(b"hello", "\x07"), b"\x1b]52;c;aGVsbG8=\x07");
        assert_eq!(preview(b"a\x1bb\tc\nsecond", 80), "a^[b^Ic");
        assert_eq!(preview("\u{9b}x".as_bytes(), 80), "\\233x");
        assert_eq!(preview(b"abcdef", 3), "abc");
    }

    #[test]
    fn clipboard_writes_reach_subscribers_and_big_ones_do_not() {
        let buffers = Buffers::default();
        let mut feed = buffers.clipboard_feed();
        assert!(buffers.to_clients(b"hi"));
        assert_eq!(
            feed.try_recv().unwrap(),
            Bytes::from_static(b"\x1b]52;c;aGk=\x07")
        );
        assert!(!buffers.to_clients(&vec![b'a'; MAX_CLIPBOARD_TEXT_BYTES + 1]));
        assert!(feed.try_recv().is_err());
    }
}
