//! The status line as a tmux user sets it: `status-left`/`status-right` with `#[...]` styles
//! and times, window formats, `#()` shell commands, and the activity, bell and silence flags
//! of windows that are not current. Colours are checked as the user's terminal received them.

use std::time::{Duration, Instant};
use weft_testkit::{Attrs, Color, Screen, TestTerminal};
use weft_tests::{stdout_of, TestServer, TEST_SHELL};

const COLS: u16 = 80;
const ROWS: u16 = 24;
/// The status line's row.
const STATUS: usize = ROWS as usize - 1;

/// Runs `weft ARGS`, which must succeed.
fn ok(server: &TestServer, args: &[&str]) {
    let out = server.weft(args);
    assert!(out.status.success(), "{args:?}: {out:?}");
}

/// A session `name` of one shell, attached in a terminal of 80x24.
fn attached(server: &TestServer, name: &str) -> TestTerminal {
    let mut args = vec!["new", "-d", "-s", name, "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(server, &args);
    let mut c = server.client(&["attach", "-t", name], COLS, ROWS);
    let tag = format!("[{name}]");
    c.wait_for(|s| status(s).starts_with(&tag)).unwrap();
    c
}

/// The status line's text.
fn status(screen: &Screen) -> String {
    screen.row(STATUS).map(|r| r.text()).unwrap_or_default()
}

#[test]
fn left_and_right_reach_the_terminal_in_their_colours() {
    let server = TestServer::new("stcolour");
    let mut c = attached(&server, "s");
    // tmux's default: black on green over the whole line.
    c.expect_style(STATUS, 0..usize::from(COLS))
        .bg(Color::Indexed(2))
        .wait()
        .unwrap();
    c.expect_style(STATUS, 0..11)
        .fg(Color::Indexed(0))
        .wait()
        .unwrap();
    ok(&server, &["set", "-g", "status-style", "bg=blue,fg=white"]);
    ok(
        &server,
        &[
            "set",
            "-g",
            "status-left",
            "#[fg=red,bold]LEFT#[default]-#S ",
        ],
    );
    ok(
        &server,
        &["set", "-g", "status-right", "#[bg=colour123,fg=#102030]%Y"],
    );
    let year = stdout_of(
        &std::process::Command::new("date")
            .arg("+%Y")
            .output()
            .unwrap(),
    );
    let year = year.trim().to_string();
    c.wait_for(|s| status(s).starts_with("LEFT-s 0:bash*") && status(s).ends_with(&year))
        .unwrap();
    c.expect_style(STATUS, 0..4)
        .fg(Color::Indexed(1))
        .bg(Color::Indexed(4))
        .bold()
        .wait()
        .unwrap();
    // `default` goes back to the status style: not bold, white on blue.
    c.expect_style(STATUS, 4..6)
        .fg(Color::Indexed(7))
        .bg(Color::Indexed(4))
        .wait()
        .unwrap();
    let cell = c.screen().cell(STATUS, 4).unwrap().clone();
    assert!(!cell.attrs().contains(Attrs::BOLD), "{cell:?}");
    let cols = usize::from(COLS);
    c.expect_style(STATUS, cols - 4..cols)
        .fg(Color::Rgb(weft_testkit::Rgb::new(0x10, 0x20, 0x30)))
        .bg(Color::Indexed(123))
        .wait()
        .unwrap();
}

#[test]
fn window_formats_change_at_once_and_lengths_cut() {
    let server = TestServer::new("stformat");
    let mut c = attached(&server, "s");
    ok(&server, &["new-window", "-d", "-n", "other"]);
    c.wait_for(|s| status(s).starts_with("[s] 0:bash* 1:other "))
        .unwrap();
    ok(
        &server,
        &["set", "-g", "window-status-current-format", "<#I|#W>"],
    );
    ok(&server, &["set", "-g", "window-status-format", "(#W)"]);
    ok(&server, &["set", "-g", "window-status-separator", "|"]);
    c.wait_for(|s| status(s).starts_with("[s] <0|bash>|(other)"))
        .unwrap();
    // A variable only the separator names is made for it too.
    let counted = "|#{session_windows}|";
    ok(&server, &["set", "-g", "window-status-separator", counted]);
    c.wait_for(|s| status(s).starts_with("[s] <0|bash>|2|(other)"))
        .unwrap();
    ok(&server, &["set", "-g", "window-status-separator", "|"]);
    ok(
        &server,
        &[
            "set",
            "-g",
            "status-left",
            "#{session_name}-a-long-left-part ",
        ],
    );
    ok(&server, &["set", "-g", "status-left-length", "6"]);
    c.wait_for(|s| status(s).starts_with("s-a-lo<0|bash>"))
        .unwrap();
    ok(&server, &["set", "-g", "status-justify", "right"]);
    ok(&server, &["set", "-g", "status-right", ""]);
    c.wait_for(|s| status(s).ends_with("<0|bash>|(other)"))
        .unwrap();
}

#[test]
fn shell_commands_show_their_output_and_never_delay_a_key() {
    let server = TestServer::new("stjob");
    let mut c = attached(&server, "s");
    // As in tmux, `#{...}` in a command are expanded before it runs.
    ok(
        &server,
        &["set", "-g", "status-right", "#(echo hi-#{session_name})"],
    );
    c.wait_for(|s| status(s).ends_with("hi-s")).unwrap();
    // A command that takes its time: nothing waits for it.
    ok(
        &server,
        &["set", "-g", "status-right", "#(sleep 4242; echo late)right"],
    );
    c.wait_for(|s| status(s).ends_with("right")).unwrap();
    let typed = Instant::now();
    c.send_text("echo typed-$((6*7))").unwrap();
    c.send_keys("Enter").unwrap();
    c.expect_text("typed-42")
        .within(Duration::from_secs(3))
        .wait()
        .unwrap();
    let asked = Instant::now();
    let out = server.weft(&["display-message", "-p", "#{session_name}"]);
    assert_eq!(stdout_of(&out).trim(), "s");
    assert!(
        asked.elapsed() < Duration::from_secs(3) && typed.elapsed() < Duration::from_secs(6),
        "the session answered while the command ran"
    );
    // The command dies with the server.
    within(Duration::from_secs(10), "the command starts", sleeping_4242);
    ok(&server, &["kill-server"]);
    within(
        Duration::from_secs(10),
        "the command ends with the server",
        || !sleeping_4242(),
    );
}

/// Waits until `done` holds, checking every 50 ms, failing with `what` after `limit`.
fn within(limit: Duration, what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting until {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn shell_commands_run_again_every_status_interval() {
    let server = TestServer::new("stjobagain");
    let mut c = attached(&server, "s");
    // Prints `run-K` for the Kth pair of runs: every other run prints what the last did.
    let script = server.dir.join("count.sh");
    let count = server.dir.join("count");
    std::fs::write(
        &script,
        format!(
            "n=$(cat {0} 2>/dev/null || echo 0); echo $((n + 1)) > {0}; echo run-$((n / 2))\n",
            count.display()
        ),
    )
    .unwrap();
    ok(&server, &["set", "-g", "status-interval", "1"]);
    let right = format!("#(sh {})", script.display());
    ok(&server, &["set", "-g", "status-right", &right]);
    c.wait_for(|s| status(s).ends_with("run-0")).unwrap();
    c.wait_for(|s| status(s).ends_with("run-2")).unwrap();
}

/// Whether a `sleep 4242` runs (only this test starts one).
fn sleeping_4242() -> bool {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .any(|e| std::fs::read(e.path().join("cmdline")).is_ok_and(|c| c == b"sleep\x004242\x00"))
}

#[test]
fn activity_and_bell_flag_other_windows_until_they_are_shown() {
    let server = TestServer::new("stalert");
    let mut c = attached(&server, "s");
    let mut args = vec!["new-window", "-d", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server, &args);
    ok(&server, &args);
    for w in ["s:1", "s:2"] {
        ok(&server, &["wait", "-t", w, "--text", "$"]);
    }
    c.wait_for(|s| status(s).starts_with("[s] 0:bash* 1:bash  2:bash "))
        .unwrap();
    ok(&server, &["set", "-g", "monitor-activity", "on"]);
    ok(&server, &["send-keys", "-t", "s:1", "echo out", "Enter"]);
    c.wait_for(|s| status(s).contains("1:bash#")).unwrap();
    ok(
        &server,
        &["send-keys", "-t", "s:2", "printf 'ring\\007'", "Enter"],
    );
    c.wait_for(|s| status(s).contains("2:bash#!")).unwrap();
    let vars = |target: &str| {
        stdout_of(&server.weft(&[
            "display-message",
            "-p",
            "-t",
            target,
            "#{window_activity_flag}#{window_bell_flag}#{window_silence_flag}|#{window_flags}",
        ]))
        .trim()
        .to_string()
    };
    assert_eq!(vars("s:1"), "100|#");
    assert_eq!(vars("s:2"), "110|#!");
    // tmux's window-status-bell-style: the flagged tab is reversed.
    let line = status(c.screen());
    let at = line.find("2:bash").unwrap();
    let cell = c.screen().cell(STATUS, at).unwrap().clone();
    assert!(cell.attrs().contains(Attrs::INVERSE), "{cell:?}");
    // Shown, a window's flags clear.
    ok(&server, &["select-window", "-t", "s:2"]);
    c.wait_for(|s| status(s).contains("2:bash*") && status(s).contains("0:bash-"))
        .unwrap();
    assert_eq!(vars("s:2"), "000|*");
    assert!(status(c.screen()).contains("1:bash#"), "still flagged");
}

#[test]
fn silence_flags_a_quiet_window() {
    let server = TestServer::new("stsilence");
    let mut c = attached(&server, "s");
    ok(
        &server,
        &[
            "new-window",
            "-d",
            "--",
            "sh",
            "-c",
            "echo once; exec sleep 600",
        ],
    );
    ok(&server, &["set", "-g", "monitor-silence", "1"]);
    c.wait_for(|s| status(s).contains("1:sleep~")).unwrap();
    ok(&server, &["select-window", "-t", "s:1"]);
    c.wait_for(|s| status(s).contains("1:sleep*")).unwrap();
}

#[test]
fn loops_go_over_windows_and_panes() {
    let server = TestServer::new("stloops");
    let mut c = attached(&server, "s");
    ok(&server, &["new-window", "-d", "-n", "two"]);
    ok(&server, &["split-window", "-t", "s:0"]);
    let shown = |fmt: &str| {
        let out = server.weft(&["display-message", "-p", "-t", "s:0", fmt]);
        assert!(out.status.success(), "{out:?}");
        stdout_of(&out).trim_end().to_string()
    };
    assert_eq!(shown("#{W:#I=#W ,<#I> }"), "<0> 1=two");
    assert_eq!(shown("#{P:#{pane_index},[#{pane_index}]}"), "0[1]");
    assert_eq!(shown("#{S:#S}"), "s");
    ok(
        &server,
        &["set", "-g", "status-right", "#{W:#I,(#I)}|#{P:x}"],
    );
    c.wait_for(|s| status(s).ends_with("(0)1|xx")).unwrap();
}

#[test]
fn mode_style_colours_copy_mode() {
    let server = TestServer::new("stmode");
    let mut c = attached(&server, "s");
    ok(&server, &["set", "-g", "mode-style", "bg=red,fg=white"]);
    ok(&server, &["copy-mode", "-t", "s"]);
    // The position indicator, top right: `[0/0]`.
    c.wait_for(|s| s.row(0).is_some_and(|r| r.text().ends_with("[0/0]")))
        .unwrap();
    let cols = usize::from(COLS);
    c.expect_style(0, cols - 5..cols)
        .fg(Color::Indexed(7))
        .bg(Color::Indexed(1))
        .wait()
        .unwrap();
}
