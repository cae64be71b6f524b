//! Driving weft without a terminal: send-keys, capture, wait, JSON listings, the test kit.

use serde_json::Value;
use weft_testkit::TestTerminal;
use weft_tests::{server_pid, stderr_of, stdout_of, TestServer, TEST_SHELL};

fn detached(server: &TestServer, name: &str) {
    let mut args = vec!["new", "-d", "-s", name, "-x", "80", "-y", "24", "--"];
    args.extend_from_slice(TEST_SHELL);
    let out = server.weft(&args);
    assert!(out.status.success(), "{out:?}");
    let out = server.weft(&["wait", "-t", name, "--text", "$"]);
    assert!(out.status.success(), "{out:?}");
}

fn revision(out: &std::process::Output) -> u64 {
    stdout_of(out)
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("{out:?}"))
}

#[test]
fn send_printf_and_wait_for_its_output() {
    let server = TestServer::new("printf");
    detached(&server, "p");
    let out = server.weft(&[
        "send-keys",
        "-t",
        "p",
        "printf '%s-%s\\n' left right",
        "Enter",
    ]);
    assert!(out.status.success(), "{out:?}");
    let out = server.weft(&["wait", "-t", "p", "--text", "left-right"]);
    assert!(out.status.success(), "{out:?}");
    let screen = stdout_of(&server.weft(&["capture", "-t", "p"]));
    assert!(screen.lines().any(|l| l == "left-right"), "{screen}");
}

#[test]
fn wait_after_a_keystroke_sees_only_newer_screens() {
    let server = TestServer::new("after");
    detached(&server, "a");
    let cap = server.weft(&["capture", "-t", "a"]);
    let rev: u64 = String::from_utf8_lossy(&cap.stderr)
        .trim()
        .strip_prefix("revision ")
        .unwrap()
        .parse()
        .unwrap();
    // The prompt is already there, but only a screen after the keystroke counts.
    let out = server.weft(&["send-keys", "-t", "a", "x"]);
    assert!(out.status.success());
    let out = server.weft(&[
        "wait",
        "-t",
        "a",
        "--text",
        "$",
        "--after",
        &rev.to_string(),
    ]);
    assert!(out.status.success(), "{out:?}");
    assert!(revision(&out) > rev);
    assert!(stdout_of(&server.weft(&["capture", "-t", "a"])).contains("$ x"));
}

#[test]
fn keys_sent_during_a_flood_all_arrive_in_order() {
    let server = TestServer::new("order");
    // The program floods its terminal while it reads; it checks the order itself, stops the
    // flood, and prints its verdict.
    let script = "yes flood | head -c 20000000 & FL=$!; i=0; ok=1; \
        while read line; do [ \"$line\" = END ] && break; [ \"$line\" = \"k$i\" ] || ok=0; i=$((i+1)); done; \
        kill $FL 2>/dev/null; wait; echo RESULT count=$i ok=$ok; sleep 60";
    let out = server.weft(&[
        "new", "-d", "-s", "o", "-x", "80", "-y", "24", "--", "sh", "-c", script,
    ]);
    assert!(out.status.success(), "{out:?}");
    for i in 0..200 {
        let out = server.weft(&["send-keys", "-t", "o", &format!("k{i}"), "Enter"]);
        assert!(out.status.success(), "{out:?}");
    }
    let out = server.weft(&["send-keys", "-t", "o", "END", "Enter"]);
    assert!(out.status.success());
    let out = server.weft(&["wait", "-t", "o", "--text", "RESULT", "--timeout", "60"]);
    assert!(out.status.success(), "{out:?}");
    let screen = stdout_of(&server.weft(&["capture", "-t", "o"]));
    assert!(screen.contains("RESULT count=200 ok=1"), "{screen}");
}

#[test]
fn a_timeout_exits_1_and_prints_the_screen() {
    let server = TestServer::new("timeout");
    detached(&server, "t");
    let out = server.weft(&[
        "wait",
        "-t",
        "t",
        "--text",
        "never-there",
        "--timeout",
        "0.3",
    ]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(stdout_of(&out).contains('$'), "{out:?}");
    let out = server.weft(&["wait", "-t", "t", "--bogus"]);
    assert_eq!(out.status.code(), Some(2));
    let out = server.weft(&["send-keys", "-t", "nowhere", "x"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn idle_and_exit_waits() {
    let server = TestServer::new("idleexit");
    let out = server.weft(&[
        "new",
        "-d",
        "-s",
        "i",
        "--",
        "sh",
        "-c",
        "echo start; read x; exit 3",
    ]);
    assert!(out.status.success(), "{out:?}");
    let out = server.weft(&["wait", "-t", "i", "--idle", "200"]);
    assert!(out.status.success(), "{out:?}");
    assert!(stdout_of(&server.weft(&["capture", "-t", "i"])).contains("start"));
    // Keep a second pane so the session outlives the first.
    let out = server.weft(&["split-window", "-d", "-t", "i", "--", "sleep", "60"]);
    assert!(out.status.success(), "{out:?}");
    let pane = {
        let panes: Value = serde_json::from_str(&stdout_of(&server.weft(&[
            "list-panes",
            "-t",
            "i",
            "--json",
        ])))
        .unwrap();
        panes[0]["id"].as_str().unwrap().to_string()
    };
    let waiter = {
        let weft = weft_tests::weft_binary();
        let socket = server.socket.clone();
        let pane = pane.clone();
        std::thread::spawn(move || {
            std::process::Command::new(weft)
                .args([
                    "-S".as_ref(),
                    socket.as_os_str(),
                    "wait".as_ref(),
                    "-t".as_ref(),
                    pane.as_ref(),
                    "--exit".as_ref(),
                ])
                .output()
                .unwrap()
        })
    };
    let out = server.weft(&["send-keys", "-t", &pane, "Enter"]);
    assert!(out.status.success(), "{out:?}");
    let out = waiter.join().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stdout_of(&out).trim(), "3");
    // Exited panes are remembered for a while.
    let out = server.weft(&["wait", "-t", &pane, "--exit"]);
    assert_eq!(stdout_of(&out).trim(), "3", "{out:?}");
}

#[test]
fn json_output_has_the_documented_fields() {
    let server = TestServer::new("json");
    detached(&server, "j");
    let sessions: Value =
        serde_json::from_str(&stdout_of(&server.weft(&["ls", "--json"]))).unwrap();
    for field in [
        "id", "name", "clients", "cols", "rows", "created", "windows", "panes",
    ] {
        assert!(!sessions[0][field].is_null(), "{field}: {sessions}");
    }
    assert!(sessions[0]["id"].as_str().unwrap().starts_with('$'));
    let windows: Value = serde_json::from_str(&stdout_of(&server.weft(&[
        "list-windows",
        "-t",
        "j",
        "--json",
    ])))
    .unwrap();
    for field in [
        "id", "index", "name", "session", "panes", "active", "zoomed", "cols", "rows",
    ] {
        assert!(!windows[0][field].is_null(), "{field}: {windows}");
    }
    assert!(windows[0]["id"].as_str().unwrap().starts_with('@'));
    let panes: Value = serde_json::from_str(&stdout_of(&server.weft(&[
        "list-panes",
        "-t",
        "j",
        "--json",
    ])))
    .unwrap();
    for field in [
        "id", "index", "window", "session", "cols", "rows", "left", "top", "active", "pid", "title",
    ] {
        assert!(!panes[0][field].is_null(), "{field}: {panes}");
    }
    let screen: Value =
        serde_json::from_str(&stdout_of(&server.weft(&["capture", "-t", "j", "--json"]))).unwrap();
    for field in [
        "cols", "rows", "cursor", "modes", "title", "screen", "revision",
    ] {
        assert!(!screen[field].is_null(), "{field}");
    }
    assert_eq!(screen["screen"][0]["cells"][0]["text"], "$");
}

#[test]
fn capture_with_escapes_scrollback_and_joined_lines() {
    let server = TestServer::new("capture");
    let out = server.weft(&[
        "new", "-d", "-s", "c", "-x", "20", "-y", "5", "--", "sh", "-c",
        "seq 1 30; printf '\\033[31mred\\033[0m '; printf '%s' abcdefghijklmnopqrstuvwxyz0123; sleep 60",
    ]);
    assert!(out.status.success(), "{out:?}");
    let out = server.weft(&["wait", "-t", "c", "--text", "0123"]);
    assert!(out.status.success(), "{out:?}");
    let ansi = stdout_of(&server.weft(&["capture", "-t", "c", "--ansi"]));
    assert!(ansi.contains("\x1b[0;31mred\x1b[0m"), "{ansi:?}");
    let history = stdout_of(&server.weft(&["capture", "-t", "c", "--scrollback", "100"]));
    assert!(history.starts_with("1\n2\n3\n"), "{history}");
    let joined = stdout_of(&server.weft(&["capture", "-t", "c", "--join-wrapped"]));
    assert!(
        joined.contains("abcdefghijklmnopqrstuvwxyz0123"),
        "{joined}"
    );
}

#[test]
fn history_after_a_fast_stream_holds_every_line_in_order() {
    // Thousands of lines in one burst arrive in large chunks, most of which scroll straight
    // through the screen: some coloured, some wrapping at 80 columns, some empty.
    let server = TestServer::new("stream-history");
    let program = r#"awk 'BEGIN { for (i = 1; i <= 3000; i++) { s = "n=" i " "; for (j = 0; j < i % 150; j++) s = s "x"; if (i % 7 == 0) s = "\033[3" (i % 8) "m" s "\033[0m"; if (i % 500 == 0) s = ""; print s }; print "DONE" }'; sleep 60"#;
    let out = server.weft(&[
        "new", "-d", "-s", "h", "-x", "80", "-y", "24", "--", "sh", "-c", program,
    ]);
    assert!(out.status.success(), "{out:?}");
    let out = server.weft(&["wait", "-t", "h", "--text", "DONE"]);
    assert!(out.status.success(), "{out:?}");
    let history = stdout_of(&server.weft(&[
        "capture",
        "-t",
        "h",
        "--scrollback",
        "10000",
        "--join-wrapped",
    ]));
    let expected: Vec<String> = (1..=3000)
        .map(|i| {
            if i % 500 == 0 {
                String::new()
            } else {
                format!("n={i} {}", "x".repeat(i % 150))
                    .trim_end()
                    .to_string()
            }
        })
        .chain(std::iter::once("DONE".to_string()))
        .collect();
    let lines: Vec<&str> = history.lines().collect();
    let Some(first) = lines.iter().position(|l| *l == expected[0]) else {
        panic!("no first line in {history}");
    };
    let got = lines.get(first..first + expected.len()).unwrap_or_else(|| {
        panic!(
            "{} lines from the first, {} expected",
            lines.len() - first,
            expected.len()
        )
    });
    for (i, (got, want)) in got.iter().zip(&expected).enumerate() {
        assert_eq!(got, want, "line {} of the stream", i + 1);
    }
}

#[test]
fn the_test_kit_drives_less() {
    // A real program, the way docs/testing-tui-programs.md shows.
    let file = std::env::temp_dir().join(format!("weft-less-{}.txt", std::process::id()));
    let text: String = (1..=200).map(|i| format!("line {i}\n")).collect();
    std::fs::write(&file, text).unwrap();
    let mut term = TestTerminal::spawn(["less", file.to_str().unwrap()])
        .size(80, 24)
        .env("LESS", "")
        .env("TERM", "xterm-256color")
        .start()
        .unwrap();
    term.wait_for_text("line 1").unwrap();
    assert_eq!(term.screen().row(0).unwrap().text(), "line 1");
    term.send_keys("G").unwrap();
    term.wait_for_text("line 200").unwrap();
    term.send_keys("g").unwrap();
    term.wait_for(|s| s.row(0).is_some_and(|r| r.text() == "line 1"))
        .unwrap();
    term.send_text("/line 150").unwrap();
    term.send_keys("Enter").unwrap();
    term.wait_for(|s| s.row(0).is_some_and(|r| r.text() == "line 150"))
        .unwrap();
    term.send_keys("q").unwrap();
    assert_eq!(term.wait_exit().unwrap().code, 0);
    std::fs::remove_file(&file).ok();
}

#[test]
fn the_test_kit_attaches_to_a_real_server() {
    let server = TestServer::new("kitattach");
    detached(&server, "k");
    let out = server.weft(&["send-keys", "-t", "k", "echo attached-$((3*3))", "Enter"]);
    assert!(out.status.success());
    let mut term = TestTerminal::attach(weft_tests::weft_binary(), &server.socket, "k")
        .size(80, 24)
        .start()
        .unwrap();
    term.wait_for_text("attached-9").unwrap();
    term.send_keys("C-b d").unwrap();
    term.wait_exit().unwrap();
}

#[test]
fn a_long_history_captures_whole_in_bounded_memory() {
    let server = TestServer::new("longcap");
    let script = "seq 1 20000; echo SEQ-DONE; exec sleep 600";
    let out = server.weft(&[
        "new", "-d", "-s", "l", "-x", "80", "-y", "24", "--", "sh", "-c", script,
    ]);
    assert!(out.status.success(), "{out:?}");
    let out = server.weft(&["wait", "-t", "l", "--text", "SEQ-DONE"]);
    assert!(out.status.success(), "{out:?}");
    let pid = server_pid(&server);
    // The server's memory is sampled all through the captures.
    let memory = weft_tests::RssPeak::watch(pid);

    let out = server.weft(&["capture", "-t", "l", "--json", "--scrollback", "10000"]);
    assert!(out.status.success(), "{out:?}");
    assert!(stderr_of(&out).starts_with("revision "), "{out:?}");
    let json: Value = serde_json::from_slice(&out.stdout).expect("the capture parses");
    let number = |row: &Value| -> u64 { row["text"].as_str().unwrap().trim().parse().unwrap() };
    let history = json["scrollback"].as_array().unwrap();
    assert_eq!(history.len(), 10000);
    // Consecutive numbers, the last of them just above the first on the screen.
    let numbers: Vec<u64> = history.iter().map(number).collect();
    assert!(numbers.windows(2).all(|w| w[0] + 1 == w[1]));
    let first_on_screen = number(&json["screen"][0]);
    assert_eq!(numbers[9999] + 1, first_on_screen);
    assert!(json["screen"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["text"] == "20000"));

    let out = server.weft(&["capture", "-t", "l", "--scrollback", "100000"]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout_of(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.last(),
        Some(&"SEQ-DONE"),
        "{:?}",
        &lines[lines.len() - 3..]
    );
    assert_eq!(lines[lines.len() - 2], "20000");
    let numbers: Vec<u64> = lines[..lines.len() - 1]
        .iter()
        .map(|l| l.parse().unwrap())
        .collect();
    assert!(numbers.windows(2).all(|w| w[0] + 1 == w[1]));

    let peak_mib = memory.peak_mib();
    eprintln!("server peak RSS while capturing: {peak_mib} MiB");
    assert!(peak_mib < 150, "the server reached {peak_mib} MiB");
}

#[test]
fn capture_pane_takes_tmuxs_s_dash_and_e_dash_as_scripts_write_them() {
    let server = TestServer::new("capflags");
    let ok = server.weft(&[
        "new",
        "-d",
        "-s",
        "c",
        "-x",
        "40",
        "-y",
        "5",
        "--",
        "sh",
        "-c",
        "seq 1 30; exec sleep 60",
    ]);
    assert!(ok.status.success(), "{ok:?}");
    let waited = server.weft(&["wait", "-t", "c", "--text", "30"]);
    assert!(waited.status.success(), "{waited:?}");
    // `capture-pane -pJ -S - -E -`: the whole history and the screen.
    let all = stdout_of(&server.weft(&["capture-pane", "-pJ", "-S", "-", "-E", "-", "-t", "c"]));
    let lines: Vec<&str> = all.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.first(), Some(&"1"), "{all}");
    assert!(lines.contains(&"30"), "{all}");
    // Numbered lines, as tmux numbers them: `-E -1` ends with the history's last line, `-S 0
    // -E 0` is the screen's top row alone; one follows the other.
    let capture = |args: &[&str]| {
        let mut all = vec!["capture-pane", "-p", "-t", "c"];
        all.extend_from_slice(args);
        let out = server.weft(&all);
        assert!(out.status.success(), "{out:?}");
        stdout_of(&out)
    };
    let history = capture(&["-S", "-", "-E", "-1"]);
    let last_of_history: u32 = history.lines().last().unwrap().trim().parse().unwrap();
    let top = capture(&["-S", "0", "-E", "0"]);
    assert_eq!(top.lines().count(), 1, "{top}");
    assert_eq!(top.trim().parse::<u32>().unwrap(), last_of_history + 1);
    assert_eq!(history.lines().next(), Some("1"), "{history}");
    let out = server.weft(&["capture-pane", "-p", "-E", "three", "-t", "c"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        stderr_of(&out).contains("-E takes a line number"),
        "{out:?}"
    );
}

#[test]
fn clear_history_drops_a_panes_history_and_keeps_its_screen() {
    let server = TestServer::new("clearhist");
    detached(&server, "h");
    let typed = server.weft(&[
        "send-keys",
        "-t",
        "h",
        "-l",
        "seq 1 300 | sed 's/^/line-/'; echo LIST-DONE",
    ]);
    assert!(typed.status.success(), "{typed:?}");
    assert!(server
        .weft(&["send-keys", "-t", "h", "Enter"])
        .status
        .success());
    let done = server.weft(&["wait", "-t", "h", "--regex", "(?m)^LIST-DONE"]);
    assert!(done.status.success(), "{done:?}");
    let size = |server: &TestServer| -> u64 {
        let out = server.weft(&["display", "-p", "-t", "h", "#{history_size}"]);
        stdout_of(&out)
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{out:?}"))
    };
    assert!(size(&server) > 250, "history before: {}", size(&server));
    let out = server.weft(&["clearhist", "-t", "h"]);
    assert!(
        out.status.success() && stderr_of(&out).is_empty(),
        "{out:?}"
    );
    assert_eq!(size(&server), 0);
    let all = stdout_of(&server.weft(&["capture-pane", "-p", "-t", "h", "-S", "-"]));
    assert!(!all.contains("line-1\n"), "{all}");
    // The screen stays as it was.
    assert!(
        all.contains("LIST-DONE") && all.contains("line-300"),
        "{all}"
    );
    // An unknown pane is a clear error.
    let out = server.weft(&["clear-history", "-t", "nosuch"]);
    assert!(
        !out.status.success() && !stderr_of(&out).is_empty(),
        "{out:?}"
    );
}
