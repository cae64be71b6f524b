//! `weft subscribe`: the JSON lines a subscriber reads as sessions, windows, panes and clients
//! change and programs print, and a subscriber that stops reading neither grows the server nor
//! slows a pane.

use serde_json::Value;
use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};
use weft_tests::{
    server_pid, split_pane, stdout_of, weft_binary, TestServer, TEST_ENV, TEST_SHELL,
};

/// Renames made while a subscriber does not read: each event is about 300 bytes, so these
/// are more than its pipe, its socket and its queue in the server hold together.
const RENAMES: usize = 5000;

/// How long any one event may take to arrive.
const EVENT_WAIT: Duration = Duration::from_secs(15);

/// A running `weft subscribe`, read line by line. Its lines pass through a channel of one, so
/// when the test stops taking them the reader stops reading the pipe: the subscriber's output
/// backs up into the server as it would for a stalled program.
pub(crate) struct Subscription {
    child: Child,
    lines: Receiver<String>,
    /// Every event read so far, for failure messages.
    seen: Vec<Value>,
}

impl Subscription {
    /// Starts `weft subscribe ARGS` and waits until it says it is subscribed.
    pub(crate) fn start(server: &TestServer, args: &[&str]) -> Subscription {
        let mut cmd = Command::new(weft_binary());
        cmd.arg("-S")
            .arg(&server.socket)
            .arg("subscribe")
            .args(args);
        for (k, v) in TEST_ENV {
            cmd.env(k, v);
        }
        cmd.env("HOME", &server.dir);
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start weft subscribe");
        let stdout = child.stdout.take().expect("its stdout");
        let (tx, lines) = std::sync::mpsc::sync_channel(1);
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut sub = Subscription {
            child,
            lines,
            seen: Vec::new(),
        };
        let first = sub.next().expect("the subscribed line");
        assert_eq!(first["event"], "subscribed", "{first}");
        sub
    }

    /// The next event, or `None` when the stream ended.
    fn next(&mut self) -> Option<Value> {
        let line = match self.lines.recv_timeout(EVENT_WAIT) {
            Ok(line) => line,
            Err(RecvTimeoutError::Disconnected) => return None,
            Err(RecvTimeoutError::Timeout) => {
                panic!("no event for {EVENT_WAIT:?}; seen:\n{}", self.seen_lines())
            }
        };
        let event: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("not a JSON line ({e}): {line:?}"));
        self.seen.push(event.clone());
        Some(event)
    }

    /// Reads until an event named `name` for which `matches` holds, and returns it.
    pub(crate) fn wait_for(&mut self, name: &str, matches: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + EVENT_WAIT;
        while Instant::now() < deadline {
            match self.next() {
                Some(e) if e["event"] == name && matches(&e) => return e,
                Some(_) => {}
                None => panic!(
                    "the stream ended before {name}; seen:\n{}",
                    self.seen_lines()
                ),
            }
        }
        panic!("no {name} event; seen:\n{}", self.seen_lines());
    }

    /// The events seen, one a line, long ones cut short.
    fn seen_lines(&self) -> String {
        let line = |e: &Value| e.to_string().chars().take(300).collect::<String>();
        self.seen.iter().map(line).collect::<Vec<_>>().join("\n")
    }

    /// Reads to the end of the stream and waits for the process: its exit status.
    fn finish(&mut self) -> std::process::ExitStatus {
        while self.next().is_some() {}
        self.child.wait().expect("wait for weft subscribe")
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn ok(out: &std::process::Output) -> String {
    assert!(out.status.success(), "{out:?}");
    stdout_of(out).trim().to_string()
}

/// A detached session of the test shell, at its prompt.
fn shell_session(server: &TestServer, name: &str) {
    let mut args = vec!["new", "-d", "-s", name, "-x", "80", "-y", "24", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server.weft(&args));
    ok(&server.weft(&["wait", "-t", name, "--text", "$"]));
}

/// `display-message -p` of `format` in `target`.
fn display(server: &TestServer, target: &str, format: &str) -> String {
    ok(&server.weft(&["display-message", "-p", "-t", target, format]))
}

/// Whether an output event has a row whose text contains `text`.
fn shows(event: &Value, text: &str) -> bool {
    event["rows"].as_array().is_some_and(|rows| {
        rows.iter()
            .any(|r| r["text"].as_str().is_some_and(|t| t.contains(text)))
    })
}

#[test]
fn windows_panes_and_sessions_are_told_as_they_change() {
    let server = TestServer::new("sub-tree");
    shell_session(&server, "s");
    let session = display(&server, "s", "#{session_id}");
    let mut sub = Subscription::start(&server, &[]);

    let window = ok(&server.weft(&[
        "new-window",
        "-d",
        "-t",
        "s",
        "-n",
        "second",
        "-P",
        "-F",
        "#{window_id}",
    ]));
    let added = sub.wait_for("window-added", |e| e["window"] == window.as_str());
    assert_eq!(added["name"], "second", "{added}");
    assert_eq!(added["session"], session.as_str(), "{added}");
    let first_pane = display(&server, &window, "#{pane_id}");
    sub.wait_for("pane-added", |e| {
        e["pane"] == first_pane.as_str() && e["window"] == window.as_str()
    });
    let layout = sub.wait_for("layout-changed", |e| e["window"] == window.as_str());
    assert_eq!(
        layout["panes"].as_array().map(Vec::len),
        Some(1),
        "{layout}"
    );

    ok(&server.weft(&["rename-window", "-t", &window, "renamed"]));
    let renamed = sub.wait_for("window-renamed", |e| e["window"] == window.as_str());
    assert_eq!(renamed["name"], "renamed", "{renamed}");

    let second_pane = split_pane(&server, &["-d", "-t", &window]);
    sub.wait_for("pane-added", |e| e["pane"] == second_pane.as_str());
    let layout = sub.wait_for("layout-changed", |e| e["window"] == window.as_str());
    assert_eq!(
        layout["panes"].as_array().map(Vec::len),
        Some(2),
        "{layout}"
    );
    let resized = sub.wait_for("pane-resized", |e| e["pane"] == first_pane.as_str());
    assert!(
        resized["rows"].as_u64().is_some_and(|r| r < 23),
        "{resized}"
    );

    ok(&server.weft(&["kill-pane", "-t", &second_pane]));
    sub.wait_for("pane-removed", |e| e["pane"] == second_pane.as_str());
    let exited = sub.wait_for("pane-exited", |e| e["pane"] == second_pane.as_str());
    // Hung up; a shell slow to go under load is killed 500 ms later.
    assert!(
        exited["signal"] == "SIGHUP" || exited["signal"] == "SIGKILL",
        "{exited}"
    );

    ok(&server.weft(&["kill-window", "-t", &window]));
    sub.wait_for("pane-removed", |e| e["pane"] == first_pane.as_str());
    sub.wait_for("window-removed", |e| e["window"] == window.as_str());

    ok(&server.weft(&["new", "-d", "-s", "other", "--", "sleep", "60"]));
    let other = sub.wait_for("session-added", |e| e["name"] == "other");
    let other_id = other["session"].as_str().unwrap().to_string();
    ok(&server.weft(&["rename-session", "-t", "other", "other2"]));
    let renamed = sub.wait_for("session-renamed", |e| e["session"] == other_id.as_str());
    assert_eq!(renamed["name"], "other2", "{renamed}");
    ok(&server.weft(&["kill-session", "-t", "other2"]));
    sub.wait_for("session-closed", |e| e["session"] == other_id.as_str());

    // The whole server's subscription ends with the server.
    ok(&server.weft(&["kill-server"]));
    sub.wait_for("server-exiting", |_| true);
    assert!(sub.finish().success());
}

#[test]
fn output_titles_bells_directories_marks_and_exits_reach_a_session_subscriber() {
    let server = TestServer::new("sub-pane");
    shell_session(&server, "p");
    let pane = display(&server, "p", "#{pane_id}");
    let mut sub = Subscription::start(&server, &["-t", "p", "--format", "json"]);

    ok(&server.weft(&["send-keys", "-t", "p", "echo typed-$((6*7))", "Enter"]));
    let output = sub.wait_for("output", |e| shows(e, "typed-42"));
    assert_eq!(output["pane"], pane.as_str(), "{output}");
    assert!(
        output["revision"].as_u64().is_some_and(|r| r > 0),
        "{output}"
    );

    ok(&server.weft(&[
        "send-keys",
        "-t",
        "p",
        "printf '\\033]2;my title\\007'",
        "Enter",
    ]));
    let title = sub.wait_for("title", |_| true);
    assert_eq!(title["title"], "my title", "{title}");
    assert_eq!(title["pane"], pane.as_str(), "{title}");

    ok(&server.weft(&["send-keys", "-t", "p", "printf '\\a'", "Enter"]));
    sub.wait_for("bell", |e| e["pane"] == pane.as_str());

    let osc7 = "printf '\\033]7;file://host/tmp/some%%20dir\\007'";
    ok(&server.weft(&["send-keys", "-t", "p", osc7, "Enter"]));
    let cwd = sub.wait_for("cwd", |_| true);
    assert_eq!(cwd["path"], "/tmp/some dir", "{cwd}");

    // A shell's command-end mark carries the status; what the command printed comes first.
    let marks = "printf 'before-mark\\n\\033]133;D;3\\007'";
    ok(&server.weft(&["send-keys", "-t", "p", marks, "Enter"]));
    let mut printed = false;
    let mark = loop {
        let e = sub.next().expect("events until the mark");
        printed |= e["event"] == "output" && shows(&e, "before-mark");
        if e["event"] == "mark" {
            break e;
        }
    };
    assert!(
        printed,
        "the output came after the mark:\n{}",
        sub.seen_lines()
    );
    assert_eq!(mark["mark"], "command-end", "{mark}");
    assert_eq!(mark["status"], 3, "{mark}");

    // Its only pane exits: the session ends, and so does the subscription.
    ok(&server.weft(&["send-keys", "-t", "p", "exit 7", "Enter"]));
    let exited = sub.wait_for("pane-exited", |e| e["pane"] == pane.as_str());
    assert_eq!(exited["status"], 7, "{exited}");
    sub.wait_for("session-closed", |_| true);
    assert!(sub.finish().success());
}

#[test]
fn clients_attaching_and_detaching_are_told() {
    let server = TestServer::new("sub-clients");
    shell_session(&server, "c");
    let mut sub = Subscription::start(&server, &["-t", "c"]);
    let mut client = server.client(&["attach", "-t", "c"], 100, 30);
    client.wait_for_text("$").expect("the prompt");
    let attached = sub.wait_for("client-attached", |_| true);
    let id = attached["client"].as_u64().expect("a client number");
    // The session takes the client's size.
    sub.wait_for("session-resized", |e| e["cols"] == 100 && e["rows"] == 30);
    ok(&server.weft(&["detach-client", "-s", "c"]));
    let detached = sub.wait_for("client-detached", |_| true);
    assert_eq!(detached["client"], id, "{detached}");
}

#[test]
fn a_pane_subscription_has_that_panes_output_and_ends_with_its_program() {
    let server = TestServer::new("sub-one");
    shell_session(&server, "o");
    let script = "read x; echo got-$x; exit 3";
    let pane = split_pane(&server, &["-d", "-t", "o", "--", "sh", "-c", script]);
    let mut sub = Subscription::start(&server, &["-t", &pane]);
    // Other panes are not heard.
    ok(&server.weft(&["send-keys", "-t", "o:0.0", "echo elsewhere", "Enter"]));
    ok(&server.weft(&["send-keys", "-t", &pane, "abc", "Enter"]));
    let output = sub.wait_for("output", |e| shows(e, "got-abc"));
    assert_eq!(output["pane"], pane.as_str(), "{output}");
    let exited = sub.wait_for("pane-exited", |_| true);
    assert_eq!(exited["status"], 3, "{exited}");
    assert!(sub.finish().success());
    assert!(
        sub.seen.iter().all(|e| e["pane"] == pane.as_str()),
        "{}",
        sub.seen_lines()
    );
}

#[test]
fn a_missing_target_or_format_is_an_error_that_says_so() {
    let server = TestServer::new("sub-errors");
    shell_session(&server, "e");
    let out = server.weft(&["subscribe", "-t", "%99"]);
    assert!(!out.status.success());
    assert!(
        weft_tests::stderr_of(&out).contains("can't find pane: %99"),
        "{out:?}"
    );
    let out = server.weft(&["subscribe", "--format", "xml"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        weft_tests::stderr_of(&out).contains("json is the one format"),
        "{out:?}"
    );
}

#[test]
fn a_subscriber_that_stops_reading_lags_without_growing_the_server_or_slowing_a_pane() {
    let server = TestServer::new("sub-stall");
    shell_session(&server, "f");
    let pid = server_pid(&server);
    let mut sub = Subscription::start(&server, &[]);
    let memory = weft_tests::RssPeak::watch(pid);
    // From here the test takes no line: the subscriber's pipe fills, then the socket, then
    // its queue in the server. One pane floods while another window is renamed thousands of
    // times (each an event, far more than every buffer on the way holds).
    ok(&server.weft(&["new-window", "-d", "-t", "f", "--", "sleep", "600"]));
    let started = Instant::now();
    ok(&server.weft(&[
        "send-keys",
        "-t",
        "f:0",
        "yes | head -c 50000000; echo flood-$((40+2))",
        "Enter",
    ]));
    let padding = "x".repeat(200);
    let names: Vec<String> = (0..RENAMES).map(|i| format!("n{i}-{padding}")).collect();
    let mut renames = Vec::new();
    for name in &names {
        renames.extend(["rename-window", "-t", "f:1", name.as_str(), ";"]);
    }
    renames.pop();
    ok(&server.weft(&renames));
    ok(&server.weft(&[
        "wait",
        "-t",
        "f:0",
        "--text",
        "flood-42",
        "--timeout",
        "120",
    ]));
    let flood = started.elapsed();
    let grown = memory.grown_mib();
    eprintln!(
        "a 50 MB flood took {flood:?} with a stalled subscriber; the server grew {grown} MiB"
    );
    assert!(grown < 24, "the server grew by {grown} MiB");
    // Reading again: the subscriber hears how much it missed, and then the news.
    let lagged = sub.wait_for("lagged", |_| true);
    let missed = lagged["lagged"].as_u64().unwrap_or(0);
    eprintln!("the stalled subscriber missed {missed} events");
    assert!(missed > 0 && missed < RENAMES as u64, "{lagged}");
    let diag: Value = serde_json::from_slice(&server.weft(&["diag", "--json"]).stdout).unwrap();
    assert!(
        diag["dropped_subscriber_events"].as_u64() >= Some(missed),
        "{diag}"
    );
    // The news comes through once the subscriber has caught up; a rename made while its
    // queue is still full is dropped with another lag, so it is made again then.
    for attempt in 0..20 {
        let name = format!("after-the-stall-{attempt}");
        ok(&server.weft(&["rename-window", "-t", "f:1", &name]));
        loop {
            let event = sub.next().expect("the subscription goes on");
            if event["event"] == "window-renamed" && event["name"] == name.as_str() {
                return;
            }
            if event["event"] == "lagged" {
                break;
            }
        }
    }
    panic!("the subscriber never caught up");
}

/// `weft diag --json`'s count of running subscriptions.
fn subscribers(server: &TestServer) -> u64 {
    let diag: Value = serde_json::from_slice(&server.weft(&["diag", "--json"]).stdout).unwrap();
    diag["subscribers"].as_u64().expect("a subscribers count")
}

#[test]
fn a_subscriber_that_goes_away_while_nothing_happens_is_freed_at_once() {
    let server = TestServer::new("sub-gone");
    shell_session(&server, "g");
    let mut quiet = Subscription::start(&server, &["-t", "g"]);
    let _other = Subscription::start(&server, &[]);
    assert_eq!(subscribers(&server), 2);
    // Nothing happens in the session, so nothing is sent that could fail: the server has to
    // notice the closed connection itself.
    quiet.child.kill().unwrap();
    quiet.child.wait().unwrap();
    let start = Instant::now();
    while subscribers(&server) != 1 {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "the subscription outlived its reader"
        );
        std::thread::sleep(Duration::from_millis(10)); // deadline-ok: hang guard
    }
    let diag: Value = serde_json::from_slice(&server.weft(&["diag", "--json"]).stdout).unwrap();
    assert_eq!(diag["dropped_subscriber_events"], 0, "{diag}");
}

#[test]
fn the_python_example_prints_what_happens() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let example = root.join("docs/examples/subscribe.py");
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("no python3 here: the example is not run");
        return;
    }
    let server = TestServer::new("sub-python");
    shell_session(&server, "py");
    let mut child = Command::new("python3")
        .arg(&example)
        .arg("-S")
        .arg(&server.socket)
        .arg("--weft")
        .arg(weft_binary())
        .args(["-t", "py"])
        .env("HOME", &server.dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the example");
    let stdout = child.stdout.take().expect("its stdout");
    let mut lines = std::io::BufReader::new(stdout).lines();
    // It is subscribed once it says so; then the shell prints and exits.
    let first = lines.next().expect("a line").expect("text");
    assert!(first.starts_with("subscribed $"), "{first}");
    ok(&server.weft(&["send-keys", "-t", "py", "echo from-python; exit 5", "Enter"]));
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    let out = child.wait_with_output().expect("the example's end");
    assert!(out.status.success(), "{out:?}");
    let text = rest.join("\n");
    assert!(text.contains("| from-python"), "{text}");
    assert!(
        text.contains("pane-exited $0 %0 signal=null status=5"),
        "{text}"
    );
    assert!(text.ends_with("session-closed $0"), "{text}");
}
