//! What a client's terminal shows: text weft draws over the panes stays in its rows, a refresh
//! repaints the terminal whatever it shows, and the frame pace follows the configuration.

use serde_json::Value;
use weft_testkit::{Screen, TestTerminal};
use weft_tests::{stdout_of, TestServer, TEST_SHELL};

/// A client of `cols`x24 in a new session `name` started with configuration file `conf`, at
/// its prompt.
fn session_with_config(
    server: &TestServer,
    conf: &std::path::Path,
    name: &str,
    cols: u16,
) -> TestTerminal {
    let conf = conf.to_str().unwrap();
    let mut args = vec!["-f", conf, "new", "-s", name, "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut client = server.client(&args, cols, 24);
    client.wait_for_text("$").expect("prompt");
    client
}

/// Every row's text, top to bottom.
fn rows(screen: &Screen) -> Vec<String> {
    (0..screen.rows())
        .map(|r| screen.row(r).map(|row| row.text()).unwrap_or_default())
        .collect()
}

/// The rows above the status line, and the status line up to its clock (which may turn over
/// while a test runs).
fn contents(screen: &Screen) -> (Vec<String>, String) {
    let mut rows = rows(screen);
    let status = rows.pop().unwrap_or_default();
    let session_part = status.split('"').next().unwrap_or_default().trim_end();
    (rows, session_part.to_string())
}

/// Clears the pane and prints `MARK-42` on its top row, then waits until the screen is still.
fn mark_the_top_row(c: &mut TestTerminal) -> (Vec<String>, String) {
    c.send_text("printf '\\033[H\\033[2JMARK-%s\\n' $((6*7))")
        .unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| rows(s)[0] == "MARK-42" && rows(s)[1] == "$")
        .unwrap();
    let shown = contents(c.screen());
    assert!(shown.1.starts_with("[m] 0:bash*"), "{shown:?}");
    shown
}

/// The client process's terminal (the pty it was started on), opened for writing as another
/// program on that terminal would: what is written there reaches the screen behind weft's back.
fn terminal_of(c: &TestTerminal) -> std::fs::File {
    let pid = c.pid().unwrap();
    let tty = std::fs::read_link(format!("/proc/{pid}/fd/0")).unwrap();
    let fd = rustix::fs::open(
        &tty,
        rustix::fs::OFlags::WRONLY | rustix::fs::OFlags::NOCTTY,
        rustix::fs::Mode::empty(),
    )
    .unwrap_or_else(|e| panic!("open {}: {e}", tty.display()));
    std::fs::File::from(fd)
}

#[test]
fn a_config_reload_with_warnings_leaves_every_row_in_place() {
    let server = TestServer::new("reloadwarn");
    let conf = server.dir.join("weft.toml");
    std::fs::write(&conf, "").unwrap();
    // Wide enough for the warnings, which start with the file's long path.
    let mut c = session_with_config(&server, &conf, "m", 200);
    let before = mark_the_top_row(&mut c);
    // Two bad entries, one of them naming a command with terminal controls in it: the
    // warnings are two lines, one with escape sequences that would clear the terminal, move
    // to its bottom row and scroll everything up a row there.
    std::fs::write(
        &conf,
        "bogus-option = 1\n[keys.prefix]\n\"x\" = \"no-such-command\\u001b[2J\\u001b[24;1H\\u001bDrest\"\n",
    )
    .unwrap();
    c.send_keys("C-b :").unwrap();
    c.wait_for(|s| rows(s)[23] == ":").unwrap();
    c.send_text(&format!("source-file {}", conf.display()))
        .unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| {
        let text = s.text();
        text.contains("bogus-option") && text.contains("no-such-command")
    })
    .unwrap();
    let shown = rows(c.screen());
    assert!(
        shown[0].contains("weft.toml:1:") && shown[1].contains("weft.toml:3:"),
        "the warnings are over the window, from its top row: {shown:#?}"
    );
    assert!(
        shown[23].starts_with("[m] 0:bash*"),
        "the status line stays where it was: {shown:#?}"
    );
    // Any key dismisses them; every row is as it was, the marker still on top.
    c.send_keys("q").unwrap();
    c.wait_for(|s| !s.text().contains("bogus-option")).unwrap();
    c.wait_for(|s| contents(s) == before).unwrap();
    assert_eq!(rows(c.screen())[0], "MARK-42");
}

#[test]
fn refresh_repaints_a_terminal_that_something_else_wrote_to() {
    let server = TestServer::new("refresh");
    let conf = server.dir.join("weft.toml");
    std::fs::write(&conf, "").unwrap();
    let mut c = session_with_config(&server, &conf, "m", 80);
    let before = mark_the_top_row(&mut c);
    let garbage = b"\x1b[H\x1b[2JGARBAGE\x1b[24;1H\n\n\nMORE-GARBAGE";
    for (how, refresh) in [("the command line", true), ("C-b r", false)] {
        use std::io::Write as _;
        let mut tty = terminal_of(&c);
        tty.write_all(garbage).unwrap();
        c.wait_for(|s| s.text().contains("MORE-GARBAGE")).unwrap();
        assert_ne!(contents(c.screen()), before);
        if refresh {
            let out = server.weft(&["refresh-client"]);
            assert!(out.status.success(), "{out:?}");
        } else {
            c.send_keys("C-b r").unwrap();
        }
        c.wait_for(|s| contents(s) == before)
            .unwrap_or_else(|e| panic!("refreshed from {how}: {e}"));
        assert!(!c.screen().text().contains("GARBAGE"));
    }
}

#[test]
fn the_frame_interval_follows_source_file() {
    let server = TestServer::new("interval");
    let conf = server.dir.join("weft.toml");
    std::fs::write(&conf, "").unwrap();
    let _client = session_with_config(&server, &conf, "m", 80);
    let interval = || {
        let out = server.weft(&["diag", "--json"]);
        assert!(out.status.success(), "{out:?}");
        let report: Value = serde_json::from_str(&stdout_of(&out)).unwrap();
        report["clients"][0]["frame_interval_ms"].as_u64()
    };
    assert_eq!(interval(), Some(8), "the default");
    std::fs::write(&conf, "frame-interval-ms = 40\n").unwrap();
    let out = server.weft(&["source-file"]);
    assert!(out.status.success(), "{out:?}");
    let opts = stdout_of(&server.weft(&["show-options"]));
    assert!(opts.contains("frame-interval-ms 40"), "{opts}");
    // The render task takes the new settings when it next runs, which is soon but not
    // necessarily before `source-file` answers: wait for it.
    let give_up = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while interval() != Some(40) {
        assert!(
            std::time::Instant::now() < give_up,
            "the client still paces at {:?}",
            interval()
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}
