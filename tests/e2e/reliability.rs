//! What an unlucky or hostile user does must not lose a session: races, limits, bad input.

use std::process::{Command, Output};
use weft_tests::{stderr_of, stdout_of, weft_binary, TestServer};

/// Starts `n` `weft new -d` at once on the server's socket and waits for all of them.
fn start_many(server: &TestServer, n: usize) -> Vec<Output> {
    let children: Vec<_> = (0..n)
        .map(|i| {
            Command::new(weft_binary())
                .arg("-S")
                .arg(&server.socket)
                .args(["new", "-d", "-s", &format!("s{i}"), "--", "sleep", "60"])
                .env("HOME", &server.dir)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("spawn weft")
        })
        .collect();
    children
        .into_iter()
        .map(|c| c.wait_with_output().expect("wait for weft"))
        .collect()
}

fn assert_all_started(server: &TestServer, outs: &[Output]) {
    for out in outs {
        assert!(out.status.success(), "{}", stderr_of(out));
    }
    let ls = stdout_of(&server.weft(&["ls"]));
    assert_eq!(ls.lines().count(), outs.len(), "{ls}");
}

#[test]
fn clients_starting_at_once_share_one_server() {
    let server = TestServer::new("race");
    let outs = start_many(&server, 30);
    assert_all_started(&server, &outs);
}

#[test]
fn clients_starting_at_once_replace_a_stale_socket_once() {
    let server = TestServer::new("stale");
    // A socket file nobody listens on, as a crashed server leaves it.
    drop(std::os::unix::net::UnixListener::bind(&server.socket).expect("bind"));
    assert!(server.socket.exists());
    let outs = start_many(&server, 30);
    assert_all_started(&server, &outs);
}

/// A session that answers: `ls` lists it.
pub(super) fn answers(server: &TestServer, name: &str) -> bool {
    stdout_of(&server.weft(&["ls"])).contains(&format!("{name}:"))
}

#[test]
fn the_socket_is_the_owners_only() {
    use std::os::unix::fs::PermissionsExt;
    let server = TestServer::new("mode");
    assert!(server
        .weft(&["new", "-d", "-s", "m", "--", "sleep", "30"])
        .status
        .success());
    let mode = std::fs::metadata(&server.socket)
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "{mode:o}");
}

#[test]
fn another_user_always_hears_why_it_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    if rustix::process::geteuid().as_raw() != 0 {
        eprintln!("skipped: connecting as another user needs root");
        return;
    }
    let server = TestServer::new("otheruid");
    assert!(server
        .weft(&["new", "-d", "-s", "o", "--", "sleep", "60"])
        .status
        .success());
    // Let the other user reach the socket, so the server's own check is what refuses it.
    for dir in [&server.dir, &server.socket] {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    for _ in 0..20 {
        let out = Command::new(weft_binary())
            .arg("-S")
            .arg(&server.socket)
            .arg("ls")
            .env("HOME", "/tmp")
            .uid(65534)
            .gid(65534)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        assert!(
            stderr_of(&out).contains("this weft server belongs to another user"),
            "{out:?}"
        );
    }
    assert!(answers(&server, "o"));
}

#[test]
fn a_huge_frame_before_the_hello_closes_that_connection_only() {
    use std::io::{Read, Write};
    let server = TestServer::new("prehello");
    assert!(server
        .weft(&["new", "-d", "-s", "h", "--", "sleep", "60"])
        .status
        .success());
    let mut peers = Vec::new();
    for _ in 0..20 {
        let mut peer = std::os::unix::net::UnixStream::connect(&server.socket).unwrap();
        // A frame header announcing 16 MiB, then some of its bytes.
        peer.write_all(&(16u32 << 20).to_le_bytes()).unwrap();
        let _ = peer.write_all(&[0u8; 64 * 1024]);
        peers.push(peer);
    }
    for mut peer in peers {
        // The server closes it: the read ends (EOF or reset), it does not wait for more.
        let mut buf = [0u8; 16];
        let _ = peer.read(&mut buf);
    }
    assert!(answers(&server, "h"));
}

#[test]
fn with_descriptors_used_up_commands_get_an_answer_and_recover() {
    let server = TestServer::new("nofile");
    // The server inherits a low limit on descriptors from the client that starts it.
    let out = Command::new("prlimit")
        .args(["--nofile=256:256", "--"])
        .arg(weft_binary())
        .arg("-S")
        .arg(&server.socket)
        .args(["new", "-d", "-s", "n", "--", "sleep", "60"])
        .env("HOME", &server.dir)
        .output()
        .expect("prlimit (util-linux)");
    assert!(out.status.success(), "{out:?}");
    // 300 connections that never say hello.
    let idle: Vec<_> = (0..300)
        .filter_map(|_| std::os::unix::net::UnixStream::connect(&server.socket).ok())
        .collect();
    assert!(idle.len() > 200, "only {} connected", idle.len());
    // A command meanwhile is answered: served, or told why not, never left hanging.
    let out = server.weft(&["ls"]);
    assert!(
        out.status.success() || stderr_of(&out).contains("weft server has"),
        "{out:?}"
    );
    drop(idle);
    // Served again as soon as the server has seen them close: each try is answered at once,
    // and one of the first few is served.
    let served = (0..100).any(|_| {
        let out = server.weft(&["ls"]);
        assert!(
            out.status.success() || stderr_of(&out).contains("weft server has"),
            "{out:?}"
        );
        stdout_of(&out).contains("n:")
    });
    assert!(served, "never served again");
}

/// Runs `script` in a new window of session `s` once Enter is typed into it, and returns what
/// `wait --exit` prints for it.
fn exit_of(server: &TestServer, script: &str) -> String {
    let script = format!("read go; {script}");
    let out = server.weft(&["new-window", "-d", "-n", "probe", "--", "sh", "-c", &script]);
    assert!(out.status.success(), "{out:?}");
    let panes: serde_json::Value = serde_json::from_slice(
        &server
            .weft(&["list-panes", "-t", "s:probe", "--json"])
            .stdout,
    )
    .unwrap();
    let pane = panes[0]["id"].as_str().unwrap().to_string();
    assert!(server
        .weft(&["send-keys", "-t", &pane, "Enter"])
        .status
        .success());
    let out = server.weft(&["wait", "-t", &pane, "--exit", "--timeout", "20"]);
    assert!(out.status.success(), "{out:?}");
    stdout_of(&out).trim().to_string()
}

#[test]
fn a_pane_killed_by_a_signal_reports_it_as_a_shell_would() {
    let server = TestServer::new("signals");
    assert!(server
        .weft(&["new", "-d", "-s", "s", "--", "sleep", "120"])
        .status
        .success());
    for (signal, number) in [
        ("HUP", 1),
        ("INT", 2),
        ("QUIT", 3),
        ("ABRT", 6),
        ("KILL", 9),
        ("SEGV", 11),
        ("TERM", 15),
    ] {
        let code = exit_of(&server, &format!("kill -{signal} $$; sleep 5"));
        assert_eq!(code, (128 + number).to_string(), "SIG{signal}");
        assert!(answers(&server, "s"));
    }
}

#[test]
fn a_program_that_closes_its_terminal_and_keeps_running_ends_its_pane() {
    let server = TestServer::new("closedtty");
    assert!(server
        .weft(&["new", "-d", "-s", "s", "--", "sleep", "120"])
        .status
        .success());
    // The program lets go of the terminal (all three descriptors) and lives on; as when its
    // terminal closes, it hears SIGHUP.
    let code = exit_of(&server, "exec </dev/null >/dev/null 2>&1; sleep 60");
    assert_eq!(code, "129");
    let windows = stdout_of(&server.weft(&["list-windows"]));
    assert!(!windows.contains("probe"), "{windows}");
}

#[test]
fn kill_pane_ends_a_program_that_ignores_hangups() {
    let server = TestServer::new("hupproof");
    assert!(server
        .weft(&["new", "-d", "-s", "s", "--", "sleep", "120"])
        .status
        .success());
    let out = server.weft(&[
        "new-window",
        "-d",
        "-n",
        "stubborn",
        "--",
        "sh",
        "-c",
        "trap '' HUP; echo READY; sleep 60",
    ]);
    assert!(out.status.success(), "{out:?}");
    assert!(server
        .weft(&["wait", "-t", "s:stubborn", "--text", "READY"])
        .status
        .success());
    let panes: serde_json::Value = serde_json::from_slice(
        &server
            .weft(&["list-panes", "-t", "s:stubborn", "--json"])
            .stdout,
    )
    .unwrap();
    let pane = panes[0]["id"].as_str().unwrap().to_string();
    assert!(server.weft(&["kill-pane", "-t", &pane]).status.success());
    let out = server.weft(&["wait", "-t", &pane, "--exit", "--timeout", "20"]);
    assert_eq!(stdout_of(&out).trim(), "137", "{out:?}");
}

#[test]
fn a_read_only_client_only_watches() {
    let server = TestServer::new("readonly");
    let mut args = vec!["new", "-s", "ro", "--"];
    args.extend_from_slice(weft_tests::TEST_SHELL);
    let mut owner = server.client(&args, 80, 24);
    owner.wait_for_text("$").unwrap();
    let size = || {
        let panes: serde_json::Value =
            serde_json::from_slice(&server.weft(&["list-panes", "--json"]).stdout).unwrap();
        (panes[0]["cols"].clone(), panes[0]["rows"].clone())
    };
    let before = size();
    let mut watcher = server.client(&["attach", "-r", "-t", "ro"], 120, 40);
    watcher.wait_for_text("$").unwrap();
    // Its keys reach no program, its bindings and prompt change nothing.
    watcher.send_text("echo typed-by-watcher").unwrap();
    watcher.send_keys("Enter").unwrap();
    watcher.send_keys("C-b c").unwrap();
    watcher.send_keys("C-b :").unwrap();
    watcher
        .send_text("split-window -- sh -c 'touch /tmp/never'")
        .unwrap();
    watcher.send_keys("Enter").unwrap();
    watcher.wait_for_text("this client is read-only").unwrap();
    // Nothing was typed or created, and the session kept the owner's size.
    let windows = stdout_of(&server.weft(&["list-windows"]));
    assert_eq!(windows.lines().count(), 1, "{windows}");
    assert_eq!(size(), before);
    owner.send_text("echo owner-$((2+2))").unwrap();
    owner.send_keys("Enter").unwrap();
    owner.wait_for_text("owner-4").unwrap();
    assert!(!owner.screen().text().contains("typed-by-watcher"));
    // It may leave.
    watcher.send_keys("C-b d").unwrap();
    assert_eq!(watcher.wait_exit().unwrap().code, 0);
}

#[test]
fn a_storm_of_resizes_reaches_the_program_coalesced_and_ends_at_the_last_size() {
    let server = TestServer::new("winch");
    // Prints a line for every SIGWINCH it is sent: how many so far, and the size it sees.
    let script = "import os, signal, time\n\
                  n = 0\n\
                  def count(*_):\n    global n\n    n += 1\n    \
                  size = os.get_terminal_size()\n    \
                  print(f'W{n} {size.columns}x{size.lines}', flush=True)\n\
                  signal.signal(signal.SIGWINCH, count)\n\
                  print('READY', flush=True)\n\
                  while True:\n    time.sleep(60)\n";
    let mut client = server.client(&["new", "-s", "w", "--", "python3", "-c", script], 80, 24);
    client.wait_for_text("READY").unwrap();
    // Each resize reaches the server before the next (the client's screen shows the status line
    // on its new last row), as when a user drags a window's corner.
    let resizes = 200;
    for i in 0..resizes {
        let (cols, rows) = if i % 2 == 0 { (90, 28) } else { (100, 30) };
        client.resize(cols, rows).unwrap();
        client
            .wait_for(|s| {
                s.row(usize::from(rows) - 1)
                    .is_some_and(|r| r.text().starts_with("[w]"))
            })
            .unwrap();
    }
    // The program ends at the last size, 100x30 less the status line.
    let last_report = |s: &weft_testkit::Screen| {
        s.text()
            .lines()
            .rfind(|l| l.starts_with('W'))
            .map(str::to_string)
    };
    client
        .wait_for(|s| last_report(s).is_some_and(|l| l.ends_with(" 100x29")))
        .unwrap();
    let report = last_report(client.screen()).unwrap_or_default();
    let count: usize = report[1..]
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap();
    eprintln!("{resizes} resizes reached the program as {count} SIGWINCH");
    assert!(
        count < resizes / 4,
        "{count} SIGWINCH for {resizes} resizes"
    );
}

/// Waits for `child` to exit, failing the test if it has not within `limit` (a guard against a
/// hang, far above the time it takes).
fn wait_with_guard(mut child: std::process::Child, limit: std::time::Duration) -> Output {
    let start = std::time::Instant::now();
    loop {
        if let Some(_status) = child.try_wait().expect("wait") {
            return child.wait_with_output().expect("output");
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("still running after {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20)); // deadline-ok: hang guard
    }
}

#[test]
fn kill_server_returns_even_when_a_client_stops_reading() {
    let server = TestServer::new("stuckkill");
    let mut client = server.client(
        &[
            "new",
            "-s",
            "k",
            "--",
            "sh",
            "-c",
            "exec yes flooding-the-terminal",
        ],
        80,
        24,
    );
    client.wait_for_text("flooding-the-terminal").unwrap();
    // The client's terminal is no longer read: its buffers fill and the server's writes stall.
    let kill = Command::new(weft_binary())
        .arg("-S")
        .arg(&server.socket)
        .arg("kill-server")
        .env("HOME", &server.dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let out = wait_with_guard(kill, std::time::Duration::from_secs(30));
    assert!(out.status.success(), "{out:?}");
    assert!(!server.socket.exists());
    drop(client);
}

#[test]
fn control_characters_in_names_never_reach_the_terminal() {
    let server = TestServer::new("names");
    let evil = "n\x1b]2;PWNED\x07\x1b[31mRED\u{202e}";
    let out = server.weft(&["new", "-d", "-s", evil, "--", "sleep", "60"]);
    assert!(out.status.success(), "{out:?}");
    let ls = server.weft(&["ls"]);
    let text = stdout_of(&ls);
    assert!(text.starts_with("n]2;PWNED[31mRED:"), "{text:?}");
    assert!(
        !ls.stdout.iter().any(|b| *b == 0x1b || *b == 0x07),
        "{text:?}"
    );
    let out = server.weft(&[
        "rename-window",
        "-t",
        "n]2;PWNED[31mRED:0",
        "w\x1b]0;W\x07\u{2066}x",
    ]);
    assert!(out.status.success(), "{out:?}");
    let windows = server.weft(&["list-windows"]);
    let text = stdout_of(&windows);
    assert!(text.contains("0: w]0;Wx*"), "{text:?}");
    assert!(!windows.stdout.iter().any(|b| *b == 0x1b || *b == 0x07));
    // Attached, the status line shows the cleaned names and the terminal's title is untouched
    // (room for the whole name: tmux's status-left-length is 10).
    let out = server.weft(&["set", "-g", "status-left-length", "40"]);
    assert!(out.status.success(), "{out:?}");
    let mut client = server.client(&["attach"], 100, 24);
    client.wait_for_text("[n]2;PWNED[31mRED]").unwrap();
    assert!(client.screen().text().contains("0:w]0;Wx*"));
    assert_eq!(client.screen().title(), "");
}

#[test]
fn output_after_an_unterminated_string_shows_again_after_a_while() {
    let server = TestServer::new("oscstuck");
    // A title that never ends, then a line a second.
    let script = "printf '\\033]2;never ends'; while :; do echo TICK; sleep 1; done";
    let out = server.weft(&["new", "-d", "-s", "o", "--", "sh", "-c", script]);
    assert!(out.status.success(), "{out:?}");
    let out = server.weft(&["wait", "-t", "o", "--text", "TICK", "--timeout", "30"]);
    assert!(out.status.success(), "{out:?}");
    let diag: serde_json::Value =
        serde_json::from_slice(&server.weft(&["diag", "--json"]).stdout).unwrap();
    assert_eq!(diag["panes"][0]["abandoned_strings"], 1, "{diag}");
}

#[test]
fn a_client_killed_mid_flood_loses_no_session() {
    let server = TestServer::new("clientkill");
    let mut args = vec!["new", "-s", "f", "--"];
    args.extend_from_slice(weft_tests::TEST_SHELL);
    let mut client = server.client(&args, 80, 24);
    client.wait_for_text("$").unwrap();
    assert!(server
        .weft(&["new", "-d", "-s", "calm", "--", "sleep", "60"])
        .status
        .success());
    client
        .send_text("yes weft-flood | head -c 30000000; echo FLOOD-$((2*3))-DONE")
        .unwrap();
    client.send_keys("Enter").unwrap();
    // The flood's own lines, not the typed command's echo: killed before the Enter was read,
    // the client would take the flood with it.
    client
        .wait_for(|s| {
            (0..24)
                .filter(|&r| s.row(r).is_some_and(|row| row.text() == "weft-flood"))
                .count()
                >= 3
        })
        .unwrap();
    let pid = client.pid().unwrap();
    rustix::process::kill_process(
        rustix::process::Pid::from_raw(pid as i32).unwrap(),
        rustix::process::Signal::KILL,
    )
    .unwrap();
    // The session lives on: its flood finishes, and the other session answers.
    let out = server.weft(&[
        "wait",
        "-t",
        "f",
        "--text",
        "FLOOD-6-DONE",
        "--timeout",
        "60",
    ]);
    assert!(out.status.success(), "{out:?}");
    assert!(answers(&server, "calm") && answers(&server, "f"));
}

#[test]
fn a_trace_file_on_a_full_disk_never_stops_the_server() {
    if !std::path::Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full");
        return;
    }
    let server = TestServer::new("fulldisk");
    let out = server.weft(&[
        "--trace",
        "/dev/full",
        "new",
        "-d",
        "-s",
        "t",
        "--",
        "sh",
        "-c",
        "seq 1 20000; echo TRACED-$((3*3)); sleep 60",
    ]);
    assert!(out.status.success(), "{out:?}");
    let out = server.weft(&["wait", "-t", "t", "--text", "TRACED-9", "--timeout", "30"]);
    assert!(out.status.success(), "{out:?}");
    assert!(answers(&server, "t"));
}

#[test]
fn a_client_whose_output_is_gone_ends_without_a_panic() {
    // The client's stdout is a pipe whose reader has left, as a closed terminal's is: its last
    // line ("[detached …]") cannot be written, and that must not turn into a panic (status 101).
    let server = TestServer::new("gone");
    let script = r#"{ "$0" -S "$1" new -s gone -- bash --norc --noprofile; echo "client-exit=$?" >&2; } | true"#;
    let bin = weft_binary();
    let socket = server.socket.to_string_lossy().into_owned();
    let mut builder =
        weft_testkit::TestTerminal::spawn(["sh", "-c", script, &bin.to_string_lossy(), &socket]);
    for (k, v) in weft_tests::TEST_ENV {
        builder = builder.env(*k, *v);
    }
    let mut term = builder
        .env("HOME", server.dir.as_os_str())
        .start()
        .expect("start sh");
    term.wait_for_text("$").expect("the session's prompt");
    term.send_keys("C-b d").unwrap();
    term.wait_for_text("client-exit=")
        .expect("the client ended");
    assert!(
        term.screen().text().contains("client-exit=0"),
        "{}",
        term.screen().text()
    );
    assert!(answers(&server, "gone"), "the session lives on");
}
