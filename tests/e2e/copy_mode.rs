//! Copy mode through a real client: scrolling and searching the history of a pane that keeps
//! printing, search across a soft wrap, vi keys with counts and jumps.

use weft_testkit::{Screen, TestTerminal};
use weft_tests::{stdout_of, TestServer, TEST_SHELL};

fn session(
    server: &TestServer,
    name: &str,
    cols: u16,
    rows: u16,
    conf: Option<&str>,
) -> TestTerminal {
    let conf_path = server.dir.join("copy.toml");
    let mut args: Vec<&str> = Vec::new();
    if let Some(text) = conf {
        std::fs::write(&conf_path, text).unwrap();
        args.extend(["-f", conf_path.to_str().unwrap()]);
    }
    args.extend(["new", "-s", name, "--"]);
    args.extend_from_slice(TEST_SHELL);
    let mut client = server.client(&args, cols, rows);
    client.wait_for_text("$").expect("prompt");
    client
}

/// Runs a shell command line in the client and waits for `done` in its output.
fn run(c: &mut TestTerminal, line: &str, done: &str) {
    c.send_text(line).unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| s.text().lines().any(|l| l.trim_end() == done))
        .unwrap();
}

/// The `[offset/history]` indicator of the top row, as numbers.
fn indicator(s: &Screen) -> Option<(u64, u64)> {
    let top = s.row(0)?.text();
    let inner = top.rsplit_once('[')?.1.split_once(']')?.0.to_string();
    let (a, b) = inner.split_once('/')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

/// The row showing `text`, if any.
fn row_with(s: &Screen, text: &str) -> Option<usize> {
    (0..s.rows()).find(|&r| s.row(r).is_some_and(|row| row.text().contains(text)))
}

#[test]
fn copy_mode_scrolls_and_searches_a_pane_that_keeps_printing() {
    let server = TestServer::new("copyscroll");
    let mut c = session(&server, "cs", 80, 24, None);
    c.send_text("seq -f 'row-%g' 1 400; i=0; while :; do echo tick-$((i++)); sleep 0.05; done")
        .unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("tick-3").unwrap();
    c.send_keys("C-b [").unwrap();
    c.wait_for(|s| indicator(s).is_some_and(|(offset, _)| offset == 0))
        .unwrap();
    // An incremental search upwards (emacs keys, tmux's default), typed a key at a time.
    c.send_keys("C-r").unwrap();
    c.wait_for_text("(search up)").unwrap();
    c.send_text("row-123").unwrap();
    c.wait_for(|s| row_with(s, "row-123").is_some() && s.text().contains("(1/1)"))
        .unwrap();
    c.send_keys("Enter").unwrap();
    // The current match is drawn distinctly (tmux's current-match style: magenta).
    c.wait_for(|s| {
        row_with(s, "row-123").is_some_and(|r| {
            let col = s.row(r).unwrap().text().find("row-123").unwrap();
            s.cell(r, col)
                .is_some_and(|cell| cell.bg() == weft_testkit::Color::Indexed(5))
        })
    })
    .unwrap();
    let (offset, total) = indicator(c.screen()).unwrap();
    // Output goes on; the view stays on the match while the history grows under it.
    c.wait_for(|s| {
        indicator(s).is_some_and(|(o, t)| t > total + 10 && o > offset)
            && row_with(s, "row-123").is_some()
    })
    .unwrap();
    // `q` leaves: the live screen again, still printing.
    c.send_keys("q").unwrap();
    c.wait_for(|s| row_with(s, "row-123").is_none() && indicator(s).is_none())
        .unwrap();
    c.send_keys("C-c").unwrap();
}

#[test]
fn a_search_from_the_command_line_finds_a_url_wrapped_over_two_rows() {
    let server = TestServer::new("copywrap");
    let mut c = session(&server, "cw", 40, 12, None);
    run(
        &mut c,
        "printf 'see https://example.com/%s/end\\n' $(printf 'x%.0s' $(seq 1 50)); echo wr''ap-done",
        "wrap-done",
    );
    let pane = "cw:";
    assert!(server.weft(&["copy-mode", "-t", pane]).status.success());
    // The pattern crosses the soft wrap at column 40.
    let out = server.weft(&[
        "send-keys",
        "-t",
        pane,
        "-X",
        "search-backward",
        "example\\.com/x{30}",
    ]);
    assert!(out.status.success(), "{out:?}");
    c.wait_for(|s| s.text().contains("(1/1)")).unwrap();
    // Both rows of the match are highlighted: the end of the first, the start of the second.
    c.wait_for(|s| {
        let r = row_with(s, "see https://example.com/x").unwrap_or(0);
        let hl = |row: usize, col: usize| {
            s.cell(row, col)
                .is_some_and(|cell| cell.bg() == weft_testkit::Color::Indexed(5))
        };
        hl(r, 39) && hl(r + 1, 0) && !hl(r + 1, 20)
    })
    .unwrap();
    // Outside copy mode, -X is refused with a sentence.
    assert!(server
        .weft(&["copy-mode", "-q", "-t", pane])
        .status
        .success());
    let out = server.weft(&["send-keys", "-t", pane, "-X", "cursor-up"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("is not in copy mode"),
        "{out:?}"
    );
}

#[test]
fn vi_keys_take_counts_words_and_jumps() {
    let server = TestServer::new("copyvi");
    let mut c = session(&server, "cv", 60, 10, Some("mode-keys = \"vi\"\n"));
    run(
        &mut c,
        "echo 'alpha beta gamma(delta) epsilon'; echo v''i-done",
        "vi-done",
    );
    // The typed command shows the words too: the echoed line is the row after it.
    c.send_keys("C-b [").unwrap();
    c.wait_for(|s| indicator(s).is_some()).unwrap();
    // From the cursor on the prompt line: 2k lands on the echoed line, at its start.
    c.send_keys("2 k 0").unwrap();
    let line_row = row_with(c.screen(), "alpha beta gamma(delta) epsilon").unwrap() + 1;
    let waited = c.wait_for(|s| s.cursor_state().row == line_row && s.cursor_state().col == 0);
    assert!(waited.is_ok(), "{:?} {line_row}", c.screen().cursor_state());
    // 2w: two words on; f( jumps to the bracket; % to its match.
    c.send_keys("2 w").unwrap();
    c.wait_for(|s| s.cursor_state().col == 11).unwrap();
    c.send_keys("f (").unwrap();
    c.wait_for(|s| s.cursor_state().col == 16).unwrap();
    c.send_keys("%").unwrap();
    c.wait_for(|s| s.cursor_state().col == 22).unwrap();
    c.send_keys("$").unwrap();
    c.wait_for(|s| s.cursor_state().col == 30).unwrap();
    c.send_keys("q").unwrap();
    c.wait_for(|s| indicator(s).is_none()).unwrap();
    let listed = stdout_of(&server.weft(&["list-keys"]));
    assert!(listed.contains("copy-mode-vi"), "{listed}");
}
