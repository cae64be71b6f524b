//! The `expect_*` locators against real programs.

use std::time::{Duration, Instant};
use weft_testkit::{Color, Rgb, TestTerminal, UnderlineStyle, WaitError};

fn sh(script: &str) -> TestTerminal {
    TestTerminal::spawn(["sh", "-c", script])
        .size(40, 8)
        .timeout(Duration::from_secs(10))
        .start()
        .expect("spawn sh")
}

/// A terminal whose program prints `script` and then stays until the test ends, so failures
/// are timeouts rather than exits.
fn sh_staying(script: &str) -> TestTerminal {
    sh(&format!("{script}; read x"))
}

#[test]
fn text_on_the_screen_in_a_row_region_and_cursor_line() {
    let mut term = sh_staying("printf 'header\\nSaved 3 files\\nleft      right\\n$ '");
    term.expect_text("Saved").wait().unwrap();
    term.expect_text("Saved").in_row(1).wait().unwrap();
    term.expect_text("right")
        .in_region(2, 10, 3, 20)
        .wait()
        .unwrap();
    term.expect_text("$").on_cursor_line().wait().unwrap();

    let short = Duration::from_millis(100);
    assert!(term
        .expect_text("Saved")
        .in_row(0)
        .within(short)
        .wait()
        .is_err());
    assert!(term
        .expect_text("left")
        .in_region(2, 10, 3, 20)
        .within(short)
        .wait()
        .is_err());
    assert!(term
        .expect_text("Saved")
        .on_cursor_line()
        .within(short)
        .wait()
        .is_err());
}

#[test]
fn text_that_arrives_later_is_waited_for() {
    let mut term = sh("read x; printf 'later\\n'; read y");
    term.send_keys("Enter").unwrap();
    term.expect_text("later").wait().unwrap();
}

#[test]
fn regex_matches_in_scopes_and_bad_patterns_say_so() {
    let mut term = sh_staying("printf '12 files\\nname: weft'");
    term.expect_regex(r"(?m)^\d+ files$").wait().unwrap();
    term.expect_regex(r"^name: \w+$").in_row(1).wait().unwrap();
    term.expect_regex(r"weft$").on_cursor_line().wait().unwrap();
    let err = term.expect_regex("(unclosed").wait().unwrap_err();
    assert!(matches!(err, WaitError::InvalidPattern(_)), "{err}");
}

#[test]
fn absent_waits_until_the_text_is_gone() {
    let mut term = sh_staying("printf 'Loading...'; read x; printf '\\033[2J\\033[HReady'");
    term.expect_text("Loading").wait().unwrap();
    let err = term
        .expect_absent("Loading")
        .within(Duration::from_millis(100))
        .wait()
        .unwrap_err();
    assert!(matches!(err, WaitError::Timeout { .. }), "{err}");
    term.send_keys("Enter").unwrap();
    term.expect_absent("Loading").wait().unwrap();
    term.expect_text("Ready").in_row(0).wait().unwrap();
    // Absent in a scope: the rest of the screen does not count.
    term.expect_absent("Ready").in_row(1).wait().unwrap();
}

#[test]
fn cursor_position() {
    let mut term = sh_staying("printf 'ab\\ncd'; read x; printf '\\033[5;10H'");
    term.expect_cursor(1, 2).wait().unwrap();
    term.send_keys("Enter").unwrap();
    term.expect_cursor(4, 9).wait().unwrap();
    let err = term
        .expect_cursor(0, 0)
        .within(Duration::from_millis(100))
        .wait()
        .unwrap_err();
    assert!(
        err.to_string().contains("the cursor at row 0, col 0"),
        "{err}"
    );
}

#[test]
fn style_colours_bold_and_underline() {
    let mut term = sh_staying(
        "printf '\\033[1;31merror\\033[m: \\033[38;2;0;128;255;44mblue\\033[m \\033[4:3mwavy\\033[m'",
    );
    term.expect_style(0, 0..5)
        .fg(Color::Indexed(1))
        .bold()
        .wait()
        .unwrap();
    term.expect_style(0, 7..=10)
        .fg(Color::Rgb(Rgb::new(0, 128, 255)))
        .bg(Color::Indexed(4))
        .underline(UnderlineStyle::None)
        .wait()
        .unwrap();
    term.expect_style(0, 12..16)
        .underline(UnderlineStyle::Curly)
        .wait()
        .unwrap();

    let err = term
        .expect_style(0, 0..7)
        .fg(Color::Indexed(1))
        .within(Duration::from_millis(100))
        .wait()
        .unwrap_err();
    let text = err.to_string();
    assert!(text.contains("col 5: \":\" has fg Default"), "{text}");
    assert!(term
        .expect_style(0, 3..3)
        .bold()
        .within(Duration::from_millis(50))
        .wait()
        .is_err());
}

#[test]
fn style_waits_until_it_holds() {
    let mut term = sh_staying("printf 'plain'; read x; printf '\\033[H\\033[1mplain'");
    term.expect_text("plain").wait().unwrap();
    term.send_keys("Enter").unwrap();
    term.expect_style(0, 0..5).bold().wait().unwrap();
}

#[test]
fn an_exit_ends_the_wait_early() {
    let mut term = sh("printf done");
    let started = Instant::now();
    let err = term.expect_text("never").wait().unwrap_err();
    assert!(matches!(err, WaitError::Exited { .. }), "{err}");
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn the_old_waits_still_work() {
    let mut term = sh_staying("printf 'one\\ntwo'");
    term.wait_for_text("two").unwrap();
    term.wait_for(|s| s.row(0).is_some_and(|r| r.text() == "one"))
        .unwrap();
    weft_testkit::assert_screen!(term, ["one", "two"]);
}

/// The example in docs/testing-tui-programs.md, kept running.
#[test]
fn the_guide_example() -> Result<(), WaitError> {
    let mut term = TestTerminal::spawn([
        "sh",
        "-c",
        "printf 'Saved\\n\\033[1;31merror\\033[m: x'; read x; printf '\\033[H\\033[2K'; read y",
    ])
    .start()?;
    term.expect_text("Saved")
        .in_row(0)
        .within(Duration::from_secs(2))
        .wait()?;
    term.expect_regex(r"(?m)^error: \w+$").wait()?;
    term.expect_style(1, 0..5)
        .fg(Color::Indexed(1))
        .bold()
        .wait()?;
    term.expect_style(1, 5..)
        .underline(UnderlineStyle::None)
        .wait()?;
    term.expect_cursor(1, 8).wait()?;
    term.send_keys("Enter")?;
    term.expect_absent("Saved").in_region(0, 0, 0, 10).wait()?;
    Ok(())
}

#[test]
fn the_screen_as_an_svg_picture() {
    let mut term = sh_staying("printf '\\033[32mgreen\\033[0m & <b>\\n'");
    term.expect_text("green").wait().unwrap();
    let svg = term.screen_svg();
    assert!(svg.starts_with("<svg"), "{svg}");
    assert!(svg.contains("fill=\"#00cd00\">green</text>"), "{svg}");
    assert!(svg.contains("> &amp; &lt;b&gt;</text>"), "{svg}");
}
