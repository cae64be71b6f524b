//! `weft record`, `weft play`, `weft replay FILE.cast` and `weft capture --svg`: recordings
//! that replay to the pane's own screen, that end cleanly when interrupted, that never slow a
//! pane whose recorder stopped, that play back, and SVG pictures an XML parser accepts.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use weft_tests::{
    run_weft, server_pid, split_pane, stderr_of, stdout_of, weft_binary, RssPeak, TestServer,
    TEST_ENV, TEST_SHELL,
};

/// How long a recording may take to show what the pane shows.
const SETTLE: Duration = Duration::from_secs(15);

fn ok(out: &std::process::Output) -> String {
    assert!(out.status.success(), "{out:?}");
    stdout_of(out).trim().to_string()
}

/// A detached session of the test shell, `cols` x `rows`, at its prompt.
fn shell_session(server: &TestServer, name: &str, cols: &str, rows: &str) {
    let mut args = vec!["new", "-d", "-s", name, "-x", cols, "-y", rows, "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server.weft(&args));
    ok(&server.weft(&["wait", "-t", name, "--text", "$"]));
}

/// Types `line` and Enter into `target`.
fn type_line(server: &TestServer, target: &str, line: &str) {
    ok(&server.weft(&["send-keys", "-t", target, "-l", line]));
    ok(&server.weft(&["send-keys", "-t", target, "Enter"]));
}

/// Starts `weft record -t TARGET -o FILE` and waits until the recording has begun (its header
/// and first screen are in the file).
fn start_recorder(server: &TestServer, target: &str, file: &Path) -> Child {
    start_recorder_with(server, target, file, &[])
}

/// [`start_recorder`] with more arguments.
fn start_recorder_with(server: &TestServer, target: &str, file: &Path, more: &[&str]) -> Child {
    let mut cmd = Command::new(weft_binary());
    cmd.arg("-S")
        .arg(&server.socket)
        .args(["record", "-t", target, "-o"])
        .arg(file)
        .args(more);
    for (k, v) in TEST_ENV {
        cmd.env(k, v);
    }
    let child = cmd
        .env("HOME", &server.dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start weft record");
    wait_until("the recording to start", || {
        std::fs::read_to_string(file).is_ok_and(|t| t.lines().count() >= 2)
    });
    child
}

/// Waits (with a deadline) until `done` holds.
fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < SETTLE, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20)); // deadline-ok: polling a file
    }
}

/// Sends `signal` to the recorder and checks it finished cleanly.
fn stop_recorder(child: Child, signal: &str) {
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    let out = child.wait_with_output().expect("wait for the recorder");
    assert!(out.status.success(), "the recorder failed: {out:?}");
}

/// Every line of a recording, parsed: the header and the events. Fails on any line that is
/// not JSON, on a header that is not asciicast v2, and on events out of order.
fn parse_cast(file: &Path) -> (Value, Vec<Value>) {
    let text = std::fs::read_to_string(file).expect("the recording");
    assert!(text.ends_with('\n'), "the last line is cut: {text:?}");
    let mut lines = text.lines();
    let header: Value = serde_json::from_str(lines.next().expect("a header")).expect("JSON");
    assert_eq!(header["version"], 2, "{header}");
    assert!(header["width"].as_u64().is_some_and(|w| w > 0), "{header}");
    assert!(header["height"].as_u64().is_some_and(|h| h > 0), "{header}");
    assert!(header["timestamp"].as_u64().is_some(), "{header}");
    assert!(header["env"]["TERM"].is_string(), "{header}");
    let mut events = Vec::new();
    let mut last = 0.0;
    for (i, line) in lines.enumerate() {
        let event: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("line {} is not JSON ({e}): {line:?}", i + 2));
        let time = event[0].as_f64().expect("a time");
        assert!(time >= last, "line {}: time goes back", i + 2);
        last = time;
        let code = event[1].as_str().expect("a code");
        assert!(matches!(code, "o" | "r" | "i" | "m"), "{event}");
        assert!(event[2].is_string(), "{event}");
        events.push(event);
    }
    (header, events)
}

/// `weft replay FILE --format json`, parsed; `None` while the file does not replay (a line
/// still being written).
fn replay_json(file: &Path) -> Option<Value> {
    let path = file.to_str().expect("a UTF-8 path");
    let out = run_weft(&["replay", "--format", "json", path], b"");
    if !out.status.success() {
        return None;
    }
    serde_json::from_slice(&out.stdout).ok()
}

/// What must agree between a pane and a replay: the rows' cells and the cursor.
fn screen_of(value: &Value) -> (Value, Value) {
    (value["screen"].clone(), value["cursor"].clone())
}

/// Waits until the recording replays to the screen `capture --json` of `target` shows.
fn wait_replay_matches(server: &TestServer, target: &str, file: &Path) -> Value {
    let captured: Value =
        serde_json::from_str(&ok(&server.weft(&["capture", "-t", target, "--json"])))
            .expect("capture JSON");
    let start = Instant::now();
    loop {
        let replayed = replay_json(file);
        if replayed.as_ref().map(screen_of) == Some(screen_of(&captured)) {
            return captured;
        }
        if start.elapsed() > SETTLE {
            let text = |v: &Value| -> Vec<String> {
                v["screen"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|r| r["text"].as_str().unwrap_or("").to_string())
                    .collect()
            };
            panic!(
                "the recording does not replay to the pane's screen:\npane:   {:?} {}\nreplay: {:?} {}",
                text(&captured),
                captured["cursor"],
                replayed.as_ref().map(text),
                replayed.as_ref().map_or(Value::Null, |r| r["cursor"].clone())
            );
        }
        std::thread::sleep(Duration::from_millis(50)); // deadline-ok: polling a file
    }
}

fn temp_file(server: &TestServer, name: &str) -> PathBuf {
    server.dir.join(name)
}

/// `list-panes`' width and height of `target`.
fn pane_size(server: &TestServer, target: &str) -> (u64, u64) {
    let out = ok(&server.weft(&[
        "display-message",
        "-p",
        "-t",
        target,
        "#{pane_width} #{pane_height}",
    ]));
    let mut parts = out.split_whitespace().map(|n| n.parse().expect("a number"));
    (parts.next().expect("w"), parts.next().expect("h"))
}

#[test]
fn a_recording_of_colours_and_resizes_replays_to_the_panes_screen() {
    let server = TestServer::new("rec-replay");
    shell_session(&server, "r", "60", "12");
    type_line(&server, "r", "echo before-the-recording");
    ok(&server.weft(&["wait", "-t", "r", "--text", "before-the-recording"]));
    let (cols, rows) = pane_size(&server, "r:0.0");
    let file = temp_file(&server, "colours.cast");
    let recorder = start_recorder(&server, "r:0.0", &file);
    // Colours of every kind, a wide character and one split across reads as printf writes it.
    type_line(
        &server,
        "r:0.0",
        "printf '\\033[1;31mred\\033[0m \\033[38;5;82mgreen\\033[0m \\033[48;2;10;20;30mrgb\\033[0m é世界 \\033[4;3munder\\033[0m\\n'; echo done-$((1+1))",
    );
    ok(&server.weft(&["wait", "-t", "r:0.0", "--text", "done-2"]));
    // Splitting narrows the pane (a resize), closing the split widens it again.
    let second = split_pane(&server, &["-h", "-t", "r:0.0"]);
    wait_until("the pane to narrow", || {
        pane_size(&server, "r:0.0").0 < cols
    });
    type_line(
        &server,
        "r:0.0",
        "printf 'narrow \\033[35mmagenta\\033[0m\\n'; echo narrowed-$((5+5))",
    );
    ok(&server.weft(&["wait", "-t", "r:0.0", "--text", "narrowed-10"]));
    ok(&server.weft(&["kill-pane", "-t", &second]));
    wait_until("the pane to widen", || {
        pane_size(&server, "r:0.0").0 == cols
    });
    type_line(&server, "r:0.0", "echo end-$((3+4))");
    ok(&server.weft(&["wait", "-t", "r:0.0", "--text", "end-7"]));
    ok(&server.weft(&["wait", "-t", "r:0.0", "--idle", "200"]));
    let captured = wait_replay_matches(&server, "r:0.0", &file);
    stop_recorder(recorder, "-INT");

    let (header, events) = parse_cast(&file);
    assert_eq!(header["width"].as_u64(), Some(cols), "{header}");
    assert_eq!(header["height"].as_u64(), Some(rows), "{header}");
    // The screen as it was comes first: the recording shows what was there before it.
    assert!(events[0][0].as_f64() == Some(0.0), "{}", events[0]);
    assert!(events[0][2]
        .as_str()
        .is_some_and(|t| t.contains("before-the-recording")));
    let resizes: Vec<&str> = events
        .iter()
        .filter(|e| e[1] == "r")
        .filter_map(|e| e[2].as_str())
        .collect();
    assert!(resizes.len() >= 2, "{resizes:?}");
    assert_eq!(resizes.last(), Some(&format!("{cols}x{rows}").as_str()));
    let output: String = events
        .iter()
        .filter(|e| e[1] == "o")
        .filter_map(|e| e[2].as_str())
        .collect();
    assert!(output.contains("\u{1b}[1;31mred"), "{output:?}");
    assert!(output.contains("é世界"), "{output:?}");
    // Interrupted, the file still replays to the pane's screen, colours and all.
    let replayed = replay_json(&file).expect("the finished recording replays");
    assert_eq!(screen_of(&replayed), screen_of(&captured));
    let red = replayed["screen"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|r| r["cells"].as_array().into_iter().flatten())
        .find(|c| c["text"] == "r" && c["fg"] == 1);
    assert!(red.is_some(), "no red cell in the replay");
}

#[test]
fn a_recording_ends_with_its_pane_keeps_input_and_refuses_a_missing_one() {
    let server = TestServer::new("rec-end");
    shell_session(&server, "e", "40", "8");
    let file = temp_file(&server, "end.cast");
    let recorder = start_recorder_with(&server, "e", &file, &["--input"]);
    type_line(&server, "e", "printf 'bye\\n'; exit");
    let out = recorder.wait_with_output().expect("wait for the recorder");
    assert!(out.status.success(), "{out:?}");
    let (_, events) = parse_cast(&file);
    let output: String = events
        .iter()
        .filter(|e| e[1] == "o")
        .filter_map(|e| e[2].as_str())
        .collect();
    assert!(output.contains("bye\r\n"), "{output:?}");
    let input: String = events
        .iter()
        .filter(|e| e[1] == "i")
        .filter_map(|e| e[2].as_str())
        .collect();
    assert_eq!(input, "printf 'bye\\n'; exit\r", "{events:?}");

    let server = TestServer::new("rec-missing");
    shell_session(&server, "m", "40", "8");
    let missing = temp_file(&server, "missing.cast");
    let out = server.weft(&["record", "-t", "%99", "-o", missing.to_str().unwrap()]);
    assert!(!out.status.success(), "{out:?}");
    assert!(stderr_of(&out).contains("%99"), "{out:?}");
    assert!(!missing.exists(), "a refused recording left a file");
}

#[test]
fn a_stopped_recorder_neither_slows_the_pane_nor_grows_the_server() {
    let server = TestServer::new("rec-stall");
    shell_session(&server, "s", "80", "24");
    let pid = server_pid(&server);
    // The same flood without a recorder, for comparison.
    let flood = "yes | head -c 30000000; echo flood-$((40+2))";
    let started = Instant::now();
    type_line(&server, "s", flood);
    ok(&server.weft(&["wait", "-t", "s", "--text", "flood-42", "--timeout", "120"]));
    let alone = started.elapsed();
    type_line(&server, "s", "clear");
    ok(&server.weft(&["wait", "-t", "s", "--absent", "flood-42"]));

    let file = temp_file(&server, "stall.cast");
    let recorder = start_recorder(&server, "s", &file);
    let stopped = Command::new("kill")
        .args(["-STOP", &recorder.id().to_string()])
        .status()
        .expect("kill -STOP");
    assert!(stopped.success());
    let memory = RssPeak::watch(pid);
    let started = Instant::now();
    type_line(&server, "s", flood);
    ok(&server.weft(&["wait", "-t", "s", "--text", "flood-42", "--timeout", "120"]));
    let recorded = started.elapsed();
    let grown = memory.grown_mib();
    eprintln!(
        "a 30 MB flood took {alone:?} alone and {recorded:?} with a stopped recorder; the \
         server grew {grown} MiB"
    );
    assert!(grown < 24, "the server grew by {grown} MiB");
    assert!(
        recorded < alone * 4 + Duration::from_secs(3),
        "the stopped recorder slowed the pane: {recorded:?} against {alone:?}"
    );
    let diag: Value = serde_json::from_slice(&server.weft(&["diag", "--json"]).stdout).unwrap();
    let dropped: u64 = diag["panes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["dropped_record_bytes"].as_u64())
        .sum();
    assert!(
        dropped > 0,
        "nothing was dropped for the stopped recorder: {diag}"
    );

    // Going on, the recorder writes a marker where output was lost and the whole screen after
    // it: the recording replays to the pane's screen again.
    let resumed = Command::new("kill")
        .args(["-CONT", &recorder.id().to_string()])
        .status()
        .expect("kill -CONT");
    assert!(resumed.success());
    type_line(&server, "s", "echo after-the-gap");
    ok(&server.weft(&["wait", "-t", "s", "--text", "after-the-gap"]));
    ok(&server.weft(&["wait", "-t", "s", "--idle", "200"]));
    wait_replay_matches(&server, "s", &file);
    stop_recorder(recorder, "-TERM");
    let (_, events) = parse_cast(&file);
    let marker = events.iter().find(|e| e[1] == "m").expect("a marker");
    assert!(
        marker[2].as_str().is_some_and(|t| t.contains("dropped")),
        "{marker}"
    );
}

#[test]
fn play_writes_a_recordings_output_at_its_speed_and_names_a_bad_line() {
    let dir = std::env::temp_dir().join(format!("weft-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cast = dir.join("small.cast");
    std::fs::write(
        &cast,
        "{\"version\": 2, \"width\": 20, \"height\": 4}\n\
         [0.5, \"o\", \"\\u001b[32mgreen\\u001b[0m \"]\n\
         [1.0, \"r\", \"30x5\"]\n\
         [1.5, \"i\", \"typed\"]\n\
         [2.0, \"o\", \"caf\\u00e9\\r\\n\"]\n",
    )
    .unwrap();
    let started = Instant::now();
    let out = run_weft(&["play", "--speed", "100", cast.to_str().unwrap()], b"");
    let took = started.elapsed();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stdout_of(&out), "\u{1b}[32mgreen\u{1b}[0m café\r\n");
    // Two seconds at a hundred times: about 20 ms (and never the recording's own two).
    assert!(took < Duration::from_millis(1500), "{took:?}");
    // At its own speed with pauses cut to 0.1 s: still well under the two seconds.
    let out = run_weft(&["play", "--max-idle", "0.1", cast.to_str().unwrap()], b"");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stdout_of(&out), "\u{1b}[32mgreen\u{1b}[0m café\r\n");

    let bad = dir.join("bad.cast");
    std::fs::write(
        &bad,
        "{\"version\": 2, \"width\": 20, \"height\": 4}\n[0.1, \"o\", \"ok\"]\n[0.2, \"o\"\n",
    )
    .unwrap();
    let out = run_weft(&["play", "--speed", "100", bad.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(stderr_of(&out).contains("line 3"), "{out:?}");
    let out = run_weft(&["replay", bad.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(stderr_of(&out).contains("line 3"), "{out:?}");
    // A cast replays at its own size, resizes applied.
    let out = run_weft(&["replay", "--format", "json", cast.to_str().unwrap()], b"");
    let screen: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        (screen["cols"].as_u64(), screen["rows"].as_u64()),
        (Some(30), Some(5))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn capture_svg_is_xml_with_the_texts_colours() {
    let server = TestServer::new("svg");
    shell_session(&server, "v", "50", "8");
    type_line(
        &server,
        "v",
        "clear; printf '\\033[31mredword\\033[0m <&> \\033[38;2;18;52;86mrgbword\\033[0m 世界\\n'; echo svg-$((2+3))",
    );
    ok(&server.weft(&["wait", "-t", "v", "--text", "svg-5"]));
    let file = temp_file(&server, "screen.svg");
    let out = server.weft(&["capture", "--svg", "-t", "v", "-o", file.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    assert!(
        out.stdout.is_empty(),
        "-o writes the file, not standard output: {out:?}"
    );
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("no python3 here: the SVG is not parsed");
        return;
    }
    // Every <text> element's fill and text, as an XML parser reads them.
    let script = "import xml.dom.minidom,sys\n\
                  doc = xml.dom.minidom.parse(sys.stdin)\n\
                  for t in doc.getElementsByTagName('text'):\n\
                  \x20   print(t.getAttribute('fill') + '\\t' + ''.join(n.data for n in t.childNodes))\n";
    let parsed = Command::new("python3")
        .args(["-c", script])
        .stdin(std::fs::File::open(&file).unwrap())
        .output()
        .expect("python3");
    assert!(parsed.status.success(), "not XML: {}", stderr_of(&parsed));
    let texts = stdout_of(&parsed);
    assert!(texts.lines().any(|l| l == "#cd0000\tredword"), "{texts}");
    assert!(texts.lines().any(|l| l == "#123456\trgbword"), "{texts}");
    assert!(texts.lines().any(|l| l.ends_with("\t <&>")), "{texts}");
    assert!(texts.lines().any(|l| l.ends_with("\t世界")), "{texts}");
    // Without -o it goes to standard output; with --json it is refused.
    let out = server.weft(&["capture", "--svg", "-t", "v"]);
    assert!(stdout_of(&out).starts_with("<svg"), "{out:?}");
    let out = server.weft(&["capture", "--svg", "--json", "-t", "v"]);
    assert!(!out.status.success(), "{out:?}");
}
