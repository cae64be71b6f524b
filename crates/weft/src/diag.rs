//! `weft diag`: the server's figures as a table (or JSON), once or refreshed like `top`.

use crate::cli::DiagArgs;
use crate::client::ClientError;
use serde_json::Value;
use std::path::Path;
use std::time::Duration;
use weft_protocol::{Reply, Request};

/// How often `--watch` refreshes.
const WATCH_INTERVAL: Duration = Duration::from_secs(1);

/// Prints the figures; with `--watch`, again every second until interrupted.
pub async fn run(socket: &Path, args: &DiagArgs) -> Result<u8, ClientError> {
    let mut ticks = tokio::time::interval(WATCH_INTERVAL); // deadline-ok: --watch refreshes on a period by design
    loop {
        ticks.tick().await;
        let mut conn = crate::client::connect(socket, env!("CARGO_PKG_VERSION")).await?;
        let reply = crate::client::request(
            &mut conn,
            Request::Diag {
                session: args.target.clone(),
                reset: args.reset,
            },
        )
        .await?;
        let Reply::Text { text } = reply else {
            return Err(ClientError::Lost(format!("unexpected {reply:?}")));
        };
        if args.json {
            say!("{text}");
        } else {
            let report: Value =
                serde_json::from_str(&text).map_err(|e| ClientError::Lost(e.to_string()))?;
            if args.watch {
                print!("\x1b[H\x1b[2J");
            }
            print!("{}", table(&report));
        }
        if !args.watch {
            return Ok(0);
        }
    }
}

fn stage(name: &str, s: &Value) -> String {
    let f = |k: &str| s[k].as_f64().unwrap_or(0.0);
    format!(
        "  {name:<12} busy {:5.1}%  idle {:5.1}%  blocked {:5.1}%  {:>8} items {:>12} bytes\n",
        f("busy_pct"),
        f("idle_pct"),
        f("blocked_pct"),
        s["items"].as_u64().unwrap_or(0),
        s["bytes"].as_u64().unwrap_or(0)
    )
}

fn latency(name: &str, l: &Value) -> String {
    let f = |k: &str| l[k].as_f64().unwrap_or(0.0);
    format!(
        "  {name:<18} n={:<6} p50 {:7.3} ms  p90 {:7.3} ms  p99 {:7.3} ms  max {:7.3} ms\n",
        l["count"].as_u64().unwrap_or(0),
        f("p50_ms"),
        f("p90_ms"),
        f("p99_ms"),
        f("max_ms")
    )
}

/// The report as text: a block per pane and per client.
pub fn table(report: &Value) -> String {
    let mut out = format!(
        "weft diag: the last {:.1} s\n",
        report["window_s"].as_f64().unwrap_or(0.0)
    );
    let panics = report["panics"].as_u64().unwrap_or(0);
    if panics > 0 {
        out.push_str(&format!(
            "server tasks that panicked: {panics} (last: {}); please report this\n",
            report["last_panic"].as_str().unwrap_or("?")
        ));
    }
    let dropped = report["dropped_hooks"].as_u64().unwrap_or(0);
    if dropped > 0 {
        out.push_str(&format!(
            "hooks fired but not run (too many at once): {dropped}\n"
        ));
    }
    for p in report["panes"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "pane {} (session {})\n",
            p["id"].as_str().unwrap_or("?"),
            p["session"].as_str().unwrap_or("?")
        ));
        out.push_str(&stage("pty read", &p["pty_read"]));
        out.push_str(&stage("parse", &p["parse"]));
        out.push_str(&latency("bytes to screen", &p["bytes_to_screen"]));
        out.push_str(&latency("keystroke to echo", &p["keystroke_to_echo"]));
        let dropped = p["dropped_reply_bytes"].as_u64().unwrap_or(0);
        if dropped > 0 {
            out.push_str(&format!("  dropped reply bytes {dropped}\n"));
        }
        let dropped = p["dropped_events"].as_u64().unwrap_or(0);
        if dropped > 0 {
            out.push_str(&format!("  dropped events {dropped}\n"));
        }
        let abandoned = p["abandoned_strings"].as_u64().unwrap_or(0);
        if abandoned > 0 {
            out.push_str(&format!("  unterminated strings given up on {abandoned}\n"));
        }
        let dropped = p["dropped_pipe_bytes"].as_u64().unwrap_or(0);
        if dropped > 0 {
            out.push_str(&format!(
                "  pipe-pane bytes dropped (command too slow) {dropped}\n"
            ));
        }
        let dropped = p["dropped_record_bytes"].as_u64().unwrap_or(0);
        if dropped > 0 {
            out.push_str(&format!(
                "  recording bytes dropped (recorder behind) {dropped}\n"
            ));
        }
    }
    for c in report["clients"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "client {} (session {})  frames skipped for a slow client: {}\n",
            c["id"].as_u64().unwrap_or(0),
            c["session"].as_str().unwrap_or("?"),
            c["frames_skipped"].as_u64().unwrap_or(0)
        ));
        out.push_str(&stage("render", &c["render"]));
        out.push_str(&stage("client write", &c["write"]));
        out.push_str(&latency("bytes to screen", &c["bytes_to_screen"]));
        out.push_str(&latency("keystroke to echo", &c["keystroke_to_echo"]));
    }
    out
}
