//! Tracing output for the server: a Chrome trace-event file (`--trace FILE` or `WEFT_TRACE`)
//! that Perfetto and chrome://tracing open, logs (`WEFT_LOG=filter`) to a file in the state
//! directory (never to the terminal), and with the `console` feature, tokio-console.
//!
//! Trace events go through a bounded channel to a writer thread; when it falls behind, events
//! are dropped and counted (the count is written at the end), so tracing never blocks the
//! pipeline.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tracing::span::{Attributes, Id};
use tracing::{Event, Subscriber};
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer};

/// Trace events buffered for the writer thread before more are dropped.
const TRACE_BUFFER_EVENTS: usize = 1 << 16;

enum Record {
    Line(String),
    Finish,
}

/// Ends tracing cleanly: the file is closed as valid JSON.
pub struct TraceGuard {
    sender: Option<SyncSender<Record>>,
    writer: Option<std::thread::JoinHandle<()>>,
}

impl TraceGuard {
    /// Flushes and closes the trace file.
    pub fn finish(mut self) {
        self.close();
    }

    fn close(&mut self) {
        if let Some(sender) = self.sender.take() {
            let _ = sender.send(Record::Finish);
        }
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
    }
}

impl Drop for TraceGuard {
    fn drop(&mut self) {
        self.close();
    }
}

/// Span names by id, for end events.
#[derive(Default)]
struct SpanNames(Mutex<std::collections::HashMap<u64, String>>);

/// Writes span enters/exits and events as Chrome trace events.
struct ChromeLayer {
    sender: SyncSender<Record>,
    start: Instant,
    dropped: Arc<AtomicU64>,
    names: SpanNames,
}

/// `s` as the inside of a JSON string literal (without the quotes).
fn json_escape(s: &str) -> String {
    let quoted = serde_json::Value::from(s).to_string();
    quoted[1..quoted.len() - 1].to_string()
}

/// Collects an event's or span's fields as `key=value` pairs (the message apart).
#[derive(Default)]
struct Fields(String, Option<String>);

impl tracing::field::Visit for Fields {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            self.1 = Some(format!("{value:?}"));
            return;
        }
        if !self.0.is_empty() {
            self.0.push(' ');
        }
        self.0.push_str(&format!("{}={:?}", field.name(), value));
    }
}

impl ChromeLayer {
    fn emit(&self, line: String) {
        match self.sender.try_send(Record::Line(line)) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) | Err(TrySendError::Disconnected(_)) => {
                self.dropped.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    fn ts(&self) -> f64 {
        self.start.elapsed().as_nanos() as f64 / 1000.0
    }

    fn tid() -> u64 {
        // A stable small number per thread for the viewer's lanes.
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        std::thread::current().id().hash(&mut h);
        h.finish() % 1000
    }
}

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for ChromeLayer {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, _ctx: Context<'_, S>) {
        let mut fields = Fields::default();
        attrs.record(&mut fields);
        let name = if fields.0.is_empty() {
            attrs.metadata().name().to_string()
        } else {
            format!("{} {}", attrs.metadata().name(), fields.0)
        };
        if let Ok(mut names) = self.names.0.lock() {
            names.insert(id.into_u64(), name);
        }
    }

    fn on_enter(&self, id: &Id, _ctx: Context<'_, S>) {
        let name = self
            .names
            .0
            .lock()
            .ok()
            .and_then(|n| n.get(&id.into_u64()).cloned())
            .unwrap_or_default();
        self.emit(format!(
            "{{\"name\":\"{}\",\"ph\":\"B\",\"ts\":{:.3},\"pid\":1,\"tid\":{}}}",
            json_escape(&name),
            self.ts(),
            Self::tid()
        ));
    }

    fn on_exit(&self, _id: &Id, _ctx: Context<'_, S>) {
        self.emit(format!(
            "{{\"ph\":\"E\",\"ts\":{:.3},\"pid\":1,\"tid\":{}}}",
            self.ts(),
            Self::tid()
        ));
    }

    fn on_close(&self, id: Id, _ctx: Context<'_, S>) {
        if let Ok(mut names) = self.names.0.lock() {
            names.remove(&id.into_u64());
        }
    }

    fn on_event(&self, event: &Event<'_>, _ctx: Context<'_, S>) {
        let mut fields = Fields::default();
        event.record(&mut fields);
        self.emit(format!(
            "{{\"name\":\"{}\",\"ph\":\"i\",\"s\":\"t\",\"ts\":{:.3},\"pid\":1,\"tid\":{},\"args\":{{\"fields\":\"{}\"}}}}",
            json_escape(fields.1.as_deref().unwrap_or(event.metadata().name())),
            self.ts(),
            Self::tid(),
            json_escape(&fields.0)
        ));
    }
}

fn write_trace(file: File, records: Receiver<Record>, dropped: Arc<AtomicU64>) {
    let mut out = BufWriter::new(file);
    let _ = out.write_all(b"[\n");
    let mut first = true;
    for record in records {
        match record {
            Record::Line(line) => {
                if !first {
                    let _ = out.write_all(b",\n");
                }
                first = false;
                let _ = out.write_all(line.as_bytes());
            }
            Record::Finish => break,
        }
    }
    if !first {
        let _ = out.write_all(b",\n");
    }
    let _ = write!(
        out,
        "{{\"name\":\"dropped events\",\"ph\":\"i\",\"s\":\"g\",\"ts\":0,\"pid\":1,\"tid\":0,\"args\":{{\"dropped\":{}}}}}\n]\n",
        dropped.load(Ordering::Relaxed)
    );
    let _ = out.flush();
}

/// Where logs go: `$XDG_STATE_HOME/weft/server.log` or `~/.local/state/weft/server.log`.
pub fn log_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_STATE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))?;
    Some(base.join("weft").join("server.log"))
}

/// Installs the server's tracing subscribers: a trace file when asked for, logs when
/// `WEFT_LOG` is set. Returns the guard that closes the trace file.
pub fn init(trace: Option<&Path>) -> Option<TraceGuard> {
    let log = std::env::var("WEFT_LOG")
        .ok()
        .filter(|f| !f.is_empty())
        .and_then(|filter| {
            let path = log_path()?;
            std::fs::create_dir_all(path.parent()?).ok()?;
            let file = File::options().create(true).append(true).open(&path).ok()?;
            Some(
                tracing_subscriber::fmt::layer()
                    .with_writer(Mutex::new(file))
                    .with_ansi(false)
                    .with_filter(EnvFilter::new(filter)),
            )
        });
    let (chrome, guard) = match trace.and_then(|p| File::create(p).ok()) {
        Some(file) => {
            let (sender, receiver) = sync_channel(TRACE_BUFFER_EVENTS);
            let dropped = Arc::new(AtomicU64::new(0));
            let writer_dropped = dropped.clone();
            let writer = std::thread::Builder::new()
                .name("weft-trace".into())
                .spawn(move || write_trace(file, receiver, writer_dropped))
                .ok();
            let layer = ChromeLayer {
                sender: sender.clone(),
                start: Instant::now(),
                dropped,
                names: SpanNames::default(),
            }
            .with_filter(EnvFilter::new("trace"));
            (
                Some(layer),
                Some(TraceGuard {
                    sender: Some(sender),
                    writer,
                }),
            )
        }
        None => (None, None),
    };
    // tokio-console, when built with the `console` feature and asked for with WEFT_CONSOLE.
    #[cfg(feature = "console")]
    let console = std::env::var_os("WEFT_CONSOLE").map(|_| console_subscriber::spawn());
    #[cfg(not(feature = "console"))]
    let console: Option<tracing_subscriber::layer::Identity> = None;
    if log.is_some() || chrome.is_some() || console.is_some() {
        let _ = tracing_subscriber::registry()
            .with(console)
            .with(log)
            .with(chrome)
            .try_init();
    }
    guard
}
