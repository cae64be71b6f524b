//! The three examples of docs/testing-tui-programs.md, run as weft's own tests: a Rust test of
//! `less` with the test kit's locators and an insta snapshot, and the shell and Python tests in
//! docs/examples/ run against this build of weft.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use weft_testkit::{assert_screen_snapshot, TestTerminal};
use weft_tests::weft_binary;

/// The Rust example, as the document shows it.
#[test]
fn rust_example_less_with_locators_and_a_snapshot() {
    let dir = std::env::temp_dir().join(format!("weft-example-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("notes.txt");
    let text: String = (1..=100).map(|i| format!("note {i}\n")).collect();
    std::fs::write(&file, text).unwrap();

    // A real pty of 30x6 running less; the kit's screen model in this process.
    let mut term = TestTerminal::spawn(["less", "-S", file.to_str().unwrap()])
        .size(30, 6)
        .env("LESS", "")
        .env("TERM", "xterm-256color")
        .start()
        .unwrap();

    // Locators wait (here at most 5 s) for what a user would see.
    term.expect_text("note 1")
        .in_row(0)
        .within(Duration::from_secs(5))
        .wait()
        .unwrap();
    term.send_keys("G").unwrap();
    term.expect_text("(END)").on_cursor_line().wait().unwrap();
    term.expect_absent("note 1\n").wait().unwrap();

    // The whole screen, with its size and cursor, as `cargo insta review` shows it.
    assert_screen_snapshot!(term, @r"
    note 96
    note 97
    note 98
    note 99
    note 100
    (END)
    -- 30x6, cursor 5,5 --
    ");

    term.send_keys("q").unwrap();
    assert_eq!(term.wait_exit().unwrap().code, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../docs/examples")
        .join(name)
}

#[test]
fn shell_example_tests_less_with_weft_run_and_wait() {
    let out = Command::new("bash")
        .arg(example("test-less.sh"))
        .env("WEFT", weft_binary())
        .env_remove("WEFT_PANE")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(
        said.contains("PASS: less pages, searches and quits"),
        "{out:?}"
    );
}

#[test]
fn python_example_drives_less_and_reads_weft_subscribe() {
    let out = Command::new("python3")
        .arg(example("test_less.py"))
        .env("WEFT", weft_binary())
        .env_remove("WEFT_PANE")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{out:?}");
    assert!(said.contains("Ran 1 test") && said.contains("OK"), "{said}");
}
