//! Windows and panes as a tmux user's fingers expect them: keys, mouse, CLI, config.

use serde_json::Value;
use weft_testkit::TestTerminal;
use weft_tests::{split_pane, stderr_of, stdout_of, TestServer, TEST_SHELL};

fn session(server: &TestServer, name: &str, cols: u16, rows: u16) -> TestTerminal {
    let mut args = vec!["new", "-s", name, "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut client = server.client(&args, cols, rows);
    client.wait_for_text("$").expect("prompt");
    client
}

fn json(server: &TestServer, args: &[&str]) -> Vec<Value> {
    weft_tests::json_list(server, args)
}

fn panes(server: &TestServer) -> Vec<Value> {
    json(server, &["list-panes", "--json"])
}

fn active_pane(server: &TestServer) -> String {
    panes(server)
        .into_iter()
        .find(|p| p["active"] == true)
        .map(|p| p["id"].as_str().unwrap().to_string())
        .unwrap()
}

fn geometry(p: &Value) -> (u64, u64, u64, u64) {
    (
        p["left"].as_u64().unwrap(),
        p["top"].as_u64().unwrap(),
        p["cols"].as_u64().unwrap(),
        p["rows"].as_u64().unwrap(),
    )
}

/// Types keys and waits until the pane list satisfies `check`, each time the screen changes.
fn keys_until(
    server: &TestServer,
    client: &mut TestTerminal,
    keys: &str,
    mut check: impl FnMut(&[Value]) -> bool,
) {
    client.send_keys(keys).unwrap();
    client
        .wait_for(|_| check(&panes(server)))
        .unwrap_or_else(|e| panic!("after {keys:?}: {e}\npanes: {:?}", panes(server)));
}

use weft_tests::mouse_report as mouse;

#[test]
fn splits_both_ways_and_nested_with_borders() {
    let server = TestServer::new("splits");
    let mut c = session(&server, "s", 80, 24);
    keys_until(&server, &mut c, "C-b %", |p| p.len() == 2);
    keys_until(&server, &mut c, "C-b \"", |p| p.len() == 3);
    let p = panes(&server);
    assert_eq!(geometry(&p[0]), (0, 0, 40, 23));
    assert_eq!(geometry(&p[1]), (41, 0, 39, 11));
    assert_eq!(geometry(&p[2]), (41, 12, 39, 11));
    // Borders drawn with line-drawing characters, shared by neighbours.
    c.wait_for(|s| s.text().contains('│') && s.text().contains('├'))
        .unwrap();
    // pane-border-lines changes them at once.
    assert!(server
        .weft(&["set", "-g", "pane-border-lines", "double"])
        .status
        .success());
    c.wait_for(|s| s.text().contains('║') && s.text().contains('╠') && !s.text().contains('│'))
        .unwrap();
    let out = server.weft(&["split-window", "-h", "-p", "30", "-t", "s"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(panes(&server).len(), 4);
}

#[test]
fn focus_moves_by_keys_and_by_mouse_click() {
    let server = TestServer::new("focus");
    let mut c = session(&server, "f", 80, 24);
    keys_until(&server, &mut c, "C-b %", |p| p.len() == 2);
    let right = active_pane(&server);
    keys_until(&server, &mut c, "C-b Left", |p| p[0]["active"] == true);
    keys_until(&server, &mut c, "C-b o", |p| p[1]["active"] == true);
    assert_eq!(active_pane(&server), right);
    // Click in the left pane.
    c.send_bytes(&mouse(0, 5, 5, true)).unwrap();
    c.send_bytes(&mouse(0, 5, 5, false)).unwrap();
    c.wait_for(|_| panes(&server)[0]["active"] == true).unwrap();
}

#[test]
fn resize_by_keys_and_by_dragging_a_border() {
    let server = TestServer::new("resize");
    let mut c = session(&server, "r", 80, 24);
    keys_until(&server, &mut c, "C-b %", |p| p.len() == 2);
    keys_until(&server, &mut c, "C-b Left", |p| p[0]["active"] == true);
    keys_until(&server, &mut c, "C-b C-Right", |p| p[0]["cols"] == 41);
    keys_until(&server, &mut c, "C-b M-Right", |p| p[0]["cols"] == 46);
    // Drag the border (column 46) five cells left.
    c.send_bytes(&mouse(0, 46, 5, true)).unwrap();
    c.send_bytes(&mouse(32, 43, 5, true)).unwrap();
    c.send_bytes(&mouse(32, 41, 5, true)).unwrap();
    c.send_bytes(&mouse(0, 41, 5, false)).unwrap();
    c.wait_for(|_| panes(&server)[0]["cols"] == 41).unwrap();
    // tmux's own binding for it, as configurations copy it, drags the same way; the first
    // drag event, still on the border, runs it (and the option after it says it ran whole).
    let out = server.weft(&[
        "bind",
        "-n",
        "MouseDrag1Border",
        "resize-pane",
        "-M",
        ";",
        "set",
        "-g",
        "@border-dragged",
        "yes",
    ]);
    assert!(out.status.success(), "{out:?}");
    c.send_bytes(&mouse(0, 41, 5, true)).unwrap();
    c.send_bytes(&mouse(32, 41, 6, true)).unwrap();
    c.send_bytes(&mouse(32, 44, 6, true)).unwrap();
    c.send_bytes(&mouse(32, 46, 6, true)).unwrap();
    c.send_bytes(&mouse(0, 46, 6, false)).unwrap();
    c.wait_for(|_| panes(&server)[0]["cols"] == 46).unwrap();
    let ran = server.weft(&["show", "-gv", "@border-dragged"]);
    assert_eq!(weft_tests::stdout_of(&ran).trim(), "yes");
}

#[test]
fn resize_pane_t_brings_history_back_below_a_cleared_screen() {
    let server = TestServer::new("resizet");
    let mut c = session(&server, "t", 80, 24);
    // Cleared as a shell's C-l clears (`clear` would drop the history too, with CSI 3 J).
    c.send_text("seq 1 60 | sed 's/^/line-/'; printf '\\033[H\\033[2J'; echo cleared-$((6*7))\r")
        .unwrap();
    c.wait_for(|s| s.text().lines().next() == Some("cleared-42"))
        .unwrap();
    let out = server.weft(&["resize-pane", "-T", "-t", "t"]);
    assert!(out.status.success(), "{out:?}");
    // The lines before the clear fill the screen above the prompt again.
    c.wait_for(|s| {
        let text = s.text();
        let mut lines = text.lines();
        lines.next().is_some_and(|l| l.starts_with("line-")) && lines.any(|l| l == "cleared-42")
    })
    .unwrap();
}

#[test]
fn zoom_and_unzoom() {
    let server = TestServer::new("zoom");
    let mut c = session(&server, "z", 80, 24);
    keys_until(&server, &mut c, "C-b %", |p| p.len() == 2);
    c.send_keys("C-b z").unwrap();
    c.wait_for(|s| s.text().contains("0:bash*Z")).unwrap();
    let windows = json(&server, &["list-windows", "--json"]);
    assert_eq!(windows[0]["zoomed"], true);
    // The zoomed pane's program sees the whole window.
    c.send_text("echo $(tput cols)x$(tput lines)-z").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("80x23-z").unwrap();
    c.send_keys("C-b z").unwrap();
    c.wait_for(|s| !s.text().contains("0:bash*Z")).unwrap();
}

#[test]
fn every_preset_layout() {
    let server = TestServer::new("layouts");
    let mut c = session(&server, "l", 80, 24);
    for n in 2..=4 {
        keys_until(&server, &mut c, "C-b \"", |p| p.len() == n);
        let _ = server.weft(&["select-layout", "tiled"]);
    }
    let check = |name: &str, ok: &dyn Fn(&[Value]) -> bool| {
        let out = server.weft(&["select-layout", name]);
        assert!(out.status.success(), "{out:?}");
        let p = panes(&server);
        assert!(
            ok(&p),
            "{name}: {:?}",
            p.iter().map(geometry).collect::<Vec<_>>()
        );
    };
    check("even-horizontal", &|p| {
        p.iter().all(|x| x["rows"] == 23 && x["top"] == 0)
    });
    check("even-vertical", &|p| {
        p.iter().all(|x| x["cols"] == 80 && x["left"] == 0)
    });
    check("main-horizontal", &|p| {
        p[0]["cols"] == 80 && p[0]["rows"].as_u64().unwrap() > 11
    });
    check("main-vertical", &|p| {
        p[0]["rows"] == 23 && p[0]["cols"].as_u64().unwrap() > 40
    });
    check("tiled", &|p| {
        p.iter()
            .all(|x| x["cols"].as_u64().unwrap() < 41 && x["rows"].as_u64().unwrap() < 12)
    });
    let out = server.weft(&["select-layout", "diagonal"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_of(&out).contains("unknown layout"));
    // C-b space cycles.
    let before: Vec<_> = panes(&server).iter().map(geometry).collect();
    c.send_keys("C-b Space").unwrap();
    c.wait_for(|_| panes(&server).iter().map(geometry).collect::<Vec<_>>() != before)
        .unwrap();
}

#[test]
fn break_and_swap_panes() {
    let server = TestServer::new("breakswap");
    let mut c = session(&server, "b", 80, 24);
    keys_until(&server, &mut c, "C-b %", |p| p.len() == 2);
    let ids: Vec<String> = panes(&server)
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_string())
        .collect();
    keys_until(&server, &mut c, "C-b }", |p| p[0]["id"] == ids[1].as_str());
    c.send_keys("C-b !").unwrap();
    c.wait_for(|_| json(&server, &["list-windows", "--json"]).len() == 2)
        .unwrap();
    c.wait_for_text("1:").unwrap();
}

#[test]
fn kill_pane_and_window_ask_first() {
    let server = TestServer::new("kill");
    let mut c = session(&server, "k", 80, 24);
    keys_until(&server, &mut c, "C-b %", |p| p.len() == 2);
    c.send_keys("C-b x").unwrap();
    c.wait_for_text("kill-pane? (y/n)").unwrap();
    keys_until(&server, &mut c, "y", |p| p.len() == 1);
    c.send_keys("C-b c").unwrap();
    c.wait_for(|_| json(&server, &["list-windows", "--json"]).len() == 2)
        .unwrap();
    c.send_keys("C-b &").unwrap();
    c.wait_for_text("kill-window? (y/n)").unwrap();
    c.send_keys("n").unwrap();
    c.send_keys("C-b &").unwrap();
    c.wait_for_text("kill-window? (y/n)").unwrap();
    c.send_keys("y").unwrap();
    c.wait_for(|_| json(&server, &["list-windows", "--json"]).len() == 1)
        .unwrap();
}

#[test]
fn client_resize_keeps_proportions() {
    let server = TestServer::new("proportions");
    let mut c = session(&server, "p", 100, 30);
    let out = server.weft(&["split-window", "-h", "-p", "25"]);
    assert!(out.status.success(), "{out:?}");
    let before = panes(&server)[1]["cols"].as_u64().unwrap();
    c.resize(200, 30).unwrap();
    c.wait_for(|_| panes(&server)[1]["cols"].as_u64().unwrap() > before * 3 / 2)
        .unwrap();
    let after = panes(&server)[1]["cols"].as_u64().unwrap();
    assert!(after.abs_diff(2 * before) <= 2, "{before} -> {after}");
}

#[test]
fn an_exiting_pane_closes_and_the_last_ends_the_window() {
    let server = TestServer::new("paneexit");
    let mut c = session(&server, "e", 80, 24);
    let out = server.weft(&["split-window", "-v", "--", "sh", "-c", "exit 0"]);
    assert!(out.status.success());
    c.wait_for(|_| panes(&server).len() == 1).unwrap();
    let out = server.weft(&["new-window", "-n", "short", "--", "sh", "-c", "read x"]);
    assert!(out.status.success());
    c.wait_for_text("1:short*").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| !s.text().contains("short")).unwrap();
}

#[test]
fn status_line_shows_session_windows_and_clock() {
    let server = TestServer::new("status");
    let mut c = session(&server, "work", 80, 24);
    c.send_keys("C-b c").unwrap();
    c.wait_for(|s| {
        let last = s.row(23).map(|r| r.text()).unwrap_or_default();
        last.starts_with("[work] 0:bash- 1:") && last.contains('*') && last.contains(':')
    })
    .unwrap();
    let out = server.weft(&["rename-window", "-t", ":1", "editor"]);
    assert!(out.status.success(), "{out:?}");
    c.wait_for_text("1:editor*").unwrap();
}

#[test]
fn config_errors_carry_line_numbers_and_the_rest_applies() {
    let server = TestServer::new("config");
    let conf = server.dir.join("weft.toml");
    std::fs::write(
        &conf,
        "status = false\nbogus-option = 1\n[keys.prefix]\n\"|\" = \"split-window -h\"\n\"-\" = \"nonsense\"\n",
    )
    .unwrap();
    let out = server.weft(&[
        "-f",
        conf.to_str().unwrap(),
        "new",
        "-d",
        "-s",
        "c",
        "--",
        "sleep",
        "60",
    ]);
    assert!(out.status.success(), "{out:?}");
    let err = stderr_of(&out);
    assert!(err.contains("weft.toml:2:"), "{err}");
    assert!(
        err.contains("weft.toml:5:") && err.contains("unknown command"),
        "{err}"
    );
    let opts = stdout_of(&server.weft(&["show-options"]));
    assert!(opts.contains("status off"), "{opts}");
    let keys = stdout_of(&server.weft(&["list-keys"]));
    assert!(
        keys.contains("split-window -h") && keys.contains(" |"),
        "{keys}"
    );
}

#[test]
fn reloading_the_config_applies_new_bindings() {
    let server = TestServer::new("reload");
    let conf = server.dir.join("weft.toml");
    std::fs::write(&conf, "").unwrap();
    let mut c = {
        let mut args = vec!["-f", conf.to_str().unwrap(), "new", "-s", "r", "--"];
        args.extend_from_slice(TEST_SHELL);
        server.client(&args, 80, 24)
    };
    c.wait_for_text("$").unwrap();
    std::fs::write(&conf, "[keys.prefix]\n\"|\" = \"split-window -h\"\n").unwrap();
    let out = server.weft(&["source-file"]);
    assert!(out.status.success(), "{out:?}");
    let keys = stdout_of(&server.weft(&["list-keys", "-T", "prefix"]));
    assert!(
        keys.contains("split-window -h"),
        "the reload bound |: {keys}"
    );
    // Any message the reload showed goes with the first key; the binding runs either way.
    keys_until(&server, &mut c, "C-b |", |p| p.len() == 2);
}

#[test]
fn a_flood_in_one_pane_does_not_delay_echo_in_another() {
    let server = TestServer::new("panefl");
    let mut c = session(&server, "fl", 100, 30);
    let out = server.weft(&[
        "split-window",
        "-h",
        "--",
        "sh",
        "-c",
        "yes weft-flood | head -c 30000000; echo FLOOD-DONE; sleep 60",
    ]);
    assert!(out.status.success(), "{out:?}");
    keys_until(&server, &mut c, "C-b Left", |p| p[0]["active"] == true);
    for i in 0..5 {
        c.send_text(&format!("echo calm-$(({i}*13))")).unwrap();
        c.send_keys("Enter").unwrap();
        c.wait_for_text(&format!("calm-{}", i * 13)).unwrap();
    }
    c.wait_for_text("FLOOD-DONE").unwrap();
}

/// A flood's chunks stop parsing mid-way while a key's echo in another pane waits, and the
/// rest is parsed after it: every line still reaches the flooding pane's history whole and in
/// order.
#[test]
fn a_flood_parsed_around_keystrokes_elsewhere_keeps_every_line_in_order() {
    const LINES: usize = 40_000;
    let server = TestServer::new("panesplit");
    let mut c = session(&server, "sp", 100, 30);
    let out = server.weft(&["set", "-g", "history-limit", "200000"]);
    assert!(out.status.success(), "{out:?}");
    // Lines of 88 columns: no wrapping in a 100-column pane, 3.5 MB in all.
    let flood = format!(
        "seq -f '%.0f {}' 1 {LINES}; echo FLOOD-$((6*7))-DONE; sleep 60",
        "x".repeat(80)
    );
    let flood_pane = split_pane(&server, &["-d", "--", "sh", "-c", &flood]);
    // Typed into the shell (the focused pane) while the other pane floods: each key holds
    // the flood until its echo shows, so the flood ends after a few hundred commands.
    let flood_done = || {
        stdout_of(&server.weft(&["capture-pane", "-p", "-t", &flood_pane]))
            .contains("FLOOD-42-DONE")
    };
    let mut typed = 0;
    while !flood_done() {
        c.send_text(&format!("echo calm-$(({typed}*13))")).unwrap();
        c.send_keys("Enter").unwrap();
        c.wait_for_text(&format!("calm-{}", typed * 13)).unwrap();
        typed += 1;
        assert!(typed < 5_000, "the flood never ended");
    }
    // The flooding pane's frames were not starved by the echoes.
    c.wait_for_text("FLOOD-42-DONE").unwrap();
    let out = server.weft(&[
        "capture-pane",
        "-p",
        "-S",
        "-",
        "-E",
        "-",
        "-t",
        &flood_pane,
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout_of(&out);
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    let tail = "x".repeat(80);
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(
            *line,
            format!("{} {tail}", i + 1),
            "line {} of the flood after {typed} commands typed beside it",
            i + 1
        );
    }
    assert_eq!(lines.len(), LINES, "after {typed} commands typed beside it");
}

#[test]
fn the_wheel_scrolls_history_and_leaves_at_the_bottom() {
    let server = TestServer::new("wheel");
    let mut c = session(&server, "w", 80, 24);
    // The marker is spelled apart on the command line, so only the output matches it (the
    // typed "100" would let the wheel arrive before there is any history).
    c.send_text("seq 1 100; echo se''q-done").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("seq-done").unwrap();
    // Two wheel steps up over the pane: copy mode shows the history, with the position.
    c.send_bytes(&mouse(64, 10, 10, true)).unwrap();
    c.send_bytes(&mouse(64, 10, 10, true)).unwrap();
    c.wait_for(|s| s.row(0).is_some_and(|r| r.text().contains("[6/")))
        .unwrap();
    c.send_bytes(&mouse(65, 10, 10, true)).unwrap();
    c.wait_for(|s| s.row(0).is_some_and(|r| r.text().contains("[3/")))
        .unwrap();
    // Back at the bottom, copy mode leaves by itself: the next key reaches the shell.
    c.send_bytes(&mouse(65, 10, 10, true)).unwrap();
    c.wait_for(|s| !s.text().contains("[3/") && !s.text().contains("[0/"))
        .unwrap();
    c.send_text("echo typed-after-$((6*7))").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("typed-after-42").unwrap();
}

/// The text of the terminal's screen inside one pane's rectangle, a line per row.
fn pane_region(screen: &weft_testkit::Screen, pane: &Value) -> Vec<String> {
    let (left, top, cols, rows) = geometry(pane);
    (top..top + rows)
        .map(|r| {
            let line: String = screen
                .row(r as usize)
                .map(|row| row.text())
                .unwrap_or_default()
                .chars()
                .skip(left as usize)
                .take(cols as usize)
                .collect();
            line.trim_end().to_string()
        })
        .collect()
}

#[test]
fn echoes_drawn_at_once_and_paced_frames_keep_the_terminal_exact() {
    // Keystrokes in the focused pane echo through the idle renderer's fast path; output in
    // the other pane goes through the render task. Interleaved, the terminal must still show
    // exactly what both panes hold, with the cursor after the last echo. Both panes run `cat`,
    // so their last output is known and nothing (a prompt) comes after it.
    let server = TestServer::new("panefast");
    let mut c = session(&server, "fx", 80, 16);
    let out = server.weft(&["split-window", "-h", "--", "cat"]);
    assert!(out.status.success(), "{out:?}");
    let other = active_pane(&server);
    keys_until(&server, &mut c, "C-b Left", |p| p[0]["active"] == true);
    c.send_text("clear; exec cat").unwrap();
    c.send_keys("Enter").unwrap();
    // The left pane's first row is clear once `cat` runs.
    c.wait_for(|s| {
        s.row(0)
            .is_some_and(|r| r.text().chars().take(39).all(|ch| ch == ' '))
    })
    .unwrap();
    let mut typed = String::new();
    for (i, ch) in "fast-path-echo".chars().enumerate() {
        typed.push(ch);
        c.send_text(&ch.to_string()).unwrap();
        let want = typed.clone();
        c.wait_for(|s| s.row(0).is_some_and(|r| r.text().starts_with(&want)))
            .unwrap();
        if i % 4 == 0 {
            // The terminal echoes the line, then `cat` prints it again: wait for both.
            let line = format!("other-{i}");
            let out = server.weft(&["send-keys", "-t", &other, &line, "Enter"]);
            assert!(out.status.success(), "{out:?}");
            c.wait_for(|s| s.text().matches(line.as_str()).count() >= 2)
                .unwrap();
        }
    }
    let panes = panes(&server);
    for pane in &panes {
        let id = pane["id"].as_str().unwrap();
        let held = stdout_of(&server.weft(&["capture", "-t", id]));
        let held: Vec<&str> = held.lines().map(str::trim_end).collect();
        let shown = pane_region(c.screen(), pane);
        for (r, line) in shown.iter().enumerate() {
            assert_eq!(
                line.as_str(),
                held.get(r).copied().unwrap_or(""),
                "pane {id} row {r}: terminal {shown:?}, pane {held:?}"
            );
        }
    }
    let cursor = c.screen().cursor_state();
    assert_eq!(
        (cursor.row, cursor.col),
        (0, typed.len()),
        "cursor after the echo"
    );
}

#[test]
fn synchronize_panes_types_into_every_pane_of_the_window_or_all_windows_with_g() {
    let server = TestServer::new("syncpanes");
    let mut c = session(&server, "s", 80, 24);
    let mut split = vec!["split-window", "-d", "-t", "s", "--"];
    split.extend_from_slice(TEST_SHELL);
    assert!(server.weft(&split).status.success());
    let both_show = |server: &TestServer, text: &str| {
        for pane in ["s:0.0", "s:0.1"] {
            let out = server.weft(&["wait", "-t", pane, "--text", text, "--timeout", "10"]);
            assert!(out.status.success(), "{pane}: {out:?}");
        }
    };
    let typed = |c: &mut TestTerminal, line: &str| {
        c.send_text(line).unwrap();
        c.send_keys("Enter").unwrap();
    };
    assert!(server
        .weft(&["setw", "-t", "s:0", "synchronize-panes", "on"])
        .status
        .success());
    typed(&mut c, "echo syn-$((3+4))");
    both_show(&server, "syn-7");
    // Unset: the window inherits the global value (off) again.
    assert!(server
        .weft(&["setw", "-u", "-t", "s:0", "synchronize-panes"])
        .status
        .success());
    typed(&mut c, "echo one-$((4+4))");
    c.wait_for_text("one-8").unwrap();
    let other = stdout_of(&server.weft(&["capture", "-p", "-t", "s:0.1"]));
    assert!(!other.contains("one-8"), "{other}");
    // Globally, as a .tmux.conf's `setw -g synchronize-panes on` says it.
    let set = server.weft(&["set", "-g", "synchronize-panes", "on"]);
    assert!(
        set.status.success() && stderr_of(&set).is_empty(),
        "{set:?}"
    );
    typed(&mut c, "echo all-$((4+5))");
    both_show(&server, "all-9");
}

#[test]
fn rotate_window_moves_every_pane_one_place_and_focus_stays_put() {
    let server = TestServer::new("rotate");
    let _c = session(&server, "r", 80, 24);
    for _ in 0..2 {
        let mut split = vec!["split-window", "-d", "-t", "r", "--"];
        split.extend_from_slice(TEST_SHELL);
        assert!(server.weft(&split).status.success());
    }
    let order = |server: &TestServer| -> Vec<String> {
        stdout_of(&server.weft(&["list-panes", "-t", "r", "-F", "#{pane_id}"]))
            .lines()
            .map(str::to_string)
            .collect()
    };
    let before = order(&server);
    assert_eq!(before.len(), 3);
    assert_eq!(active_pane(&server), before[0]);
    // Up (C-b C-o): the first goes last; focus stays in the first place.
    assert!(server.weft(&["rotate-window", "-t", "r"]).status.success());
    let up = order(&server);
    assert_eq!(
        up,
        [before[1].clone(), before[2].clone(), before[0].clone()]
    );
    assert_eq!(active_pane(&server), up[0]);
    // Down (C-b M-o) undoes it.
    assert!(server.weft(&["rotatew", "-D", "-t", "r"]).status.success());
    assert_eq!(order(&server), before);
}

/// The scheduler slice of a thread (`se.slice` in its `/proc/.../sched`, ns); `None` where the
/// kernel does not show it.
fn sched_slice(path: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find(|l| l.starts_with("se.slice"))?;
    line.rsplit(':').next()?.trim().parse().ok()
}

/// weft asks the kernel for a short slice for its own threads only: a pane's program runs
/// with the kernel's usual slice, as it would outside weft (a flooding program with the short
/// slice competed with weft's threads for the early wake-ups the slice is for).
#[test]
fn a_panes_program_is_scheduled_as_outside_weft() {
    let server = TestServer::new("paneslice");
    let out = server.weft(&["new", "-d", "-s", "sl", "--", "sh", "-c", "exec cat"]);
    assert!(out.status.success(), "{out:?}");
    let server_pid = weft_tests::server_pid(&server);
    let threads: Vec<u64> = std::fs::read_dir(format!("/proc/{server_pid}/task"))
        .expect("the server's threads")
        .filter_map(|t| {
            let t = t.ok()?.path();
            sched_slice(&format!("{}/sched", t.display()))
        })
        .collect();
    let Some(&short) = threads.iter().min() else {
        // The kernel does not show slices: nothing to compare.
        return;
    };
    if threads.iter().all(|&s| s == short) {
        // No thread got the short slice (a kernel without custom slices ignores the hint).
        return;
    }
    let pane_pid = stdout_of(&server.weft(&["display", "-p", "-t", "sl", "#{pane_pid}"]));
    let pane = sched_slice(&format!("/proc/{}/sched", pane_pid.trim())).expect("the pane's slice");
    assert!(
        pane > short,
        "the pane's program has weft's short slice: {pane} ns (weft's threads: {threads:?})"
    );
}
