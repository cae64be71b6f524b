//! tmux's scripting commands: set-hook and show-hooks, wait-for, pipe-pane.

use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;
use weft_tests::{stderr_of, stdout_of, weft_binary, TestServer, TEST_ENV, TEST_SHELL};

/// How long a test waits for something the server does in the background.
const PATIENCE: Duration = Duration::from_secs(20);

fn ok(out: &Output) -> String {
    assert!(out.status.success(), "{out:?}");
    stdout_of(out)
}

fn detached(server: &TestServer, name: &str) {
    let mut args = vec!["new", "-d", "-s", name, "-x", "80", "-y", "24", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server.weft(&args));
    ok(&server.weft(&["wait", "-t", name, "--text", "$"]));
}

/// `weft ARGS` started in the background (a CLI call that may block).
fn spawn_weft(server: &TestServer, args: &[&str]) -> Child {
    let mut cmd = Command::new(weft_binary());
    cmd.arg("-S").arg(&server.socket).args(args);
    for (k, v) in TEST_ENV {
        cmd.env(k, v);
    }
    cmd.env("HOME", &server.dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start weft")
}

/// Waits for a background `weft` to finish, for at most `PATIENCE` (then kills it and fails).
fn finish(child: Child, what: &str) -> Output {
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(PATIENCE) {
        Ok(out) => out.expect("wait for weft"),
        Err(_) => {
            let _ = Command::new("kill").arg(pid.to_string()).status();
            panic!("{what}: still waiting after {PATIENCE:?}");
        }
    }
}

/// `weft ARGS`, which may block until the server does something in the background.
fn weft_within(server: &TestServer, args: &[&str]) -> Output {
    finish(spawn_weft(server, args), &args.join(" "))
}

fn windows(server: &TestServer, session: &str) -> usize {
    ok(&server.weft(&["list-windows", "-t", session]))
        .lines()
        .count()
}

#[test]
fn an_after_new_window_hook_runs_and_set_hook_u_removes_it() {
    let server = TestServer::new("hook-after");
    detached(&server, "h");
    ok(&server.weft(&[
        "set-hook",
        "-g",
        "after-new-window",
        "set -g @x fired \\; rename-window renamed \\; wait-for -S hooked",
    ]));
    let shown = ok(&server.weft(&["show-hooks", "-g"]));
    assert!(
        shown.contains("after-new-window[0] set -g @x fired"),
        "{shown}"
    );
    ok(&server.weft(&["new-window", "-t", "h", "--", "bash", "--norc"]));
    ok(&weft_within(&server, &["wait-for", "hooked"]));
    assert_eq!(ok(&server.weft(&["show", "-gv", "@x"])).trim(), "fired");
    // The hook's commands ran in the new window: it is the one renamed.
    let names = ok(&server.weft(&["list-windows", "-t", "h", "-F", "#{window_name}"]));
    assert_eq!(names.lines().nth(1), Some("renamed"), "{names}");

    // Removed, it runs no more; a hook that still fires shows the other has run its turn.
    ok(&server.weft(&["set-hook", "-gu", "after-new-window"]));
    assert_eq!(ok(&server.weft(&["show-hooks", "-g"])).trim(), "");
    ok(&server.weft(&["set", "-g", "@x", "reset"]));
    ok(&server.weft(&["set-hook", "-g", "after-split-window", "wait-for -S split"]));
    ok(&server.weft(&["new-window", "-d", "-t", "h"]));
    ok(&server.weft(&["split-window", "-t", "h"]));
    ok(&weft_within(&server, &["wait-for", "split"]));
    assert_eq!(ok(&server.weft(&["show", "-gv", "@x"])).trim(), "reset");
    // Unknown hooks and bad commands are refused when set.
    let out = server.weft(&["set-hook", "-g", "after-bogus", "lsw"]);
    assert!(stderr_of(&out).contains("unknown hook"), "{out:?}");
    let out = server.weft(&["set-hook", "-g", "pane-exited", "bogus-command"]);
    assert!(stderr_of(&out).contains("unknown command"), "{out:?}");
}

#[test]
fn a_hook_that_fires_itself_stops_and_says_so() {
    let server = TestServer::new("hook-loop");
    let mut args = vec!["new", "-s", "r", "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut client = server.client(&args, 120, 24);
    client.wait_for_text("$").expect("prompt");
    // What a hook's command prints is shown to the session's clients.
    ok(&server.weft(&[
        "set-hook",
        "-g",
        "after-select-window",
        "display 'window #{window_index} selected'",
    ]));
    ok(&server.weft(&["select-window", "-t", "r:0"]));
    client
        .wait_for_text("window 0 selected")
        .expect("the hook's message");
    ok(&server.weft(&["set-hook", "-g", "after-new-window", "new-window -d"]));
    ok(&server.weft(&["new-window", "-d", "-t", "r"]));
    client
        .wait_for_text("hooks nested 8 deep")
        .expect("a message about the bounded hook");
    // The first window, the one typed, and one per level of nesting.
    assert_eq!(windows(&server, "r"), 10);
    // The server still answers.
    ok(&server.weft(&["set-hook", "-gu", "after-new-window"]));
    assert_eq!(windows(&server, "r"), 10);
}

#[test]
fn hooks_from_a_configuration_file_fire_for_sessions_panes_and_renames() {
    let server = TestServer::new("hook-conf");
    let conf = server.dir.join("hooks.conf");
    std::fs::write(
        &conf,
        "set-hook -g session-created 'set -g @created yes ; wait-for -S created'\n\
         set-hook -g pane-exited 'wait-for -S exited'\n\
         set-hook -g window-renamed 'wait-for -S renamed'\n",
    )
    .unwrap();
    let conf = conf.to_string_lossy().into_owned();
    let mut args = vec!["-f", conf.as_str(), "new", "-d", "-s", "c", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server.weft(&args));
    ok(&weft_within(&server, &["wait-for", "created"]));
    assert_eq!(ok(&server.weft(&["show", "-gv", "@created"])).trim(), "yes");

    ok(&server.weft(&["rename-window", "-t", "c", "other"]));
    ok(&weft_within(&server, &["wait-for", "renamed"]));

    ok(&server.weft(&["split-window", "-t", "c", "--", "sh", "-c", "exit 3"]));
    ok(&weft_within(&server, &["wait-for", "exited"]));
}

#[test]
fn wait_for_blocks_until_signalled_and_locks_take_turns() {
    let server = TestServer::new("waitfor");
    detached(&server, "w");
    let waiter = spawn_weft(&server, &["wait-for", "ch"]);
    // Another command's round trip: the waiter is still waiting (nobody signalled).
    ok(&server.weft(&["list-sessions"]));
    let mut waiter = waiter;
    assert!(
        waiter.try_wait().unwrap().is_none(),
        "wait-for returned early"
    );
    ok(&server.weft(&["wait-for", "-S", "ch"]));
    ok(&finish(waiter, "wait-for ch"));
    // A signal nobody waited for is kept for the next waiter, once.
    ok(&server.weft(&["wait-for", "-S", "later"]));
    ok(&weft_within(&server, &["wait-for", "later"]));

    // -L takes the lock; a second -L waits until -U hands it over.
    ok(&server.weft(&["wait-for", "-L", "lk"]));
    let mut second = spawn_weft(&server, &["wait-for", "-L", "lk"]);
    ok(&server.weft(&["list-sessions"]));
    assert!(
        second.try_wait().unwrap().is_none(),
        "the lock was taken twice"
    );
    ok(&server.weft(&["wait-for", "-U", "lk"]));
    ok(&finish(second, "wait-for -L lk"));
    // A client that leaves while waiting for the lock is forgotten: it is not handed the
    // lock, which the next -L gets.
    let mut leaving = spawn_weft(&server, &["wait-for", "-L", "lk"]);
    ok(&server.weft(&["list-sessions"]));
    assert!(
        leaving.try_wait().unwrap().is_none(),
        "the lock was taken twice"
    );
    leaving.kill().unwrap();
    leaving.wait().unwrap();
    ok(&server.weft(&["wait-for", "-U", "lk"]));
    ok(&weft_within(&server, &["wait-for", "-L", "lk"]));
    ok(&server.weft(&["wait-for", "-U", "lk"]));
    let out = server.weft(&["wait-for", "-U", "lk"]);
    assert!(!out.status.success());
    assert!(stderr_of(&out).contains("channel lk not locked"), "{out:?}");
}

fn display(server: &TestServer, target: &str, format: &str) -> String {
    ok(&server.weft(&["display-message", "-p", "-t", target, format]))
        .trim()
        .to_string()
}

/// A shell command that tells the test (through `wait-for -S CHANNEL`) when it is done.
fn then_signal(server: &TestServer, command: &str, channel: &str) -> String {
    format!(
        "{command}; '{}' -S '{}' wait-for -S {channel}",
        weft_binary().display(),
        server.socket.display()
    )
}

#[test]
fn pipe_pane_copies_output_to_a_command_until_closed() {
    let server = TestServer::new("pipe-out");
    detached(&server, "p");
    let file = server.dir.join("piped.txt");
    let command = then_signal(&server, &format!("cat > '{}'", file.display()), "piped");
    assert_eq!(display(&server, "p", "#{pane_pipe}"), "0");
    ok(&server.weft(&["pipe-pane", "-t", "p", &command]));
    assert_eq!(display(&server, "p", "#{pane_pipe}"), "1");
    // -o with a pipe open closes it (tmux's toggle); open it again.
    ok(&server.weft(&["pipe-pane", "-o", "-t", "p", &command]));
    assert_eq!(display(&server, "p", "#{pane_pipe}"), "0");
    ok(&weft_within(&server, &["wait-for", "piped"]));
    ok(&server.weft(&["pipe-pane", "-o", "-t", "p", &command]));
    ok(&server.weft(&["send-keys", "-t", "p", "echo piped-$((6*7))", "Enter"]));
    ok(&server.weft(&["wait", "-t", "p", "--text", "piped-42"]));
    ok(&server.weft(&["pipe-pane", "-t", "p"]));
    assert_eq!(display(&server, "p", "#{pane_pipe}"), "0");
    // Its input closed, cat finishes the file and the command signals.
    ok(&weft_within(&server, &["wait-for", "piped"]));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("piped-42"), "{text:?}");
}

#[test]
fn a_pipe_that_never_reads_drops_beyond_its_bound_and_the_server_stays_small() {
    let server = TestServer::new("pipe-stall");
    let mut args = vec!["new", "-s", "s", "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut client = server.client(&args, 100, 24);
    client.wait_for_text("$").expect("prompt");
    let pid = weft_tests::server_pid(&server);
    let memory = weft_tests::RssPeak::watch(pid);
    ok(&server.weft(&["pipe-pane", "-t", "s", "sleep 1000"]));
    ok(&server.weft(&[
        "send-keys",
        "-t",
        "s",
        "yes | head -c 40000000; echo flood-$((40+2))",
        "Enter",
    ]));
    // The server answers meanwhile.
    ok(&server.weft(&["list-sessions"]));
    client
        .wait_for_text("is not keeping up")
        .expect("a message about the dropped output");
    ok(&server.weft(&["wait", "-t", "s", "--text", "flood-42", "--timeout", "120"]));

    assert_eq!(display(&server, "s", "#{pane_pipe}"), "1");
    let diag: serde_json::Value =
        serde_json::from_slice(&server.weft(&["diag", "--json"]).stdout).unwrap();
    let dropped = diag["panes"][0]["dropped_pipe_bytes"].as_u64().unwrap();
    // All but what fit: the bound, and what the pipe's kernel buffer took.
    assert!(dropped >= 40_000_000 - (5 << 20), "dropped only {dropped}");
    let grown = memory.grown_mib();
    eprintln!("server RSS grew by {grown} MiB with a stalled pipe and a 40 MB flood");
    assert!(grown < 24, "the server grew by {grown} MiB");
    // Closing the pipe kills the command.
    ok(&server.weft(&["pipe-pane", "-t", "s"]));
    assert_eq!(display(&server, "s", "#{pane_pipe}"), "0");
}

#[test]
fn a_failing_pipe_command_is_reported_and_the_pipe_closes() {
    let server = TestServer::new("pipe-fail");
    let mut args = vec!["new", "-s", "f", "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut client = server.client(&args, 120, 24);
    client.wait_for_text("$").expect("prompt");
    ok(&server.weft(&["pipe-pane", "-t", "f", "false"]));
    client
        .wait_for_text("exited with status 1; the pipe is closed")
        .expect("a message about the failed pipe");
    assert_eq!(display(&server, "f", "#{pane_pipe}"), "0");
}

#[test]
fn pipe_pane_i_types_the_commands_output_into_the_pane() {
    let server = TestServer::new("pipe-in");
    detached(&server, "i");
    ok(&server.weft(&[
        "pipe-pane",
        "-I",
        "-t",
        "i",
        "printf 'echo from-pipe-$((2*21))\\n'",
    ]));
    ok(&server.weft(&["wait", "-t", "i", "--text", "from-pipe-42"]));
}

#[test]
fn a_pipes_command_ends_with_its_pane() {
    let server = TestServer::new("pipe-end");
    detached(&server, "e");
    ok(&server.weft(&["split-window", "-t", "e", "--", "bash", "--norc"]));
    let pidfile = server.dir.join("pipe.pid");
    let command = then_signal(
        &server,
        &format!("echo $$ > '{}'", pidfile.display()),
        "started",
    ) + "; exec sleep 4242";
    ok(&server.weft(&["pipe-pane", "-t", "e:0.1", &command]));
    ok(&weft_within(&server, &["wait-for", "started"]));
    let pid = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .to_string();
    assert!(std::path::Path::new(&format!("/proc/{pid}")).exists());
    ok(&server.weft(&["kill-pane", "-t", "e:0.1"]));
    gone(&pid, "the pipe's command ending with its pane");

    // And with the server.
    ok(&server.weft(&["pipe-pane", "-t", "e:0.0", &command]));
    ok(&weft_within(&server, &["wait-for", "started"]));
    let pid = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .to_string();
    ok(&server.weft(&["kill-server"]));
    gone(&pid, "the pipe's command ending with the server");
}

/// Returns once process `pid` is gone (`tail --pid` waits for it), failing after `PATIENCE`.
fn gone(pid: &str, what: &str) {
    let tail = Command::new("tail")
        .args(["--pid", pid, "-f", "/dev/null"])
        .spawn()
        .unwrap();
    finish(tail, what);
}

#[test]
fn hooks_fire_for_clients_dead_panes_and_bells() {
    let server = TestServer::new("hook-events");
    detached(&server, "ev");
    for (hook, channel) in [
        ("client-attached", "attached"),
        ("client-detached", "detached"),
        ("pane-died", "died"),
        ("alert-bell", "bell"),
    ] {
        let command = format!("wait-for -S {channel}");
        ok(&server.weft(&["set-hook", "-g", hook, &command]));
    }
    let mut client = server.client(&["attach", "-t", "ev"], 80, 24);
    client.wait_for_text("$").expect("prompt");
    ok(&weft_within(&server, &["wait-for", "attached"]));
    ok(&server.weft(&["send-keys", "-t", "ev", "printf '\\a'", "Enter"]));
    ok(&weft_within(&server, &["wait-for", "bell"]));
    ok(&server.weft(&["set", "-g", "remain-on-exit", "on"]));
    ok(&server.weft(&["split-window", "-t", "ev", "--", "sh", "-c", "exit 2"]));
    ok(&weft_within(&server, &["wait-for", "died"]));
    ok(&server.weft(&["detach-client", "-s", "ev"]));
    ok(&weft_within(&server, &["wait-for", "detached"]));
}

#[test]
fn a_sessions_own_hook_replaces_the_global_one_there_only() {
    let server = TestServer::new("hook-own");
    detached(&server, "a");
    detached(&server, "b");
    ok(&server.weft(&[
        "set-hook",
        "-g",
        "after-new-window",
        "set -g @by global \\; wait-for -S global",
    ]));
    ok(&server.weft(&[
        "set-hook",
        "-t",
        "a",
        "after-new-window",
        "set -g @by a \\; wait-for -S own",
    ]));
    let own = ok(&server.weft(&["show-hooks", "-t", "a"]));
    assert!(own.contains("after-new-window[0] set -g @by a"), "{own}");
    assert!(!ok(&server.weft(&["show-hooks", "-t", "b"])).contains("after-new-window"));
    ok(&server.weft(&["new-window", "-d", "-t", "a"]));
    ok(&weft_within(&server, &["wait-for", "own"]));
    assert_eq!(ok(&server.weft(&["show", "-gv", "@by"])).trim(), "a");
    ok(&server.weft(&["new-window", "-d", "-t", "b"]));
    ok(&weft_within(&server, &["wait-for", "global"]));
    assert_eq!(ok(&server.weft(&["show", "-gv", "@by"])).trim(), "global");
}

#[test]
fn run_shell_expands_formats_for_its_target_and_waits_with_d() {
    let server = TestServer::new("runfmt");
    for args in [
        &["new", "-d", "-s", "rs", "--", "sleep", "60"][..],
        &["new-window", "-d", "-t", "rs", "--", "sleep", "60"][..],
    ] {
        assert!(server.weft(args).status.success());
    }
    let out = server.weft(&[
        "run-shell",
        "-t",
        "rs:1",
        "echo #{session_name}-#{window_index}",
    ]);
    assert_eq!(stdout_of(&out).trim(), "rs-1", "{out:?}");
    // Without a format it needs no session: the shell does its own expansion.
    let out = server.weft(&["run-shell", "-d", "0.01", "echo $((20+22))"]);
    assert_eq!(stdout_of(&out).trim(), "42", "{out:?}");
    let out = server.weft(&["run-shell", "-d", "forever", "true"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

#[test]
fn hooks_fire_for_sessions_made_and_closed_and_window_activity() {
    let server = TestServer::new("hook-sessions");
    detached(&server, "keep");
    for (hook, channel) in [
        ("after-new-session", "made"),
        ("session-closed", "closed"),
        ("alert-activity", "activity"),
    ] {
        let command = format!("wait-for -S {channel}");
        ok(&server.weft(&["set-hook", "-g", hook, &command]));
    }
    detached(&server, "short");
    ok(&weft_within(&server, &["wait-for", "made"]));
    ok(&server.weft(&["kill-session", "-t", "short"]));
    ok(&weft_within(&server, &["wait-for", "closed"]));
    // Activity in a window that is not the current one, with monitor-activity on.
    ok(&server.weft(&["set", "-g", "monitor-activity", "on"]));
    let mut shell = vec!["new-window", "-d", "-t", "keep", "--"];
    shell.extend_from_slice(TEST_SHELL);
    ok(&server.weft(&shell));
    ok(&server.weft(&["send-keys", "-t", "keep:1", "echo busy", "Enter"]));
    ok(&weft_within(&server, &["wait-for", "activity"]));
}

#[test]
fn a_pipe_logging_to_a_full_disk_is_reported_and_closes() {
    if !std::path::Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full");
        return;
    }
    let server = TestServer::new("pipe-full");
    let mut args = vec!["new", "-s", "d", "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut client = server.client(&args, 120, 24);
    client.wait_for_text("$").expect("prompt");
    // A log on a full disk: `cat` fails on its first write and exits 1.
    ok(&server.weft(&["pipe-pane", "-t", "d", "cat >> /dev/full"]));
    client.send_text("echo to-the-log").unwrap();
    client.send_keys("Enter").unwrap();
    client
        .wait_for_text("the pipe is closed")
        .expect("a message about the failed pipe");
    assert_eq!(display(&server, "d", "#{pane_pipe}"), "0");
    // The pane goes on.
    client.send_text("echo still-$((3*3))").unwrap();
    client.send_keys("Enter").unwrap();
    client.wait_for_text("still-9").unwrap();
}

#[test]
fn run_shell_b_shows_what_it_printed_as_a_message_when_it_ends() {
    let server = TestServer::new("run-b");
    let mut args = vec!["new", "-s", "b", "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut client = server.client(&args, 100, 24);
    client.wait_for_text("$").expect("prompt");
    ok(&server.weft(&["set", "-g", "display-time", "0"]));
    ok(&server.weft(&["run-shell", "-b", "echo from-the-background-$((6*7))"]));
    client.wait_for_text("from-the-background-42").unwrap();
    client.send_keys("Escape").unwrap();
    // The Escape is decided after the escape time: once the message is gone, so that it
    // cannot clear the next one.
    client
        .wait_for(|s| !s.text().contains("from-the-background-42"))
        .unwrap();
    ok(&server.weft(&["run-shell", "-b", "exit 3"]));
    client.wait_for_text("'exit 3' returned 3").unwrap();
}

#[test]
fn focus_and_title_hooks_fire_in_the_pane_they_concern() {
    let server = TestServer::new("hook-focus");
    detached(&server, "f");
    let mut split = vec![
        "split-window",
        "-h",
        "-t",
        "f",
        "-P",
        "-F",
        "#{pane_id}",
        "--",
    ];
    split.extend_from_slice(TEST_SHELL);
    let right = ok(&server.weft(&split));
    let right = right.trim();
    ok(&server.weft(&["wait", "-t", right, "--text", "$"]));
    // Each hook's commands act on the pane it concerns: they type into it.
    for (hook, word) in [
        ("pane-focus-in", "FOCUS-IN"),
        ("pane-focus-out", "FOCUS-OUT"),
        ("pane-title-changed", "TITLED"),
    ] {
        ok(&server.weft(&["set-hook", "-g", hook, &format!("send-keys -l {word}")]));
    }
    ok(&server.weft(&["select-pane", "-t", "%0"]));
    ok(&server.weft(&["wait", "-t", "%0", "--text", "FOCUS-IN"]));
    ok(&server.weft(&["wait", "-t", right, "--text", "FOCUS-OUT"]));
    // A program setting its title.
    ok(&server.weft(&["send-keys", "-t", right, "C-u"]));
    ok(&server.weft(&["send-keys", "-t", right, "-l", "printf '\\033]2;t\\007'"]));
    ok(&server.weft(&["send-keys", "-t", right, "Enter"]));
    ok(&server.weft(&["wait", "-t", right, "--text", "TITLED"]));
    let left = ok(&server.weft(&["capture-pane", "-p", "-t", "%0"]));
    assert!(
        !left.contains("TITLED") && !left.contains("FOCUS-OUT"),
        "{left}"
    );
    // select-pane -T sets a title as the program's OSC 2 does: the hook fires in that pane.
    ok(&server.weft(&["select-pane", "-t", "%0", "-T", "named"]));
    ok(&server.weft(&["wait", "-t", "%0", "--text", "TITLED"]));
}
