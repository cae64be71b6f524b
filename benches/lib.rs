//! Inputs for weft's benchmarks (see `benches/`).
//!
//! Every generator is deterministic (a fixed-seed xorshift64*), needs no dependencies and
//! stops at the first line or frame boundary at or past the requested length, so the result is
//! a little over `target_len` bytes and never ends inside an escape sequence or a UTF-8
//! character.

/// The size the benchmarks ask each generator for: 4 MiB.
pub const INPUT_LEN: usize = 4 * 1024 * 1024;

/// Every input by name, each about `target_len` bytes, in the order the benchmarks run them.
pub fn all_inputs(target_len: usize) -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("ascii_log", ascii_log(target_len)),
        ("sgr_log", sgr_log(target_len)),
        ("tui_redraw", tui_redraw(target_len)),
        ("unicode", unicode(target_len)),
        ("scroll_region", scroll_region(target_len)),
    ]
}

/// Plain ASCII log lines of about 100 bytes ending in `\r\n`: a timestamp, a level, a module
/// in brackets and a message of words and `key=value` pairs. Lines over 80 columns wrap.
pub fn ascii_log(target_len: usize) -> Vec<u8> {
    let mut rng = Rng::new(0x0a5c_11a0);
    let mut clock = Clock::default();
    let mut out = Vec::with_capacity(target_len + 256);
    while out.len() < target_len {
        let start = out.len();
        clock.tick(&mut rng);
        clock.push(&mut out);
        out.push(b' ');
        out.extend_from_slice(rng.pick(LEVELS).as_bytes());
        out.extend_from_slice(b" [");
        out.extend_from_slice(rng.pick(MODULES).as_bytes());
        out.extend_from_slice(b"] ");
        let line_len = 80 + rng.below(41);
        let mut first = true;
        while out.len() - start < line_len {
            if !first {
                out.push(b' ');
            }
            first = false;
            push_word(&mut out, &mut rng);
        }
        out.extend_from_slice(b"\r\n");
    }
    out
}

/// Log lines like [`ascii_log`] with an SGR colour before every word: a mix of 16-colour
/// (`3x`/`9x`, sometimes bold), 256-colour (`38;5;n`) and truecolor (`38;2;r;g;b`)
/// foregrounds, with an occasional background, and `ESC[0m` at the end of each line.
pub fn sgr_log(target_len: usize) -> Vec<u8> {
    let mut rng = Rng::new(0x056e_c010);
    let mut clock = Clock::default();
    let mut out = Vec::with_capacity(target_len + 512);
    while out.len() < target_len {
        clock.tick(&mut rng);
        out.extend_from_slice(b"\x1b[2m");
        clock.push(&mut out);
        out.extend_from_slice(b"\x1b[22m ");
        let level = rng.below(LEVELS.len());
        out.extend_from_slice(b"\x1b[");
        out.extend_from_slice(LEVEL_SGR[level].as_bytes());
        out.push(b'm');
        out.extend_from_slice(LEVELS[level].as_bytes());
        out.extend_from_slice(b"\x1b[0m [");
        push_random_sgr(&mut out, &mut rng);
        out.extend_from_slice(rng.pick(MODULES).as_bytes());
        out.extend_from_slice(b"\x1b[39m] ");
        // The prefix is 30 to 45 columns; the message brings the line to about 100 bytes of
        // text (plus the escapes).
        let mut visible = 0;
        let line_len = 50 + rng.below(41);
        while visible < line_len {
            if visible > 0 {
                out.push(b' ');
                visible += 1;
            }
            push_random_sgr(&mut out, &mut rng);
            let before = out.len();
            push_word(&mut out, &mut rng);
            visible += out.len() - before;
        }
        out.extend_from_slice(b"\x1b[0m\r\n");
    }
    out
}

/// Full-screen redraws of an 80x24 TUI on the alternate screen, alternating between an
/// htop-like frame (meters, a reverse-video header, a coloured process table, a function-key
/// bar) and a vim-like frame (line numbers, syntax colours, `ESC[K`, a status line). Every row
/// is addressed with CUP and never wider than 80 columns, so nothing scrolls.
pub fn tui_redraw(target_len: usize) -> Vec<u8> {
    let mut rng = Rng::new(0x0007_d4a5);
    let mut out = Vec::with_capacity(target_len + 8192);
    out.extend_from_slice(b"\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J");
    let mut frame = 0usize;
    while out.len() < target_len {
        out.extend_from_slice(b"\x1b[?25l");
        if frame & 1 == 0 {
            htop_frame(&mut out, &mut rng, frame);
        } else {
            vim_frame(&mut out, &mut rng, frame);
        }
        out.extend_from_slice(b"\x1b[?25h");
        frame += 1;
    }
    out
}

/// Lines mixing ASCII words with CJK ideographs and kana (wide), emoji (wide, some with a
/// VS16 selector), and accented Latin, Greek and Cyrillic words, 40 to 200 columns long so
/// many of them wrap at 80 columns, each ending in `\r\n`.
pub fn unicode(target_len: usize) -> Vec<u8> {
    let mut rng = Rng::new(0x00c1_c0de);
    let mut out = Vec::with_capacity(target_len + 1024);
    let mut buf = [0u8; 4];
    while out.len() < target_len {
        let line_cols = 40 + rng.below(161);
        let mut cols = 0;
        while cols < line_cols {
            if cols > 0 {
                out.push(b' ');
                cols += 1;
            }
            match rng.below(10) {
                // CJK ideographs from the unified block.
                0..=2 => {
                    for _ in 0..2 + rng.below(6) {
                        let c = char::from_u32(0x4e00 + rng.below(0x51a6) as u32).unwrap_or('?');
                        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                        cols += 2;
                    }
                }
                // Hiragana.
                3 => {
                    for _ in 0..2 + rng.below(5) {
                        let c = char::from_u32(0x3041 + rng.below(0x56) as u32).unwrap_or('?');
                        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                        cols += 2;
                    }
                }
                // Emoji: the emoticons block, or a few favourites, some with VS16.
                4 => {
                    for _ in 0..1 + rng.below(3) {
                        if rng.below(3) == 0 {
                            out.extend_from_slice(rng.pick(EMOJI).as_bytes());
                        } else {
                            let c = char::from_u32(0x1f600 + rng.below(0x50) as u32).unwrap_or('?');
                            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                        }
                        cols += 2;
                    }
                }
                // Narrow non-ASCII words.
                5 => {
                    let word = rng.pick(NARROW_WORDS);
                    out.extend_from_slice(word.as_bytes());
                    cols += word.chars().count();
                }
                _ => {
                    let word = rng.pick(WORDS);
                    out.extend_from_slice(word.as_bytes());
                    cols += word.len();
                }
            }
        }
        out.extend_from_slice(b"\r\n");
    }
    out
}

/// A scroll region (`ESC[5;20r`) with fixed header and footer rows, then many log-like lines
/// (under 80 columns, so none wraps) printed at its bottom row so every `\r\n` scrolls rows
/// 5 to 20 only. Every 64 lines the header is rewritten under DECSC/DECRC, as a status
/// display would.
pub fn scroll_region(target_len: usize) -> Vec<u8> {
    let mut rng = Rng::new(0x005c_4011);
    let mut clock = Clock::default();
    let mut out = Vec::with_capacity(target_len + 512);
    out.extend_from_slice(b"\x1b[H\x1b[2J");
    for row in 1..=4 {
        push_cup(&mut out, row, 1);
        out.extend_from_slice(b"\x1b[1;44m header ");
        push_num(&mut out, row as u64);
        out.extend_from_slice(b"\x1b[K\x1b[0m");
    }
    for row in 21..=24 {
        push_cup(&mut out, row, 1);
        out.extend_from_slice(b"\x1b[7m footer ");
        push_num(&mut out, row as u64);
        out.extend_from_slice(b"\x1b[K\x1b[0m");
    }
    out.extend_from_slice(b"\x1b[5;20r");
    push_cup(&mut out, 20, 1);
    let mut line = 0u64;
    let mut word = Vec::new();
    while out.len() < target_len {
        if line & 63 == 0 {
            out.extend_from_slice(b"\x1b7\x1b[1;1H\x1b[1;44m progress: ");
            push_num(&mut out, line);
            out.extend_from_slice(b" lines\x1b[K\x1b[0m\x1b8");
        }
        clock.tick(&mut rng);
        clock.push(&mut out);
        out.push(b' ');
        let level = rng.below(LEVELS.len());
        if rng.below(4) == 0 {
            out.extend_from_slice(b"\x1b[");
            out.extend_from_slice(LEVEL_SGR[level].as_bytes());
            out.push(b'm');
            out.extend_from_slice(LEVELS[level].as_bytes());
            out.extend_from_slice(b"\x1b[0m");
        } else {
            out.extend_from_slice(LEVELS[level].as_bytes());
        }
        // Timestamp 23 + space + level 5 = 29 columns; add words while they fit in 79, so
        // lines never wrap.
        let mut cols = 29;
        let line_cols = 55 + rng.below(20);
        while cols < line_cols {
            word.clear();
            word.push(b' ');
            push_word(&mut word, &mut rng);
            if cols + word.len() > 79 {
                break;
            }
            out.extend_from_slice(&word);
            cols += word.len();
        }
        out.extend_from_slice(b"\r\n");
        line += 1;
    }
    out
}

fn htop_frame(out: &mut Vec<u8>, rng: &mut Rng, frame: usize) {
    const BAR: usize = 30;
    // Four CPU meters and a memory meter.
    for cpu in 0..5u16 {
        let mut row = RowWriter::new(out, cpu + 1);
        if cpu < 4 {
            row.text("  ");
            row.num(u64::from(cpu) + 1);
            row.text(" ");
        } else {
            row.text("  Mem");
        }
        row.sgr("1");
        row.text("[");
        let user = rng.below(BAR / 2 + 1);
        let system = rng.below(BAR - user + 1) / 2;
        row.sgr("0;32");
        row.text(&"|".repeat(user));
        row.sgr("31");
        row.text(&"|".repeat(system));
        row.sgr("90");
        row.text(&" ".repeat(BAR - user - system));
        row.sgr("0;1");
        let pct = (user + system) * 1000 / BAR;
        row.num(pct as u64 / 10);
        row.text(".");
        row.num(pct as u64 % 10);
        row.text("%]");
        row.sgr("0");
        row.text("   ");
        if cpu == 0 {
            row.text("Tasks: ");
            row.sgr("1");
            row.num(100 + rng.below(200) as u64);
            row.sgr("0");
            row.text(", ");
            row.sgr("32");
            row.num(rng.below(8) as u64);
            row.sgr("0");
            row.text(" running");
        } else if cpu == 1 {
            row.text("Load average: ");
            row.sgr("1");
            row.num(rng.below(4) as u64);
            row.text(".");
            row.num(rng.below(100) as u64);
            row.sgr("0");
        } else if cpu == 2 {
            row.text("Uptime: ");
            row.sgr("1");
            row.num(frame as u64 / 3600);
            row.text(":");
            row.num((frame as u64 / 60) % 60);
            row.sgr("0");
        }
        row.pad();
    }
    {
        let mut row = RowWriter::new(out, 6);
        row.pad();
    }
    {
        let mut row = RowWriter::new(out, 7);
        row.sgr("30;42");
        row.text("    PID USER      PRI  NI  VIRT   RES   SHR S CPU% MEM%   TIME+  Command");
        row.pad();
        row.sgr("0");
    }
    let selected = 8 + rng.below(16) as u16;
    for line in 8..=23u16 {
        let mut row = RowWriter::new(out, line);
        let is_selected = line == selected;
        if is_selected {
            row.sgr("30;46");
        }
        let colour = |row: &mut RowWriter<'_>, sgr: &str| {
            if !is_selected {
                row.sgr(sgr);
            }
        };
        row.text(" ");
        row.num_padded(1 + rng.below(99_999) as u64, 6);
        row.text(" ");
        colour(&mut row, "0");
        row.text(rng.pick(&["root     ", "weft     ", "postgres ", "www-data "]));
        row.text("  20   0 ");
        colour(&mut row, "36");
        row.num_padded(rng.below(9999) as u64, 4);
        row.text("M ");
        row.num_padded(rng.below(999) as u64, 4);
        row.text("M ");
        colour(&mut row, "0");
        row.num_padded(rng.below(99) as u64, 4);
        row.text("M ");
        colour(&mut row, if rng.below(5) == 0 { "32" } else { "0" });
        row.text(rng.pick(&["S", "R", "S", "D"]));
        colour(&mut row, "0");
        row.text(" ");
        row.num_padded(rng.below(100) as u64, 3);
        row.text(".");
        row.num(rng.below(10) as u64);
        row.text("  ");
        row.num(rng.below(10) as u64);
        row.text(".");
        row.num(rng.below(10) as u64);
        row.text("  ");
        row.num_padded(rng.below(60) as u64, 2);
        row.text(":");
        row.num_padded(rng.below(60) as u64, 2);
        row.text(".");
        row.num_padded(rng.below(100) as u64, 2);
        row.text(" ");
        colour(&mut row, "1");
        row.text(rng.pick(COMMANDS));
        colour(&mut row, "0");
        row.text(" --");
        row.text(rng.pick(WORDS));
        row.pad();
        row.sgr("0");
    }
    let mut row = RowWriter::new(out, 24);
    for (key, label) in [
        ("F1", "Help  "),
        ("F2", "Setup "),
        ("F3", "Search"),
        ("F4", "Filter"),
        ("F5", "Tree  "),
        ("F6", "SortBy"),
        ("F7", "Nice -"),
        ("F8", "Nice +"),
        ("F9", "Kill  "),
    ] {
        row.sgr("0");
        row.text(key);
        row.sgr("30;46");
        row.text(label);
    }
    row.pad();
    row.sgr("0");
}

fn vim_frame(out: &mut Vec<u8>, rng: &mut Rng, frame: usize) {
    let first_line = 1 + (frame / 2) % 5000;
    for line in 1..=22u16 {
        let mut row = RowWriter::new(out, line);
        row.sgr("38;5;130");
        row.num_padded(first_line as u64 + u64::from(line) - 1, 4);
        row.text(" ");
        row.sgr("0");
        row.text(&" ".repeat(4 * rng.below(4)));
        let tokens = rng.below(10);
        for _ in 0..tokens {
            let (sgr, word) = match rng.below(6) {
                0 => (
                    "38;5;214",
                    rng.pick(&["fn", "let", "mut", "pub", "impl", "match"]),
                ),
                1 => (
                    "38;2;152;195;121",
                    rng.pick(&["\"text\"", "\"bytes\"", "'c'"]),
                ),
                2 => (
                    "38;5;75",
                    rng.pick(&["Screen", "Vec<u8>", "usize", "Option"]),
                ),
                3 => ("90;3", "// note"),
                _ => ("0", rng.pick(WORDS)),
            };
            if row.cols + word.len() + 1 > 80 {
                break;
            }
            row.sgr(sgr);
            row.text(word);
            row.sgr("0");
            row.text(" ");
        }
        // vim clears the rest of the line rather than padding it.
        row.erase_rest();
    }
    {
        let mut row = RowWriter::new(out, 23);
        row.sgr("1;7");
        row.text(" NORMAL ");
        row.sgr("0;7");
        row.text(" src/screen.rs [+] ");
        row.text(&" ".repeat(30));
        row.num(first_line as u64 + rng.below(22) as u64);
        row.text(",");
        row.num(1 + rng.below(79) as u64);
        row.pad();
        row.sgr("0");
    }
    let mut row = RowWriter::new(out, 24);
    row.erase_rest();
    push_cup(out, 1 + rng.below(22) as u16, 6 + rng.below(70) as u16);
}

/// Writes one screen row at CUP, counting visible (ASCII) columns so it never passes 80.
struct RowWriter<'a> {
    out: &'a mut Vec<u8>,
    cols: usize,
}

impl<'a> RowWriter<'a> {
    const WIDTH: usize = 80;

    fn new(out: &'a mut Vec<u8>, row: u16) -> Self {
        push_cup(out, row, 1);
        RowWriter { out, cols: 0 }
    }

    fn sgr(&mut self, params: &str) {
        self.out.extend_from_slice(b"\x1b[");
        self.out.extend_from_slice(params.as_bytes());
        self.out.push(b'm');
    }

    fn text(&mut self, text: &str) {
        let room = Self::WIDTH - self.cols;
        let take = text.len().min(room);
        self.out.extend_from_slice(&text.as_bytes()[..take]);
        self.cols += take;
    }

    fn num(&mut self, n: u64) {
        let mut digits = Vec::new();
        push_num(&mut digits, n);
        if let Ok(s) = std::str::from_utf8(&digits) {
            self.text(s);
        }
    }

    fn num_padded(&mut self, n: u64, width: usize) {
        let mut digits = Vec::new();
        push_num(&mut digits, n);
        for _ in digits.len()..width {
            self.text(" ");
        }
        if let Ok(s) = std::str::from_utf8(&digits) {
            self.text(s);
        }
    }

    fn pad(&mut self) {
        let rest = Self::WIDTH - self.cols;
        self.out.resize(self.out.len() + rest, b' ');
        self.cols = Self::WIDTH;
    }

    fn erase_rest(&mut self) {
        self.out.extend_from_slice(b"\x1b[K");
    }
}

/// xorshift64*: tiny, fast, deterministic, good enough to vary benchmark input.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        // The state must never be zero; mix the seed so small seeds still start well.
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (`n` must be nonzero and below 2^32).
    fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// A fake wall clock that moves forward a few milliseconds per log line.
#[derive(Default)]
struct Clock {
    millis: u64,
}

impl Clock {
    fn tick(&mut self, rng: &mut Rng) {
        self.millis += rng.below(250) as u64;
    }

    /// `2024-05-17 HH:MM:SS.mmm`, always 23 bytes.
    fn push(&self, out: &mut Vec<u8>) {
        let ms = self.millis % 1000;
        let s = self.millis / 1000;
        let day = 17 + (s / 86_400) % 10;
        out.extend_from_slice(b"2024-05-");
        push_num(out, day);
        out.push(b' ');
        push_2(out, (s / 3600) % 24);
        out.push(b':');
        push_2(out, (s / 60) % 60);
        out.push(b':');
        push_2(out, s % 60);
        out.push(b'.');
        push_2(out, ms / 10);
        push_num(out, ms % 10);
    }
}

/// Appends a word from the vocabulary, or now and then a `key=value` pair or a path.
fn push_word(out: &mut Vec<u8>, rng: &mut Rng) {
    match rng.below(8) {
        0 => {
            out.extend_from_slice(rng.pick(KEYS).as_bytes());
            out.push(b'=');
            push_num(out, rng.below(100_000) as u64);
        }
        1 => {
            out.extend_from_slice(b"/api/v2/");
            out.extend_from_slice(rng.pick(WORDS).as_bytes());
            out.push(b'/');
            push_num(out, rng.below(100_000) as u64);
        }
        _ => out.extend_from_slice(rng.pick(WORDS).as_bytes()),
    }
}

/// Appends one SGR foreground: 50% 16-colour, 30% 256-colour, 20% truecolor, sometimes with a
/// background or bold.
fn push_random_sgr(out: &mut Vec<u8>, rng: &mut Rng) {
    out.extend_from_slice(b"\x1b[");
    let roll = rng.below(10);
    if roll < 5 {
        if rng.below(4) == 0 {
            out.extend_from_slice(b"1;");
        }
        out.push(if rng.below(2) == 0 { b'3' } else { b'9' });
        out.push(b'0' + rng.below(8) as u8);
    } else if roll < 8 {
        out.extend_from_slice(b"38;5;");
        push_num(out, rng.below(256) as u64);
    } else {
        out.extend_from_slice(b"38;2;");
        push_num(out, rng.below(256) as u64);
        out.push(b';');
        push_num(out, rng.below(256) as u64);
        out.push(b';');
        push_num(out, rng.below(256) as u64);
    }
    if rng.below(10) == 0 {
        out.extend_from_slice(b";48;5;");
        push_num(out, 232 + rng.below(24) as u64);
    }
    out.push(b'm');
}

fn push_cup(out: &mut Vec<u8>, row: u16, col: u16) {
    out.extend_from_slice(b"\x1b[");
    push_num(out, u64::from(row));
    out.push(b';');
    push_num(out, u64::from(col));
    out.push(b'H');
}

fn push_2(out: &mut Vec<u8>, n: u64) {
    out.push(b'0' + (n / 10 % 10) as u8);
    out.push(b'0' + (n % 10) as u8);
}

fn push_num(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

const LEVELS: &[&str] = &[
    "INFO ", "DEBUG", "WARN ", "ERROR", "TRACE", "INFO ", "INFO ",
];
const LEVEL_SGR: &[&str] = &["32", "34", "33", "1;31", "90", "32", "32"];

const MODULES: &[&str] = &[
    "http-worker-3",
    "db::pool",
    "scheduler",
    "auth",
    "cache",
    "grpc.server",
    "ingest-7",
    "main",
];

const KEYS: &[&str] = &[
    "status", "bytes", "dur_ms", "user", "id", "retries", "shard",
];

const WORDS: &[&str] = &[
    "request",
    "handled",
    "connection",
    "accepted",
    "from",
    "peer",
    "closing",
    "idle",
    "session",
    "timeout",
    "after",
    "retrying",
    "upstream",
    "returned",
    "error",
    "cache",
    "miss",
    "for",
    "key",
    "flushed",
    "to",
    "disk",
    "compaction",
    "started",
    "finished",
    "in",
    "the",
    "queue",
    "is",
    "full",
    "dropping",
    "message",
    "user",
    "logged",
    "out",
    "token",
    "refreshed",
    "config",
    "reloaded",
    "ok",
    "GET",
    "POST",
    "checksum",
    "mismatch",
    "on",
    "segment",
    "rebalancing",
    "partitions",
];

const NARROW_WORDS: &[&str] = &[
    "café",
    "naïve",
    "über",
    "façade",
    "Ελληνικά",
    "λόγος",
    "привет",
    "мир",
    "España",
    "crème",
    "Zürich",
    "jalapeño",
];

const EMOJI: &[&str] = &[
    "\u{1f680}",
    "\u{1f389}",
    "\u{1f525}",
    "\u{2705}",
    "\u{2764}\u{fe0f}",
    "\u{1f44d}",
    "\u{1f4a5}",
    "\u{26a1}",
];

const COMMANDS: &[&str] = &[
    "/usr/bin/weft",
    "postgres: writer",
    "nginx: worker",
    "cargo build",
    "rust-analyzer",
    "/usr/lib/systemd",
    "bash",
    "htop",
];

#[cfg(test)]
mod tests {
    use super::*;

    const LEN: usize = 256 * 1024;

    #[test]
    fn inputs_are_deterministic_and_about_the_right_size() {
        let a = all_inputs(LEN);
        let b = all_inputs(LEN);
        assert_eq!(a, b);
        for (name, input) in &a {
            assert!(input.len() >= LEN, "{name} too short");
            assert!(input.len() < LEN + 8192, "{name} too long");
            assert!(std::str::from_utf8(input).is_ok(), "{name} is not UTF-8");
        }
    }

    #[test]
    fn ascii_log_is_ascii_with_crlf_lines() {
        let input = ascii_log(LEN);
        assert!(input.is_ascii());
        assert!(input.ends_with(b"\r\n"));
        let lines = input.split(|&b| b == b'\n').count() - 1;
        let mean = input.len() / lines;
        assert!((90..=115).contains(&mean), "mean line length {mean}");
    }
}
