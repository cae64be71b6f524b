//! asciicast v2, the format asciinema records and plays: a JSON header line, then one JSON
//! array a line, `[seconds, code, data]`, where `code` is `"o"` (output), `"i"` (input), `"r"`
//! (a resize, data `"COLSxROWS"`) or `"m"` (a marker, data its label).
//!
//! Writing: [`Header::to_line`] and [`push_event`], with [`Utf8Carry`] keeping a character that
//! output split between two events whole (JSON strings must be valid UTF-8; invalid bytes
//! become U+FFFD). Reading: [`CastReader`], which names the line of anything malformed.

use std::io::BufRead;

/// The header of a recording (its first line).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Header {
    /// Terminal width in columns.
    pub width: u16,
    /// Terminal height in rows.
    pub height: u16,
    /// When the recording started, in seconds since the Unix epoch.
    pub timestamp: Option<u64>,
    /// A title for players.
    pub title: Option<String>,
    /// The `TERM` the recorded program saw (`env.TERM`).
    pub term: Option<String>,
}

impl Header {
    /// The header as its JSON line, newline included.
    pub fn to_line(&self) -> String {
        let mut out = format!(
            "{{\"version\": 2, \"width\": {}, \"height\": {}",
            self.width, self.height
        );
        if let Some(timestamp) = self.timestamp {
            out.push_str(&format!(", \"timestamp\": {timestamp}"));
        }
        if let Some(title) = &self.title {
            out.push_str(", \"title\": ");
            push_json_string(&mut out, title);
        }
        if let Some(term) = &self.term {
            out.push_str(", \"env\": {\"TERM\": ");
            push_json_string(&mut out, term);
            out.push('}');
        }
        out.push_str("}\n");
        out
    }
}

/// Appends one event line (`[at, "code", "data"]` and a newline) to `out`.
pub fn push_event(out: &mut String, at: f64, code: &str, data: &str) {
    out.push_str(&format!("[{at:.6}, "));
    push_json_string(out, code);
    out.push_str(", ");
    push_json_string(out, data);
    out.push_str("]\n");
}

/// Appends `s` as a JSON string literal: quotes, backslashes and every control character
/// escaped.
pub fn push_json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Output bytes as text, event by event: a UTF-8 sequence split between two pieces is held
/// back (at most 3 bytes) until its end arrives; invalid bytes become U+FFFD.
#[derive(Clone, Debug, Default)]
pub struct Utf8Carry {
    pending: Vec<u8>,
}

impl Utf8Carry {
    /// A carry holding nothing.
    pub fn new() -> Self {
        Utf8Carry::default()
    }

    /// The text of what is held and `bytes`, but an unfinished sequence at the end, which is
    /// held for the next piece.
    pub fn push(&mut self, bytes: &[u8]) -> String {
        self.pending.extend_from_slice(bytes);
        let mut text = String::new();
        let mut rest: &[u8] = &self.pending;
        loop {
            match std::str::from_utf8(rest) {
                Ok(s) => {
                    text.push_str(s);
                    rest = &[];
                    break;
                }
                Err(e) => {
                    let valid = e.valid_up_to();
                    text.push_str(&String::from_utf8_lossy(&rest[..valid]));
                    match e.error_len() {
                        Some(bad) => {
                            text.push('\u{fffd}');
                            rest = &rest[valid + bad..];
                        }
                        None => {
                            rest = &rest[valid..];
                            break;
                        }
                    }
                }
            }
        }
        let keep = rest.to_vec();
        self.pending = keep;
        text
    }

    /// What is held, as text (an unfinished sequence becomes U+FFFD); the carry is empty after.
    pub fn finish(&mut self) -> String {
        let text = String::from_utf8_lossy(&self.pending).into_owned();
        self.pending.clear();
        text
    }

    /// Whether a partial sequence is held.
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }
}

/// One event read from a recording.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// Seconds since the recording started.
    pub time: f64,
    /// `o`, `i`, `r`, `m` (others are kept as they are).
    pub code: String,
    /// The event's data.
    pub data: String,
}

impl Event {
    /// A resize's size (`"COLSxROWS"`), if this is a well-formed resize.
    pub fn resize(&self) -> Option<(u16, u16)> {
        if self.code != "r" {
            return None;
        }
        let (cols, rows) = self.data.split_once('x')?;
        Some((cols.trim().parse().ok()?, rows.trim().parse().ok()?))
    }
}

/// What is wrong with a recording, and on which line (1 the header).
#[derive(Debug)]
pub struct CastError {
    /// The line, counted from 1.
    pub line: usize,
    /// What is wrong with it, a sentence.
    pub message: String,
}

impl std::fmt::Display for CastError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for CastError {}

/// The longest line read: a recording's lines are events of at most a few hundred KiB; a
/// longer one is not a recording weft can play, and is refused rather than held whole.
pub const MAX_LINE_BYTES: u64 = 16 << 20;

/// Reads a recording: the header at once, then the events one line at a time.
#[derive(Debug)]
pub struct CastReader<R> {
    input: R,
    header: Header,
    line: usize,
}

impl<R: BufRead> CastReader<R> {
    /// Reads and checks the header.
    pub fn new(mut input: R) -> Result<Self, CastError> {
        let first = read_line(&mut input, 1)?.ok_or_else(|| CastError {
            line: 1,
            message: "the file is empty; an asciicast v2 recording starts with a JSON header"
                .into(),
        })?;
        let header = parse_header(&first).map_err(|message| CastError { line: 1, message })?;
        Ok(CastReader {
            input,
            header,
            line: 1,
        })
    }

    /// The recording's header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The next event; `None` at the end. Blank lines are skipped.
    pub fn next_event(&mut self) -> Result<Option<Event>, CastError> {
        loop {
            self.line += 1;
            let Some(text) = read_line(&mut self.input, self.line)? else {
                return Ok(None);
            };
            if text.trim().is_empty() {
                continue;
            }
            return parse_event(&text).map(Some).map_err(|message| CastError {
                line: self.line,
                message,
            });
        }
    }
}

/// Whether `first_line` looks like an asciicast v2 header (a JSON object with `"version": 2`).
pub fn is_header(first_line: &[u8]) -> bool {
    std::str::from_utf8(first_line)
        .ok()
        .is_some_and(|line| parse_header(line).is_ok())
}

fn read_line<R: BufRead>(input: &mut R, line: usize) -> Result<Option<String>, CastError> {
    use std::io::Read;
    let mut bytes = Vec::new();
    let n = input
        .by_ref()
        .take(MAX_LINE_BYTES + 1)
        .read_until(b'\n', &mut bytes)
        .map_err(|e| CastError {
            line,
            message: format!("cannot read the recording: {e}"),
        })?;
    if n == 0 {
        return Ok(None);
    }
    if bytes.len() as u64 > MAX_LINE_BYTES {
        return Err(CastError {
            line,
            message: format!("the line is longer than {} MiB", MAX_LINE_BYTES >> 20),
        });
    }
    String::from_utf8(bytes).map(Some).map_err(|_| CastError {
        line,
        message: "the line is not UTF-8 text".into(),
    })
}

/// Parses a header line.
pub fn parse_header(line: &str) -> Result<Header, String> {
    let value: serde_json::Value = serde_json::from_str(line.trim_end())
        .map_err(|e| format!("the header is not JSON ({e})"))?;
    let object = value.as_object().ok_or("the header is not a JSON object")?;
    match object.get("version").and_then(serde_json::Value::as_u64) {
        Some(2) => {}
        Some(v) => {
            return Err(format!(
                "version {v} is not supported; weft reads version 2"
            ))
        }
        None => {
            return Err("the header has no \"version\"; asciicast v2 has \"version\": 2".into())
        }
    }
    let size = |name: &str| -> Result<u16, String> {
        object
            .get(name)
            .and_then(serde_json::Value::as_u64)
            .and_then(|n| u16::try_from(n).ok())
            .filter(|n| *n > 0)
            .ok_or_else(|| format!("the header's \"{name}\" is not a size from 1 to 65535"))
    };
    Ok(Header {
        width: size("width")?,
        height: size("height")?,
        timestamp: object.get("timestamp").and_then(serde_json::Value::as_u64),
        title: object
            .get("title")
            .and_then(serde_json::Value::as_str)
            .map(str::to_string),
        term: object
            .get("env")
            .and_then(|e| e.get("TERM"))
            .and_then(serde_json::Value::as_str)
            .map(str::to_string),
    })
}

/// Parses an event line.
pub fn parse_event(line: &str) -> Result<Event, String> {
    let value: serde_json::Value =
        serde_json::from_str(line.trim_end()).map_err(|e| format!("not JSON ({e})"))?;
    let shape = "an event is [seconds, \"code\", \"data\"]";
    let items = value.as_array().ok_or(shape)?;
    let [time, code, data] = items.as_slice() else {
        return Err(shape.into());
    };
    let time = time
        .as_f64()
        .filter(|t| t.is_finite() && *t >= 0.0)
        .ok_or("the event's time is not a number of seconds")?;
    let (Some(code), Some(data)) = (code.as_str(), data.as_str()) else {
        return Err(shape.into());
    };
    Ok(Event {
        time,
        code: code.to_string(),
        data: data.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_characters_stay_whole_and_bad_bytes_are_replaced() {
        let mut carry = Utf8Carry::new();
        let e = "é".as_bytes();
        assert_eq!(carry.push(&[b'a', e[0]]), "a");
        assert!(!carry.is_empty());
        assert_eq!(carry.push(&[e[1], 0xff, b'b']), "é\u{fffd}b");
        assert_eq!(carry.push(&[0xe4, 0xb8]), "");
        assert_eq!(carry.finish(), "\u{fffd}");
        assert!(carry.is_empty());
    }

    #[test]
    fn what_is_written_reads_back() {
        let header = Header {
            width: 80,
            height: 24,
            timestamp: Some(1_700_000_000),
            title: Some("a \"t\"".into()),
            term: Some("xterm-256color".into()),
        };
        let mut text = header.to_line();
        push_event(&mut text, 0.5, "o", "\x1b[31mred\r\n\u{7f}");
        push_event(&mut text, 1.25, "r", "100x30");
        let mut reader = CastReader::new(text.as_bytes()).expect("header");
        assert_eq!(reader.header(), &header);
        let first = reader.next_event().expect("event").expect("some");
        assert_eq!(first.data, "\x1b[31mred\r\n\u{7f}");
        let second = reader.next_event().expect("event").expect("some");
        assert_eq!(second.resize(), Some((100, 30)));
        assert!(reader.next_event().expect("end").is_none());
    }

    #[test]
    fn a_malformed_line_is_named() {
        let text =
            "{\"version\": 2, \"width\": 10, \"height\": 5}\n[0.1, \"o\", \"x\"]\n[0.2, \"o\"\n";
        let mut reader = CastReader::new(text.as_bytes()).expect("header");
        assert!(reader.next_event().expect("first").is_some());
        let err = reader.next_event().expect_err("the third line is cut");
        assert_eq!(err.line, 3);
        assert!(CastReader::new("{\"version\": 1}\n".as_bytes()).is_err());
        assert!(!is_header(b"plain bytes"));
    }
}
