//! Deterministic payloads, generated once into a cache directory: the log file for `cat`,
//! 80-column lines for the scrollback measurement, and streams modelled on alacritty's
//! vtebench. A seeded xorshift makes the same bytes on every machine.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Bumped whenever a generator changes, so stale cached files are not reused.
const VERSION: u32 = 1;

/// xorshift64*: small, fast and the same everywhere.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed` (any value, zero included).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// Fisher-Yates.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// The vtebench-like streams.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VtKind {
    /// Every cell its own 256-colour foreground and background, bold, italic, underline.
    DenseCells,
    /// A cursor position before every character, cells visited in random order.
    CursorMotion,
    /// Full screens of one plain character.
    LightCells,
    /// Full-width lines scrolled inside a scroll region (the bottom half).
    ScrollRegion,
    /// CJK, emoji, combining marks and box drawing, scrolling.
    Unicode,
}

impl VtKind {
    /// All five, in table order.
    pub const ALL: [VtKind; 5] = [
        VtKind::DenseCells,
        VtKind::CursorMotion,
        VtKind::LightCells,
        VtKind::ScrollRegion,
        VtKind::Unicode,
    ];

    /// The workload name.
    pub fn name(self) -> &'static str {
        match self {
            VtKind::DenseCells => "dense_cells",
            VtKind::CursorMotion => "cursor_motion",
            VtKind::LightCells => "light_cells",
            VtKind::ScrollRegion => "scroll_region",
            VtKind::Unicode => "unicode",
        }
    }

    /// What the stream does, for table titles.
    pub fn describe(self) -> &'static str {
        match self {
            VtKind::DenseCells => "every cell its own SGR colour and attributes",
            VtKind::CursorMotion => "a cursor move before every character",
            VtKind::LightCells => "full screens of one plain character",
            VtKind::ScrollRegion => "lines scrolled inside a scroll region",
            VtKind::Unicode => "CJK, emoji, combining marks, box drawing",
        }
    }
}

/// Where cached payloads live and how to make them.
pub struct DataDir {
    dir: PathBuf,
}

impl DataDir {
    /// Uses (and creates) `dir`.
    pub fn new(dir: PathBuf) -> std::io::Result<DataDir> {
        std::fs::create_dir_all(&dir)?;
        Ok(DataDir { dir })
    }

    /// The `cat` log file of `lines` lines.
    pub fn log(&self, lines: usize) -> std::io::Result<PathBuf> {
        self.cached(&format!("log-{lines}-v{VERSION}.txt"), |w| {
            write_log(w, lines)
        })
    }

    /// `lines` lines of exactly 80 plain ASCII columns.
    pub fn lines80(&self, lines: usize) -> std::io::Result<PathBuf> {
        self.cached(&format!("lines80-{lines}-v{VERSION}.txt"), |w| {
            write_lines80(w, lines)
        })
    }

    /// `lines` lines of 80 columns with the copy-mode search target ([`SEARCH_TARGET`]) on
    /// line [`SEARCH_TARGET_LINE`], followed on that line by [`SEARCH_SHOWN`].
    pub fn search_log(&self, lines: usize) -> std::io::Result<PathBuf> {
        self.cached(&format!("search-{lines}-v{VERSION}.txt"), |w| {
            write_search_log(w, lines)
        })
    }

    /// A vtebench-like stream of about `bytes` bytes for a `cols` x `rows` screen.
    pub fn vt(&self, kind: VtKind, cols: u16, rows: u16, bytes: usize) -> std::io::Result<PathBuf> {
        let name = format!("{}-{cols}x{rows}-{bytes}-v{VERSION}.bin", kind.name());
        self.cached(&name, |w| {
            write_vt(w, kind, cols.into(), rows.into(), bytes)
        })
    }

    /// Returns `name` in the cache, generating it first (atomically) when missing.
    fn cached(
        &self,
        name: &str,
        generate: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
    ) -> std::io::Result<PathBuf> {
        let path = self.dir.join(name);
        if path.exists() {
            return Ok(path);
        }
        let tmp = self.dir.join(format!("{name}.tmp{}", std::process::id()));
        let mut w = BufWriter::with_capacity(1 << 20, File::create(&tmp)?);
        generate(&mut w)?;
        w.flush()?;
        drop(w);
        std::fs::rename(&tmp, &path)?;
        Ok(path)
    }
}

/// The size of a file, 0 when unreadable.
pub fn file_size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

const LOG_MODULES: &[&str] = &[
    "http::server",
    "db::pool",
    "auth::session",
    "cache::lru",
    "worker::queue",
    "net::tcp",
    "scheduler",
    "storage::blob",
    "api::v2::users",
    "metrics::export",
    "grpc::client",
    "fs::watcher",
];
const LOG_MSGS: &[&str] = &[
    "request completed",
    "connection established",
    "cache miss for key",
    "retrying operation",
    "slow query detected",
    "user logged in",
    "job enqueued",
    "flushing write buffers",
    "timeout waiting for lock",
    "configuration reloaded",
    "upstream responded",
    "compaction finished",
    "health check ok",
    "rate limit exceeded",
    "span exported",
];
const LOG_PATHS: &[&str] = &[
    "/api/v2/users",
    "/api/v2/orders",
    "/healthz",
    "/static/app.js",
    "/api/v2/search",
    "/login",
    "/metrics",
    "/api/v2/items/42",
];

/// One application-log line (no newline): about 100 bytes; a third carry SGR colour when
/// `colour` is set.
fn log_line(i: u64, rng: &mut Rng, colour: bool, out: &mut Vec<u8>) {
    let t = i * 37;
    let _ = write!(
        out,
        "2024-05-{:02}T{:02}:{:02}:{:02}.{:03}Z ",
        1 + (t / 86_400_000) % 28,
        (t / 3_600_000) % 24,
        (t / 60_000) % 60,
        (t / 1000) % 60,
        t % 1000
    );
    let r = rng.unit();
    let green = rng.unit() < 0.25;
    let (level, sgr) = if r < 0.70 {
        ("INFO ", green.then_some("\x1b[32m"))
    } else if r < 0.85 {
        ("DEBUG", green.then_some("\x1b[36m"))
    } else if r < 0.96 {
        ("WARN ", Some("\x1b[33m"))
    } else {
        ("ERROR", Some("\x1b[1;31m"))
    };
    match sgr.filter(|_| colour) {
        Some(sgr) => {
            let _ = write!(out, "{sgr}{level}\x1b[0m");
        }
        None => out.extend_from_slice(level.as_bytes()),
    }
    let module = rng.pick(LOG_MODULES);
    let msg = rng.pick(LOG_MSGS);
    let id = rng.next_u64() as u32;
    let dur = 1 + rng.below(4000);
    let _ = write!(out, " [{module}] {msg} id={id:08x} dur={dur}ms");
    if rng.unit() < 0.5 {
        let _ = write!(out, " path={}", rng.pick(LOG_PATHS));
    }
    let extra = rng.below(25);
    if extra > 12 {
        let digits = extra - 12;
        let user = rng.below(10usize.pow(digits as u32));
        let _ = write!(out, " user=u{user:0digits$}");
    }
}

fn write_log(w: &mut dyn Write, lines: usize) -> std::io::Result<()> {
    let mut rng = Rng::new(7);
    let mut buf = Vec::with_capacity(1 << 20);
    for i in 0..lines as u64 {
        log_line(i, &mut rng, true, &mut buf);
        buf.push(b'\n');
        if buf.len() >= 1 << 20 {
            w.write_all(&buf)?;
            buf.clear();
        }
    }
    w.write_all(&buf)
}

fn write_lines80(w: &mut dyn Write, lines: usize) -> std::io::Result<()> {
    write_log80(w, lines, 8, None)
}

/// `lines` log lines padded to 80 columns from the generator seeded `seed`, with `marked`'s
/// text put at the start of its line.
fn write_log80(
    w: &mut dyn Write,
    lines: usize,
    seed: u64,
    marked: Option<(usize, &str)>,
) -> std::io::Result<()> {
    let mut rng = Rng::new(seed);
    let mut buf = Vec::with_capacity(1 << 20);
    let mut line = Vec::with_capacity(160);
    for i in 0..lines as u64 {
        line.clear();
        if let Some((_, text)) = marked.filter(|(at, _)| *at as u64 == i) {
            line.extend_from_slice(text.as_bytes());
        }
        log_line(i, &mut rng, false, &mut line);
        line.resize(80, b'.');
        buf.extend_from_slice(&line);
        buf.push(b'\n');
        if buf.len() >= 1 << 20 {
            w.write_all(&buf)?;
            buf.clear();
        }
    }
    w.write_all(&buf)
}

/// The string the copy-mode search looks for: once in the search log.
pub const SEARCH_TARGET: &str = "qzxjwv-target";
/// What follows the target on its line: seen on the terminal only once the match is shown.
pub const SEARCH_SHOWN: &str = "kpwqzy-shown";
/// The target's line: near the top of the history.
pub const SEARCH_TARGET_LINE: usize = 100;

fn write_search_log(w: &mut dyn Write, lines: usize) -> std::io::Result<()> {
    let marker = format!("{SEARCH_TARGET} {SEARCH_SHOWN} ");
    write_log80(w, lines, 9, Some((SEARCH_TARGET_LINE, &marker)))
}

/// Writes `header`, then `period` repeated to bring the total near `target`, then `footer`.
fn repeat_to(
    w: &mut dyn Write,
    header: &[u8],
    period: &[u8],
    footer: &[u8],
    target: usize,
) -> std::io::Result<()> {
    let body = target.saturating_sub(header.len() + footer.len());
    let n = ((body as f64 / period.len().max(1) as f64).round() as usize).max(1);
    w.write_all(header)?;
    for _ in 0..n {
        w.write_all(period)?;
    }
    w.write_all(footer)
}

fn write_vt(
    w: &mut dyn Write,
    kind: VtKind,
    cols: usize,
    rows: usize,
    target: usize,
) -> std::io::Result<()> {
    let mut p = Vec::new();
    match kind {
        VtKind::DenseCells => {
            for k in 0..26 {
                p.extend_from_slice(b"\x1b[H");
                for y in 0..rows {
                    for x in 0..cols {
                        let i = x * 7 + y * 13 + k * 3;
                        let fg = 16 + i % 216;
                        let bg = 16 + (i * 5 + 101) % 216;
                        let ch = char::from(b'A' + k as u8);
                        let _ = write!(p, "\x1b[38;5;{fg};48;5;{bg};1;3;4m{ch}");
                    }
                }
            }
            repeat_to(w, b"\x1b[0m\x1b[2J", &p, b"\x1b[0m", target)
        }
        VtKind::CursorMotion => {
            let mut rng = Rng::new(2);
            let mut cells: Vec<(usize, usize)> = (0..rows)
                .flat_map(|y| (0..cols).map(move |x| (y, x)))
                .collect();
            for k in 0..26u8 {
                rng.shuffle(&mut cells);
                let ch = char::from(b'a' + k);
                for &(y, x) in &cells {
                    let _ = write!(p, "\x1b[{};{}H{ch}", y + 1, x + 1);
                }
            }
            let footer = format!("\x1b[{rows};1H");
            repeat_to(w, b"\x1b[0m\x1b[2J", &p, footer.as_bytes(), target)
        }
        VtKind::LightCells => {
            for k in 0..26u8 {
                p.extend_from_slice(b"\x1b[H");
                p.extend(std::iter::repeat_n(b'A' + k, cols * rows));
            }
            repeat_to(w, b"\x1b[0m\x1b[2J", &p, b"", target)
        }
        VtKind::ScrollRegion => {
            let mut rng = Rng::new(4);
            const ALPHABET: &[u8] =
                b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789    ";
            for i in 0..500 {
                let n = cols / 2 + rng.below(cols - cols / 2 + 1);
                let body: Vec<u8> = (0..n).map(|_| *rng.pick(ALPHABET)).collect();
                if i % 3 == 0 {
                    let _ = write!(p, "\x1b[3{}m", 1 + i % 7);
                    p.extend_from_slice(&body);
                    p.extend_from_slice(b"\x1b[0m");
                } else {
                    p.extend_from_slice(&body);
                }
                p.extend_from_slice(b"\r\n");
            }
            let top = rows / 2 + 1;
            let header = format!("\x1b[0m\x1b[2J\x1b[{top};{rows}r\x1b[{rows};1H");
            let footer = format!("\x1b[r\x1b[{rows};1H");
            repeat_to(w, header.as_bytes(), &p, footer.as_bytes(), target)
        }
        VtKind::Unicode => {
            let mut rng = Rng::new(5);
            for _ in 0..800 {
                let limit = cols / 2 + rng.below(cols - cols / 2 + 1);
                let mut width = 0;
                loop {
                    let (tok, w) = *rng.pick(UNICODE_TOKENS);
                    if width + w + 1 > limit {
                        break;
                    }
                    p.extend_from_slice(tok.as_bytes());
                    p.push(b' ');
                    width += w + 1;
                }
                p.extend_from_slice(b"\r\n");
            }
            repeat_to(w, b"\x1b[0m\x1b[2J", &p, b"", target)
        }
    }
}

/// Tokens of the unicode stream with their width in cells.
const UNICODE_TOKENS: &[(&str, usize)] = &[
    ("漢字", 4),
    ("仮名交じり", 10),
    ("文字化け", 8),
    ("東京", 4),
    ("한국어", 6),
    ("中文字符", 8),
    ("😀", 2),
    ("🚀", 2),
    ("🔥", 2),
    ("✅", 2),
    ("🧪", 2),
    ("e\u{301}", 1),
    ("a\u{308}", 1),
    ("n\u{303}", 1),
    ("o\u{302}\u{323}", 1),
    ("─┼─", 3),
    ("│", 1),
    ("┌┐└┘", 4),
    ("├┤┬┴", 4),
    ("←↑→↓", 4),
    ("∑∫√∞≈", 5),
    ("Привет", 6),
    ("мир", 3),
    ("Ünïcødé", 7),
    ("ﬁ", 1),
    ("½", 1),
    ("™", 1),
    ("…", 1),
    ("•", 1),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_is_deterministic_and_about_100_bytes_a_line() {
        let mut a = Vec::new();
        let mut b = Vec::new();
        write_log(&mut a, 1000).expect("in memory");
        write_log(&mut b, 1000).expect("in memory");
        assert_eq!(a, b);
        assert_eq!(a.iter().filter(|&&c| c == b'\n').count(), 1000);
        let per_line = a.len() / 1000;
        assert!((80..=120).contains(&per_line), "{per_line} bytes a line");
        assert!(
            a.windows(2).any(|w| w == b"\x1b["),
            "some lines have colour"
        );
    }

    #[test]
    fn lines80_are_80_columns() {
        let mut a = Vec::new();
        write_lines80(&mut a, 100).expect("in memory");
        assert!(a.split(|&c| c == b'\n').take(100).all(|l| l.len() == 80));
        assert!(a.iter().all(|&c| c == b'\n' || (0x20..0x7f).contains(&c)));
    }

    #[test]
    fn vt_streams_reach_their_size() {
        for kind in VtKind::ALL {
            let mut v = Vec::new();
            write_vt(&mut v, kind, 104, 59, 4_000_000).expect("in memory");
            assert!(v.len() > 1_500_000, "{}: {}", kind.name(), v.len());
            assert!(v.len() < 8_000_000, "{}: {}", kind.name(), v.len());
            assert!(std::str::from_utf8(&v).is_ok());
        }
    }
}
