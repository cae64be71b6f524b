//! Formats: `display-message -p`, and `-c "#{pane_current_path}"` for new panes and windows.

use weft_tests::{stdout_of, TestServer, TEST_SHELL};

#[test]
fn new_panes_start_in_the_current_path_and_display_expands_formats() {
    let server = TestServer::new("formats");
    let mut args = vec!["new", "-s", "fmt", "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut c = server.client(&args, 80, 24);
    c.wait_for_text("$").unwrap();
    let dir = server.dir.join("deep dir");
    std::fs::create_dir_all(&dir).unwrap();
    c.send_text(&format!("cd '{}' && echo c''d-done", dir.display()))
        .unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("cd-done").unwrap();
    let out = server.weft(&[
        "display-message",
        "-p",
        "-t",
        "fmt",
        "#S:#I #{b:pane_current_path} #{?pane_in_mode,copy,live} #{==:#{window_panes},1}",
    ]);
    assert_eq!(
        stdout_of(&out).trim_end(),
        "fmt:0 deep dir live 1",
        "{out:?}"
    );
    let out = server.weft(&[
        "list-sessions",
        "-F",
        "#{session_name} #{session_windows} #{?session_attached,attached,detached}",
    ]);
    assert_eq!(stdout_of(&out).trim_end(), "fmt 1 attached", "{out:?}");
    let out = server.weft(&["list-windows", "-t", "fmt", "-F", "#I:#W#F"]);
    assert_eq!(stdout_of(&out).trim_end(), "0:bash*", "{out:?}");
    // A binding as popular configs write it.
    assert!(server
        .weft(&[
            "bind",
            "|",
            "split-window",
            "-h",
            "-c",
            "#{pane_current_path}"
        ])
        .status
        .success());
    c.send_keys("C-b |").unwrap();
    c.wait_for(|_| stdout_of(&server.weft(&["list-panes"])).lines().count() == 2)
        .unwrap();
    c.wait_for_text("$").unwrap();
    c.send_text("echo \"[${PWD##*/}]\"").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("[deep dir]").unwrap();
    let out = server.weft(&[
        "list-panes",
        "-t",
        "fmt",
        "-F",
        "#{pane_index}:#{pane_active}",
    ]);
    assert_eq!(stdout_of(&out).trim_end(), "0:0\n1:1", "{out:?}");
    // new-window -c too.
    assert!(server
        .weft(&[
            "new-window",
            "-t",
            "fmt",
            "-c",
            "#{pane_current_path}",
            "--",
            "sh",
            "-c",
            "echo \"<${PWD##*/}>\"; sleep 30"
        ])
        .status
        .success());
    c.wait_for_text("<deep dir>").unwrap();
}

#[test]
fn run_shell_and_if_shell_run_commands_by_their_outcome() {
    let server = TestServer::new("shellcmds");
    assert!(server
        .weft(&["new", "-d", "-s", "sh", "--", "sleep", "60"])
        .status
        .success());
    let out = server.weft(&["run-shell", "echo from-the-shell; exit 3"]);
    assert_eq!(stdout_of(&out).trim_end(), "from-the-shell", "{out:?}");
    assert!(
        weft_tests::stderr_of(&out).contains("returned 3"),
        "{out:?}"
    );
    // if-shell picks a branch by the command's status, and -F by a format.
    let out = server.weft(&[
        "if-shell",
        "true",
        "set -g @picked yes",
        "set -g @picked no",
    ]);
    assert!(out.status.success(), "{out:?}");
    let picked = |s: &TestServer| {
        stdout_of(&s.weft(&["show", "-v", "@picked"]))
            .trim_end()
            .to_string()
    };
    assert_eq!(picked(&server), "yes");
    assert!(server
        .weft(&[
            "if-shell",
            "false",
            "set -g @picked yes",
            "set -g @picked no"
        ])
        .status
        .success());
    assert_eq!(picked(&server), "no");
    assert!(server
        .weft(&[
            "if",
            "-F",
            "-t",
            "sh",
            "#{==:#{session_name},sh}",
            "set -g @picked F"
        ])
        .status
        .success());
    assert_eq!(picked(&server), "F");
    // A chosen command that is wrong is refused before anything runs.
    let out = server.weft(&["if-shell", "true", "no-such-command"]);
    assert!(!out.status.success(), "{out:?}");
}

#[test]
fn new_window_and_split_window_print_what_they_made() {
    let server = TestServer::new("printnew");
    let mut args = vec!["new", "-d", "-s", "pn", "--"];
    args.extend_from_slice(TEST_SHELL);
    assert!(server.weft(&args).status.success());
    let window = stdout_of(&server.weft(&["new-window", "-d", "-t", "pn", "-P"]));
    assert_eq!(window.trim_end(), "pn:1");
    let pane = stdout_of(&server.weft(&["splitw", "-d", "-t", "pn:1", "-P", "-F", "#{pane_id}"]));
    let listed = stdout_of(&server.weft(&["list-panes", "-t", "pn:1", "-F", "#{pane_id}"]));
    assert!(pane.trim_end().starts_with('%'), "{pane:?}");
    assert!(
        listed.lines().any(|l| l == pane.trim_end()),
        "{pane:?} not in {listed}"
    );
    let quiet = stdout_of(&server.weft(&["new-window", "-d", "-t", "pn"]));
    assert_eq!(quiet, "", "nothing printed without -P");
}

#[test]
fn pid_is_the_servers_the_parent_of_every_pane() {
    let server = TestServer::new("fmtpid");
    let mut args = vec!["new", "-d", "-s", "p", "--"];
    args.extend_from_slice(TEST_SHELL);
    assert!(server.weft(&args).status.success());
    let out = server.weft(&["display-message", "-p", "-t", "p", "#{pid} #{pane_pid}"]);
    let printed = stdout_of(&out);
    let (pid, pane_pid) = printed.trim().split_once(' ').expect("two numbers");
    let stat = std::fs::read_to_string(format!("/proc/{pane_pid}/stat")).unwrap();
    // The fourth field of /proc/PID/stat, after the parenthesised command, is the parent.
    let after_comm = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest)
        .unwrap_or_default();
    let parent = after_comm.split_whitespace().nth(1).unwrap_or_default();
    assert_eq!(parent, pid, "{printed:?} {stat:?}");
}
