//! Latency diagnosis: `weft diag` figures under a known workload, and the trace file.

use serde_json::Value;
use weft_tests::{stdout_of, TestServer, TEST_SHELL};

/// A test terminal of 80x24 attached to session `name`.
fn attach(server: &TestServer, name: &str) -> weft_testkit::TestTerminal {
    weft_testkit::TestTerminal::attach(weft_tests::weft_binary(), &server.socket, name)
        .size(80, 24)
        .start()
        .unwrap()
}

/// The delay injected before every frame, in milliseconds.
const RENDER_DELAY_MS: f64 = 30.0;

#[test]
fn diag_shows_every_stage_the_injected_delay_and_a_slow_client() {
    let server = TestServer::new("diag");
    let trace = server.dir.join("trace.json");
    let mut args = vec![
        "--trace",
        trace.to_str().unwrap(),
        "new",
        "-d",
        "-s",
        "d",
        "-x",
        "80",
        "-y",
        "24",
        "--",
    ];
    args.extend_from_slice(TEST_SHELL);
    let out = server.weft_env(&args, &[("WEFT_DIAG_RENDER_DELAY_MS", "30")]);
    assert!(out.status.success(), "{out:?}");

    let mut typing = attach(&server, "d");
    typing.wait_for_text("$").unwrap();
    for i in 0..5 {
        typing.send_text(&format!("echo typed-$(({i}*7))")).unwrap();
        typing.send_keys("Enter").unwrap();
        typing.wait_for_text(&format!("typed-{}", i * 7)).unwrap();
    }
    // A second client that never reads while the program floods: its frames wait. The flood
    // is random, so every frame redraws the whole screen and the stalled terminal's buffer
    // fills.
    let stalled = attach(&server, "d");
    typing
        .send_text("head -c 23000000 /dev/urandom | base64; echo FLOOD-$((6*7))")
        .unwrap();
    typing.send_keys("Enter").unwrap();
    typing.wait_for_text("FLOOD-42").unwrap();

    let out = server.weft(&["diag", "--json"]);
    assert!(out.status.success(), "{out:?}");
    let report: Value = serde_json::from_str(&stdout_of(&out)).unwrap();
    let pane = &report["panes"][0];
    assert!(pane["pty_read"]["items"].as_u64().unwrap() > 0, "{pane}");
    assert!(
        pane["pty_read"]["bytes"].as_u64().unwrap() >= 30_000_000,
        "{pane}"
    );
    assert!(pane["parse"]["busy_ms"].as_f64().unwrap() > 0.0, "{pane}");
    let echo = &pane["keystroke_to_echo"];
    assert!(echo["count"].as_u64().unwrap() > 0, "{echo}");
    assert!(
        echo["p50_ms"].as_f64().unwrap() >= RENDER_DELAY_MS * 0.8,
        "{echo}"
    );
    // Flood output read while a frame is being delayed shows in that frame, sooner than the
    // delay; output read just after a frame waits for all of the next one.
    assert!(
        pane["bytes_to_screen"]["p99_ms"].as_f64().unwrap() >= RENDER_DELAY_MS * 0.8,
        "{pane}"
    );
    let clients = report["clients"].as_array().unwrap();
    assert_eq!(clients.len(), 2, "{report}");
    for c in clients {
        assert!(c["render"]["busy_ms"].as_f64().unwrap() > 0.0, "{c}");
        assert!(c["render"]["items"].as_u64().unwrap() > 0, "{c}");
        assert!(c["write"]["items"].as_u64().unwrap() > 0, "{c}");
    }
    assert!(
        clients
            .iter()
            .any(|c| c["frames_skipped"].as_u64().unwrap() > 0),
        "the stalled client skipped frames: {report}"
    );
    // The text form names every stage.
    let table = stdout_of(&server.weft(&["diag"]));
    for stage in [
        "pty read",
        "parse",
        "render",
        "client write",
        "keystroke to echo",
        "bytes to screen",
    ] {
        assert!(table.contains(stage), "{stage}: {table}");
    }
    drop(stalled);
    drop(typing);
    let out = server.weft(&["kill-server"]);
    assert!(out.status.success());
    let events: Value = serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).unwrap();
    let names: Vec<&str> = events
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["name"].as_str())
        .collect();
    for span in ["pane", "pty_read", "render"] {
        assert!(names.iter().any(|n| n.starts_with(span)), "{span} missing");
    }
    for event in ["parse", "frame", "client write"] {
        assert!(names.contains(&event), "{event} missing");
    }
}

#[test]
fn diag_times_echoes_that_the_pane_draws_itself() {
    // No injected delay: echoes take the fast path, parsed by the pty reader and drawn by the
    // idle renderer's borrowed state, and their figures must still be true.
    let server = TestServer::new("diag-echo");
    let out = server.weft(&[
        "new",
        "-d",
        "-s",
        "e",
        "-x",
        "80",
        "-y",
        "24",
        "--",
        "sh",
        "-c",
        "echo READY; exec cat",
    ]);
    assert!(out.status.success(), "{out:?}");
    let mut typing = attach(&server, "e");
    // Attached (the client's terminal is raw) before the first key.
    typing.wait_for_text("READY").unwrap();
    let word = "keystrokes";
    for end in 1..=word.len() {
        typing.send_text(&word[end - 1..end]).unwrap();
        typing.wait_for_text(&word[..end]).unwrap();
    }

    let out = server.weft(&["diag", "--json"]);
    assert!(out.status.success(), "{out:?}");
    let report: Value = serde_json::from_str(&stdout_of(&out)).unwrap();
    let pane = &report["panes"][0];
    let echo = &pane["keystroke_to_echo"];
    let shown = &pane["bytes_to_screen"];
    assert!(echo["count"].as_u64().unwrap() >= 5, "{pane}");
    // An echo is read after its key arrives, so it reaches the screen sooner than the key
    // reaches its echo (a frame timed from an older read would say otherwise).
    assert!(
        shown["p50_ms"].as_f64().unwrap() <= echo["p50_ms"].as_f64().unwrap(),
        "{pane}"
    );
    // Between keys the stages wait, whichever task did their work.
    assert!(pane["parse"]["idle_ms"].as_f64().unwrap() > 0.0, "{pane}");
    assert!(pane["parse"]["busy_ms"].as_f64().unwrap() > 0.0, "{pane}");
    let client = &report["clients"][0];
    assert!(
        client["render"]["idle_ms"].as_f64().unwrap() > 0.0,
        "{client}"
    );
    assert!(
        client["render"]["busy_ms"].as_f64().unwrap() > 0.0,
        "{client}"
    );
    assert!(
        client["write"]["idle_ms"].as_f64().unwrap() > 0.0,
        "{client}"
    );
    drop(typing);
    assert!(server.weft(&["kill-server"]).status.success());
}
