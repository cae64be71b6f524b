//! tmux's flags on commands a user's bindings and scripts use: `break-pane -s/-n/-P`,
//! `kill-session -a/-C`, and the `-f` filters of the listing commands.

use weft_tests::{detached_session, split_pane, stderr_of, stdout_of, TestServer};

/// Runs `weft ARGS`, which must succeed; its output.
fn ok(server: &TestServer, args: &[&str]) -> String {
    let out = server.weft(args);
    assert!(out.status.success(), "{args:?}: {}", stderr_of(&out));
    stdout_of(&out)
}

#[test]
fn break_pane_takes_a_source_a_name_and_prints_where_it_went() {
    let server = TestServer::new("breakp");
    detached_session(&server, "b");
    let pane = split_pane(&server, &["-t", "b"]);
    let printed = ok(
        &server,
        &[
            "break-pane",
            "-d",
            "-s",
            &pane,
            "-n",
            "broken",
            "-P",
            "-F",
            "#{window_name}:#{pane_id}",
        ],
    );
    assert_eq!(printed.trim(), format!("broken:{pane}"));
    let windows = ok(
        &server,
        &[
            "list-windows",
            "-t",
            "b",
            "-F",
            "#{window_index}:#W:#{window_active}",
        ],
    );
    assert!(
        windows.contains("1:broken:0"),
        "-d leaves the focus: {windows}"
    );
    // With -s, -t is the new window's index.
    let other = split_pane(&server, &["-t", "b:0"]);
    ok(&server, &["break-pane", "-d", "-s", &other, "-t", ":7"]);
    let indexes = ok(
        &server,
        &["list-windows", "-t", "b", "-F", "#{window_index}"],
    );
    assert_eq!(
        indexes.split_whitespace().collect::<Vec<_>>(),
        ["0", "1", "7"]
    );
    // -b puts it before the current window, moving the others up.
    let third = split_pane(&server, &["-t", "b:0"]);
    ok(&server, &["break-pane", "-d", "-b", "-s", &third]);
    let panes = ok(
        &server,
        &[
            "list-panes",
            "-s",
            "-t",
            "b",
            "-F",
            "#{window_index}:#{pane_id}",
        ],
    );
    assert!(panes.contains(&format!("0:{third}")), "{panes}");
}

#[test]
fn kill_session_a_keeps_only_the_target() {
    let server = TestServer::new("killa");
    for name in ["one", "two", "three"] {
        detached_session(&server, name);
    }
    ok(&server, &["kill-session", "-a", "-t", "two"]);
    assert_eq!(ok(&server, &["list-sessions", "-F", "#S"]).trim(), "two");
    // -C clears alerts and keeps the session.
    ok(&server, &["kill-session", "-C", "-t", "two"]);
    assert!(server.weft(&["has-session", "-t", "two"]).status.success());
}

#[test]
fn listings_filter_with_f() {
    let server = TestServer::new("listf");
    for name in ["alpha", "beta"] {
        detached_session(&server, name);
    }
    ok(&server, &["new-window", "-d", "-t", "alpha", "-n", "logs"]);
    let sessions = ok(
        &server,
        &["list-sessions", "-f", "#{==:#{session_name},beta}"],
    );
    assert!(
        sessions.starts_with("beta:") && sessions.lines().count() == 1,
        "{sessions}"
    );
    let names = ok(
        &server,
        &["list-sessions", "-F", "#S", "-f", "#{session_windows}"],
    );
    assert_eq!(names.lines().count(), 2);
    let windows = ok(
        &server,
        &[
            "list-windows",
            "-t",
            "alpha",
            "-f",
            "#{==:#W,logs}",
            "-F",
            "#W",
        ],
    );
    assert_eq!(windows.trim(), "logs");
    let json = ok(
        &server,
        &[
            "list-windows",
            "-t",
            "alpha",
            "--json",
            "-f",
            "#{==:#W,logs}",
        ],
    );
    assert_eq!(json.matches("\"name\"").count(), 1, "{json}");
    let pane = split_pane(&server, &["-t", "beta", "-d"]);
    let active = ok(
        &server,
        &[
            "list-panes",
            "-t",
            "beta",
            "-f",
            "#{pane_active}",
            "-F",
            "#D",
        ],
    );
    assert!(
        !active.contains(&pane) && active.lines().count() == 1,
        "{active}"
    );
    let none = ok(&server, &["list-panes", "-t", "beta", "-f", "0"]);
    assert_eq!(none.trim(), "");
}
