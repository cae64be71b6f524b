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
/// Runs a shell command line in the client and waits for `done` in its output and the next
/// prompt after it (so the cursor has settled where copy mode will start from).
fn run(c: &mut TestTerminal, line: &str, done: &str) {
    c.send_text(line).unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| {
        let lines: Vec<String> = s.text().lines().map(|l| l.trim_end().to_string()).collect();
        lines.windows(2).any(|w| w[0] == done && w[1] == "$") && s.cursor_state().col == 2
    })
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
    let listed = stdout_of(&server.weft(&["list-keys", "-T", "copy-mode-vi"]));
    assert!(
        listed
            .lines()
            .all(|l| l.starts_with("bind-key -T copy-mode-vi "))
            && listed.contains("search-backward-incremental"),
        "{listed}"
    );
}

/// The newest paste buffer's text.
fn newest_buffer(server: &TestServer) -> String {
    stdout_of(&server.weft(&["save-buffer", "-"]))
}

/// Searches the pane for `text` from the command line (the cursor lands on its start).
fn search_to(server: &TestServer, text: &str) {
    let out = server.weft(&["send-keys", "-X", "search-backward-text", text]);
    assert!(out.status.success(), "{out:?}");
}

/// Enters copy mode with the keys and waits for the indicator.
fn enter(c: &mut TestTerminal) {
    c.send_keys("C-b [").unwrap();
    c.wait_for(|s| indicator(s).is_some()).unwrap();
}

/// Copies with `keys` (ending in a copy that leaves copy mode) and waits until it has left.
fn copy_with(c: &mut TestTerminal, keys: &str) {
    c.send_keys(keys).unwrap();
    c.wait_for(|s| indicator(s).is_none()).unwrap();
}

#[test]
fn each_selection_kind_copies_exactly_and_reaches_the_clipboard() {
    let server = TestServer::new("copysel");
    let mut c = session(&server, "sel", 60, 12, Some("mode-keys = \"vi\"\n"));
    run(
        &mut c,
        "printf 'first line here   \\nsecond  line\\n%s\\n' $(printf 'w%.0s' $(seq 1 70)); echo se''l-done",
        "sel-done",
    );
    // Characters, the cursor's cell included: `v`, `e`, `y`.
    enter(&mut c);
    search_to(&server, "first line");
    copy_with(&mut c, "v e y");
    assert_eq!(newest_buffer(&server), "first");
    // The copy reached the outer terminal's clipboard (OSC 52).
    let event = c
        .wait_for_event(|e| matches!(e, weft_testkit::Event::ClipboardWrite { .. }))
        .unwrap();
    let weft_testkit::Event::ClipboardWrite { base64, .. } = event else {
        unreachable!()
    };
    assert_eq!(base64, b"Zmlyc3Q=", "base64 of \"first\"");
    // A whole line, trailing blanks trimmed.
    enter(&mut c);
    search_to(&server, "first line");
    copy_with(&mut c, "V j y");
    assert_eq!(newest_buffer(&server), "first line here\nsecond  line");
    // A rectangle: the same columns of two lines.
    enter(&mut c);
    search_to(&server, "first line");
    copy_with(&mut c, "C-v j 4 l y");
    assert_eq!(newest_buffer(&server), "first\nsecon");
    // A line wrapped over two rows is copied as one line.
    enter(&mut c);
    let out = server.weft(&["send-keys", "-X", "search-backward", "^w{5}"]);
    assert!(out.status.success(), "{out:?}");
    copy_with(&mut c, "v j $ y");
    assert_eq!(newest_buffer(&server), "w".repeat(70));
    // `A` appends to the newest buffer.
    enter(&mut c);
    search_to(&server, "second");
    copy_with(&mut c, "v e A");
    assert_eq!(newest_buffer(&server), format!("{}second", "w".repeat(70)));
}

#[test]
fn emacs_keys_select_with_c_space_and_copy_with_m_w() {
    let server = TestServer::new("copyemacs");
    let mut c = session(&server, "em", 60, 10, None);
    run(
        &mut c,
        "echo 'one two three'; echo em''acs-done",
        "emacs-done",
    );
    enter(&mut c);
    search_to(&server, "two three");
    // The region ends before the cursor, as in emacs.
    // C-Space is NUL on the wire.
    c.send_bytes(b"\0").unwrap();
    copy_with(&mut c, "M-f M-w");
    assert_eq!(newest_buffer(&server), "tw");
}

use weft_tests::mouse_report as mouse;

#[test]
fn the_mouse_drags_double_and_triple_clicks_to_copy() {
    let server = TestServer::new("copymouse");
    let mut c = session(&server, "ms", 60, 10, None);
    run(
        &mut c,
        "echo 'alpha beta gamma'; echo mo''use-done",
        "mouse-done",
    );
    let row = (0..10)
        .find(|&r| {
            c.screen()
                .row(r)
                .is_some_and(|l| l.text().starts_with("alpha beta"))
        })
        .unwrap() as u16;
    // Each copy reaches the terminal's clipboard (OSC 52): the buffer is there by then.
    let copied = |c: &mut TestTerminal, server: &TestServer, want: &str| {
        c.wait_for_event(|e| matches!(e, weft_testkit::Event::ClipboardWrite { .. }))
            .unwrap();
        newest_buffer(server) == want
    };
    // Drag from "a" to the end of "alpha", release: copied, and copy mode left.
    c.send_bytes(&mouse(0, 0, row, true)).unwrap();
    c.send_bytes(&mouse(32, 2, row, true)).unwrap();
    c.send_bytes(&mouse(32, 4, row, true)).unwrap();
    c.wait_for(|s| indicator(s).is_some()).unwrap();
    c.send_bytes(&mouse(0, 4, row, false)).unwrap();
    c.wait_for(|s| indicator(s).is_none()).unwrap();
    assert!(
        copied(&mut c, &server, "alpha"),
        "{:?}",
        newest_buffer(&server)
    );
    // A double click copies the word under it.
    let double = [
        mouse(0, 7, row, true),
        mouse(0, 7, row, false),
        mouse(0, 7, row, true),
        mouse(0, 7, row, false),
    ]
    .concat();
    c.send_bytes(&double).unwrap();
    assert!(
        copied(&mut c, &server, "beta"),
        "{:?}",
        newest_buffer(&server)
    );
    // A third click in a row copies the line.
    c.send_bytes(&[mouse(0, 7, row, true), mouse(0, 7, row, false)].concat())
        .unwrap();
    assert!(
        copied(&mut c, &server, "alpha beta gamma"),
        "{:?}",
        newest_buffer(&server)
    );
    // And the shell still gets typed keys: no mode was left behind.
    c.send_text("echo after-$((2*21))").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("after-42").unwrap();
}

#[test]
fn previous_and_next_prompt_follow_the_shells_osc_133_marks() {
    let server = TestServer::new("copyprompt");
    let mut c = session(&server, "pr", 60, 12, Some("mode-keys = \"vi\"\n"));
    run(
        &mut c,
        "printf '\\033]133;A\\007P1 one\\nout\\n\\033]133;A\\007P2 two\\nout\\n'; echo pr''ompt-done",
        "prompt-done",
    );
    let row_of = |s: &Screen, text: &str| {
        (0..s.rows()).find(|&r| s.row(r).is_some_and(|l| l.text().starts_with(text)))
    };
    enter(&mut c);
    c.send_keys("[").unwrap();
    c.wait_for(|s| row_of(s, "P2 two") == Some(s.cursor_state().row))
        .unwrap();
    c.send_keys("[").unwrap();
    c.wait_for(|s| row_of(s, "P1 one") == Some(s.cursor_state().row))
        .unwrap();
    c.send_keys("]").unwrap();
    c.wait_for(|s| row_of(s, "P2 two") == Some(s.cursor_state().row))
        .unwrap();
}

#[test]
fn prefix_page_up_scrolls_a_page_and_copy_mode_e_leaves_at_the_bottom() {
    let server = TestServer::new("copypage");
    let mut c = session(&server, "pg", 80, 24, Some("mode-keys = \"vi\"\n"));
    run(
        &mut c,
        "seq -f 'line-%g' 1 200; echo pa''ge-done",
        "page-done",
    );
    // `C-b PageUp` enters copy mode a page up (23 rows above the bottom of a 23-row pane).
    c.send_keys("C-b PageUp").unwrap();
    c.wait_for(|s| indicator(s).is_some_and(|(offset, _)| offset >= 20))
        .unwrap();
    // Without -e, paging down to the bottom stays in copy mode.
    c.send_keys("PageDown").unwrap();
    c.wait_for(|s| indicator(s).is_some_and(|(offset, _)| offset == 0))
        .unwrap();
    c.send_keys("q").unwrap();
    c.wait_for(|s| indicator(s).is_none()).unwrap();
    // With -e it leaves when scrolled back to the bottom.
    let out = server.weft(&["copy-mode", "-e", "-u", "-t", "pg"]);
    assert!(out.status.success(), "{out:?}");
    c.wait_for(|s| indicator(s).is_some_and(|(offset, _)| offset >= 20))
        .unwrap();
    c.send_keys("PageDown").unwrap();
    c.wait_for(|s| indicator(s).is_none() && s.text().contains("page-done"))
        .unwrap();
}

#[test]
fn o_moves_the_cursor_to_the_other_end_of_the_selection() {
    let server = TestServer::new("copyother");
    let mut c = session(&server, "ot", 60, 12, Some("mode-keys = \"vi\"\n"));
    run(&mut c, "echo 'xx first line'; echo o''t-done", "ot-done");
    enter(&mut c);
    search_to(&server, "first line");
    // `v e` selects "first" with the cursor on its `t`; `o` takes the cursor to its `f`, so
    // `h` grows the selection leftwards (without `o` it would shrink to "firs").
    copy_with(&mut c, "v e o h y");
    assert_eq!(newest_buffer(&server), " first");
}

#[test]
fn prefix_hash_lists_the_buffers() {
    let server = TestServer::new("copylistb");
    let mut c = session(&server, "lb", 80, 24, None);
    let out = server.weft(&["set-buffer", "-b", "mine", "buffer-text-here"]);
    assert!(out.status.success(), "{out:?}");
    c.send_keys("C-b #").unwrap();
    c.wait_for(|s| {
        let t = s.text();
        t.contains("mine") && t.contains("buffer-text-here")
    })
    .unwrap();
}

#[test]
fn search_matches_take_the_copy_mode_match_styles() {
    let server = TestServer::new("copymatch");
    let mut c = session(&server, "cm", 80, 24, None);
    for (option, style) in [
        ("copy-mode-match-style", "bg=green"),
        ("copy-mode-current-match-style", "bg=red"),
    ] {
        let out = server.weft(&["set", "-g", option, style]);
        assert!(out.status.success(), "{out:?}");
    }
    run(&mut c, "echo needle-a; echo needle-b", "needle-b");
    c.send_keys("C-b [").unwrap();
    c.wait_for(|s| indicator(s).is_some()).unwrap();
    c.send_keys("C-r").unwrap();
    c.send_text("needle-").unwrap();
    c.send_keys("Enter").unwrap();
    // The match the cursor went to (the nearest above it) in one colour, the other in the
    // other.
    let bg_of = |s: &weft_testkit::Screen, text: &str| {
        let r = (0..s.rows())
            .rev()
            .find(|&r| s.row(r).is_some_and(|row| row.text().starts_with(text)))?;
        s.cell(r, 0).map(|cell| cell.bg())
    };
    c.wait_for(|s| {
        bg_of(s, "needle-b") == Some(weft_testkit::Color::Indexed(1))
            && bg_of(s, "needle-a") == Some(weft_testkit::Color::Indexed(2))
    })
    .unwrap();
    c.send_keys("q").unwrap();
}

#[test]
fn star_searches_the_word_under_the_cursor_and_copy_pipe_runs_its_command() {
    let server = TestServer::new("copystar");
    let piped = server.dir.join("piped.txt");
    let mut c = session(&server, "st", 80, 24, Some("mode-keys = \"vi\"\n"));
    let pipe = format!("cat > {}", piped.display());
    let words = [
        "bind",
        "-T",
        "copy-mode-vi",
        "y",
        "send",
        "-X",
        "copy-pipe-and-cancel",
        &pipe,
    ];
    let out = server.weft(&words);
    assert!(out.status.success(), "{out:?}");
    run(&mut c, "echo alpha beta; echo gamma alpha", "gamma alpha");
    c.send_keys("C-b [").unwrap();
    c.wait_for(|s| indicator(s).is_some()).unwrap();
    // Up to "gamma alpha", then to its second word.
    c.send_keys("k 0 w").unwrap();
    let word = || {
        stdout_of(&server.weft(&["display", "-p", "-t", "st", "#{copy_cursor_word}"]))
            .trim()
            .to_string()
    };
    c.wait_for(|s| s.cursor_state().col == 6).unwrap();
    assert_eq!(word(), "alpha");
    // `#` searches up for it: the "alpha beta" line, and the command lines that typed it.
    c.send_keys("#").unwrap();
    c.wait_for(|s| {
        s.row(0)
            .is_some_and(|r| r.text().contains("/4)") || r.text().contains("/5)"))
    })
    .unwrap();
    // Select the word under the cursor and copy it through the bound command.
    c.send_keys("v e y").unwrap();
    c.wait_for(|s| indicator(s).is_none()).unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while std::fs::read_to_string(&piped).unwrap_or_default() != "alpha" {
        assert!(
            std::time::Instant::now() < deadline,
            "copy-pipe's command got {:?}",
            std::fs::read_to_string(&piped)
        );
        std::thread::yield_now();
    }
    // The buffer has it too, as tmux's copy-pipe keeps it.
    assert_eq!(
        stdout_of(&server.weft(&["show-buffer"])).trim_end(),
        "alpha"
    );
}
