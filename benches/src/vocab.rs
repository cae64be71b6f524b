//! Word lists the generators pick from: log levels, modules, keys, words, non-ASCII words,
//! emoji and command lines.

pub(crate) const LEVELS: &[&str] = &[
    "INFO ", "DEBUG", "WARN ", "ERROR", "TRACE", "INFO ", "INFO ",
];
pub(crate) const LEVEL_SGR: &[&str] = &["32", "34", "33", "1;31", "90", "32", "32"];

pub(crate) const MODULES: &[&str] = &[
    "http-worker-3",
    "db::pool",
    "scheduler",
    "auth",
    "cache",
    "grpc.server",
    "ingest-7",
    "main",
];

pub(crate) const KEYS: &[&str] = &[
    "status", "bytes", "dur_ms", "user", "id", "retries", "shard",
];

pub(crate) const WORDS: &[&str] = &[
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

pub(crate) const NARROW_WORDS: &[&str] = &[
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

pub(crate) const EMOJI: &[&str] = &[
    "\u{1f680}",
    "\u{1f389}",
    "\u{1f525}",
    "\u{2705}",
    "\u{2764}\u{fe0f}",
    "\u{1f44d}",
    "\u{1f4a5}",
    "\u{26a1}",
];

pub(crate) const COMMANDS: &[&str] = &[
    "/usr/bin/weft",
    "postgres: writer",
    "nginx: worker",
    "cargo build",
    "rust-analyzer",
    "/usr/lib/systemd",
    "bash",
    "htop",
];
