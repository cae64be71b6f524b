//! `weft script`: a program driven by a small script (spawn, type, key, wait, expect,
//! snapshot), from a file or standard input; failures and mistakes reported by line.

use std::path::PathBuf;
use std::process::Output;
use weft_tests::{run_weft, stderr_of, stdout_of, TestServer};

/// Writes `text` as `name` in the test's directory.
fn script_file(server: &TestServer, name: &str, text: &str) -> PathBuf {
    let path = server.dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn script(server: &TestServer, path: &std::path::Path, extra: &[&str]) -> Output {
    let path = path.display().to_string();
    let mut args = vec!["script"];
    args.extend_from_slice(extra);
    args.push(&path);
    server.weft(&args)
}

/// The sessions on the server (none when it has gone, as it does with its last session).
fn sessions(server: &TestServer) -> Vec<String> {
    let out = server.weft(&["list-sessions", "-F", "#{session_name}"]);
    stdout_of(&out).lines().map(str::to_string).collect()
}

const BASH: &str = "spawn bash --norc --noprofile\n";

#[test]
fn a_script_drives_bash_to_its_end() {
    let server = TestServer::new("scriptbash");
    let path = script_file(
        &server,
        "bash.tape",
        &format!(
            "# a shell, a command, its output\n\
             size 60x10\n\
             {BASH}\
             wait regex /\\$$/\n\
             type \"echo $((6 * 7))\\n\"\n\
             wait regex /(?m)^42$/\n\
             expect text \"echo $((6 * 7))\"\n\
             expect absent \"43\"\n\
             wait idle 50ms\n\
             expect cursor 2,2\n\
             resize 40x8\n\
             type \"stty size\"\n\
             key Enter\n\
             wait regex /8 40\\n\\$$/\n\
             key C-d\n\
             wait exit 0\n"
        ),
    );
    let out = script(&server, &path, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    // Its session is gone (and with it this server, which had no other).
    assert!(sessions(&server).is_empty());
}

#[test]
fn a_script_drives_less() {
    let server = TestServer::new("scriptless");
    let text: String = (1..=100).map(|n| format!("line {n}\n")).collect();
    std::fs::write(server.dir.join("numbers.txt"), text).unwrap();
    let numbers = server.dir.join("numbers.txt").display().to_string();
    let path = script_file(
        &server,
        "less.tape",
        &format!(
            "size 40x10\n\
             spawn less \"{numbers}\"\n\
             wait text \"line 9\"\n\
             expect absent \"line 10\"\n\
             key G\n\
             wait text \"line 100\"\n\
             expect absent \"line 1\\n\"\n\
             key g\n\
             wait absent \"line 100\"\n\
             key q\n\
             wait exit 0\n"
        ),
    );
    let out = script(&server, &path, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
}

#[test]
fn a_failing_expectation_exits_1_with_its_line_and_the_screen() {
    let server = TestServer::new("scriptfail");
    let keep = server.weft(&["new", "-d", "-s", "keep", "--", "sleep", "1000"]);
    assert!(keep.status.success(), "{keep:?}");
    let path = script_file(
        &server,
        "fail.tape",
        &format!(
            "size 30x5\n\
             {BASH}\
             wait regex /\\$$/\n\
             type \"echo hello\\n\"\n\
             wait regex /(?m)^hello\\n\\$$/\n\
             expect text \"goodbye\"\n\
             type \"echo never typed\\n\"\n"
        ),
    );
    let out = script(&server, &path, &[]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = stderr_of(&out);
    let name = path.display().to_string();
    assert!(
        err.starts_with(&format!("{name}:6: expect text \"goodbye\" failed")),
        "{err}"
    );
    assert!(
        err.contains("screen 30x5, cursor at row 2, column 2"),
        "{err}"
    );
    assert!(err.contains(" 1 |hello\n>2 |$\n"), "{err}");
    assert!(!err.contains("never typed"), "{err}");
    // The script's session is killed; the other stays.
    assert_eq!(sessions(&server), ["keep"]);

    // A wait that times out says so.
    let path = script_file(
        &server,
        "timeout.tape",
        &format!("{BASH}timeout 200ms\nwait text \"nothing like this\"\n"),
    );
    let out = script(&server, &path, &[]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        stderr_of(&out)
            .contains(":3: wait text \"nothing like this\" failed: timed out after 200ms"),
        "{out:?}"
    );
    // And a wrong exit status.
    let path = script_file(
        &server,
        "status.tape",
        "spawn sh -c \"exit 3\"\nwait exit 0\n",
    );
    let out = script(&server, &path, &[]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        stderr_of(&out).contains(":2: wait exit 0 failed: the program exited with status 3"),
        "{out:?}"
    );
    assert_eq!(sessions(&server), ["keep"]);
}

#[test]
fn a_mistake_exits_2_before_anything_runs() {
    let server = TestServer::new("scriptsyntax");
    let path = script_file(
        &server,
        "bad.tape",
        &format!("{BASH}type \"fine\\n\"\nwait txt \"x\"\n"),
    );
    let out = script(&server, &path, &[]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = stderr_of(&out);
    assert!(
        err.starts_with(&format!(
            "{}:3:6: unknown condition \"txt\"",
            path.display()
        )),
        "{err}"
    );
    // Nothing ran: no server was even started.
    assert!(!server.socket.exists(), "{err}");

    // From standard input, named `-`.
    let out = run_weft(
        &["-S", &server.socket.display().to_string(), "script", "-"],
        b"spawn sh\nkey Entr\n",
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        stderr_of(&out).starts_with("-:2:5: \"Entr\" is not a key name"),
        "{out:?}"
    );
}

#[test]
fn snapshots_are_written_compared_and_updated() {
    let server = TestServer::new("scriptsnap");
    let keep = server.weft(&["new", "-d", "-s", "keep", "--", "sleep", "1000"]);
    assert!(keep.status.success(), "{keep:?}");
    let path = script_file(
        &server,
        "snap.tape",
        "size 20x4\n\
         spawn sh -c \"printf 'one\\\\ntwo\\\\n'; exec sleep 100\"\n\
         wait text \"two\"\n\
         snapshot screen.txt\n",
    );
    let snapshot = server.dir.join("screen.txt");
    // The first run writes it.
    let out = script(&server, &path, &[]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(std::fs::read_to_string(&snapshot).unwrap(), "one\ntwo\n");
    // The second compares and passes.
    let out = script(&server, &path, &[]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // A difference fails, row by row.
    std::fs::write(&snapshot, "one\nthree\n").unwrap();
    let out = script(&server, &path, &[]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = stderr_of(&out);
    assert!(
        err.contains(":4: snapshot screen.txt differs from the screen"),
        "{err}"
    );
    assert!(err.contains("-1 |three\n+1 |two\n"), "{err}");
    assert_eq!(std::fs::read_to_string(&snapshot).unwrap(), "one\nthree\n");
    // --update rewrites it.
    let out = script(&server, &path, &["--update"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(std::fs::read_to_string(&snapshot).unwrap(), "one\ntwo\n");
    assert_eq!(sessions(&server), ["keep"]);
}

#[test]
fn the_example_script_passes() {
    let server = TestServer::new("scriptexample");
    let example =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/examples/less.tape");
    let out = script(&server, &example, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
}

#[test]
fn record_in_a_script_leaves_a_recording_that_replays_to_the_last_screen() {
    let server = TestServer::new("scriptrec");
    let path = script_file(
        &server,
        "rec.tape",
        &format!(
            "size 40x6\n\
             {BASH}\
             wait regex /\\$$/\n\
             record demo.cast\n\
             type \"echo rec-$((3 * 5))\\n\"\n\
             wait regex /(?m)^rec-15\\n\\$/\n\
             snapshot last.txt\n"
        ),
    );
    let out = script(&server, &path, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    let cast = server.dir.join("demo.cast");
    let text = std::fs::read_to_string(&cast).unwrap();
    let header: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(
        (header["width"].as_u64(), header["height"].as_u64()),
        (Some(40), Some(6))
    );
    // Played through weft's emulator, it ends on the screen the script saw last.
    let replayed = run_weft(&["replay", cast.to_str().unwrap()], b"");
    let last = std::fs::read_to_string(server.dir.join("last.txt")).unwrap();
    assert!(stdout_of(&replayed).contains("rec-15"), "{replayed:?}");
    assert_eq!(
        stdout_of(&replayed).trim_end(),
        last.trim_end(),
        "the recording's last screen"
    );
}
