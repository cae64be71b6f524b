//! `tmux` is weft in what weft runs for a configuration (`run-shell`, `if-shell`, `#()`,
//! popups), as plugins and tmux bindings expect; a pane's `tmux` stays the user's.

use weft_tests::{attached_session, stderr_of, stdout_of, TestServer, TEST_SHELL};

fn ok(server: &TestServer, args: &[&str]) -> String {
    let out = server.weft(args);
    assert!(out.status.success(), "{args:?}: {}", stderr_of(&out));
    stdout_of(&out)
}

#[test]
fn run_shell_and_if_shell_find_tmux_to_be_weft() {
    let server = TestServer::new("tmuxjobs");
    let mut args = vec!["new", "-d", "-s", "plugins", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server, &args);
    // What a plugin manager checks first, then how plugins read and set options.
    assert_eq!(ok(&server, &["run-shell", "tmux -V"]), "tmux 3.3a\n");
    ok(
        &server,
        &[
            "run-shell",
            "tmux set -g @via-tmux \"$(tmux display -p '#S')\"",
        ],
    );
    assert_eq!(ok(&server, &["show", "-gv", "@via-tmux"]), "plugins\n");
    ok(
        &server,
        &[
            "if-shell",
            "tmux has-session -t plugins",
            "set -g @has yes",
            "set -g @has no",
        ],
    );
    assert_eq!(ok(&server, &["show", "-gv", "@has"]), "yes\n");
    // A pane's PATH is the user's: weft's `tmux` is not put first there.
    let line = "echo path-$((6*7)) ${PATH%%:*}";
    ok(&server, &["send-keys", "-t", "plugins", line, "Enter"]);
    let out = server.weft(&["wait", "-t", "plugins", "--text", "path-42 "]);
    assert!(out.status.success(), "{out:?}");
    let screen = ok(&server, &["capture-pane", "-p", "-t", "plugins"]);
    let first = screen
        .lines()
        .find_map(|l| l.strip_prefix("path-42 "))
        .expect("the pane said its PATH");
    assert!(
        !(first.contains("weft") && first.ends_with("/bin")),
        "{first}"
    );
}

#[test]
fn a_popups_tmux_is_weft() {
    let server = TestServer::new("tmuxpopup");
    let mut c = attached_session(&server, "pick", None);
    std::thread::scope(|scope| {
        let popup = scope.spawn(|| {
            server.weft(&[
                "display-popup",
                "-E",
                "tmux set -g @from-popup \"$(tmux ls -F '#S')\"",
            ])
        });
        let out = popup.join().unwrap();
        assert!(out.status.success(), "{out:?}");
    });
    assert_eq!(ok(&server, &["show", "-gv", "@from-popup"]), "pick\n");
    c.send_keys("C-b d").unwrap();
    c.wait_exit().unwrap();
}
