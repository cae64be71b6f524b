//! `weft wait` as scripts in any language use it: text present or gone, in a row or a region;
//! the cursor; the title; and the end of the command typed last, from the shell's own OSC 133
//! report.

use weft_tests::{stderr_of, stdout_of, TestServer, TEST_SHELL};

fn session(server: &TestServer) {
    let mut args = vec!["new", "-d", "-s", "w", "-x", "80", "-y", "24", "--"];
    args.extend_from_slice(TEST_SHELL);
    let out = server.weft(&args);
    assert!(out.status.success(), "{out:?}");
}

fn type_line(server: &TestServer, line: &str) {
    let out = server.weft(&["send-keys", "-t", "w", "-l", line]);
    assert!(out.status.success(), "{out:?}");
    let out = server.weft(&["send-keys", "-t", "w", "Enter"]);
    assert!(out.status.success(), "{out:?}");
}

fn wait(server: &TestServer, args: &[&str]) -> std::process::Output {
    let mut all = vec!["wait", "-t", "w"];
    all.extend_from_slice(args);
    server.weft(&all)
}

#[test]
fn text_in_a_row_or_a_region_and_text_gone() {
    let server = TestServer::new("waitarea");
    session(&server);
    // The typed line never shows the word itself (`TAR''GET`): before `clear` runs, the
    // shell's echo of it must not be taken for the output.
    type_line(&server, "clear; printf 'x\\ny TAR''GET\\n'; sleep 100");
    let out = wait(&server, &["--row", "1", "--text", "TARGET"]);
    assert!(out.status.success(), "{out:?}");
    // Not in row 0, however long it waits.
    let out = wait(
        &server,
        &["--row", "0", "--text", "TARGET", "--timeout", "0.3"],
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(stderr_of(&out).contains("timed out"), "{out:?}");
    let out = wait(&server, &["--region", "1,2,1,7", "--regex", "^TARGET$"]);
    assert!(out.status.success(), "{out:?}");
    let out = wait(
        &server,
        &[
            "--region",
            "1,0,1,3",
            "--text",
            "TARGET",
            "--timeout",
            "0.3",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    // Gone once the screen is cleared.
    let out = server.weft(&["send-keys", "-t", "w", "C-c"]);
    assert!(out.status.success(), "{out:?}");
    type_line(&server, "clear");
    let out = wait(&server, &["--absent", "TARGET"]);
    assert!(out.status.success(), "{out:?}");
    let bad = wait(&server, &["--region", "3,0,1,5", "--text", "x"]);
    assert_eq!(bad.status.code(), Some(2), "{bad:?}");
    assert!(stderr_of(&bad).contains("TOP,LEFT,BOTTOM,RIGHT"), "{bad:?}");
}

#[test]
fn the_cursor_and_the_title() {
    let server = TestServer::new("waitcursor");
    session(&server);
    type_line(
        &server,
        "printf '\\033]2;build: done\\007\\033[6;11H'; sleep 100",
    );
    let out = wait(&server, &["--cursor", "5,10"]);
    assert!(out.status.success(), "{out:?}");
    let out = wait(&server, &["--title", "^build: d"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stdout_of(&out).trim(), "build: done");
}

#[test]
fn the_command_typed_last_finishing_with_its_status() {
    let server = TestServer::new("waitcmd");
    session(&server);
    // The one-line bash setup README.md gives for shell integration.
    type_line(&server, r#"PROMPT_COMMAND='printf "\033]133;D;%s\007" $?'"#);
    // Its own end is the first report: waited for, so the next keys come after it.
    let out = wait(&server, &["--command-finished", "--status", "0"]);
    assert!(out.status.success(), "{out:?}");
    type_line(&server, "sleep 0.2; false");
    let out = wait(&server, &["--command-finished"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stdout_of(&out).trim(), "1");
    type_line(&server, "true");
    let out = wait(&server, &["--command-finished", "--status", "0"]);
    assert!(out.status.success(), "{out:?}");
    type_line(&server, "(exit 3)");
    let out = wait(&server, &["--command-finished", "--status", "0"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(stderr_of(&out).contains("status 3, not 0"), "{out:?}");
}
