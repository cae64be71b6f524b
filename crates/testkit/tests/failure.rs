//! What a failing expectation reports, and the recording it writes.

use std::time::Duration;
use weft_testkit::TestTerminal;

#[test]
fn a_failure_shows_the_screen_the_keys_and_a_recording() {
    let mut term = TestTerminal::spawn(["sh", "-c", "printf 'first\\nsecond\\n> '; cat"])
        .size(40, 12)
        .timeout(Duration::from_millis(300))
        .start()
        .unwrap();
    term.expect_text(">").wait().unwrap();
    for i in 0..25 {
        term.send_text(&format!("k{i} ")).unwrap();
    }
    term.send_keys("hello Enter").unwrap();
    term.expect_text("hello").wait().unwrap();

    let err = term.expect_text("Saved").in_row(0).wait().unwrap_err();
    let text = err.to_string();
    assert!(text.starts_with("timed out after"), "{text}");
    assert!(text.contains("waiting for \"Saved\" in row 0"), "{text}");
    assert!(text.contains("in row 0 the text was: \"first\""), "{text}");
    // Row numbers, the cursor row marked and a caret under its column.
    assert!(text.contains("   0 | first\n   1 | second\n"), "{text}");
    let cursor = term.screen().cursor_state();
    assert!(
        text.contains(&format!(
            "screen 40x12, cursor at row {}, col {}",
            cursor.row, cursor.col
        )),
        "{text}"
    );
    assert!(text.contains(&format!(">{:>3} | ", cursor.row)), "{text}");
    assert!(
        text.contains(&format!("     | {}^ cursor", " ".repeat(cursor.col))),
        "{text}"
    );
    // The last 20 input calls, oldest first.
    assert!(text.contains("send_keys(\"hello Enter\")"), "{text}");
    assert!(text.contains("send_text(\"k24 \")"), "{text}");
    assert!(!text.contains("send_text(\"k5 \")"), "{text}");
    assert!(text.contains("send_text(\"k6 \")"), "{text}");

    // The recording: an existing asciicast v2 file whose every line is JSON.
    let path = text
        .lines()
        .find_map(|l| l.strip_prefix("recording (asciicast v2): "))
        .expect("a recording line");
    assert!(path.ends_with(".cast"), "{path}");
    assert!(path.contains("weft-testkit"), "{path}");
    let cast = std::fs::read_to_string(path).unwrap();
    let lines: Vec<serde_json::Value> = cast
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(lines[0]["version"], 2);
    assert_eq!(lines[0]["width"], 40);
    assert_eq!(lines[0]["height"], 12);
    assert!(lines[0]["timestamp"].is_u64());
    let events = &lines[1..];
    let data = |code: &str| -> String {
        events
            .iter()
            .filter(|e| e[1] == code)
            .map(|e| e[2].as_str().unwrap().to_string())
            .collect()
    };
    assert!(data("o").contains("first\r\nsecond"), "{cast}");
    assert!(data("i").starts_with("k0 k1 "), "{cast}");
    assert!(data("i").ends_with("hello\r"), "{cast}");
    let times: Vec<f64> = events.iter().map(|e| e[0].as_f64().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
}

#[test]
fn the_recording_replays_to_the_same_screen() {
    let mut term = TestTerminal::spawn([
        "sh",
        "-c",
        "printf '\\033[2J\\033[H\\033[1mtitle\\033[m\\nnaïve café\\n'; read x; printf 'bye'; read y",
    ])
    .size(20, 4)
    .start()
    .unwrap();
    term.expect_text("café").wait().unwrap();
    term.send_keys("Enter").unwrap();
    term.expect_text("bye").wait().unwrap();
    let path =
        std::env::temp_dir().join(format!("weft-testkit-replay-{}.cast", std::process::id()));
    term.write_recording(&path).unwrap();
    let cast = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).ok();
    let mut screen = weft_testkit::Screen::new(20, 4);
    for line in cast.lines().skip(1) {
        let event: serde_json::Value = serde_json::from_str(line).unwrap();
        if event[1] == "o" {
            screen.feed(event[2].as_str().unwrap().as_bytes());
        }
    }
    assert_eq!(screen.text(), term.screen().text());
}

#[test]
fn a_bounded_recording_notes_what_it_dropped() {
    let mut term = TestTerminal::spawn([
        "sh",
        "-c",
        "i=0; while [ $i -lt 200 ]; do echo line$i; i=$((i+1)); done; read x",
    ])
    .record_limit(256)
    .timeout(Duration::from_millis(200))
    .start()
    .unwrap();
    term.expect_text("line199").wait().unwrap();
    let err = term.expect_text("nothing").wait().unwrap_err();
    let text = err.to_string();
    assert!(text.contains("the recording dropped its oldest"), "{text}");
    let report = err.report().unwrap();
    let cast = std::fs::read_to_string(report.recording.as_ref().unwrap()).unwrap();
    let first_event: serde_json::Value =
        serde_json::from_str(cast.lines().nth(1).unwrap()).unwrap();
    assert_eq!(first_event[1], "m");
    assert!(!cast.contains("line0\\r\\n"), "the oldest output is gone");
    assert!(cast.contains("line199"));
}
