//! The command table through each way in: the CLI, the `:` prompt, key bindings, and help.

use serde_json::Value;
use weft_testkit::TestTerminal;
use weft_tests::{stderr_of, stdout_of, TestServer, TEST_SHELL};

fn session(server: &TestServer, name: &str) -> TestTerminal {
    let mut args = vec!["new", "-s", name, "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut client = server.client(&args, 80, 24);
    client.wait_for_text("$").expect("prompt");
    client
}

fn windows(server: &TestServer) -> Vec<Value> {
    weft_tests::json_list(server, &["list-windows", "--json"])
}

/// The status line's text (the last row).
fn status(screen: &weft_testkit::Screen) -> String {
    screen
        .row(screen.rows() - 1)
        .map(|r| r.text())
        .unwrap_or_default()
}

#[test]
fn help_and_the_command_list_come_from_the_table() {
    let out = weft_tests::run_weft(&["split-window", "--help"], b"");
    assert!(out.status.success(), "{out:?}");
    let help = stdout_of(&out);
    assert!(
        help.contains("usage: weft split-window [-bdfhvPZ] [-c start-directory]")
            && help.contains("splitw"),
        "{help}"
    );
    let out = weft_tests::run_weft(&["bogus-command"], b"");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        stderr_of(&out).contains("unknown command: bogus-command"),
        "{out:?}"
    );
    let server = TestServer::new("lscm");
    let out = server.weft(&["new", "-d", "-s", "x", "--", "sleep", "30"]);
    assert!(out.status.success(), "{out:?}");
    let list = stdout_of(&server.weft(&["list-commands"]));
    for name in [
        "split-window (splitw)",
        "send-keys (send)",
        "list-sessions (ls)",
        "kill-server",
    ] {
        assert!(list.contains(name), "{name} missing from:\n{list}");
    }
}

#[test]
fn errors_are_sentences_with_the_right_status() {
    let server = TestServer::new("errs");
    let out = server.weft(&["new", "-d", "-s", "e", "--", "sleep", "30"]);
    assert!(out.status.success(), "{out:?}");
    let out = server.weft(&["set", "-g", "mouse", "sometimes"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = stderr_of(&out);
    assert!(
        err.contains("mouse: on or off, not \"sometimes\"") && !err.contains('{'),
        "{err}"
    );
    let out = server.weft(&["kill-pane", "-x"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        stderr_of(&out)
            .contains("kill-pane: unknown flag -x; usage: kill-pane [-a] [-t target-pane]"),
        "{out:?}"
    );
}

#[test]
fn new_window_with_a_target_that_names_nothing_creates_nothing() {
    let server = TestServer::new("nwtgt");
    let out = server.weft(&["new", "-d", "-s", "w", "--", "sleep", "30"]);
    assert!(out.status.success(), "{out:?}");
    let out = server.weft(&["new-window", "-t", "nosuch", "--", "sleep", "30"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        stderr_of(&out).contains("can't find window: nosuch"),
        "{out:?}"
    );
    assert_eq!(windows(&server).len(), 1);
    // A free index is a target new-window accepts; a taken one is refused.
    let out = server.weft(&["new-window", "-d", "-t", "w:5", "--", "sleep", "30"]);
    assert!(out.status.success(), "{out:?}");
    let indexes: Vec<u64> = windows(&server)
        .iter()
        .map(|w| w["index"].as_u64().unwrap())
        .collect();
    assert_eq!(indexes, [0, 5]);
    let out = server.weft(&["new-window", "-t", "w:5", "--", "sleep", "30"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(stderr_of(&out).contains("index 5 is in use"), "{out:?}");
}

#[test]
fn the_prompt_runs_commands_and_shows_their_output() {
    let server = TestServer::new("prompt");
    let mut c = session(&server, "p");
    c.send_keys("C-b :").unwrap();
    c.wait_for(|s| status(s) == ":").unwrap();
    c.send_text("rename-window typed").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| s.text().contains("0:typed*")).unwrap();
    // A listing covers the window until the next key.
    c.send_keys("C-b :").unwrap();
    c.send_text("list-windows").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("0: typed* (1 panes)").unwrap();
    c.send_keys("q").unwrap();
    c.wait_for(|s| !s.text().contains("(1 panes)")).unwrap();
    // An error is one line in the status line.
    c.send_keys("C-b :").unwrap();
    c.send_text("nonsense").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| status(s).contains("unknown command: nonsense"))
        .unwrap();
}

#[test]
fn the_prompt_takes_vi_keys_with_status_keys_vi() {
    let server = TestServer::new("promptvi");
    let mut c = session(&server, "v");
    let out = server.weft(&["set", "-g", "status-keys", "vi"]);
    assert!(
        out.status.success() && stderr_of(&out).is_empty(),
        "{out:?}"
    );
    c.send_keys("C-b :").unwrap();
    c.wait_for(|s| status(s) == ":").unwrap();
    // Typing inserts; Escape switches to vi's command keys, shown in message-command-style
    // (yellow on black), where 0 goes home and x deletes.
    c.send_text("xxrename-window vi-typed").unwrap();
    c.wait_for(|s| status(s).contains("vi-typed")).unwrap();
    c.send_keys("Escape").unwrap();
    c.expect_style(23, 0..4)
        .fg(weft_testkit::Color::Indexed(3))
        .bg(weft_testkit::Color::Indexed(0))
        .wait()
        .unwrap();
    c.send_text("0xx").unwrap();
    c.wait_for(|s| status(s) == ":rename-window vi-typed")
        .unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| s.text().contains("0:vi-typed*")).unwrap();
    // q in the command keys cancels, as tmux's.
    c.send_keys("C-b :").unwrap();
    c.send_text("kill-server").unwrap();
    c.send_keys("Escape").unwrap();
    c.send_text("q").unwrap();
    c.wait_for(|s| status(s).contains("0:vi-typed*")).unwrap();
    assert!(server.weft(&["has-session", "-t", "v"]).status.success());
}

#[test]
fn start_server_messages_and_the_prompt_history() {
    let server = TestServer::new("msglog");
    // start-server starts one with no session; a second finds it running.
    for _ in 0..2 {
        let out = server.weft(&["start-server"]);
        assert!(out.status.success(), "{out:?}");
    }
    let out = server.weft(&["list-sessions"]);
    assert!(
        out.status.success() && stdout_of(&out).is_empty(),
        "{out:?}"
    );
    let mut c = session(&server, "m");
    c.send_keys("C-b :").unwrap();
    c.wait_for(|s| status(s) == ":").unwrap();
    c.send_text("display-message logged-#S").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| status(s).contains("logged-m")).unwrap();
    let log = stdout_of(&server.weft(&["show-messages"]));
    assert!(
        log.lines().any(|l| l.ends_with(" logged-m")),
        "the message with its time: {log}"
    );
    c.send_keys("C-b :").unwrap();
    c.wait_for(|s| status(s) == ":").unwrap();
    c.send_text("rename-window from-prompt").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| s.text().contains("0:from-prompt*")).unwrap();
    let history = stdout_of(&server.weft(&["show-prompt-history"]));
    assert!(
        history.contains("1: display-message logged-#S\n2: rename-window from-prompt"),
        "{history}"
    );
    assert!(server.weft(&["clear-prompt-history"]).status.success());
    let history = stdout_of(&server.weft(&["show-prompt-history"]));
    assert!(!history.contains("from-prompt"), "{history}");
}

#[test]
fn rename_window_prompt_starts_from_the_current_name() {
    let server = TestServer::new("renprompt");
    let mut c = session(&server, "r");
    c.send_keys("C-b ,").unwrap();
    c.wait_for(|s| status(s).starts_with("(rename-window) bash"))
        .unwrap();
    c.send_keys("C-u").unwrap();
    c.send_text("my \"quoted\" name").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| s.text().contains("0:my \"quoted\" name*"))
        .unwrap();
    assert_eq!(windows(&server)[0]["name"], "my \"quoted\" name");
}

#[test]
fn detach_all_others_from_the_prompt_keeps_the_client_that_typed_it() {
    let server = TestServer::new("detacha");
    let mut first = session(&server, "d");
    let mut second = server.client(&["attach", "-t", "d"], 80, 24);
    second.wait_for_text("$").unwrap();
    first.send_keys("C-b :").unwrap();
    first.send_text("detach -a").unwrap();
    first.send_keys("Enter").unwrap();
    let exit = second.wait_exit().unwrap();
    assert_eq!(exit.code, 0);
    assert!(
        second
            .screen()
            .text()
            .contains("[detached (from session d)]"),
        "{}",
        second.screen().text()
    );
    // The client that typed it is still attached and working.
    first.send_text("echo still-$((20+3))").unwrap();
    first.send_keys("Enter").unwrap();
    first.wait_for_text("still-23").unwrap();
    let ls = stdout_of(&server.weft(&["ls"]));
    assert!(ls.contains("(attached)"), "{ls}");
}

#[test]
fn the_key_list_scrolls_searches_and_closes_only_on_q() {
    let server = TestServer::new("pager");
    let mut c = session(&server, "pg");
    c.send_keys("C-b ?").unwrap();
    c.wait_for_text("q closes").unwrap();
    let first = c.screen().row(0).map(|r| r.text()).unwrap_or_default();
    c.send_keys("PageDown").unwrap();
    c.wait_for(|s| s.row(0).map(|r| r.text()).unwrap_or_default() != first)
        .unwrap();
    // A search puts the first line holding it at the top.
    c.send_keys("/").unwrap();
    c.send_text("rotate-window").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| {
        s.row(0)
            .map(|r| r.text())
            .is_some_and(|t| t.contains("rotate-window"))
    })
    .unwrap();
    // Other keys keep the list open and never reach the shell.
    c.send_text("x").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("q closes").unwrap();
    c.send_keys("q").unwrap();
    c.wait_for(|s| !s.text().contains("q closes")).unwrap();
    c.send_text("echo after-$((3*3))").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("after-9").unwrap();
    assert!(
        !c.screen().text().contains("xecho"),
        "a key pressed in the list reached the shell:\n{}",
        c.screen().text()
    );
}

#[test]
fn long_prompt_input_scrolls_to_keep_the_cursor_in_view() {
    let server = TestServer::new("longprompt");
    let mut c = session(&server, "lp");
    c.send_keys("C-b :").unwrap();
    c.wait_for(|s| status(s).starts_with(':')).unwrap();
    // Wider than the 80-column terminal: its start scrolls out, its end stays in view.
    let long = format!("display-message -p {}END", "x".repeat(100));
    c.send_text(&long).unwrap();
    c.wait_for(|s| status(s).trim_end().ends_with("xxEND"))
        .unwrap();
    let shown = status(c.screen());
    assert!(!shown.contains("display-message"), "{shown}");
    assert!(shown.chars().count() <= 80, "{shown}");
    // Home shows the start again.
    c.send_keys("C-a").unwrap();
    c.wait_for(|s| status(s).starts_with(":display-message"))
        .unwrap();
    c.send_keys("Escape").unwrap();
}

/// `weft ARGS`, which must succeed; what it printed.
fn succeeds(server: &TestServer, args: &[&str]) -> String {
    let out = server.weft(args);
    assert!(out.status.success(), "{args:?}: {out:?}");
    stdout_of(&out)
}

/// Flags the published configurations use: `select-pane -d`/`-e`, `new-window -S`,
/// `split-window -p 100`, `refresh-client -S`.
#[test]
fn input_off_select_existing_window_and_full_splits() {
    let server = TestServer::new("compatflags");
    let mut args = vec!["new", "-d", "-s", "c", "--"];
    args.extend_from_slice(TEST_SHELL);
    let ok = |args: &[&str]| succeeds(&server, args);
    ok(&args);
    ok(&["wait", "-t", "c", "--text", "$"]);
    // Input off: keys sent are dropped until it is on again.
    ok(&["select-pane", "-d", "-t", "c"]);
    assert_eq!(
        ok(&["display", "-p", "-t", "c", "#{pane_input_off}"]).trim(),
        "1"
    );
    ok(&["send-keys", "-t", "c", "-l", "dropped"]);
    ok(&["select-pane", "-e", "-t", "c"]);
    ok(&["send-keys", "-t", "c", "-l", "taken"]);
    ok(&["wait", "-t", "c", "--text", "taken"]);
    let text = ok(&["capture-pane", "-p", "-t", "c"]);
    assert!(!text.contains("dropped"), "{text}");
    // -S -n: the window of that name is selected, not made again.
    ok(&["new-window", "-d", "-t", "c", "-n", "logs"]);
    ok(&["new-window", "-S", "-t", "c", "-n", "logs"]);
    let names = ok(&[
        "list-windows",
        "-t",
        "c",
        "-F",
        "#{window_name}#{?window_active,*,}",
    ]);
    assert_eq!(names.lines().collect::<Vec<_>>()[1..], ["logs*"], "{names}");
    // -p 100: the new pane takes all it can; the other keeps its least (2 lines).
    let pane = ok(&[
        "split-window",
        "-t",
        "c",
        "-p",
        "100",
        "-P",
        "-F",
        "#{pane_id}",
    ]);
    let heights = ok(&["list-panes", "-t", "c", "-F", "#{pane_id} #{pane_height}"]);
    assert!(
        heights.contains(&format!("{} 20", pane.trim())),
        "{heights}"
    );
    ok(&["refresh-client", "-S", "-t", "c"]);
}

/// A marked pane (`select-pane -m`) is join-pane's source when none is named, shows in the
/// window's flags, and goes with its pane; a quoted string in a file may span lines.
#[test]
fn join_pane_takes_the_marked_pane_and_quotes_span_lines() {
    let server = TestServer::new("marked");
    let conf = weft_tests::write_file(
        &server,
        "m.conf",
        "set -g @multi \"first\n    second\"\nset -g @after yes\n",
    );
    let mut args = vec!["-f", conf.to_str().unwrap(), "new", "-d", "-s", "m", "--"];
    args.extend_from_slice(TEST_SHELL);
    let ok = |args: &[&str]| succeeds(&server, args);
    ok(&args);
    assert_eq!(ok(&["show", "-gv", "@multi"]), "first\nsecond\n");
    assert_eq!(ok(&["show", "-gv", "@after"]).trim(), "yes");
    let out = server.weft(&["join-pane", "-t", "m"]);
    assert!(stderr_of(&out).contains("no pane is marked"), "{out:?}");
    let second = ok(&["new-window", "-d", "-t", "m", "-P", "-F", "#{pane_id}"]);
    let second = second.trim();
    ok(&["select-pane", "-m", "-t", second]);
    let flags = ok(&["list-windows", "-t", "m", "-F", "#{window_flags}"]);
    assert_eq!(flags.lines().nth(1), Some("M"), "{flags}");
    assert_eq!(
        ok(&["display", "-p", "-t", second, "#{pane_marked}"]).trim(),
        "1"
    );
    ok(&["join-pane", "-h", "-t", "m:0"]);
    let panes = ok(&["list-panes", "-t", "m:0", "-F", "#{pane_id}"]);
    assert!(panes.lines().any(|p| p == second), "{panes}");
    assert_eq!(ok(&["list-windows", "-t", "m"]).lines().count(), 1);
    // Unmarked again (-m a second time), the window has no flag.
    ok(&["select-pane", "-m", "-t", second]);
    assert_eq!(
        ok(&["display", "-p", "-t", second, "#{pane_marked_set}"]).trim(),
        "0"
    );
}

/// Inside weft (a pane, or a job the server runs), `weft` commands find the server they run in
/// without `-S`, as tmux's commands find theirs by `$TMUX`.
#[test]
fn commands_inside_weft_find_their_own_server() {
    let server = TestServer::new("inside");
    let weft = weft_tests::weft_binary();
    let weft = weft.display();
    let mut args = vec!["new", "-d", "-s", "home", "--"];
    args.extend_from_slice(TEST_SHELL);
    succeeds(&server, &args);
    let line = format!("{weft} set -g @from-pane yes && echo set-$((6*7))");
    succeeds(&server, &["send-keys", "-t", "home", &line, "Enter"]);
    let out = server.weft(&["wait", "-t", "home", "--text", "set-42"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        succeeds(&server, &["show", "-gv", "@from-pane"]).trim(),
        "yes"
    );
    // A job: run-shell waits for it. It names no session; the server's most recent serves.
    let job = format!("{weft} set -g @from-job \"$({weft} display -p '#{{session_name}}')\"");
    succeeds(&server, &["run-shell", &job]);
    assert_eq!(
        succeeds(&server, &["show", "-gv", "@from-job"]).trim(),
        "home"
    );
}

/// A command line holds several commands, as tmux's does: `\;` as a word of its own or
/// written against the word before it (`tmux start-server\; show-environment -g`, which
/// plugin managers run); `\\;` keeps a literal `;`. Each command's text is a line of its own.
#[test]
fn a_command_line_runs_commands_separated_by_semicolons() {
    let server = TestServer::new("cliseq");
    succeeds(&server, &["new", "-d", "-s", "q", "--", "sleep", "60"]);
    succeeds(&server, &["set-environment", "-g", "PLUGINS", "/p"]);
    assert_eq!(
        succeeds(
            &server,
            &["start-server;", "show-environment", "-g", "PLUGINS"]
        ),
        "PLUGINS=/p\n"
    );
    assert_eq!(
        succeeds(
            &server,
            &["display", "-p", "one", ";", "display", "-p", "two;", "display", "-p", "three"]
        ),
        "one\ntwo\nthree\n"
    );
    assert_eq!(succeeds(&server, &["display", "-p", "kept\\;"]), "kept;\n");
    let out = server.weft(&["display", "-p", "x", ";", "no-such-command"]);
    assert!(!out.status.success());
    assert!(stderr_of(&out).contains("no-such-command"), "{out:?}");
    // What ran before a failing command is still printed, then why it failed.
    let out = server.weft(&["display", "-p", "one", ";", "kill-session", "-t", "nosuch"]);
    assert!(!out.status.success());
    assert_eq!(stdout_of(&out), "one\n");
    assert!(stderr_of(&out).contains("nosuch"), "{out:?}");
    // The reload idiom: each command's paths are its own.
    let conf = weft_tests::write_file(&server, "r.conf", "set -g @reloaded yes\n");
    let reload = [conf.to_str().unwrap(), ";", "display", "-p", "reloaded"];
    let mut args = vec!["source-file"];
    args.extend(reload);
    assert_eq!(succeeds(&server, &args), "reloaded\n");
    assert_eq!(succeeds(&server, &["show", "-gv", "@reloaded"]), "yes\n");
    // An if-shell's choice runs where the if-shell is, and every if-shell's does.
    let line = [
        "if",
        "true",
        "display -p one",
        ";",
        "if",
        "false",
        "",
        "display -p two",
        ";",
        "display",
        "-p",
        "three",
    ];
    assert_eq!(succeeds(&server, &line), "one\ntwo\nthree\n");
    // An alias that names itself through an if-shell is refused; the server goes on.
    succeeds(
        &server,
        &["set", "-s", "command-alias[101]", "loop=if -F 1 loop"],
    );
    let out = server.weft(&["loop"]);
    assert!(stderr_of(&out).contains("nest too deeply"), "{out:?}");
    assert_eq!(succeeds(&server, &["display", "-p", "alive"]), "alive\n");
    // A name several commands begin with is the server's to judge: it may be an alias.
    succeeds(
        &server,
        &["set", "-s", "command-alias[100]", "re=display -p aliased"],
    );
    assert_eq!(succeeds(&server, &["re"]), "aliased\n");
}
