//! What a program says about itself through its output (OSC 7, OSC 133, OSC 52, BEL) reaches
//! the session that owns the pane.

use serde_json::Value;
use weft_tests::{stdout_of, TestServer};

fn list(server: &TestServer, what: &str) -> Vec<Value> {
    weft_tests::json_list(server, &[what, "--json"])
}

/// Waits (on the pane's own changes, through `weft wait`) for the marker the script prints last.
fn wait_done(server: &TestServer, target: &str) {
    let out = server.weft(&["wait", "-t", target, "--text", "DONE"]);
    assert!(out.status.success(), "{out:?}");
}

#[test]
fn working_directory_marks_and_clipboard_reach_the_session() {
    let server = TestServer::new("events");
    let script = concat!(
        "printf '\\033]7;file://somehost/tmp/my%%20dir\\007';",
        "printf '\\033]133;A\\007\\033]133;D;0\\007';",
        "printf '\\033]52;c;aGVsbG8=\\007';",
        "echo DONE; sleep 30"
    );
    let out = server.weft(&["new", "-d", "-s", "ev", "--", "sh", "-c", script]);
    assert!(out.status.success(), "{out:?}");
    wait_done(&server, "ev");
    let pane = &list(&server, "list-panes")[0];
    assert_eq!(pane["current_path"], "/tmp/my dir", "{pane}");
    assert_eq!(pane["last_mark"], "command-end", "{pane}");
    assert_eq!(pane["clipboard_bytes"], 8, "{pane}");
}

#[test]
fn a_bell_in_another_window_flags_it_until_it_is_shown() {
    let server = TestServer::new("bell");
    let out = server.weft(&["new", "-d", "-s", "b", "--", "sleep", "30"]);
    assert!(out.status.success(), "{out:?}");
    let out = server.weft(&[
        "new-window",
        "-d",
        "--",
        "sh",
        "-c",
        "printf 'ring\\007'; echo DONE; sleep 30",
    ]);
    assert!(out.status.success(), "{out:?}");
    wait_done(&server, "b:1");
    let windows = list(&server, "list-windows");
    assert_eq!(windows[0]["bell"], false, "{windows:?}");
    assert_eq!(windows[1]["bell"], true, "{windows:?}");
    // The status line flags it as tmux does, until it is shown.
    let mut client = server.client(&["attach", "-t", "b"], 80, 24);
    client.wait_for_text("1:sh!").unwrap();
    let out = server.weft(&["select-window", "-t", "b:1"]);
    assert!(out.status.success(), "{}", stdout_of(&out));
    client.wait_for_text("1:sh*").unwrap();
    assert!(!client.screen().text().contains("1:sh!"));
    assert_eq!(list(&server, "list-windows")[1]["bell"], false);
}
