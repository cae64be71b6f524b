//! tmux's flags on commands a user's bindings and scripts use: `break-pane -s/-n/-P`,
//! `kill-session -a/-C`, `send-keys -R`, and the `-f` filters of the listing commands.

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

#[test]
fn new_windows_and_panes_take_e_b_k_and_z() {
    let server = TestServer::new("neww-flags");
    detached_session(&server, "n");
    ok(&server, &["new-window", "-d", "-t", "n:3", "-n", "three"]);
    // -e: a variable for the program alone.
    let pane = ok(
        &server,
        &[
            "new-window",
            "-d",
            "-P",
            "-F",
            "#D",
            "-e",
            "GREETING=hello-env",
            "-t",
            "n:5",
            "--",
            "sh",
            "-c",
            "echo $GREETING; exec sleep 60",
        ],
    );
    let out = server.weft(&["wait", "-t", pane.trim(), "--text", "hello-env"]);
    assert!(out.status.success(), "{out:?}");
    let out = server.weft(&["new-window", "-e", "NOEQUALS", "-t", "n"]);
    assert!(stderr_of(&out).contains("NAME=VALUE"), "{out:?}");
    // -k replaces the window at the index, the others keeping theirs with renumber-windows.
    ok(&server, &["set", "-g", "renumber-windows", "on"]);
    ok(
        &server,
        &["new-window", "-d", "-k", "-t", "n:3", "-n", "replaced"],
    );
    let names = ok(&server, &["list-windows", "-t", "n", "-F", "#I:#W"]);
    assert!(
        names.contains("3:replaced") && !names.contains("three") && names.contains("5:"),
        "{names}"
    );
    ok(&server, &["set", "-g", "renumber-windows", "off"]);
    // -b: before the current window (0), which moves up.
    ok(
        &server,
        &["new-window", "-d", "-b", "-t", "n", "-n", "first"],
    );
    let names = ok(&server, &["list-windows", "-t", "n", "-F", "#I:#W"]);
    assert!(names.starts_with("0:first"), "{names}");
    // split-window -Z zooms the new pane; -e reaches its program.
    let split = ok(
        &server,
        &[
            "split-window",
            "-Z",
            "-P",
            "-F",
            "#D",
            "-e",
            "SPLITVAR=zoomed-env",
            "-t",
            "n:1",
            "--",
            "sh",
            "-c",
            "echo $SPLITVAR; exec sleep 60",
        ],
    );
    let out = server.weft(&["wait", "-t", split.trim(), "--text", "zoomed-env"]);
    assert!(out.status.success(), "{out:?}");
    let zoomed = ok(
        &server,
        &["display", "-p", "-t", split.trim(), "#{window_zoomed_flag}"],
    );
    assert_eq!(zoomed.trim(), "1");
}

#[test]
fn focus_moves_keep_zoom_with_z_and_select_window_t_toggles() {
    let server = TestServer::new("zoomkeep");
    detached_session(&server, "z");
    let second = split_pane(&server, &["-t", "z"]);
    ok(&server, &["resize-pane", "-Z", "-t", &second]);
    let flag = |server: &TestServer| {
        ok(
            server,
            &["display", "-p", "-t", "z", "#{window_zoomed_flag}:#D"],
        )
    };
    ok(&server, &["last-pane", "-Z", "-t", "z"]);
    let after = flag(&server);
    assert!(
        after.starts_with("1:") && !after.contains(&second),
        "{after}"
    );
    ok(&server, &["select-pane", "-Z", "-t", &second]);
    assert_eq!(flag(&server).trim(), format!("1:{second}"));
    ok(&server, &["last-pane", "-t", "z"]);
    assert!(flag(&server).starts_with("0:"), "without -Z the zoom ends");
    // -d turns the last pane's input off.
    ok(&server, &["last-pane", "-d", "-t", "z"]);
    let off = ok(
        &server,
        &["display", "-p", "-t", &second, "#{pane_input_off}"],
    );
    assert_eq!(off.trim(), "1");
    // select-window -T: the target again goes back to the last window.
    ok(&server, &["new-window", "-t", "z"]);
    let index = |server: &TestServer| {
        ok(server, &["display", "-p", "-t", "z", "#I"])
            .trim()
            .to_string()
    };
    assert_eq!(index(&server), "1");
    ok(&server, &["select-window", "-T", "-t", "z:1"]);
    assert_eq!(index(&server), "0");
    ok(&server, &["select-window", "-T", "-t", "z:1"]);
    assert_eq!(index(&server), "1");
}

#[test]
fn move_window_after_a_window_or_over_one() {
    let server = TestServer::new("movew-flags");
    detached_session(&server, "m");
    for name in ["a", "b", "c"] {
        ok(&server, &["new-window", "-d", "-t", "m", "-n", name]);
    }
    // Windows 0 (shell), 1 a, 2 b, 3 c: c goes right after 0, the others move up.
    ok(&server, &["move-window", "-a", "-s", "m:3", "-t", "m:0"]);
    let names = ok(&server, &["list-windows", "-t", "m", "-F", "#I:#W"]);
    let order: Vec<&str> = names.split_whitespace().collect();
    assert_eq!(order[1], "1:c", "{names}");
    // -k: over the window at an index in use.
    ok(&server, &["move-window", "-k", "-s", "m:1", "-t", "m:3"]);
    let names = ok(&server, &["list-windows", "-t", "m", "-F", "#I:#W"]);
    assert!(
        names.contains("3:c") && names.lines().count() == 3,
        "{names}"
    );
}

#[test]
fn new_session_takes_a_command_without_dashes_print_and_env() {
    let server = TestServer::new("new-flags");
    // tmux's `new -d -s NAME COMMAND`: no `--` needed.
    ok(
        &server,
        &[
            "new",
            "-d",
            "-s",
            "plain",
            "sh",
            "-c",
            "echo plain-$((4*4)); exec sleep 60",
        ],
    );
    let out = server.weft(&["wait", "-t", "plain", "--text", "plain-16"]);
    assert!(out.status.success(), "{out:?}");
    // -P prints the new session with -F's format; -e reaches its program.
    let printed = ok(
        &server,
        &[
            "new",
            "-d",
            "-s",
            "printed",
            "-P",
            "-F",
            "#{session_name}/#{window_index}",
            "-e",
            "SESSIONVAR=from-e",
            "--",
            "sh",
            "-c",
            "echo $SESSIONVAR; exec sleep 60",
        ],
    );
    assert_eq!(printed.trim(), "printed/0");
    let out = server.weft(&["wait", "-t", "printed", "--text", "from-e"]);
    assert!(out.status.success(), "{out:?}");
    let out = server.weft(&["new", "-d", "-e", "BROKEN"]);
    assert!(stderr_of(&out).contains("NAME=VALUE"), "{out:?}");
}

#[test]
fn prompts_take_n_and_f_and_buffers_filter() {
    let server = TestServer::new("promptnf");
    let mut args = vec!["new", "-s", "p", "--"];
    args.extend_from_slice(weft_tests::TEST_SHELL);
    let mut c = server.client(&args, 80, 24);
    c.wait_for_text("$").unwrap();
    // -N: only digits go in; -F: the template is a format of the pane first.
    ok(
        &server,
        &[
            "bind-key",
            "-n",
            "F9",
            "command-prompt",
            "-N",
            "-F",
            "-p",
            "n",
            "rename-window '#{session_name}-%%'",
        ],
    );
    c.send_keys("F9").unwrap();
    c.wait_for(|s| s.row(23).is_some_and(|r| r.text() == "n"))
        .unwrap();
    // Digits type; any other key ends the input, as tmux.
    c.send_text("42x").unwrap();
    c.wait_for(|_| ok(&server, &["display", "-p", "-t", "p", "#W"]).trim() == "p-42")
        .unwrap();
    // set-buffer and list-buffers -f.
    ok(&server, &["set-buffer", "-b", "keep", "kept text"]);
    ok(&server, &["set-buffer", "-b", "other", "x"]);
    let names = ok(
        &server,
        &[
            "list-buffers",
            "-F",
            "#{buffer_name}",
            "-f",
            "#{==:#{buffer_name},keep}",
        ],
    );
    assert_eq!(names.trim(), "keep");
    // swap-pane -Z keeps the window zoomed.
    let second = split_pane(&server, &["-t", "p"]);
    ok(&server, &["resize-pane", "-Z", "-t", &second]);
    ok(&server, &["swap-pane", "-Z", "-s", &second, "-t", "p:0.0"]);
    let zoomed = ok(
        &server,
        &["display", "-p", "-t", "p", "#{window_zoomed_flag}"],
    );
    assert_eq!(zoomed.trim(), "1");
    // respawn-pane -e: the pane keeps its place and its id, as in tmux.
    let index = ok(
        &server,
        &[
            "display",
            "-p",
            "-t",
            &second,
            "#{window_index}.#{pane_index}",
        ],
    );
    let place = format!("p:{}", index.trim());
    ok(
        &server,
        &[
            "respawn-pane",
            "-k",
            "-e",
            "AGAIN=respawned-env",
            "-t",
            &second,
            "--",
            "sh",
            "-c",
            "echo $AGAIN; exec sleep 60",
        ],
    );
    let out = server.weft(&["wait", "-t", &place, "--text", "respawned-env"]);
    assert!(out.status.success(), "{out:?}");
    let id = ok(&server, &["display", "-p", "-t", &place, "#D"]);
    assert_eq!(id.trim(), second, "the same id");
    // Again by that id, as scripts do; the pane lives on with the new program.
    ok(
        &server,
        &[
            "respawn-pane",
            "-k",
            "-t",
            &second,
            "--",
            "sh",
            "-c",
            "echo again-$((5*5)); exec sleep 60",
        ],
    );
    let out = server.weft(&["wait", "-t", &second, "--text", "again-25"]);
    assert!(out.status.success(), "{out:?}");
    assert!(ok(&server, &["list-panes", "-t", "p", "-F", "#D"]).contains(&second));
}

#[test]
fn send_keys_r_clears_the_pane_and_its_modes_keeping_the_history() {
    let server = TestServer::new("sendr");
    let mut c = weft_tests::attached_session(&server, "r", None);
    // A program left the keypad and cursor keys in application mode and a line on screen.
    c.send_text("printf '\\033[?1h\\033=KEPT%s\\n' $((6*7))\r")
        .unwrap();
    c.wait_for_text("KEPT42").unwrap();
    c.wait_for(|s| s.modes().application_cursor).unwrap();
    // As the common binding does: `bind C-k send-keys -R \; send-keys C-l`.
    ok(&server, &["send-keys", "-R", "-t", "r"]);
    c.wait_for(|s| !s.text().contains("KEPT42") && !s.modes().application_cursor)
        .unwrap();
    let history = ok(&server, &["capture-pane", "-p", "-S", "-", "-t", "r"]);
    assert!(history.contains("KEPT42"), "{history}");
    // Keys after -R in the same command are typed once the state is reset.
    ok(
        &server,
        &["send-keys", "-R", "-t", "r", "echo after-$((6*7))", "Enter"],
    );
    c.wait_for_text("after-42").unwrap();
}

#[test]
fn capture_pane_a_captures_the_screen_under_the_alternate_one() {
    let server = TestServer::new("capa");
    let mut c = weft_tests::attached_session(&server, "a", None);
    c.send_text("echo MAIN-$((6*7))\r").unwrap();
    c.wait_for_text("MAIN-42").unwrap();
    // Without an alternate screen, -a has nothing to capture; -q keeps quiet about it.
    let out = server.weft(&["capture-pane", "-p", "-a", "-t", "a"]);
    assert!(!out.status.success());
    assert!(
        stderr_of(&out).contains("not in its alternate screen"),
        "{out:?}"
    );
    assert_eq!(
        ok(&server, &["capture-pane", "-p", "-a", "-q", "-t", "a"]),
        ""
    );
    let buffers = ok(&server, &["list-buffers"]);
    ok(
        &server,
        &["capture-pane", "-a", "-q", "-b", "none", "-t", "a"],
    );
    assert_eq!(
        ok(&server, &["list-buffers"]),
        buffers,
        "nothing captured, no buffer"
    );
    c.send_text("printf '\\033[?1049h\\033[HFULL-%s' $((6*7)); sleep 30\r")
        .unwrap();
    c.wait_for_text("FULL-42").unwrap();
    let shown = ok(&server, &["capture-pane", "-p", "-t", "a"]);
    assert!(
        shown.contains("FULL-42") && !shown.contains("MAIN-42"),
        "{shown}"
    );
    let covered = ok(&server, &["capture-pane", "-p", "-a", "-t", "a"]);
    assert!(
        covered.contains("MAIN-42") && !covered.contains("FULL-42"),
        "{covered}"
    );
}

#[test]
fn display_panes_n_leaves_the_keys_to_the_pane() {
    let server = TestServer::new("dispn");
    let mut c = weft_tests::attached_session(&server, "n", None);
    // Without -N the first key only closes the numbers (a digit would pick a pane); with -N
    // it closes them and reaches the shell, as tmux's overlay that takes no keys.
    ok(&server, &["bind", "Q", "display-panes", "-N", "-d", "0"]);
    c.send_keys("C-b Q").unwrap();
    c.wait_for_text("███").unwrap();
    c.send_text("echo typed-$((6*7))\r").unwrap();
    c.wait_for(|_| {
        ok(&server, &["capture-pane", "-p", "-t", "n"])
            .lines()
            .any(|l| l == "typed-42")
    })
    .unwrap();
    c.wait_for(|s| !s.text().contains("███")).unwrap();
    let typed = ok(&server, &["capture-pane", "-p", "-t", "n"]);
    assert!(
        typed.contains("$ echo typed-$((6*7))"),
        "the first key too: {typed}"
    );
}
