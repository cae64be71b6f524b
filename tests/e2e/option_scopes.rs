//! Options set on one session, window or pane (`set-option` without `-g`), over the global
//! ones, as tmux's scopes are: each client sees its own session's, and the rest inherit.

use weft_testkit::TestTerminal;
use weft_tests::{split_pane, stderr_of, stdout_of, TestServer, TEST_SHELL};

fn session(server: &TestServer, name: &str) -> TestTerminal {
    let mut args = vec!["new", "-s", name, "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut client = server.client(&args, 80, 24);
    client.wait_for_text("$").expect("prompt");
    client
}

fn ok(server: &TestServer, args: &[&str]) -> String {
    let out = server.weft(args);
    assert!(out.status.success(), "{args:?}: {out:?}");
    stdout_of(&out).trim_end().to_string()
}

/// Waits (with a deadline) until `done` holds of what the server says.
fn until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !done() {
        assert!(std::time::Instant::now() < deadline, "never: {what}");
    }
}

#[test]
fn a_session_option_is_that_sessions_alone() {
    let server = TestServer::new("scopesess");
    let mut a = session(&server, "a");
    let mut b = session(&server, "b");
    a.wait_for(|s| s.row(23).is_some_and(|r| r.text().contains("[a]")))
        .unwrap();
    ok(&server, &["set", "-t", "b", "status", "off"]);
    b.wait_for(|s| !s.text().contains("[b]")).unwrap();
    assert_eq!(ok(&server, &["show", "-t", "b", "-v", "status"]), "off");
    assert_eq!(ok(&server, &["show", "-t", "a", "-v", "status"]), "on");
    assert_eq!(ok(&server, &["show", "-g", "-v", "status"]), "on");
    // The other session kept its status line: a window made in it shows there.
    ok(&server, &["new-window", "-d", "-t", "a:"]);
    a.wait_for(|s| s.row(23).is_some_and(|r| r.text().contains("1:")))
        .unwrap();

    // A prefix of one session's own: its client takes C-a, the other C-b alone.
    ok(&server, &["set", "-t", "b", "prefix", "C-a"]);
    b.send_keys("C-a c").unwrap();
    until("C-a c made a window in b", || {
        ok(&server, &["list-windows", "-t", "b"]).lines().count() == 2
    });
    a.send_keys("C-b c").unwrap();
    until("C-b c made a window in a", || {
        ok(&server, &["list-windows", "-t", "a"]).lines().count() == 3
    });

    // Unset: b inherits the global value again, and follows it when it changes.
    ok(&server, &["set", "-u", "-t", "b", "status"]);
    b.wait_for(|s| s.row(23).is_some_and(|r| r.text().contains("[b]")))
        .unwrap();
    ok(&server, &["set", "-g", "status-left", "<#S>"]);
    b.wait_for(|s| s.row(23).is_some_and(|r| r.text().contains("<b>")))
        .unwrap();
    a.wait_for(|s| s.row(23).is_some_and(|r| r.text().contains("<a>")))
        .unwrap();
    // A session's own value stays over a global change.
    ok(&server, &["set", "-t", "a", "status-left", "(#S)"]);
    ok(&server, &["set", "-g", "status-left", "{#S}"]);
    b.wait_for(|s| s.row(23).is_some_and(|r| r.text().contains("{b}")))
        .unwrap();
    a.wait_for(|s| s.row(23).is_some_and(|r| r.text().contains("(a)")))
        .unwrap();
    // A value of the wrong kind is refused with a sentence, at any level.
    let out = server.weft(&["set", "-t", "a", "mouse", "sometimes"]);
    assert!(!out.status.success());
    assert!(stderr_of(&out).contains("on or off"), "{out:?}");
}

#[test]
fn a_window_option_is_that_windows_alone() {
    let server = TestServer::new("scopewin");
    let mut c = session(&server, "w");
    ok(&server, &["new-window", "-d"]);
    ok(
        &server,
        &["setw", "-t", "w:1", "window-status-format", "<#I>"],
    );
    c.wait_for(|s| {
        s.row(23)
            .is_some_and(|r| r.text().contains("<1>") && r.text().contains("0:"))
    })
    .unwrap();
    assert_eq!(
        ok(
            &server,
            &["show", "-w", "-t", "w:1", "-v", "window-status-format"]
        ),
        "<#I>"
    );
    assert_ne!(
        ok(
            &server,
            &["show", "-w", "-t", "w:0", "-v", "window-status-format"]
        ),
        "<#I>"
    );
    // User options too (`set -w @name`), as formats see them.
    ok(&server, &["set", "-g", "@where", "everywhere"]);
    ok(&server, &["set", "-w", "-t", "w:1", "@where", "here"]);
    let shown = |t: &str| ok(&server, &["display-message", "-p", "-t", t, "#{@where}"]);
    assert_eq!(shown("w:1"), "here");
    assert_eq!(shown("w:0"), "everywhere");

    // synchronize-panes on one window: keys reach each of its panes, and none elsewhere.
    ok(&server, &["split-window", "-t", "w:0"]);
    ok(&server, &["setw", "-t", "w:0", "synchronize-panes", "on"]);
    assert_eq!(
        ok(&server, &["show", "-t", "w:1", "-v", "synchronize-panes"]),
        "off"
    );
    c.send_text("echo sync-$((6*7))\r").unwrap();
    for pane in ["w:0.0", "w:0.1"] {
        let out = server.weft(&["wait", "-t", pane, "--text", "sync-42"]);
        assert!(out.status.success(), "{pane}: {out:?}");
    }
}

#[test]
fn a_pane_option_is_that_panes_alone_and_changes_take_effect_on_running_panes() {
    let server = TestServer::new("scopepane");
    let _c = session(&server, "p");
    let kept = split_pane(&server, &[]);
    let gone = split_pane(&server, &[]);
    ok(&server, &["set", "-p", "-t", &kept, "remain-on-exit", "on"]);
    assert_eq!(
        ok(
            &server,
            &["show", "-p", "-t", &kept, "-v", "remain-on-exit"]
        ),
        "on"
    );
    assert_eq!(
        ok(
            &server,
            &["show", "-p", "-t", &gone, "-v", "remain-on-exit"]
        ),
        "off"
    );
    for pane in [&kept, &gone] {
        ok(&server, &["send-keys", "-t", pane, "exit", "Enter"]);
    }
    until("the pane without the option closed", || {
        !ok(&server, &["list-panes", "-F", "#{pane_id}"]).contains(gone.as_str())
    });
    let out = server.weft(&["wait", "-t", &kept, "--text", "Pane is dead"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        ok(
            &server,
            &["display-message", "-p", "-t", &kept, "#{pane_dead}"]
        ),
        "1"
    );

    // A pane's own options go with it to a window of its own.
    let moved = split_pane(&server, &[]);
    ok(&server, &["set", "-p", "-t", &moved, "@own", "mine"]);
    ok(&server, &["break-pane", "-d", "-t", &moved]);
    assert_eq!(
        ok(&server, &["show", "-p", "-t", &moved, "-v", "@own"]),
        "mine"
    );

    // A global change reaches a pane that was already running.
    let later = split_pane(&server, &[]);
    ok(&server, &["set", "-g", "remain-on-exit", "on"]);
    ok(&server, &["send-keys", "-t", &later, "exit", "Enter"]);
    let out = server.weft(&["wait", "-t", &later, "--text", "Pane is dead"]);
    assert!(out.status.success(), "{out:?}");
}
