//! `suspend-client` (prefix `C-z`): the client gives the terminal back to the shell it was
//! started from and stops, as `C-z` stops a program; `fg` brings it back, attached to the same
//! session. The lock commands give the terminal to `lock-command` instead, until it exits.

use weft_tests::{stdout_of, weft_binary, TestServer, TEST_SHELL};

#[test]
fn prefix_c_z_stops_the_client_and_fg_attaches_it_again() {
    let server = TestServer::new("suspend");
    let mut new = vec!["new", "-d", "-s", "z", "--"];
    new.extend_from_slice(TEST_SHELL);
    let out = server.weft(&new);
    assert!(out.status.success(), "{out:?}");
    // A shell with job control, as the user's, runs the client.
    let mut term = weft_testkit::TestTerminal::spawn(["bash", "--norc", "--noprofile", "-i"])
        .size(80, 24)
        .env("PS1", "outer$ ")
        .env("HOME", server.dir.as_os_str())
        .env("WEFT", "")
        .start()
        .expect("a shell");
    term.wait_for_text("outer$").unwrap();
    let attach = format!(
        "{} -S {} attach -t z\r",
        weft_binary().display(),
        server.socket.display()
    );
    term.send_text(&attach).unwrap();
    term.wait_for(|s| s.text().contains("[z] 0:")).unwrap();
    term.send_keys("C-b C-z").unwrap();
    // The shell has the terminal again and says its job stopped; the session lives on.
    term.wait_for(|s| s.text().contains("Stopped") && s.text().contains("outer$"))
        .unwrap();
    let clients = stdout_of(&server.weft(&["list-clients"]));
    assert!(
        clients.trim().is_empty(),
        "no client while stopped: {clients}"
    );
    term.send_text("fg\r").unwrap();
    term.wait_for(|s| s.text().contains("[z] 0:") && !s.text().contains("Stopped"))
        .unwrap();
    let clients = stdout_of(&server.weft(&["list-clients"]));
    assert_eq!(clients.lines().count(), 1, "attached again: {clients}");
    // Typed keys reach the session's shell again.
    term.send_text("echo back-$((40+2))\r").unwrap();
    term.wait_for_text("back-42").unwrap();
}

#[test]
fn the_lock_commands_run_lock_command_then_show_the_session_again() {
    let server = TestServer::new("lock");
    let mut new = vec!["new", "-s", "k", "--"];
    new.extend_from_slice(TEST_SHELL);
    let mut c = server.client(&new, 80, 24);
    c.wait_for_text("$").unwrap();
    let set_lock = |marker: &str| {
        let command = format!("printf '{marker}-%s\\n' $((6*7)); read line");
        let out = server.weft(&["set", "-g", "lock-command", &command]);
        assert!(out.status.success(), "{out:?}");
    };
    let clients = || stdout_of(&server.weft(&["list-clients"])).lines().count();
    // From the prompt: this client.
    set_lock("LOCKED");
    c.send_keys("C-b :").unwrap();
    c.send_text("lock-client").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("LOCKED-42").unwrap();
    assert_eq!(clients(), 0, "the locked client is not attached");
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| s.text().contains("[k] 0:")).unwrap();
    assert_eq!(clients(), 1);
    // From the command line: every client of the session.
    set_lock("SESSION");
    let out = server.weft(&["lock-session", "-t", "k"]);
    assert!(out.status.success(), "{out:?}");
    c.wait_for_text("SESSION-42").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| s.text().contains("[k] 0:")).unwrap();
    c.send_text("echo still-$((2+3))\r").unwrap();
    c.wait_for_text("still-5").unwrap();
}

#[test]
fn lock_after_time_locks_the_clients_once_nobody_types() {
    let server = TestServer::new("idlelock");
    let mut new = vec!["new", "-s", "i", "--"];
    new.extend_from_slice(TEST_SHELL);
    let mut c = server.client(&new, 80, 24);
    c.wait_for_text("$").unwrap();
    let command = "printf 'IDLE-%s\\n' $((6*7)); read line";
    for (option, value) in [("lock-command", command), ("lock-after-time", "1")] {
        let out = server.weft(&["set", "-g", option, value]);
        assert!(out.status.success(), "{out:?}");
    }
    c.wait_for_text("IDLE-42").unwrap();
    assert!(stdout_of(&server.weft(&["list-clients"])).trim().is_empty());
    // Off again before going back, so the client stays.
    let out = server.weft(&["set", "-g", "lock-after-time", "0"]);
    assert!(out.status.success(), "{out:?}");
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| s.text().contains("[i] 0:")).unwrap();
    c.send_text("echo awake-$((1+1))\r").unwrap();
    c.wait_for_text("awake-2").unwrap();
}
