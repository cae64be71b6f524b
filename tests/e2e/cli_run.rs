//! `weft run`: a program in a pane of its own, from any language's test: its pane printed, or
//! with `--wait-exit` its last screen and its exit status.

use weft_tests::{stderr_of, stdout_of, weft_binary, TestServer, TEST_ENV, TEST_SHELL};

/// A session named `base` that keeps the server up while the tests' own panes come and go.
fn base_session(server: &TestServer) {
    let mut args = vec!["new", "-d", "-s", "base", "-x", "80", "-y", "24", "--"];
    args.extend_from_slice(TEST_SHELL);
    let out = server.weft(&args);
    assert!(out.status.success(), "{out:?}");
}

/// `weft ARGS` run from directory `dir`.
fn weft_in(server: &TestServer, dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    let mut cmd = std::process::Command::new(weft_binary());
    cmd.arg("-S")
        .arg(&server.socket)
        .args(args)
        .current_dir(dir);
    for (k, v) in TEST_ENV {
        cmd.env(k, v);
    }
    cmd.env("HOME", &server.dir);
    cmd.stdin(std::process::Stdio::null())
        .output()
        .expect("run weft")
}

fn session_names(server: &TestServer) -> Vec<String> {
    let out = server.weft(&["list-sessions", "-F", "#{session_name}"]);
    assert!(out.status.success(), "{out:?}");
    stdout_of(&out).lines().map(str::to_string).collect()
}

#[test]
fn wait_exit_prints_the_last_screen_and_exits_with_the_status() {
    let server = TestServer::new("runwait");
    // No server yet: run starts one, as new does (and it ends with the run's session).
    let out = server.weft(&[
        "run",
        "--wait-exit",
        "--",
        "sh",
        "-c",
        "printf 'first\\n\\033[31mred\\033[0m text\\n'",
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // Text only, trailing blank rows trimmed.
    assert_eq!(stdout_of(&out), "first\nred text\n", "{out:?}");
    // The server goes with its last session, and may still be ending as the next command
    // connects: that command then starts a new server.
    base_session(&server);
    let out = server.weft(&[
        "run",
        "--size",
        "30x6",
        "--wait-exit",
        "--",
        "sh",
        "-c",
        "echo second line; exit 3",
    ]);
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    assert_eq!(stdout_of(&out), "second line\n", "{out:?}");
    // The session it made went with the program.
    assert_eq!(session_names(&server), ["base"]);

    // A signal: 128 + its number, as shells say.
    let out = server.weft(&[
        "run",
        "--wait-exit",
        "--",
        "sh",
        "-c",
        "echo before; kill -TERM $$",
    ]);
    assert_eq!(out.status.code(), Some(128 + 15), "{out:?}");
    assert_eq!(stdout_of(&out), "before\n", "{out:?}");

    // The program's size is --size.
    let out = server.weft(&["run", "--size", "33x7", "--wait-exit", "--", "stty", "size"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stdout_of(&out).trim(), "7 33", "{out:?}");
    assert_eq!(session_names(&server), ["base"]);
}

#[test]
fn run_in_a_session_adds_a_window_and_prints_its_pane() {
    let server = TestServer::new("runwindow");
    base_session(&server);
    let out = server.weft(&[
        "run",
        "-t",
        "base",
        "--",
        "sh",
        "-c",
        "echo READY; sleep 100",
    ]);
    assert!(out.status.success(), "{out:?}");
    let pane = stdout_of(&out).trim().to_string();
    assert!(pane.starts_with('%'), "a pane id: {out:?}");
    let out = server.weft(&["wait", "-t", &pane, "--text", "READY"]);
    assert!(out.status.success(), "{out:?}");
    // A detached window: the session still shows its first one.
    let out = server.weft(&["list-windows", "-t", "base", "-F", "#{window_active}"]);
    assert_eq!(stdout_of(&out), "1\n0\n", "{out:?}");
    let out = server.weft(&["kill-pane", "-t", &pane]);
    assert!(out.status.success(), "{out:?}");

    // --wait-exit in a session: the window goes once its screen is printed.
    let out = server.weft(&[
        "run",
        "-t",
        "base",
        "--wait-exit",
        "--",
        "sh",
        "-c",
        "echo done",
    ]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stdout_of(&out), "done\n");
    let out = server.weft(&["list-windows", "-t", "base", "-F", "#{window_index}"]);
    assert_eq!(stdout_of(&out).lines().count(), 1, "{out:?}");

    // A name no session has: a new session of that name.
    let out = server.weft(&["run", "-t", "other", "--", "sleep", "100"]);
    assert!(out.status.success(), "{out:?}");
    let mut names = session_names(&server);
    names.sort();
    assert_eq!(names, ["base", "other"]);
}

#[test]
fn remain_keeps_the_pane_for_its_last_screen() {
    let server = TestServer::new("runremain");
    base_session(&server);
    let out = server.weft(&[
        "run",
        "--remain",
        "--",
        "sh",
        "-c",
        "echo last words; exit 4",
    ]);
    assert!(out.status.success(), "{out:?}");
    let pane = stdout_of(&out).trim().to_string();
    let out = server.weft(&["wait", "-t", &pane, "--exit"]);
    assert_eq!(stdout_of(&out).trim(), "4", "{out:?}");
    let out = server.weft(&["capture-pane", "-t", &pane]);
    assert!(out.status.success(), "{out:?}");
    assert!(stdout_of(&out).starts_with("last words\n"), "{out:?}");
    let out = server.weft(&["display-message", "-p", "-t", &pane, "#{pane_dead}"]);
    assert_eq!(stdout_of(&out).trim(), "1", "{out:?}");
}

#[test]
fn wait_exit_closes_its_pane_even_under_remain_on_exit() {
    let server = TestServer::new("runremainall");
    base_session(&server);
    let out = server.weft(&["set-option", "-g", "remain-on-exit", "on"]);
    assert!(out.status.success(), "{out:?}");
    let out = server.weft(&[
        "run",
        "-t",
        "base",
        "--wait-exit",
        "--",
        "sh",
        "-c",
        "echo bye",
    ]);
    assert!(out.status.success(), "{out:?}");
    // The screen as the program left it, without the dead pane's note.
    assert_eq!(stdout_of(&out), "bye\n", "{out:?}");
    let out = server.weft(&["list-windows", "-t", "base", "-F", "#{window_index}"]);
    assert_eq!(stdout_of(&out).lines().count(), 1, "{out:?}");
    // Other panes still follow the option.
    let out = server.weft(&["run", "-t", "base", "--", "true"]);
    let pane = stdout_of(&out).trim().to_string();
    let out = server.weft(&["wait", "-t", &pane, "--text", "Pane is dead"]);
    assert!(out.status.success(), "{out:?}");
}

#[test]
fn run_starts_where_the_caller_is() {
    let server = TestServer::new("runcwd");
    base_session(&server);
    let here = server.dir.join("work dir");
    std::fs::create_dir_all(&here).unwrap();
    std::fs::write(here.join("script.sh"), "echo from the script\n").unwrap();
    let out = weft_in(
        &server,
        &here,
        &["run", "--wait-exit", "--", "sh", "script.sh"],
    );
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stdout_of(&out), "from the script\n", "{out:?}");
}

#[test]
fn run_without_dashes_is_still_run_shell() {
    let server = TestServer::new("runshell");
    base_session(&server);
    // tmux's `run`: a shell command, its output printed.
    let out = server.weft(&["run", "echo from run-shell"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stdout_of(&out).trim(), "from run-shell", "{out:?}");
    assert_eq!(session_names(&server), ["base"]);
}

#[test]
fn run_explains_bad_arguments() {
    let server = TestServer::new("runbad");
    base_session(&server);
    let out = server.weft(&["run", "--wait-exit", "--"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        stderr_of(&out).contains("a command to run is needed"),
        "{out:?}"
    );
    let out = server.weft(&["run", "--size", "80", "--", "true"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        stderr_of(&out).contains("--size takes COLSxROWS"),
        "{out:?}"
    );
    let out = server.weft(&["run", "-t", "$99", "--", "true"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(stderr_of(&out).contains("$99"), "{out:?}");
    let out = server.weft(&["run", "--wait-exit", "--", "/nonexistent/program"]);
    assert_ne!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(session_names(&server), ["base"]);
}

#[test]
fn an_interrupted_run_ends_its_program() {
    let server = TestServer::new("runstop");
    base_session(&server);
    let weft = weft_binary().display().to_string();
    let socket = server.socket.display().to_string();
    // The program says when it runs and when it is hung up, through wait-for channels.
    let script = format!(
        "trap '\"{weft}\" -S \"{socket}\" wait-for -S hung-up; exit 1' HUP; \
         \"{weft}\" -S \"{socket}\" wait-for -S started; sleep 100 & wait"
    );
    let mut cmd = std::process::Command::new(weft_binary());
    cmd.arg("-S").arg(&server.socket);
    cmd.args([
        "run",
        "-t",
        "base",
        "--wait-exit",
        "--",
        "sh",
        "-c",
        &script,
    ]);
    for (k, v) in TEST_ENV {
        cmd.env(k, v);
    }
    let mut client = cmd
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("start weft run");
    let out = server.weft(&["wait-for", "started"]);
    assert!(out.status.success(), "{out:?}");
    client.kill().unwrap();
    let _ = client.wait();
    let out = server.weft(&["wait-for", "hung-up"]);
    assert!(out.status.success(), "{out:?}");
}
