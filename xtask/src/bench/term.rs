//! The fake user terminal: a pty of a given size with a program (a multiplexer's client, or
//! the workload itself) on the slave side. A thread drains the master as fast as it can,
//! answers terminal queries, keeps the plain text and a screen model to find markers in, and
//! watches the raw bytes for echoed probe characters; the bench thread waits on those with
//! deadlines.

use super::scan::{Scanner, CELL_PIXELS};
use super::Failure;
use portable_pty::{native_pty_system, Child, CommandBuilder, MasterPty, PtySize};
use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// Bytes read from the master at a time.
const READ_BYTES: usize = 1 << 16;
/// Plain text kept for marker searches (the newest part).
const TEXT_KEEP: usize = 1 << 20;

/// What to run on a new terminal.
pub struct Spec<'a> {
    /// Program (absolute path) and arguments.
    pub argv: &'a [String],
    /// The complete environment.
    pub env: &'a [(String, String)],
    /// Working directory.
    pub cwd: &'a Path,
    /// Terminal width.
    pub cols: u16,
    /// Terminal height.
    pub rows: u16,
    /// Text to watch for from the very first byte (see [`Term::wait_watch`]).
    pub watch: Option<&'a str>,
}

/// A marker being looked for in the plain text and on the screen.
#[derive(Debug)]
struct Watch {
    needle: Vec<u8>,
    chars: Vec<char>,
    /// Absolute text offset where the search starts.
    from: u64,
    hit: Option<Instant>,
}

impl Watch {
    fn new(needle: &str, from: u64) -> Watch {
        Watch {
            needle: needle.as_bytes().to_vec(),
            chars: needle.chars().collect(),
            from,
            hit: None,
        }
    }
}

/// A probe being looked for in the raw bytes.
#[derive(Debug)]
struct Probe {
    needle: Vec<u8>,
    carry: Vec<u8>,
    hit: Option<Instant>,
}

#[derive(Debug)]
struct State {
    scanner: Scanner,
    bytes: u64,
    last: Option<Instant>,
    eof: bool,
    /// The newest plain text; `text[0]` is at absolute offset `text_base`.
    text: Vec<u8>,
    text_base: u64,
    watch: Option<Watch>,
    probe: Option<Probe>,
}

impl State {
    fn new(scanner: Scanner, watch: Option<Watch>) -> State {
        State {
            scanner,
            bytes: 0,
            last: None,
            eof: false,
            text: Vec::new(),
            text_base: 0,
            watch,
            probe: None,
        }
    }

    fn text_end(&self) -> u64 {
        self.text_base + self.text.len() as u64
    }

    /// Searches the kept text from absolute offset `from`.
    fn text_has(&self, needle: &[u8], from: u64) -> bool {
        let start = usize::try_from(from.saturating_sub(self.text_base))
            .unwrap_or(usize::MAX)
            .min(self.text.len());
        find(&self.text[start..], needle)
    }

    /// Whether the watch's marker is visible now (on the screen, or in the plain text since
    /// its start).
    fn watch_seen(&self, w: &Watch, text_from: u64) -> bool {
        self.text_has(&w.needle, text_from.max(w.from)) || self.scanner.screen().contains(&w.chars)
    }

    /// Takes one chunk read at `now`, adding replies to queries to `replies`; true when a
    /// waiter should wake.
    fn on_data(&mut self, raw: &[u8], now: Instant, replies: &mut Vec<u8>) -> bool {
        self.bytes += raw.len() as u64;
        self.last = Some(now);
        let mut wake = false;
        if let Some(p) = self.probe.as_mut().filter(|p| p.hit.is_none()) {
            let keep = p.needle.len().saturating_sub(1);
            let edge: Vec<u8> = p
                .carry
                .iter()
                .chain(raw.iter().take(keep))
                .copied()
                .collect();
            if find(&edge, &p.needle) || find(raw, &p.needle) {
                p.hit = Some(now);
                wake = true;
            }
            let tail = raw.len().saturating_sub(keep);
            p.carry.extend_from_slice(&raw[tail..]);
            let extra = p.carry.len().saturating_sub(keep);
            p.carry.drain(..extra);
        }
        let old_end = self.text_end();
        self.scanner.feed(raw, &mut self.text, replies);
        if let Some(w) = self.watch.take() {
            let from = old_end.saturating_sub(w.needle.len() as u64);
            let hit = w.hit.or_else(|| self.watch_seen(&w, from).then_some(now));
            wake |= hit.is_some() && w.hit.is_none();
            self.watch = Some(Watch { hit, ..w });
        }
        if self.text.len() > 2 * TEXT_KEEP {
            let cut = self.text.len() - TEXT_KEEP;
            self.text.drain(..cut);
            self.text_base += cut as u64;
        }
        wake
    }
}

/// Whether `needle` occurs in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> bool {
    let Some((&first, rest)) = needle.split_first() else {
        return true;
    };
    let mut from = 0;
    while let Some(i) = hay[from..].iter().position(|&b| b == first) {
        let at = from + i;
        if hay[at + 1..].starts_with(rest) {
            return true;
        }
        from = at + 1;
    }
    false
}

#[derive(Debug)]
struct Shared {
    state: Mutex<State>,
    wake: Condvar,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

type Writer = Arc<Mutex<Box<dyn Write + Send>>>;

/// A running program on a pty we play the terminal for.
pub struct Term {
    shared: Arc<Shared>,
    writer: Writer,
    child: Box<dyn Child + Send + Sync>,
    _master: Box<dyn MasterPty + Send>,
    pid: u32,
    exited: bool,
}

impl std::fmt::Debug for Term {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Term").field("pid", &self.pid).finish()
    }
}

impl Term {
    /// Opens a pty of the given size and starts the program on it.
    pub fn spawn(spec: &Spec<'_>) -> Result<Term, Failure> {
        let (cw, ch) = CELL_PIXELS;
        let pair = native_pty_system()
            .openpty(PtySize {
                rows: spec.rows,
                cols: spec.cols,
                pixel_width: spec.cols.saturating_mul(cw),
                pixel_height: spec.rows.saturating_mul(ch),
            })
            .map_err(|e| Failure::Failed(format!("cannot open a pty: {e}")))?;
        let mut cmd = CommandBuilder::from_argv(spec.argv.iter().map(Into::into).collect());
        cmd.env_clear();
        for (k, v) in spec.env {
            cmd.env(k, v);
        }
        cmd.cwd(spec.cwd);
        let reader = pair
            .master
            .try_clone_reader()
            .map_err(|e| Failure::Failed(format!("pty reader: {e}")))?;
        let writer: Writer = Arc::new(Mutex::new(
            pair.master
                .take_writer()
                .map_err(|e| Failure::Failed(format!("pty writer: {e}")))?,
        ));
        let scanner = Scanner::new(spec.cols, spec.rows);
        let shared = Arc::new(Shared {
            state: Mutex::new(State::new(scanner, spec.watch.map(|n| Watch::new(n, 0)))),
            wake: Condvar::new(),
        });
        {
            let (shared, writer) = (shared.clone(), writer.clone());
            std::thread::Builder::new()
                .name("bench-drain".into())
                .spawn(move || drain(reader, &shared, &writer))?;
        }
        let child = pair
            .slave
            .spawn_command(cmd)
            .map_err(|e| Failure::Failed(format!("cannot start {}: {e}", spec.argv.join(" "))))?;
        drop(pair.slave);
        let pid = child.process_id().unwrap_or(0);
        Ok(Term {
            shared,
            writer,
            child,
            _master: pair.master,
            pid,
            exited: false,
        })
    }

    /// The program's pid.
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// Resizes the terminal (the program gets SIGWINCH).
    pub fn resize(&self, cols: u16, rows: u16) -> Result<(), Failure> {
        let (cw, ch) = CELL_PIXELS;
        self._master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: cols.saturating_mul(cw),
                pixel_height: rows.saturating_mul(ch),
            })
            .map_err(|e| Failure::Failed(format!("cannot resize the pty: {e}")))
    }

    /// Types `bytes`.
    pub fn write(&self, bytes: &[u8]) -> Result<(), Failure> {
        let mut w = lock(&self.writer);
        w.write_all(bytes)?;
        w.flush()?;
        Ok(())
    }

    /// Bytes the program has written so far.
    pub fn bytes(&self) -> u64 {
        lock(&self.shared.state).bytes
    }

    /// The current end of the plain text: a search `from` here sees only what comes next.
    pub fn mark(&self) -> u64 {
        lock(&self.shared.state).text_end()
    }

    /// The last few hundred characters of plain text, for error messages.
    pub fn tail(&self) -> String {
        let st = lock(&self.shared.state);
        let start = st.text.len().saturating_sub(300);
        String::from_utf8_lossy(&st.text[start..])
            .split('\n')
            .map(str::trim_end)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" | ")
    }

    /// Waits for `needle` in the plain text at or after offset `from`; returns when it was
    /// read (or now, when it was already there).
    pub fn wait_for_text(
        &self,
        needle: &str,
        from: u64,
        timeout: Duration,
    ) -> Result<Instant, Failure> {
        {
            let mut st = lock(&self.shared.state);
            let mut w = Watch::new(needle, from);
            w.hit = st.watch_seen(&w, from).then(Instant::now);
            st.watch = Some(w);
        }
        self.wait_watch(timeout)
    }

    /// Waits for the current watch (from [`Spec::watch`] or [`Term::wait_for_text`]).
    pub fn wait_watch(&self, timeout: Duration) -> Result<Instant, Failure> {
        let deadline = Instant::now() + timeout;
        let mut st = lock(&self.shared.state);
        loop {
            let Some(w) = st.watch.as_ref() else {
                return Err(Failure::Failed("nothing to wait for".into()));
            };
            if let Some(hit) = w.hit {
                st.watch = None;
                return Ok(hit);
            }
            let what = String::from_utf8_lossy(&w.needle).into_owned();
            if st.eof {
                st.watch = None;
                drop(st);
                return Err(Failure::Failed(format!(
                    "the client exited before {what:?} was visible; last text: {}",
                    self.tail()
                )));
            }
            let now = Instant::now();
            if now >= deadline {
                st.watch = None;
                drop(st);
                return Err(Failure::Failed(format!(
                    "{what:?} not visible within {timeout:?}; last text: {}",
                    self.tail()
                )));
            }
            st = self
                .shared
                .wake
                .wait_timeout(st, deadline - now)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// Waits until the program has written nothing for `quiet`; false at the deadline.
    pub fn wait_quiet(&self, quiet: Duration, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut st = lock(&self.shared.state);
        loop {
            let now = Instant::now();
            let silent = st.last.map_or(quiet, |t| now.saturating_duration_since(t));
            if silent >= quiet || st.eof {
                return true;
            }
            if now >= deadline {
                return false;
            }
            let nap = (quiet - silent).min(deadline - now);
            st = self
                .shared
                .wake
                .wait_timeout(st, nap)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// Types `key` and measures until `echo` comes back in the raw output; `None` when it did
    /// not within `timeout`.
    pub fn probe(
        &self,
        key: &[u8],
        echo: &[u8],
        timeout: Duration,
    ) -> Result<Option<Duration>, Failure> {
        lock(&self.shared.state).probe = Some(Probe {
            needle: echo.to_vec(),
            carry: Vec::new(),
            hit: None,
        });
        let t0 = Instant::now();
        self.write(key)?;
        let deadline = t0 + timeout;
        let mut st = lock(&self.shared.state);
        let result = loop {
            if let Some(hit) = st.probe.as_ref().and_then(|p| p.hit) {
                break Some(hit.saturating_duration_since(t0));
            }
            let now = Instant::now();
            if st.eof || now >= deadline {
                break None;
            }
            st = self
                .shared
                .wake
                .wait_timeout(st, deadline - now)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        };
        st.probe = None;
        Ok(result)
    }

    /// Whether the program has exited (reaping it).
    pub fn has_exited(&mut self) -> bool {
        if !self.exited {
            self.exited = !matches!(self.child.try_wait(), Ok(None));
        }
        self.exited
    }

    /// Waits up to `timeout` for the program to exit.
    pub fn wait_exit(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while !self.has_exited() {
            if Instant::now() >= deadline {
                return false;
            }
            // A fixed nap is right here: std has no wait with a timeout for a child
            std::thread::sleep(Duration::from_millis(5)); // deadline-ok
        }
        true
    }
}

impl Drop for Term {
    fn drop(&mut self) {
        if !self.has_exited() {
            super::procs::kill_all(&[self.pid], Duration::from_secs(1));
            self.has_exited();
        }
        // The drain thread ends at end of file; do not wait for it long if something still
        // holds the slave open.
        let deadline = Instant::now() + Duration::from_secs(1);
        let mut st = lock(&self.shared.state);
        while !st.eof && Instant::now() < deadline {
            st = self
                .shared
                .wake
                .wait_timeout(st, deadline.saturating_duration_since(Instant::now()))
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
}

/// The drain thread: reads until end of file, as fast as the program writes.
fn drain(mut reader: Box<dyn Read + Send>, shared: &Shared, writer: &Writer) {
    let mut buf = vec![0u8; READ_BYTES];
    let mut replies = Vec::new();
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let now = Instant::now();
        replies.clear();
        if lock(&shared.state).on_data(&buf[..n], now, &mut replies) {
            shared.wake.notify_all();
        }
        if !replies.is_empty() {
            let mut w = lock(writer);
            let _ = w.write_all(&replies);
            let _ = w.flush();
        }
    }
    lock(&shared.state).eof = true;
    shared.wake.notify_all();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds() {
        assert!(find(b"abcabd", b"abd"));
        assert!(!find(b"abcab", b"abd"));
        assert!(find(b"x", b""));
    }

    #[test]
    fn watch_across_chunks_and_probe_across_chunks() {
        let mut st = State::new(Scanner::new(80, 24), Some(Watch::new("DONE-x", 0)));
        st.probe = Some(Probe {
            needle: "α".as_bytes().to_vec(),
            carry: Vec::new(),
            hit: None,
        });
        let t = Instant::now();
        let mut replies = Vec::new();
        let alpha = "α".as_bytes();
        assert!(!st.on_data(b"\x1b[5;1HDO", t, &mut replies));
        assert!(st.on_data(&[b"NE-x\r\n", &alpha[..1]].concat(), t, &mut replies));
        assert!(st.on_data(&alpha[1..], t, &mut replies));
        assert!(st.watch.as_ref().and_then(|w| w.hit).is_some());
        assert!(st.probe.as_ref().and_then(|p| p.hit).is_some());
    }
}
