//! Sessions as a user meets them: a real client in a real terminal, a real shell, a real
//! server behind a socket.

use std::time::Duration;
use weft_testkit::TestTerminal;
use weft_tests::{stderr_of, stdout_of, TestServer, TEST_SHELL};

/// `new -s NAME -- bash ...` in an 80x24 client, waiting for the prompt.
fn new_session(server: &TestServer, name: &str) -> TestTerminal {
    let mut args = vec!["new", "-s", name, "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut client = server.client(&args, 80, 24);
    client.wait_for_text("$").expect("prompt");
    client
}

/// Runs `$((a*b))`-style arithmetic so the typed command and its output differ.
fn run(client: &mut TestTerminal, command: &str, expect: &str) {
    client.send_text(command).unwrap();
    client.send_keys("Enter").unwrap();
    client.wait_for_text(expect).unwrap();
}

/// The server pid, from `$WEFT` inside the pane.
fn server_pid(client: &mut TestTerminal) -> u32 {
    run(client, "echo pid=${WEFT#*,}", "pid=");
    client
        .wait_for(|s| {
            s.text()
                .lines()
                // The pid is whole once the comma after it has arrived.
                .any(|l| l.starts_with("pid=") && l.contains(','))
        })
        .unwrap();
    let text = client.screen().text();
    let line = text
        .lines()
        .find(|l| l.starts_with("pid=") && l.contains(','))
        .unwrap();
    let rest = &line[4..];
    rest.split(',').next().unwrap().parse().unwrap()
}

#[test]
fn a_new_session_shows_the_prompt_and_typed_echo() {
    let server = TestServer::new("echo");
    let mut client = new_session(&server, "main");
    client.send_text("echo $((6*7))").unwrap();
    client.wait_for_text("echo $((6*7))").unwrap();
    client.send_keys("Enter").unwrap();
    client
        .wait_for(|s| s.text().lines().any(|l| l == "42"))
        .unwrap();
    let ls = server.weft(&["ls"]);
    assert!(stdout_of(&ls).contains("main: 1 windows"), "{ls:?}");
    assert!(stdout_of(&ls).contains("(attached)"), "{ls:?}");
}

#[test]
fn detach_then_attach_from_another_terminal_shows_the_same_screen() {
    let server = TestServer::new("detach");
    let mut first = new_session(&server, "work");
    run(&mut first, "echo $((6*7))-marker", "42-marker");
    first.send_keys("C-b d").unwrap();
    let exit = first.wait_exit().unwrap();
    assert_eq!(exit.code, 0);
    assert!(
        first
            .screen()
            .text()
            .contains("[detached (from session work)]"),
        "{}",
        first.screen().text()
    );
    assert!(
        !first.screen().is_alternate_screen(),
        "the terminal is restored"
    );

    let ls = server.weft(&["ls"]);
    assert!(stdout_of(&ls).contains("work:") && !stdout_of(&ls).contains("(attached)"));

    let mut second = server.client(&["attach", "-t", "work"], 100, 30);
    second.wait_for_text("42-marker").unwrap();
    run(&mut second, "echo $((7*8))-again", "56-again");
}

#[test]
fn two_clients_see_the_same_session() {
    let server = TestServer::new("two");
    let mut a = new_session(&server, "shared");
    let mut b = server.client(&["attach", "-t", "shared"], 80, 24);
    b.wait_for_text("$").unwrap();
    run(&mut a, "echo $((5*5))-from-a", "25-from-a");
    b.wait_for_text("25-from-a").unwrap();
    run(&mut b, "echo $((4*4))-from-b", "16-from-b");
    a.wait_for_text("16-from-b").unwrap();
}

#[test]
fn exiting_the_shell_ends_the_session_and_the_server() {
    let server = TestServer::new("exit");
    let mut client = new_session(&server, "short");
    client.send_text("exit").unwrap();
    client.send_keys("Enter").unwrap();
    let exit = client.wait_exit().unwrap();
    assert!(
        client.screen().text().contains("[exited]"),
        "{}",
        client.screen().text()
    );
    assert_eq!(exit.code, 0);
    let ls = server.weft(&["ls"]);
    assert_eq!(ls.status.code(), Some(1));
    assert!(stderr_of(&ls).contains("no server running"), "{ls:?}");
    assert!(!server.socket.exists(), "the server removed its socket");
}

#[test]
fn with_exit_empty_off_the_server_waits_for_the_next_session() {
    let server = TestServer::new("exitempty");
    assert!(server
        .weft(&[
            "new",
            "-d",
            "-s",
            "first",
            "--",
            "sh",
            "-c",
            "exec sleep 60"
        ])
        .status
        .success());
    assert!(server
        .weft(&["set", "-s", "exit-empty", "off"])
        .status
        .success());
    assert!(server
        .weft(&["kill-session", "-t", "first"])
        .status
        .success());
    let ls = server.weft(&["ls"]);
    assert!(stdout_of(&ls).is_empty(), "{ls:?}");
    assert!(server.socket.exists(), "the server kept its socket");
    assert!(server
        .weft(&[
            "new",
            "-d",
            "-s",
            "second",
            "--",
            "sh",
            "-c",
            "exec sleep 60"
        ])
        .status
        .success());
    assert!(stdout_of(&server.weft(&["ls"])).starts_with("second:"));
    assert!(server.weft(&["kill-server"]).status.success());
}

#[test]
fn killing_the_client_leaves_server_and_pane_unharmed() {
    let server = TestServer::new("killclient");
    let mut client = new_session(&server, "keep");
    run(&mut client, "echo $((9*9))-kept", "81-kept");
    let pid = client.pid().unwrap();
    rustix::process::kill_process(
        rustix::process::Pid::from_raw(pid as i32).unwrap(),
        rustix::process::Signal::KILL,
    )
    .unwrap();
    client.wait_exit().unwrap();
    let mut again = server.client(&["attach", "-t", "keep"], 80, 24);
    again.wait_for_text("81-kept").unwrap();
    run(&mut again, "echo $((3*7))-alive", "21-alive");
}

/// How many descriptors of a client's terminal process `pid` holds. A client hands over
/// the `/dev/tty` it opened; the server has no terminal of its own, so any such descriptor in
/// it came from a client.
fn client_terminals_held_by(pid: u32) -> usize {
    let Ok(entries) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return 0;
    };
    entries
        .filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
        .filter(|p| p.as_os_str() == "/dev/tty")
        .count()
}

#[test]
fn the_server_drives_a_handed_over_terminal_and_a_proxy_client_works_the_same() {
    let server = TestServer::new("handover");
    let mut direct = new_session(&server, "both");
    let pid = server_pid(&mut direct);
    assert!(
        client_terminals_held_by(pid) > 0,
        "the terminal was handed over"
    );
    let mut proxied = server.client_env(
        &["attach", "-t", "both"],
        80,
        24,
        &[("WEFT_TTY_PROXY", "1")],
    );
    proxied.wait_for_text("pid=").unwrap();
    // Keys and frames flow both ways, whichever way they travel.
    run(&mut proxied, "echo $((9*9))-proxied", "81-proxied");
    direct.wait_for_text("81-proxied").unwrap();
    run(&mut direct, "echo $((8*8))-direct", "64-direct");
    proxied.wait_for_text("64-direct").unwrap();
    // Detaching gives the terminal back, restored, and the server lets go of it first; the
    // proxied client never handed its terminal over.
    direct.send_keys("C-b d").unwrap();
    assert_eq!(direct.wait_exit().unwrap().code, 0);
    assert!(!direct.screen().is_alternate_screen());
    assert!(direct.screen().text().contains("[detached"));
    assert_eq!(client_terminals_held_by(pid), 0);
    run(&mut proxied, "echo $((7*7))-still", "49-still");
    proxied.send_keys("C-b d").unwrap();
    assert_eq!(proxied.wait_exit().unwrap().code, 0);
    assert!(!proxied.screen().is_alternate_screen());
}

#[test]
fn a_killed_session_lets_go_of_the_terminal_before_the_client_restores_it() {
    let server = TestServer::new("release");
    let out = server.weft(&["new", "-d", "-s", "keep", "--", "sleep", "60"]);
    assert!(out.status.success(), "{out:?}");
    let mut client = new_session(&server, "gone");
    let pid = server_pid(&mut client);
    assert!(client_terminals_held_by(pid) > 0);
    let out = server.weft(&["kill-session", "-t", "gone"]);
    assert!(out.status.success(), "{out:?}");
    client.wait_exit().unwrap();
    assert!(!client.screen().is_alternate_screen());
    // The client heard of the end only after the server closed both halves of its terminal.
    assert_eq!(client_terminals_held_by(pid), 0);
}

#[test]
fn killing_the_server_restores_the_client_terminal() {
    let server = TestServer::new("killserver");
    let mut client = new_session(&server, "doomed");
    let pid = server_pid(&mut client);
    assert!(client.screen().is_alternate_screen());
    rustix::process::kill_process(
        rustix::process::Pid::from_raw(pid as i32).unwrap(),
        rustix::process::Signal::KILL,
    )
    .unwrap();
    let exit = client.wait_exit().unwrap();
    assert_ne!(exit.code, 0);
    assert!(
        client.screen().text().contains("[lost server]"),
        "{}",
        client.screen().text()
    );
    assert!(
        !client.screen().is_alternate_screen(),
        "back on the primary screen"
    );
    assert!(client.screen().cursor_state().visible, "cursor shown again");
}

#[test]
fn a_stale_socket_is_replaced() {
    let server = TestServer::new("stale");
    // A socket file nobody listens on, as a crashed server leaves it.
    let listener = std::os::unix::net::UnixListener::bind(&server.socket).unwrap();
    drop(listener);
    assert!(server.socket.exists());
    let out = server.weft(&["new", "-d", "-s", "fresh", "--", "sleep", "30"]);
    assert!(out.status.success(), "{out:?}");
    assert!(stdout_of(&server.weft(&["ls"])).contains("fresh:"));
}

#[test]
fn a_socket_directory_others_can_enter_is_refused() {
    let server = TestServer::new("mode");
    let runtime = server.dir.join("runtime");
    let dir = runtime.join("weft");
    std::fs::create_dir_all(&dir).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = std::process::Command::new(weft_tests::weft_binary())
        .args(["new", "-d", "--", "true"])
        .env("XDG_RUNTIME_DIR", &runtime)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(stderr_of(&out).contains("must be private"), "{out:?}");
}

#[test]
fn unknown_session_and_bad_arguments_fail_clearly() {
    let server = TestServer::new("errors");
    let out = server.weft(&["new", "-d", "-s", "only", "--", "sleep", "30"]);
    assert!(out.status.success());
    let out = server.weft(&["attach", "-t", "nope"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr_of(&out).contains("can't find session: nope"),
        "{out:?}"
    );
    let out = server.weft(&["kill-session", "-t", "nope"]);
    assert_eq!(out.status.code(), Some(1));
    let out = server.weft(&["new", "-x", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let out = server.weft(&["kill-session", "extra"]);
    assert_eq!(out.status.code(), Some(2));
    let out = server.weft(&["new", "-d", "-s", "only", "--", "true"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr_of(&out).contains("duplicate session"), "{out:?}");
}

#[test]
fn kill_server_returns_once_the_server_is_gone() {
    let server = TestServer::new("killsrv");
    assert!(server
        .weft(&["new", "-d", "-s", "a", "--", "sleep", "60"])
        .status
        .success());
    assert!(server
        .weft(&["new", "-d", "-s", "b", "--", "sleep", "60"])
        .status
        .success());
    let out = server.weft(&["kill-server"]);
    assert!(out.status.success(), "{out:?}");
    assert!(!server.socket.exists());
    let ls = server.weft(&["ls"]);
    assert_eq!(ls.status.code(), Some(1));
}

#[test]
fn a_flood_keeps_memory_bounded_and_another_client_responsive() {
    let server = TestServer::new("flood");
    let mut flooding = new_session(&server, "flood");
    let pid = server_pid(&mut flooding);
    let mut calm = {
        let mut args = vec!["new", "-s", "calm", "--"];
        args.extend_from_slice(TEST_SHELL);
        server.client(&args, 80, 24)
    };
    calm.wait_for_text("$").unwrap();
    // 50 MB of output; the flooding client's terminal is not even read while it runs.
    flooding
        .send_text("yes 0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghij | head -c 50000000; echo FLOOD-$((2*3))-DONE")
        .unwrap();
    flooding.send_keys("Enter").unwrap();
    for i in 0..5 {
        let expect = format!("calm-{}", i * 11);
        run(&mut calm, &format!("echo calm-$(({i}*11))"), &expect);
    }
    flooding.wait_for_text("FLOOD-6-DONE").unwrap();
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let peak_kb: u64 = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(peak_kb < 150 * 1024, "server peak RSS {peak_kb} kB");
    let _ = Duration::ZERO;
}

#[test]
fn a_client_of_another_protocol_version_gets_a_clear_error() {
    use std::io::{Read, Write};
    let server = TestServer::new("version");
    assert!(server
        .weft(&["new", "-d", "-s", "v", "--", "sleep", "60"])
        .status
        .success());
    let mut stream = std::os::unix::net::UnixStream::connect(&server.socket).unwrap();
    let hello = br#"{"protocol":999,"version":"9.9.9"}"#;
    let mut frame = ((hello.len() + 1) as u32).to_le_bytes().to_vec();
    frame.push(1); // hello
    frame.extend_from_slice(hello);
    stream.write_all(&frame).unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    let text = String::from_utf8_lossy(&answer);
    assert!(
        text.contains("protocol 999") && text.contains("weft kill-server"),
        "{text}"
    );
}

#[test]
fn sigterm_restores_the_terminal() {
    let server = TestServer::new("sigterm");
    let mut client = new_session(&server, "t");
    let pid = client.pid().unwrap();
    rustix::process::kill_process(
        rustix::process::Pid::from_raw(pid as i32).unwrap(),
        rustix::process::Signal::TERM,
    )
    .unwrap();
    client.wait_exit().unwrap();
    assert!(!client.screen().is_alternate_screen());
    assert!(client.screen().text().contains("[terminated]"));
    // The session lives on.
    assert!(stdout_of(&server.weft(&["ls"])).contains("t:"));
}

#[test]
fn the_session_follows_the_most_recently_active_client() {
    let server = TestServer::new("latest");
    let mut small = new_session(&server, "sz");
    let mut big = server.client(&["attach", "-t", "sz"], 100, 30);
    big.wait_for_text("$").unwrap();
    run(
        &mut big,
        "echo size=$(tput cols)x$(tput lines)",
        "size=100x29",
    );
    assert!(stdout_of(&server.weft(&["ls"])).contains("[100x30]"));
    // The smaller client types: the session shrinks to it. The bigger client then sees the
    // session with a dotted pattern around it. (Its keys reach the shell as the session
    // resizes, so the size is asked once the pattern shows: a command typed with the keys
    // that made the client active may run before the pane has its new size.)
    small.send_keys("Enter").unwrap();
    big.wait_for(|s| {
        let row = s.row(29).map(|r| r.text()).unwrap_or_default();
        !row.is_empty() && row.chars().all(|c| c == '·')
    })
    .unwrap();
    assert!(stdout_of(&server.weft(&["ls"])).contains("[80x24]"));
    // The pane's pty follows the session a moment later (resizes are coalesced): the shell
    // waits for it, then says it.
    run(
        &mut small,
        "until [ $(tput cols)x$(tput lines) = 80x23 ]; do sleep 0.01; done; \
         echo size2=$(tput cols)x$(tput lines)",
        "size2=80x23",
    );
    big.wait_for_text("size2=80x23").unwrap();
    // tmux's `fill-character` takes the dots' place; one of width two is ignored.
    let out = server.weft(&["set-option", "-g", "fill-character", "x"]);
    assert!(out.status.success(), "{out:?}");
    let filled = |s: &weft_testkit::Screen, c: char| {
        let row = s.row(29).map(|r| r.text()).unwrap_or_default();
        !row.is_empty() && row.chars().all(|x| x == c)
    };
    big.wait_for(|s| filled(s, 'x')).unwrap();
    let out = server.weft(&["set-option", "-g", "fill-character", "字"]);
    assert!(out.status.success(), "{out:?}");
    big.wait_for(|s| filled(s, '·')).unwrap();
}

#[test]
fn a_stopped_client_does_not_stall_another_client_of_the_same_session() {
    let server = TestServer::new("stopped");
    let mut reading = new_session(&server, "s");
    // This client is never read while the program floods: its terminal fills and it blocks.
    let stopped = server.client(&["attach", "-t", "s"], 80, 24);
    reading
        .send_text("yes weft-flood-line | head -c 20000000; echo FLOOD-$((4*5))-DONE")
        .unwrap();
    reading.send_keys("Enter").unwrap();
    reading.wait_for_text("FLOOD-20-DONE").unwrap();
    drop(stopped);
}

#[test]
fn plain_weft_creates_then_reattaches() {
    let server = TestServer::new("plain");
    let mut first = server.client(&[], 80, 24);
    // A login shell: whatever prompt the system profile sets.
    first.wait_for(|s| !s.text().trim().is_empty()).unwrap();
    run(&mut first, "echo first-$((2*21))", "first-42");
    first.send_keys("C-b d").unwrap();
    first.wait_exit().unwrap();
    let mut second = server.client(&[], 80, 24);
    second.wait_for_text("first-42").unwrap();
}

/// The panes of `session` as `list-panes --json` describes them (ids and sizes).
fn pane_list(server: &TestServer, session: &str) -> String {
    let out = server.weft(&["list-panes", "-t", session, "--json"]);
    assert!(out.status.success(), "{out:?}");
    stdout_of(&out)
}

/// A wide session (messages fit on one line) whose shell knows `$W` (weft) and `$S` (the
/// server's socket).
fn session_with_weft(server: &TestServer, name: &str) -> TestTerminal {
    let mut args = vec!["new", "-s", name, "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut client = server.client(&args, 160, 30);
    client.wait_for_text("$").expect("prompt");
    let setup = format!(
        "W={}; S={}; echo $((2*3))-ready",
        weft_tests::weft_binary().display(),
        server.socket.display()
    );
    run(&mut client, &setup, "6-ready");
    client
}

#[test]
fn attaching_from_inside_weft_is_refused_and_the_session_is_left_alone() {
    let server = TestServer::new("nested");
    let mut c = session_with_weft(&server, "s1");
    let before = pane_list(&server, "s1");
    run(&mut c, "$W -S $S attach -t s1; echo attach=$?", "attach=1");
    assert!(
        c.screen()
            .text()
            .contains("weft: sessions should be nested with care, unset $WEFT to force"),
        "{}",
        c.screen().text()
    );
    // Plain `weft` and `weft new` would attach too; `weft new -d` and other commands work.
    run(&mut c, "$W -S $S; echo plain=$?", "plain=1");
    run(
        &mut c,
        "$W -S $S new -s s2 -- sleep 60; echo new=$?",
        "new=1",
    );
    run(
        &mut c,
        "$W -S $S new -d -s s3 -- sleep 60; echo detached=$?",
        "detached=0",
    );
    run(&mut c, "$W -S $S ls; echo ls=$?", "ls=0");
    let ls = stdout_of(&server.weft(&["ls"]));
    assert!(ls.contains("s3:") && !ls.contains("s2:"), "{ls}");
    assert_eq!(
        pane_list(&server, "s1"),
        before,
        "the session kept its size"
    );
    run(&mut c, "echo $((6*7))-usable", "42-usable");
}

#[test]
fn attaching_a_session_to_its_own_pane_is_refused_by_the_server() {
    let server = TestServer::new("ownpane");
    let mut args = vec!["new", "-d", "-s", "other", "--"];
    args.extend_from_slice(TEST_SHELL);
    let out = server.weft(&args);
    assert!(out.status.success(), "{out:?}");
    let mut c = session_with_weft(&server, "s1");
    let before = pane_list(&server, "s1");
    let refusal = "weft: cannot attach session s1 to a terminal that is one of its own panes";
    run(
        &mut c,
        "env -u WEFT $W -S $S attach -t s1; echo own=$?",
        "own=1",
    );
    assert!(c.screen().text().contains(refusal), "{}", c.screen().text());
    // The same when keys and frames would travel through the client.
    run(
        &mut c,
        "clear; env -u WEFT WEFT_TTY_PROXY=1 $W -S $S attach -t s1; echo proxy=$?",
        "proxy=1",
    );
    assert!(c.screen().text().contains(refusal), "{}", c.screen().text());
    assert_eq!(
        pane_list(&server, "s1"),
        before,
        "the session kept its size"
    );
    run(&mut c, "echo $((6*7))-usable", "42-usable");

    // Another session may be shown in a pane, with `$WEFT` unset.
    c.send_text("clear; env -u WEFT $W -S $S attach -t other; echo other=$?")
        .unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|_| {
        let ls = stdout_of(&server.weft(&["ls"]));
        ls.lines()
            .any(|l| l.starts_with("other:") && l.contains("(attached)"))
    })
    .unwrap();
    let out = server.weft(&["detach-client", "-t", "other"]);
    assert!(out.status.success(), "{out:?}");
    c.wait_for_text("other=0").unwrap();
    assert!(
        c.screen()
            .text()
            .contains("[detached (from session other)]"),
        "{}",
        c.screen().text()
    );
    run(&mut c, "echo $((7*7))-back", "49-back");
}

#[test]
fn new_names_the_first_window_and_kill_session_defaults_to_the_current_one() {
    let server = TestServer::new("newn");
    let out = server.weft(&["new", "-d", "-s", "q", "-n", "first", "--", "sleep", "60"]);
    assert!(out.status.success(), "{out:?}");
    let out = server.weft(&["new", "-d", "-s", "r", "--", "sleep", "60"]);
    assert!(out.status.success(), "{out:?}");
    // Named by hand: automatic-rename leaves it.
    let names = stdout_of(&server.weft(&["list-windows", "-t", "q", "-F", "#W"]));
    assert_eq!(names.trim(), "first");
    // A session target that names no session is an error, not a window of another session.
    let out = server.weft(&["list-windows", "-t", "nosuch"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        stderr_of(&out).contains("can't find session: nosuch"),
        "{out:?}"
    );
    // Without -t, the current session goes: the one a command used last (q, listed above).
    // It ends as its program does, once hung up.
    let mut events = crate::subscribe::Subscription::start(&server, &[]);
    let out = server.weft(&["kill-session"]);
    assert!(out.status.success(), "{out:?}");
    events.wait_for("session-closed", |e| e["event"] == "session-closed");
    let left = stdout_of(&server.weft(&["ls", "-F", "#S"]));
    assert_eq!(left.trim(), "r");
}

#[test]
fn has_session_answers_with_its_exit_status_as_scripts_test_it() {
    let server = TestServer::new("hassess");
    let out = server.weft(&["has-session", "-t", "work"]);
    assert_eq!(out.status.code(), Some(1), "no server: {out:?}");
    assert!(server
        .weft(&["new", "-d", "-s", "work", "--", "sleep", "60"])
        .status
        .success());
    assert!(server.weft(&["has-session", "-t", "work"]).status.success());
    assert!(server.weft(&["has", "-t", "work:"]).status.success());
    let out = server.weft(&["has-session", "-t", "play"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        stderr_of(&out).contains("can't find session: play"),
        "{out:?}"
    );
}

#[test]
fn window_size_follows_the_latest_the_smallest_or_the_largest_client_or_none() {
    let server = TestServer::new("winsize");
    assert!(server
        .weft(&["new", "-d", "-s", "w", "--", "sleep", "60"])
        .status
        .success());
    let size = |server: &TestServer| {
        stdout_of(&server.weft(&[
            "display",
            "-p",
            "-t",
            "w",
            "#{session_width}x#{session_height}",
        ]))
        .trim()
        .to_string()
    };
    let until = |server: &TestServer, want: &str| {
        let mut events = crate::subscribe::Subscription::start(server, &["-t", "w"]);
        if size(server) != want {
            events.wait_for("session-resized", |_| size(server) == want);
        }
        assert_eq!(size(server), want);
    };
    assert!(server
        .weft(&["set", "-g", "window-size", "smallest"])
        .status
        .success());
    let mut big = server.client(&["attach", "-t", "w"], 100, 30);
    big.wait_for_text("[w]").unwrap();
    until(&server, "100x30");
    let mut small = server.client(&["attach", "-t", "w"], 80, 24);
    small.wait_for_text("[w]").unwrap();
    until(&server, "80x24");
    // The big one resizing does not make the session bigger than the small one.
    big.resize(110, 32).unwrap();
    small.resize(82, 24).unwrap();
    until(&server, "82x24");
    assert!(server
        .weft(&["set", "-g", "window-size", "largest"])
        .status
        .success());
    small.resize(84, 24).unwrap();
    until(&server, "110x32");
    // manual: clients no longer change it; resize-window does.
    assert!(server
        .weft(&["set", "-g", "window-size", "manual"])
        .status
        .success());
    assert!(server
        .weft(&["resize-window", "-t", "w", "-x", "70", "-y", "20"])
        .status
        .success());
    small.resize(86, 24).unwrap();
    // Once the server has the client's new width (each check a round trip, no sleeping)...
    let widths = || stdout_of(&server.weft(&["list-clients", "-F", "#{client_width}"]));
    let mut seen = widths();
    for _ in 0..1000 {
        if seen.lines().any(|w| w == "86") {
            break;
        }
        seen = widths();
    }
    assert!(seen.lines().any(|w| w == "86"), "{seen}");
    // ...the session has kept its own.
    let shown = size(&server);
    assert!(shown.starts_with("70x"), "{shown}");
}
