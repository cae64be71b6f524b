//! Moving between sessions without detaching, as a tmux user does: switch-client from its keys,
//! the prompt and the command line; rename-session; new -A; attach -d; detach -a; list-clients.

use weft_testkit::TestTerminal;
use weft_tests::{detached_session, json_list, stderr_of, stdout_of, TestServer, TEST_SHELL};

/// Waits until the client's status line shows session `name`.
fn wait_session(client: &mut TestTerminal, name: &str) {
    let tag = format!("[{name}]");
    client
        .wait_until(&format!("status line {tag}"), |s| {
            s.text().lines().last().is_some_and(|l| l.starts_with(&tag))
        })
        .unwrap();
}

/// Types a command at the `:` prompt.
fn prompt(client: &mut TestTerminal, line: &str) {
    client.send_keys("C-b :").unwrap();
    client
        .wait_for(|s| s.text().lines().last().is_some_and(|l| l.starts_with(':')))
        .unwrap();
    client.send_text(line).unwrap();
    client.send_keys("Enter").unwrap();
}

/// The names of the clients `list-clients --json` shows, with their sessions.
fn clients(server: &TestServer) -> Vec<(String, String)> {
    json_list(server, &["list-clients", "--json"])
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["session"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn switch_between_three_sessions_with_the_keys_the_prompt_and_the_cli() {
    let server = TestServer::new("switch");
    for name in ["one", "two", "three"] {
        detached_session(&server, name);
    }
    let mut c = server.client(&["attach", "-t", "one"], 80, 24);
    wait_session(&mut c, "one");
    // Next and previous go by id and wrap; L goes back to the last one shown.
    c.send_keys("C-b )").unwrap();
    wait_session(&mut c, "two");
    c.send_keys("C-b )").unwrap();
    wait_session(&mut c, "three");
    c.send_keys("C-b )").unwrap();
    wait_session(&mut c, "one");
    c.send_keys("C-b (").unwrap();
    wait_session(&mut c, "three");
    c.send_keys("C-b L").unwrap();
    wait_session(&mut c, "one");
    // Keys reach the shell of the session shown.
    c.send_text("echo $((6*7))-in-one").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("42-in-one").unwrap();

    prompt(&mut c, "switch-client -t two");
    wait_session(&mut c, "two");

    // From the command line: the client of the session the command comes from.
    let out = server.weft(&["switch-client", "-t", "three"]);
    assert!(out.status.success(), "{out:?}");
    wait_session(&mut c, "three");
    let out = server.weft(&["switchc", "-p"]);
    assert!(out.status.success(), "{out:?}");
    wait_session(&mut c, "two");
    let listed = clients(&server);
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0].1, "two");
    let out = server.weft(&["switchc", "-c", &listed[0].0, "-t", "one"]);
    assert!(out.status.success(), "{out:?}");
    wait_session(&mut c, "one");
    let ls = stdout_of(&server.weft(&["ls"]));
    let attached: Vec<&str> = ls.lines().filter(|l| l.ends_with("(attached)")).collect();
    assert_eq!(attached.len(), 1, "{ls}");
    assert!(attached[0].starts_with("one:"), "{ls}");
    assert!(ls.contains("(created "), "{ls}");

    let out = server.weft(&["switch-client", "-t", "nosuch"]);
    assert!(!out.status.success());
    assert!(stderr_of(&out).contains("nosuch"), "{out:?}");
}

#[test]
fn rename_session_from_the_key_and_the_cli() {
    let server = TestServer::new("rename");
    detached_session(&server, "old");
    let mut c = server.client(&["attach", "-t", "old"], 80, 24);
    wait_session(&mut c, "old");
    c.send_keys("C-b $").unwrap();
    c.wait_for(|s| s.text().lines().last().is_some_and(|l| l.contains("old")))
        .unwrap();
    c.send_keys("C-u").unwrap();
    c.send_text("work").unwrap();
    c.send_keys("Enter").unwrap();
    wait_session(&mut c, "work");
    let ls = stdout_of(&server.weft(&["ls"]));
    assert!(ls.starts_with("work:"), "{ls}");
    let out = server.weft(&["rename-session", "-t", "work", "play"]);
    assert!(out.status.success(), "{out:?}");
    wait_session(&mut c, "play");
    // A name that exists already is refused with a sentence.
    detached_session(&server, "other");
    let dup = server.weft(&["rename", "-t", "other", "play"]);
    assert!(!dup.status.success(), "{dup:?}");
    assert!(
        stderr_of(&dup).contains("duplicate session: play"),
        "{dup:?}"
    );
}

#[test]
fn new_session_and_kill_session_from_the_prompt() {
    let server = TestServer::new("newprompt");
    detached_session(&server, "first");
    let mut c = server.client(&["attach", "-t", "first"], 80, 24);
    wait_session(&mut c, "first");
    prompt(&mut c, "new-session -s second");
    wait_session(&mut c, "second");
    prompt(&mut c, "new -A -s first");
    wait_session(&mut c, "first");
    let pane = json_list(&server, &["list-panes", "-t", "second", "--json"])[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    prompt(&mut c, "kill-session -t second");
    // Returns once the session's program has exited (or at once if its session is gone).
    let _ = server.weft(&["wait", "-t", &pane, "--exit", "--timeout", "10"]);
    // The registry forgets the session just after its last program: each `ls` is a
    // condition check, not a timed wait.
    let gone = (0..100).any(|_| !stdout_of(&server.weft(&["ls"])).contains("second:"));
    assert!(gone, "kill-session from the prompt ends the session");
    assert!(stdout_of(&server.weft(&["ls"])).contains("first:"));
}

#[test]
fn new_a_attaches_when_the_session_exists() {
    let server = TestServer::new("newa");
    detached_session(&server, "main");
    let mut args = vec!["new", "-A", "-s", "main", "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut c = server.client(&args, 80, 24);
    wait_session(&mut c, "main");
    let ls = stdout_of(&server.weft(&["ls"]));
    assert_eq!(ls.lines().count(), 1, "no second session: {ls}");
    // Without the session, -A creates it.
    let mut args = vec!["new", "-A", "-s", "fresh", "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut d = server.client(&args, 80, 24);
    wait_session(&mut d, "fresh");
    assert_eq!(stdout_of(&server.weft(&["ls"])).lines().count(), 2);
}

#[test]
fn attach_d_and_detach_a_leave_one_client() {
    let server = TestServer::new("attachd");
    detached_session(&server, "s");
    let mut a = server.client(&["attach", "-t", "s"], 80, 24);
    wait_session(&mut a, "s");
    let mut b = server.client(&["attach", "-d", "-t", "s"], 80, 24);
    wait_session(&mut b, "s");
    a.wait_exit().unwrap();
    assert!(a.screen().text().contains("[detached (from session s)]"));
    assert_eq!(clients(&server).len(), 1);

    let mut c = server.client(&["attach", "-t", "s"], 80, 24);
    wait_session(&mut c, "s");
    let mut d = server.client(&["attach", "-t", "s"], 80, 24);
    wait_session(&mut d, "s");
    assert_eq!(clients(&server).len(), 3);
    prompt(&mut c, "detach-client -a");
    b.wait_exit().unwrap();
    d.wait_exit().unwrap();
    let left = clients(&server);
    assert_eq!(left.len(), 1, "{left:?}");

    // detach-client -t names one client, from the command line.
    let out = server.weft(&["detach-client", "-t", &left[0].0]);
    assert!(out.status.success(), "{out:?}");
    c.wait_exit().unwrap();
    assert!(clients(&server).is_empty());
    let lsc = server.weft(&["lsc"]);
    assert!(lsc.status.success(), "{lsc:?}");
}

/// Waits until the tree's selected row (`> ...`) contains `text`.
fn wait_selected(client: &mut TestTerminal, text: &str) {
    client
        .wait_until(&format!("selected {text:?}"), |s| {
            s.text()
                .lines()
                .any(|l| l.starts_with("> ") && l.contains(text))
        })
        .unwrap();
}

#[test]
fn choose_tree_navigates_previews_filters_kills_and_switches() {
    let server = TestServer::new("tree");
    for name in ["alpha", "beta", "gamma"] {
        detached_session(&server, name);
    }
    let sent = server.weft(&["send-keys", "-t", "beta", "echo tree-$((3*4))", "Enter"]);
    assert!(sent.status.success(), "{sent:?}");
    let waited = server.weft(&["wait", "-t", "beta", "--text", "tree-12"]);
    assert!(waited.status.success(), "{waited:?}");
    let renamed = server.weft(&["rename-window", "-t", "beta:0", "editor"]);
    assert!(renamed.status.success(), "{renamed:?}");
    let mut c = server.client(&["attach", "-t", "alpha"], 80, 30);
    wait_session(&mut c, "alpha");

    // Sessions collapsed, this client's selected; moving down previews beta's pane.
    c.send_keys("C-b s").unwrap();
    c.wait_for_text("choose-tree:").unwrap();
    wait_selected(&mut c, "alpha: 1 windows");
    c.send_keys("Down").unwrap();
    wait_selected(&mut c, "beta: 1 windows");
    c.wait_for_text("tree-12").unwrap();
    // The preview is live: new output shows without a key.
    let sent = server.weft(&["send-keys", "-t", "beta", "echo live-$((5*5))", "Enter"]);
    assert!(sent.status.success(), "{sent:?}");
    c.wait_for_text("live-25").unwrap();
    // Right expands to the windows, Left collapses.
    c.send_keys("Right").unwrap();
    c.wait_for_text("0: editor").unwrap();
    c.send_keys("Left").unwrap();
    c.wait_for(|s| !s.text().contains("0: editor")).unwrap();
    // x asks, y kills gamma.
    c.send_keys("j").unwrap();
    wait_selected(&mut c, "gamma");
    c.send_keys("x").unwrap();
    c.wait_for_text("(y/n)").unwrap();
    c.send_keys("y").unwrap();
    c.wait_for(|s| !s.text().contains("gamma:")).unwrap();
    // Escape leaves; Enter on beta switches to it.
    c.send_keys("Escape").unwrap();
    c.wait_for(|s| !s.text().contains("choose-tree")).unwrap();
    wait_session(&mut c, "alpha");
    c.send_keys("C-b s").unwrap();
    wait_selected(&mut c, "alpha");
    c.send_keys("Down Enter").unwrap();
    wait_session(&mut c, "beta");
    c.wait_for(|s| !s.text().contains("choose-tree")).unwrap();

    // Windows expanded; a filter keeps what matches.
    c.send_keys("C-b w").unwrap();
    wait_selected(&mut c, "0: editor*");
    c.send_keys("Up Up Up").unwrap();
    wait_selected(&mut c, "alpha: 1 windows");
    c.send_keys("f").unwrap();
    c.wait_for_text("(filter)").unwrap();
    c.send_text("edit").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("choose-tree (filter: edit)").unwrap();
    c.wait_for(|s| !s.text().contains("alpha:")).unwrap();
    c.send_keys("q").unwrap();
    c.wait_for(|s| !s.text().contains("choose-tree")).unwrap();
    assert!(!stdout_of(&server.weft(&["ls"])).contains("gamma"));
}

#[test]
fn choose_tree_takes_mouse_clicks() {
    let server = TestServer::new("treemouse");
    for name in ["left", "right"] {
        detached_session(&server, name);
    }
    let mut c = server.client(&["attach", "-t", "left"], 80, 24);
    wait_session(&mut c, "left");
    c.send_keys("C-b s").unwrap();
    wait_selected(&mut c, "left: 1 windows");
    // Row 0 is the header; "right" is on row 2 (1-based 3 in the SGR report).
    let click = b"\x1b[<0;5;3M\x1b[<0;5;3m";
    c.send_bytes(click).unwrap();
    wait_selected(&mut c, "right: 1 windows");
    c.send_bytes(click).unwrap();
    wait_session(&mut c, "right");
    // -N: no preview; the tree takes the window (no rule between it and a preview).
    let typed = server.weft(&["send-keys", "-t", "left", "echo in-left-$((2*21))", "Enter"]);
    assert!(typed.status.success(), "{typed:?}");
    let waited = server.weft(&["wait", "-t", "left", "--text", "in-left-42"]);
    assert!(waited.status.success(), "{waited:?}");
    c.send_keys("C-b :").unwrap();
    c.send_text("choose-tree -N").unwrap();
    c.send_keys("Enter").unwrap();
    wait_selected(&mut c, "right: 1 windows");
    c.send_keys("Up").unwrap();
    wait_selected(&mut c, "left: 1 windows");
    assert!(
        !c.screen().text().contains("in-left-42"),
        "{}",
        c.screen().text()
    );
    c.send_keys("q").unwrap();
}

#[test]
fn a_bigger_client_sees_a_pattern_beyond_the_session() {
    let server = TestServer::new("pattern");
    detached_session(&server, "s");
    let mut big = server.client(&["attach", "-t", "s"], 100, 30);
    wait_session(&mut big, "s");
    let mut small = server.client(&["attach", "-t", "s"], 80, 24);
    wait_session(&mut small, "s");
    // The session follows the client that typed last: the small one.
    small.send_text("echo small-$((8*8))").unwrap();
    small.send_keys("Enter").unwrap();
    small.wait_for_text("small-64").unwrap();
    big.wait_for(|s| {
        let text = s.text();
        let lines: Vec<&str> = text.lines().collect();
        lines
            .first()
            .is_some_and(|l| l.chars().nth(90) == Some('·'))
            && lines.get(27).is_some_and(|l| l.starts_with('·'))
    })
    .unwrap();
}

#[test]
fn list_panes_and_windows_across_the_session_and_the_server() {
    let server = TestServer::new("listall");
    detached_session(&server, "one");
    detached_session(&server, "two");
    assert!(server
        .weft(&["split-window", "-d", "-t", "one"])
        .status
        .success());
    assert!(server
        .weft(&["new-window", "-d", "-t", "one"])
        .status
        .success());
    let ids = |args: &[&str]| -> Vec<String> {
        json_list(&server, args)
            .iter()
            .map(|p| p["id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(ids(&["list-panes", "-t", "one", "--json"]).len(), 2);
    assert_eq!(ids(&["list-panes", "-s", "-t", "one", "--json"]).len(), 3);
    let every = ids(&["list-panes", "-a", "--json"]);
    assert_eq!(every.len(), 4, "{every:?}");
    let named = stdout_of(&server.weft(&["list-panes", "-a", "-F", "#{session_name}"]));
    assert_eq!(
        named.lines().collect::<Vec<_>>(),
        ["one", "one", "one", "two"]
    );
    let plain = stdout_of(&server.weft(&["list-panes", "-a"]));
    assert!(
        plain.lines().any(|l| l.starts_with("one:1.0: [")),
        "{plain}"
    );
    assert!(
        plain.lines().any(|l| l.starts_with("two:0.0: [")),
        "{plain}"
    );
    assert_eq!(ids(&["list-windows", "-a", "--json"]).len(), 3);
    let windows = stdout_of(&server.weft(&["lsw", "-a"]));
    assert!(
        windows.lines().any(|l| l.starts_with("two:0: ")),
        "{windows}"
    );
}

#[test]
fn detach_on_destroy_shows_another_session_when_the_shown_one_ends() {
    let server = TestServer::new("dod");
    for name in ["one", "two", "three", "four"] {
        detached_session(&server, name);
    }
    let mut c = server.client(&["attach", "-t", "one"], 80, 24);
    wait_session(&mut c, "one");
    // off: the session shown before.
    assert!(server
        .weft(&["set", "-g", "detach-on-destroy", "off"])
        .status
        .success());
    prompt(&mut c, "switch-client -t three");
    wait_session(&mut c, "three");
    assert!(server
        .weft(&["kill-session", "-t", "three"])
        .status
        .success());
    wait_session(&mut c, "one");
    // next: the one after it by id.
    assert!(server
        .weft(&["set", "-g", "detach-on-destroy", "next"])
        .status
        .success());
    assert!(server.weft(&["kill-session", "-t", "one"]).status.success());
    wait_session(&mut c, "two");
    c.send_text("echo $((6*8))-in-two").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("48-in-two").unwrap();
    // on (tmux's default): the client leaves with the session.
    assert!(server
        .weft(&["set", "-g", "detach-on-destroy", "on"])
        .status
        .success());
    assert!(server.weft(&["kill-session", "-t", "two"]).status.success());
    c.wait_for_text("[exited]").unwrap();
    assert_eq!(c.wait_exit().unwrap().code, 0);
    let ls = stdout_of(&server.weft(&["ls"]));
    assert!(ls.starts_with("four:"), "{ls}");
}

/// A client of session `name` started by `sh -c`, which runs `then` after the client ends.
fn client_under_sh(server: &TestServer, name: &str, then: &str) -> TestTerminal {
    let line = format!(
        "'{}' -S '{}' attach -t {name}; {then}",
        weft_tests::weft_binary().display(),
        server.socket.display()
    );
    let mut builder = TestTerminal::spawn(["sh", "-c", line.as_str()]).size(80, 24);
    for (k, v) in weft_tests::TEST_ENV {
        builder = builder.env(*k, *v);
    }
    let mut client = builder.start().unwrap();
    client.wait_for_text("$").unwrap();
    client
}

#[test]
fn detach_p_hangs_up_the_shell_and_detach_e_runs_a_command_instead() {
    let server = TestServer::new("detachpe");
    detached_session(&server, "pe");
    // -P: the shell the client was started from is hung up (it never gets to its next line).
    let mut c = client_under_sh(&server, "pe", "echo shell-went-on-$((6*7)); sleep 5");
    let out = server.weft(&["detach-client", "-P", "-s", "pe"]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    let exit = c.wait_exit().unwrap();
    assert_eq!(exit.code, 128 + 1, "the shell ended by SIGHUP");
    let text = c.screen().text();
    assert!(
        text.contains("[detached and SIGHUP (from session pe)]"),
        "{text}"
    );
    assert!(!text.contains("shell-went-on-42"), "{text}");
    // -E: the command runs in the client's place, on its terminal.
    let mut c = client_under_sh(&server, "pe", "echo after-client-$((6*7))");
    let out = server.weft(&[
        "detach-client",
        "-E",
        "echo instead-of-$((6*7))",
        "-s",
        "pe",
    ]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    c.wait_for_text("after-client-42").unwrap();
    let text = c.screen().text();
    assert!(text.contains("instead-of-42"), "{text}");
    assert!(!text.contains("[detached"), "{text}");
}
