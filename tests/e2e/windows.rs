//! Arranging windows as a tmux user does: move-window (and -r), swap-window, `C-b .`,
//! find-window (`C-b f`), and the base-index and renumber-windows options.

use weft_testkit::TestTerminal;
use weft_tests::{json_list, stderr_of, stdout_of, TestServer, TEST_SHELL};

/// `(index, name)` of each window of `session`, in order.
fn windows(server: &TestServer, session: &str) -> Vec<(u64, String)> {
    json_list(server, &["list-windows", "-t", session, "--json"])
        .iter()
        .map(|w| {
            (
                w["index"].as_u64().unwrap(),
                w["name"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn pairs(list: &[(u64, &str)]) -> Vec<(u64, String)> {
    list.iter().map(|(i, n)| (*i, n.to_string())).collect()
}

/// Runs `weft ARGS`, which must succeed.
fn ok(server: &TestServer, args: &[&str]) {
    let out = server.weft(args);
    assert!(out.status.success(), "{args:?}: {out:?}");
}

/// A detached session `name` with windows named `names`, each a plain shell.
fn session_with_windows(server: &TestServer, config: Option<&str>, name: &str, names: &[&str]) {
    let mut args: Vec<&str> = Vec::new();
    if let Some(c) = config {
        args.extend(["-f", c]);
    }
    args.extend(["new", "-d", "-s", name, "--"]);
    args.extend_from_slice(TEST_SHELL);
    ok(server, &args);
    ok(
        server,
        &["rename-window", "-t", &format!("{name}:"), names[0]],
    );
    for n in &names[1..] {
        let mut args = vec!["new-window", "-d", "-t", name, "-n", n, "--"];
        args.extend_from_slice(TEST_SHELL);
        ok(server, &args);
    }
}

#[test]
fn move_renumber_and_swap_windows() {
    let server = TestServer::new("movew");
    session_with_windows(&server, None, "w", &["one", "two", "three"]);
    assert_eq!(
        windows(&server, "w"),
        pairs(&[(0, "one"), (1, "two"), (2, "three")])
    );
    ok(&server, &["move-window", "-s", "w:2", "-t", "w:5"]);
    assert_eq!(
        windows(&server, "w"),
        pairs(&[(0, "one"), (1, "two"), (5, "three")])
    );
    let busy = server.weft(&["movew", "-s", "w:0", "-t", "w:1"]);
    assert!(
        stderr_of(&busy).contains("window index 1 is in use"),
        "{busy:?}"
    );
    ok(&server, &["movew", "-r", "-t", "w:"]);
    assert_eq!(
        windows(&server, "w"),
        pairs(&[(0, "one"), (1, "two"), (2, "three")])
    );
    ok(&server, &["swap-window", "-s", "w:0", "-t", "w:2"]);
    assert_eq!(
        windows(&server, "w"),
        pairs(&[(0, "three"), (1, "two"), (2, "one")])
    );
    ok(&server, &["swapw", "-d", "-s", "w:one", "-t", "w:1"]);
    assert_eq!(
        windows(&server, "w"),
        pairs(&[(0, "three"), (1, "one"), (2, "two")])
    );

    // C-b . asks for an index and moves the current window there.
    let mut c = server.client(&["attach", "-t", "w"], 80, 24);
    c.wait_for(|s| {
        s.text()
            .lines()
            .last()
            .is_some_and(|l| l.starts_with("[w]"))
    })
    .unwrap();
    let current = json_list(&server, &["list-windows", "-t", "w", "--json"])
        .iter()
        .find(|w| w["active"].as_bool().unwrap())
        .map(|w| w["name"].as_str().unwrap().to_string())
        .unwrap();
    c.send_keys("C-b .").unwrap();
    c.wait_for_text("(move-window) index:").unwrap();
    c.send_text("7").unwrap();
    c.send_keys("Enter").unwrap();
    let tab = format!("7:{current}*");
    c.wait_for_text(&tab).unwrap();
}

#[test]
fn find_window_matches_names_and_visible_text() {
    let server = TestServer::new("findw");
    session_with_windows(&server, None, "f", &["main", "logs", "notes"]);
    ok(
        &server,
        &["send-keys", "-t", "f:logs", "echo needle-$((6*7))", "Enter"],
    );
    ok(&server, &["wait", "-t", "f:logs", "--text", "needle-42"]);
    let mut c: TestTerminal = server.client(&["attach", "-t", "f"], 80, 24);
    c.wait_for_text("0:main*").unwrap();
    c.send_keys("C-b f").unwrap();
    c.wait_for_text("(find-window)").unwrap();
    c.send_text("needle-42").unwrap();
    c.send_keys("Enter").unwrap();
    // The message covers the status line; the window shown is the one with the text.
    c.wait_for_text("find-window: 1 matched (1:logs)").unwrap();
    c.wait_for(|s| s.text().lines().any(|l| l == "needle-42"))
        .unwrap();
    // By name, from the command line.
    let out = server.weft(&["findw", "-t", "f", "note"]);
    assert!(out.status.success(), "{out:?}");
    let active: Vec<String> = json_list(&server, &["list-windows", "-t", "f", "--json"])
        .iter()
        .filter(|w| w["active"].as_bool().unwrap())
        .map(|w| w["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(active, ["notes"]);
    let none = server.weft(&["find-window", "-t", "f", "no-such-text-anywhere"]);
    assert!(!none.status.success());
    assert!(stderr_of(&none).contains("no window matches"), "{none:?}");
    // -N looks at names only: the text on the logs window is not one.
    let out = server.weft(&["find-window", "-N", "-t", "f", "needle"]);
    assert!(!out.status.success(), "{out:?}");
    // -C at the text only, and -r takes a regular expression.
    let out = server.weft(&["find-window", "-Cr", "-t", "f", "needle-[0-9]+"]);
    assert!(out.status.success(), "{out:?}");
    assert!(stdout_of(&out).contains("1:logs"), "{out:?}");
}

#[test]
fn base_index_and_renumber_windows_from_the_configuration() {
    let server = TestServer::new("baseidx");
    let config = server.dir.join("weft.toml");
    std::fs::write(&config, "base-index = 1\nrenumber-windows = true\n").unwrap();
    let config = config.to_str().unwrap().to_string();
    session_with_windows(&server, Some(&config), "b", &["a", "b", "c"]);
    assert_eq!(
        windows(&server, "b"),
        pairs(&[(1, "a"), (2, "b"), (3, "c")])
    );
    // kill-window returns once the window is gone: the listing right after is renumbered.
    ok(&server, &["kill-window", "-t", "b:2"]);
    assert_eq!(windows(&server, "b"), pairs(&[(1, "a"), (2, "c")]));
    // And so does kill-pane.
    ok(&server, &["split-window", "-t", "b:1"]);
    let panes = json_list(&server, &["list-panes", "-t", "b:1", "--json"]);
    assert_eq!(panes.len(), 2);
    let id = panes[1]["id"].as_str().unwrap().to_string();
    ok(&server, &["kill-pane", "-t", &id]);
    let left = json_list(&server, &["list-panes", "-t", "b:1", "--json"]);
    assert_eq!(left.len(), 1, "{left:?}");
    assert_ne!(left[0]["id"].as_str().unwrap(), id);
}

#[test]
fn a_long_window_list_keeps_the_current_window_and_takes_clicks() {
    let server = TestServer::new("winlist");
    let mut args = vec!["new", "-d", "-s", "s", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server, &args);
    for _ in 1..30 {
        ok(&server, &["new-window", "-d", "-t", "s", "--", "cat"]);
    }
    assert_eq!(windows(&server, "s").len(), 30);
    let mut c = server.client(&["attach", "-t", "s"], 80, 24);
    let status = |s: &weft_testkit::Screen| s.text().lines().last().unwrap_or("").to_string();
    c.wait_for(|s| status(s).starts_with("[s]  0:bash*"))
        .unwrap();
    c.wait_for(|s| status(s).contains('>')).unwrap();
    ok(&server, &["select-window", "-t", "s:25"]);
    c.wait_for(|s| {
        let line = status(s);
        line.contains("25:cat*") && line.starts_with("[s] <")
    })
    .unwrap();
    ok(&server, &["select-window", "-t", "s:29"]);
    c.wait_for(|s| status(s).contains("29:cat*")).unwrap();

    // A click on a tab selects its window.
    let line = status(c.screen());
    let col = line.find("27:cat").unwrap();
    let click = format!("\x1b[<0;{};24M\x1b[<0;{};24m", col + 2, col + 2);
    c.send_bytes(click.as_bytes()).unwrap();
    c.wait_for(|s| status(s).contains("27:cat*")).unwrap();
}

#[test]
fn automatic_rename_follows_the_foreground_program() {
    let server = TestServer::new("autoname");
    let mut args = vec!["new", "-d", "-s", "a", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server, &args);
    let mut c = server.client(&["attach", "-t", "a"], 80, 24);
    let status = |s: &weft_testkit::Screen| s.text().lines().last().unwrap_or("").to_string();
    c.wait_for(|s| status(s).contains("0:bash*")).unwrap();
    c.send_text("sleep 1000").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| status(s).contains("0:sleep*")).unwrap();
    c.send_keys("C-c").unwrap();
    c.wait_for(|s| status(s).contains("0:bash*")).unwrap();
    // A name given by hand stays.
    ok(&server, &["rename-window", "-t", "a:0", "mine"]);
    c.wait_for(|s| status(s).contains("0:mine*")).unwrap();
    c.send_text("sleep 1000").unwrap();
    c.send_keys("Enter").unwrap();
    // The second sleep runs in the foreground (its name is not shown: the window keeps its
    // own); a C-c before that reaches the shell instead and leaves sleep running.
    let foreground = || {
        stdout_of(&server.weft(&[
            "display-message",
            "-p",
            "-t",
            "a",
            "#{pane_current_command}",
        ]))
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while foreground().trim() != "sleep" {
        assert!(
            std::time::Instant::now() < deadline,
            "sleep never ran: {}",
            foreground()
        );
    }
    c.send_keys("C-c").unwrap();
    // The shell's prompt again before typing: keys typed while the interrupted program is
    // still going may be thrown away with it.
    c.wait_for(|s| {
        let t = s.text();
        t.matches("^C").count() == 2 && t.lines().any(|l| l.trim_end() == "$")
    })
    .unwrap();
    c.send_text("echo done-$((5*9))").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("done-45").unwrap();
    assert!(
        status(c.screen()).contains("0:mine*"),
        "{}",
        status(c.screen())
    );
}

#[test]
fn new_window_a_inserts_after_the_current_window_moving_the_others_up() {
    let server = TestServer::new("neww-a");
    assert!(server
        .weft(&["new", "-d", "-s", "a", "--", "sleep", "60"])
        .status
        .success());
    for name in ["one", "two"] {
        assert!(server
            .weft(&[
                "new-window",
                "-d",
                "-t",
                "a",
                "-n",
                name,
                "--",
                "sleep",
                "60"
            ])
            .status
            .success());
    }
    let out = server.weft(&[
        "new-window",
        "-a",
        "-t",
        "a",
        "-n",
        "ins",
        "--",
        "sleep",
        "60",
    ]);
    assert!(out.status.success(), "{out:?}");
    let listed = stdout_of(&server.weft(&["list-windows", "-t", "a", "-F", "#I:#W"]));
    assert_eq!(
        listed.lines().collect::<Vec<_>>(),
        ["0:sleep", "1:ins", "2:one", "3:two"]
    );
}

#[test]
fn layout_keys_previous_layout_and_the_index_prompt() {
    let server = TestServer::new("layoutkeys");
    let mut args = vec!["new", "-s", "l", "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut c = server.client(&args, 80, 24);
    c.wait_for_text("$").unwrap();
    let mut split = vec!["split-window", "-d", "-h", "-t", "l", "--"];
    split.extend_from_slice(TEST_SHELL);
    ok(&server, &split);
    let sizes = |server: &TestServer| {
        stdout_of(&server.weft(&[
            "list-panes",
            "-t",
            "l",
            "-F",
            "#{pane_width}x#{pane_height}",
        ]))
    };
    // C-b M-2: even-vertical, the panes one above the other at full width.
    c.send_keys("C-b M-2").unwrap();
    c.wait_until("panes stacked", |_| {
        sizes(&server).lines().all(|l| l.starts_with("80x"))
    })
    .unwrap();
    // previous-layout from even-vertical is even-horizontal: side by side again.
    ok(&server, &["previous-layout", "-t", "l"]);
    let now = sizes(&server);
    assert!(now.lines().all(|l| !l.starts_with("80x")), "{now}");
    // C-b ' asks for an index and selects that window.
    ok(&server, &["new-window", "-d", "-t", "l"]);
    c.send_keys("C-b '").unwrap();
    c.wait_for(|s| {
        s.text()
            .lines()
            .last()
            .is_some_and(|l| l.starts_with("index"))
    })
    .unwrap();
    c.send_text("1").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_until("window 1 current", |s| {
        s.text()
            .lines()
            .last()
            .is_some_and(|l| l.contains("1:bash*"))
    })
    .unwrap();
}

#[test]
fn automatic_rename_shows_vim_and_then_the_shell_again() {
    if std::process::Command::new("vim")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("vim is not installed: skipped");
        return;
    }
    let server = TestServer::new("autoname-vim");
    let mut args = vec!["new", "-d", "-s", "v", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server, &args);
    let mut c = server.client(&["attach", "-t", "v"], 80, 24);
    let status = |s: &weft_testkit::Screen| s.text().lines().last().unwrap_or("").to_string();
    c.wait_for(|s| status(s).contains("0:bash*")).unwrap();
    c.send_text("vim -u NONE -N -i NONE -n").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| status(s).contains("0:vim*")).unwrap();
    // vim's empty buffer is drawn (its `~` lines) before it is told to quit.
    c.wait_for(|s| s.text().lines().filter(|l| l.starts_with('~')).count() > 5)
        .unwrap();
    // vim starts in normal mode (an Escape just before `:` would read as Alt-:).
    c.send_text(":q!").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| status(s).contains("0:bash*")).unwrap();
}

/// As in tmux, a command given as one word that is a shell line runs through the shell (its
/// `;`, quotes and variables work), and names the window after its first word.
#[test]
fn a_one_word_command_line_runs_through_the_shell() {
    let server = TestServer::new("shline");
    session_with_windows(&server, None, "s", &["one"]);
    // The name it starts with stays (not the program in the foreground later).
    ok(&server, &["set-option", "-g", "automatic-rename", "off"]);
    let out = server.weft(&[
        "new-window",
        "-P",
        "-F",
        "#{pane_id}",
        "-t",
        "s",
        "printf 'a  b|%s\\n' \"$((6 * 7))\"; echo second; exec sleep 30",
    ]);
    assert!(out.status.success(), "{out:?}");
    let pane = stdout_of(&out).trim().to_string();
    let waited = server.weft(&["wait", "-t", &pane, "--text", "second"]);
    assert!(waited.status.success(), "{waited:?}");
    let text = stdout_of(&server.weft(&["capture-pane", "-p", "-t", &pane]));
    assert!(text.contains("a  b|42"), "the shell ran the line: {text:?}");
    assert_eq!(windows(&server, "s")[1].1, "printf");
}

/// `automatic-rename-format` names a window by a format, expanded again when the program in
/// its active pane changes or says where it is (OSC 7).
#[test]
fn automatic_rename_format_names_windows_by_a_format() {
    let server = TestServer::new("autofmt");
    let conf = weft_tests::write_file(
        &server,
        "f.conf",
        "set -g automatic-rename-format '#{b:pane_current_path}:#{pane_current_command}'\n",
    );
    let mut args = vec!["-f", conf.to_str().unwrap(), "new", "-d", "-s", "a", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server, &args);
    let mut c = server.client(&["attach", "-t", "a"], 80, 24);
    let status = |s: &weft_testkit::Screen| s.text().lines().last().unwrap_or("").to_string();
    // Named by the format from the start (the tests' directory, the shell).
    c.wait_for(|s| status(s).contains(":bash*")).unwrap();
    // The program says where it is.
    c.send_text("printf '\\033]7;file://host/tmp/renamed-here\\007'; sleep 1000")
        .unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| status(s).contains("0:renamed-here:sleep*"))
        .unwrap();
    c.send_keys("C-c").unwrap();
    c.wait_for(|s| status(s).contains("0:renamed-here:bash*"))
        .unwrap();
}

/// `#{FORMAT}` for `target`.
fn shown(server: &TestServer, target: &str, format: &str) -> String {
    stdout_of(&server.weft(&["display", "-p", "-t", target, format]))
        .trim()
        .to_string()
}

#[test]
fn the_marked_pane_is_what_swap_pane_and_swap_window_take_by_default() {
    let server = TestServer::new("swapmarked");
    session_with_windows(&server, None, "s", &["one", "two"]);
    let first = shown(&server, "s:0", "#{pane_id}");
    let second = shown(&server, "s:1", "#{pane_id}");
    // Nothing marked: swap-pane has nothing to swap with.
    ok(&server, &["swap-pane", "-t", &first]);
    assert_eq!(shown(&server, &first, "#{window_index}"), "0");
    // Marked in window 1: swap-pane in window 0 trades places with it, across windows, and
    // each takes the focus of its new window.
    ok(&server, &["select-pane", "-m", "-t", &second]);
    ok(&server, &["swap-pane", "-t", &first]);
    assert_eq!(shown(&server, &first, "#{window_index}"), "1");
    assert_eq!(shown(&server, &second, "#{window_index}"), "0");
    assert_eq!(shown(&server, "s:0", "#{pane_id}"), second);
    // swap-window without -s takes the marked pane's window (now window 0) to -t.
    ok(&server, &["swap-window", "-d", "-t", "s:1"]);
    assert_eq!(windows(&server, "s"), pairs(&[(0, "two"), (1, "one")]));
    assert_eq!(shown(&server, &second, "#{window_index}"), "1");
}
