//! `weft replay` on real byte streams: text and JSON output, files and stdin, bad arguments.

use serde_json::Value;
use weft_tests::run_weft;

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn prints_the_final_screen_as_text() {
    let out = run_weft(
        &["replay", "--cols", "10", "--rows", "3"],
        b"hello\r\n\x1b[1;31mworld\x1b[0m\r\n\x1b(0lqk",
    );
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stdout(&out), "hello\nworld\n┌─┐\n");
}

#[test]
fn reads_a_file_and_shows_scrollback_on_request() {
    let dir = std::env::temp_dir().join(format!("weft-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("input");
    std::fs::write(&file, b"1\r\n2\r\n3\r\n4").unwrap();
    let path = file.to_str().unwrap();
    let out = run_weft(&["replay", "--cols", "5", "--rows", "2", path], b"");
    assert_eq!(stdout(&out), "3\n4\n");
    let out = run_weft(
        &["replay", "--cols", "5", "--rows", "2", "--scrollback", path],
        b"",
    );
    assert_eq!(stdout(&out), "1\n2\n3\n4\n");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn json_has_cells_cursor_modes_and_title() {
    let out = run_weft(
        &["replay", "--cols", "4", "--rows", "2", "--format", "json"],
        "\x1b]2;t\x07\x1b[?2004h\x1b[1;38;2;1;2;3m中\x1b]8;;http://x\x07a\x1b[?25l".as_bytes(),
    );
    assert!(out.status.success(), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["title"], "t");
    assert_eq!(v["cursor"]["row"], 0);
    assert_eq!(v["cursor"]["col"], 3);
    assert_eq!(v["cursor"]["visible"], false);
    assert_eq!(v["modes"]["bracketed_paste"], true);
    let cells = &v["screen"][0]["cells"];
    assert_eq!(cells.as_array().unwrap().len(), 4);
    assert_eq!(cells[0]["text"], "中");
    assert_eq!(cells[0]["width"], 2);
    assert_eq!(cells[0]["fg"], "#010203");
    assert_eq!(cells[0]["attrs"][0], "bold");
    assert_eq!(cells[1]["width"], 0);
    assert_eq!(cells[2]["hyperlink"]["uri"], "http://x");
    assert_eq!(cells[3]["bg"], Value::Null);
}

#[test]
fn bad_arguments_exit_2_with_a_clear_error() {
    for args in [
        &["replay", "--rows", "3"][..],
        &["replay", "--cols", "0", "--rows", "3"],
        &["replay", "--cols", "x", "--rows", "3"],
        &["replay", "--cols", "3", "--rows", "3", "--format", "xml"],
    ] {
        let out = run_weft(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(!out.stderr.is_empty());
    }
    let out = run_weft(
        &["replay", "--cols", "3", "--rows", "3", "/nonexistent/file"],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/file"));
}

#[test]
fn hostile_input_finishes_and_prints_a_sane_screen() {
    let mut input = b"\x1b[999999999@\x1b]2;".to_vec();
    input.extend(std::iter::repeat_n(b'A', 3 << 20));
    input.extend_from_slice(b"\x07ok");
    let out = run_weft(&["replay", "--cols", "10", "--rows", "2"], &input);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "ok\n\n");
}
