//! What reaches the user's terminal besides frames: a pane's bell (`bell-action`,
//! `monitor-bell`) and the window's title (`set-titles`).

use weft_testkit::Event;
use weft_tests::{stdout_of, TestServer, TEST_SHELL};

fn ok(server: &TestServer, args: &[&str]) {
    let out = server.weft(args);
    assert!(out.status.success(), "{args:?}: {out:?}");
}

/// The bell flag of each window, in index order.
fn bell_flags(server: &TestServer) -> String {
    stdout_of(&server.weft(&["list-windows", "-t", "a", "-F", "#{window_bell_flag}"]))
        .split_whitespace()
        .collect()
}

#[test]
fn bells_ring_the_terminal_as_bell_action_says() {
    let server = TestServer::new("bells");
    let mut args = vec!["new", "-d", "-s", "a", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server, &args);
    let mut shell = vec!["new-window", "-d", "-t", "a", "--"];
    shell.extend_from_slice(TEST_SHELL);
    ok(&server, &shell);
    let mut c = server.client(&["attach", "-t", "a"], 80, 24);
    c.wait_for_text("$").unwrap();

    // `current`: a bell in another window flags it but does not ring.
    ok(&server, &["set", "-g", "bell-action", "current"]);
    ok(
        &server,
        &["send-keys", "-t", "a:1", "printf '\\a'", "Enter"],
    );
    let flagged = |s: &TestServer| bell_flags(s) == "01";
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !flagged(&server) {
        assert!(
            std::time::Instant::now() < deadline,
            "no bell flag: {}",
            bell_flags(&server)
        );
        // The flag is the session's; the pane's output reaches it in its own time.
        std::thread::yield_now();
    }
    // The status line shows the flag: the view that carries it would carry a ring too.
    c.wait_for(|s| s.text().lines().last().unwrap_or("").contains('!'))
        .unwrap();
    c.send_text("echo seen-$((2+2))").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("seen-4").unwrap();
    let rung = c
        .take_events()
        .into_iter()
        .filter(|e| *e == Event::Bell)
        .count();
    assert_eq!(rung, 0, "bell-action current rang for another window");

    // `any` (the default): it rings.
    ok(&server, &["set", "-g", "bell-action", "any"]);
    ok(
        &server,
        &["send-keys", "-t", "a:1", "printf '\\a'", "Enter"],
    );
    c.wait_for_event(|e| *e == Event::Bell).unwrap();
    // And in the current window, which is not flagged.
    c.send_text("printf '\\a'; echo rang-$((3+3))").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_event(|e| *e == Event::Bell).unwrap();
    c.wait_for_text("rang-6").unwrap();
    assert_eq!(bell_flags(&server), "01");
}

#[test]
fn set_titles_sends_the_window_title_cleaned() {
    let server = TestServer::new("titles");
    let mut args = vec!["new", "-d", "-s", "a", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server, &args);
    ok(&server, &["set", "-g", "set-titles", "on"]);
    ok(&server, &["set", "-g", "set-titles-string", "#S:#I #T"]);
    let mut c = server.client(&["attach", "-t", "a"], 80, 24);
    c.wait_for_text("$").unwrap();
    c.wait_for_event(|e| matches!(e, Event::TitleChanged(t) if t.starts_with("a:0 ")))
        .unwrap();
    // A program's title, with a bidirectional override and controls in it, arrives cleaned.
    c.send_text("printf '\\033]2;top\\342\\200\\256secret\\033\\\\'")
        .unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_event(|e| matches!(e, Event::TitleChanged(t) if t == "a:0 topsecret"))
        .unwrap();
}

#[test]
fn notifications_reach_terminals_that_show_them_at_most_one_a_second() {
    use weft_testkit::FakeTerminal;
    let env = [("TERM", "xterm-kitty")];
    let server = TestServer::new("notify");
    let mut args = vec!["new", "-s", "n", "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut c = server.client_answering(&args, 80, 24, &env, FakeTerminal::kitty());
    c.wait_for_text("$").unwrap();
    // Two at once: the second is within the second, dropped; a progress report is not limited.
    c.send_text("printf '\\033]9;build done\\007\\033]777;notify;T;again\\007\\033]9;4;1;50\\007'; echo sent-$((1+1))")
        .unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("sent-2").unwrap();
    // Both may arrive in one read: every event is looked at until both were seen.
    let mut seen: Vec<Event> = Vec::new();
    let notified = |seen: &[Event], text: &str| {
        seen.iter()
            .any(|e| matches!(e, Event::Notification(t) if t == text))
    };
    c.wait_for_event(|e| {
        seen.push(e.clone());
        notified(&seen, "9;build done") && notified(&seen, "9;4;1;50")
    })
    .unwrap();
    // A frame after them all: the dropped one never came.
    c.send_text("echo later-$((2+2))").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("later-4").unwrap();
    seen.extend(c.take_events());
    assert!(
        !seen
            .iter()
            .any(|e| matches!(e, Event::Notification(t) if t.contains("again"))),
        "{seen:?}"
    );

    // A terminal not known to show notifications never gets one.
    let server = TestServer::new("nonotify");
    let mut args = vec!["new", "-s", "x", "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut c = server.client_answering(&args, 80, 24, &[("TERM", "xterm")], FakeTerminal::xterm());
    c.wait_for_text("$").unwrap();
    c.send_text("printf '\\033]9;hidden\\007'; echo sent-$((3+3))")
        .unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("sent-6").unwrap();
    c.send_text("echo later-$((4+4))").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("later-8").unwrap();
    let seen = c.take_events();
    assert!(
        !seen.iter().any(|e| matches!(e, Event::Notification(_))),
        "{seen:?}"
    );
}

#[test]
fn visual_bell_says_which_window_instead_of_ringing() {
    let server = TestServer::new("visualbell");
    let mut args = vec!["new", "-d", "-s", "a", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server, &args);
    let mut shell = vec!["new-window", "-d", "-t", "a", "--"];
    shell.extend_from_slice(TEST_SHELL);
    ok(&server, &shell);
    ok(&server, &["set", "-g", "visual-bell", "on"]);
    ok(&server, &["set", "-g", "display-time", "0"]);
    let mut c = server.client(&["attach", "-t", "a"], 80, 24);
    c.wait_for_text("$").unwrap();
    ok(
        &server,
        &["send-keys", "-t", "a:1", "printf '\\a'", "Enter"],
    );
    c.wait_for_text("Bell in window 1").unwrap();
    // A frame after the message: no ring came with it.
    c.send_text("echo seen-$((2+5))").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("seen-7").unwrap();
    let rung = c
        .take_events()
        .into_iter()
        .filter(|e| *e == Event::Bell)
        .count();
    assert_eq!(rung, 0, "visual-bell on rang the terminal too");
}

#[test]
fn passthrough_passes_only_what_asks_nothing_and_only_when_allowed() {
    use weft_testkit::FakeTerminal;
    let server = TestServer::new("passthru");
    let mut args = vec!["new", "-s", "p", "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut c = server.client_answering(&args, 80, 24, &[("TERM", "xterm")], FakeTerminal::xterm());
    c.wait_for_text("$").unwrap();
    let wrapped = |inner: &str| format!("printf '\\033Ptmux;{inner}\\033\\\\'");
    // Off (the default): nothing reaches the terminal.
    c.send_text(&format!(
        "{}; echo one-$((1+1))",
        wrapped("\\033\\033]2;blocked\\007")
    ))
    .unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("one-2").unwrap();
    ok(&server, &["set", "-g", "allow-passthrough", "on"]);
    // On: a title passes; a cursor position query does not.
    c.send_text(&format!(
        "{}; {}; echo two-$((2+2))",
        wrapped("\\033\\033[6n"),
        wrapped("\\033\\033]2;passed\\007")
    ))
    .unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_event(|e| matches!(e, Event::TitleChanged(t) if t == "passed"))
        .unwrap();
    c.wait_for_text("two-4").unwrap();
    let seen = c.take_events();
    assert!(
        !seen
            .iter()
            .any(|e| matches!(e, Event::TitleChanged(t) if t == "blocked")),
        "{seen:?}"
    );
    let received = c.fake_terminal().unwrap().received().to_vec();
    let text = String::from_utf8_lossy(&received);
    assert!(!text.contains("\x1b]2;blocked"), "passthrough while off");
    assert!(!text.contains("\x1b[6n"), "a query passed through");
}

#[test]
fn visual_activity_says_which_window_as_activity_action_allows() {
    let server = TestServer::new("visualact");
    let mut args = vec!["new", "-d", "-s", "a", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server, &args);
    let mut shell = vec!["new-window", "-d", "-t", "a", "--"];
    shell.extend_from_slice(TEST_SHELL);
    ok(&server, &shell);
    ok(&server, &["set", "-g", "monitor-activity", "on"]);
    ok(&server, &["set", "-g", "visual-activity", "on"]);
    ok(&server, &["set", "-g", "display-time", "0"]);
    // none: the window is flagged, nobody is told.
    ok(&server, &["set", "-g", "activity-action", "none"]);
    let mut c = server.client(&["attach", "-t", "a"], 80, 24);
    c.wait_for_text("$").unwrap();
    ok(&server, &["send-keys", "-t", "a:1", "echo busy", "Enter"]);
    c.wait_until("the window list flags window 1", |s| {
        s.text()
            .lines()
            .last()
            .is_some_and(|l| l.contains("1:bash#"))
    })
    .unwrap();
    assert!(!c.screen().text().contains("Activity in window"));
    // other (tmux's default): told. The flag clears when the window is seen.
    ok(&server, &["set", "-g", "activity-action", "other"]);
    c.send_keys("C-b 1").unwrap();
    c.send_keys("C-b 0").unwrap();
    c.wait_until("the flag cleared", |s| {
        s.text()
            .lines()
            .last()
            .is_some_and(|l| !l.contains("1:bash#"))
    })
    .unwrap();
    ok(&server, &["send-keys", "-t", "a:1", "echo again", "Enter"]);
    c.wait_for_text("Activity in window 1").unwrap();
}
