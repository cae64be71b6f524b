//! tmux's other default keys: `/` describes a key, `~` shows the messages, `E` spreads the
//! panes of a row evenly, `M-n` and `M-p` go to a window with an alert.

use weft_tests::{attached_session, stdout_of, TestServer, TEST_SHELL};

/// Runs `weft ARGS`, which must succeed.
fn ok(server: &TestServer, args: &[&str]) {
    let out = server.weft(args);
    assert!(out.status.success(), "{args:?}: {out:?}");
}

#[test]
fn slash_describes_a_key_and_tilde_shows_the_messages() {
    let server = TestServer::new("describe");
    let mut c = attached_session(&server, "d", None);
    c.send_keys("C-b /").unwrap();
    c.wait_for(|s| {
        s.text()
            .lines()
            .last()
            .is_some_and(|l| l.starts_with("key"))
    })
    .unwrap();
    c.send_keys("c").unwrap();
    c.wait_for_text("C-b c new-window").unwrap();
    // Any key clears the message; `~` shows it again from the log.
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| !s.text().contains("C-b c new-window"))
        .unwrap();
    c.send_keys("C-b ~").unwrap();
    c.wait_for_text("C-b c new-window").unwrap();
    // list-keys with a key, as the CLI prints it.
    let out = stdout_of(&server.weft(&["list-keys", "-T", "prefix", "c"]));
    assert_eq!(out.trim(), "bind-key -T prefix c new-window");
}

#[test]
fn e_spreads_a_row_and_alt_n_finds_the_window_with_an_alert() {
    let server = TestServer::new("spread");
    let mut c = attached_session(&server, "s", None);
    ok(&server, &["split-window", "-h", "-l", "10", "-t", "s"]);
    ok(&server, &["split-window", "-h", "-l", "5", "-t", "s"]);
    let widths = |server: &TestServer| {
        stdout_of(&server.weft(&["list-panes", "-t", "s", "-F", "#{pane_width}"]))
            .lines()
            .map(|w| w.parse::<u16>().unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(widths(&server)[2], 5);
    c.send_keys("C-b E").unwrap();
    c.wait_for(|_| {
        let w = widths(&server);
        w.iter().max().unwrap() - w.iter().min().unwrap() <= 1
    })
    .unwrap();
    assert_eq!(
        widths(&server).iter().sum::<u16>(),
        78,
        "three panes and two borders"
    );
    // Windows 1 and 2 in the background; a bell in 2.
    for _ in 0..2 {
        let mut args = vec!["new-window", "-d", "-t", "s", "--"];
        args.extend_from_slice(TEST_SHELL);
        ok(&server, &args);
    }
    ok(
        &server,
        &["send-keys", "-t", "s:2", "printf '\\a'", "Enter"],
    );
    c.wait_for(|s| s.text().contains("2:bash!")).unwrap();
    // M-n skips window 1, which has no alert.
    c.send_keys("C-b M-n").unwrap();
    c.wait_for(|s| s.text().contains("2:bash*")).unwrap();
    // No other window has one: it says so and stays.
    c.send_keys("C-b M-p").unwrap();
    c.wait_for_text("no window with an alert").unwrap();
}

#[test]
fn d_lists_the_clients_and_detaches_the_one_chosen() {
    let server = TestServer::new("chooseclient");
    let mut first = attached_session(&server, "c", None);
    let mut second = server.client(&["attach", "-t", "c"], 70, 20);
    second.wait_for_text("$").unwrap();
    first.send_keys("C-b D").unwrap();
    first.wait_for_text("choose-client (2)").unwrap();
    // The first attached is listed first: this one; the other is below it.
    first.wait_for(|s| s.text().contains("[70x20")).unwrap();
    first.send_keys("Down Enter").unwrap();
    let exit = second.wait_exit().unwrap();
    assert_eq!(exit.code, 0);
    first
        .wait_for(|s| !s.text().contains("choose-client"))
        .unwrap();
    // This client is still attached and working.
    first.send_text("echo still-$((4*5))").unwrap();
    first.send_keys("Enter").unwrap();
    first.wait_for_text("still-20").unwrap();
}
