//! Panes placed and sized as tmux does it: split-window -l (cells or %) and -b, resize-pane
//! -x/-y, select-pane -T, last-pane (`C-b ;`) and select-pane -l.

use weft_tests::{json_list, TestServer, TEST_SHELL};

/// Each pane of the session's current window: id, left, cols, rows, active, title.
fn panes(server: &TestServer) -> Vec<(String, u64, u64, u64, bool, String)> {
    json_list(server, &["list-panes", "-t", "p", "--json"])
        .iter()
        .map(|p| {
            (
                p["id"].as_str().unwrap().to_string(),
                p["left"].as_u64().unwrap(),
                p["cols"].as_u64().unwrap(),
                p["rows"].as_u64().unwrap(),
                p["active"].as_bool().unwrap(),
                p["title"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn ok(server: &TestServer, args: &[&str]) {
    let out = server.weft(args);
    assert!(out.status.success(), "{args:?}: {out:?}");
}

fn active(server: &TestServer) -> String {
    panes(server).into_iter().find(|p| p.4).unwrap().0
}

#[test]
fn split_sizes_before_resize_titles_and_last_pane() {
    let server = TestServer::new("psizes");
    let mut args = vec!["new", "-d", "-s", "p", "-x", "81", "-y", "24", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server, &args);
    let first = active(&server);
    // -l in cells: the new pane, on the right, is that wide.
    ok(&server, &["split-window", "-h", "-l", "20", "-t", "p"]);
    let list = panes(&server);
    assert_eq!(list.len(), 2, "{list:?}");
    let right = list.iter().find(|p| p.0 != first).unwrap().clone();
    assert_eq!(right.2, 20, "{list:?}");
    assert!(right.1 > 0 && right.4, "on the right, focused: {list:?}");

    // -b puts the new pane before (left of) the split one.
    ok(
        &server,
        &["split-window", "-h", "-b", "-l", "50%", "-t", &first],
    );
    let list = panes(&server);
    let new_left = list.iter().find(|p| p.4).unwrap().clone();
    let old = list.iter().find(|p| p.0 == first).unwrap().clone();
    assert!(
        new_left.1 < old.1,
        "the new pane is left of the old: {list:?}"
    );

    // -x in cells and in percent of the window.
    ok(&server, &["resize-pane", "-t", &first, "-x", "15"]);
    let width =
        |server: &TestServer, id: &str| panes(server).into_iter().find(|p| p.0 == id).unwrap().2;
    assert_eq!(width(&server, &first), 15);
    ok(&server, &["resize-pane", "-t", &first, "-x", "25%"]);
    assert_eq!(width(&server, &first), 20);

    // A title set by select-pane -T shows in listings.
    ok(&server, &["select-pane", "-t", &first, "-T", "build logs"]);
    let titled = panes(&server).into_iter().find(|p| p.0 == first).unwrap();
    assert_eq!(titled.5, "build logs");

    // last-pane and select-pane -l go back and forth.
    ok(&server, &["select-pane", "-t", &first]);
    let before = new_left.0.clone();
    ok(&server, &["last-pane", "-t", "p"]);
    assert_eq!(active(&server), before);
    ok(&server, &["select-pane", "-l", "-t", "p"]);
    assert_eq!(active(&server), first);
    let mut c = server.client(&["attach", "-t", "p"], 81, 25);
    c.wait_for_text("[p]").unwrap();
    c.send_keys("C-b ;").unwrap();
    c.send_text("echo focus-$((2*21))").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("focus-42").unwrap();
    assert_eq!(active(&server), before);
}

#[test]
fn respawn_pane_and_window_start_the_program_again() {
    let server = TestServer::new("respawn");
    let mut args = vec!["new", "-d", "-s", "p", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server, &args);
    ok(
        &server,
        &["send-keys", "-t", "p", "echo before-$((1+1))", "Enter"],
    );
    ok(&server, &["wait", "-t", "p", "--text", "before-2"]);
    let first = active(&server);
    let pid = |server: &TestServer| {
        weft_tests::stdout_of(&server.weft(&["display", "-p", "-t", "p", "#{pane_pid}"]))
    };
    let first_pid = pid(&server);

    let refused = server.weft(&["respawn-pane", "-t", &first]);
    assert!(!refused.status.success());
    assert!(
        weft_tests::stderr_of(&refused).contains("still running its program; add -k"),
        "{refused:?}"
    );
    ok(
        &server,
        &[
            "respawn-pane",
            "-k",
            "-t",
            &first,
            "--",
            "bash",
            "--norc",
            "--noprofile",
            "-c",
            "echo respawned-$((3+3)); exec bash --norc --noprofile",
        ],
    );
    ok(&server, &["wait", "-t", "p", "--text", "respawned-6"]);
    let list = panes(&server);
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0].0, first, "the same pane, as tmux keeps it");
    assert_ne!(pid(&server), first_pid, "a new program in it");
    let screen = weft_tests::stdout_of(&server.weft(&["capture-pane", "-p", "-t", "p"]));
    assert!(!screen.contains("before-2"), "{screen}");

    // respawn-window -k: the window starts again as one pane.
    ok(&server, &["split-window", "-t", "p"]);
    assert_eq!(panes(&server).len(), 2);
    ok(&server, &["respawn-window", "-k", "-t", "p:"]);
    assert_eq!(panes(&server).len(), 1);
}

#[test]
fn display_panes_shows_numbers_and_a_digit_selects() {
    let server = TestServer::new("displayp");
    let mut args = vec!["new", "-d", "-s", "p", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server, &args);
    ok(&server, &["split-window", "-h", "-t", "p"]);
    let list = panes(&server);
    let (left, right) = if list[0].1 < list[1].1 {
        (list[0].0.clone(), list[1].0.clone())
    } else {
        (list[1].0.clone(), list[0].0.clone())
    };
    assert_eq!(active(&server), right);
    // 0: the numbers stay until a key, however slow the test machine is.
    ok(&server, &["set", "-g", "display-panes-time", "0"]);
    let mut c = server.client(&["attach", "-t", "p"], 80, 24);
    c.wait_for_text("[p]").unwrap();
    ok(
        &server,
        &["set", "-g", "display-panes-active-colour", "colour208"],
    );
    c.send_keys("C-b q").unwrap();
    c.wait_for_text("███").unwrap();
    // The active pane's number (right) in display-panes-active-colour, the other's in
    // display-panes-colour (blue).
    let colours: std::collections::BTreeSet<_> = (0..23)
        .flat_map(|r| (0..80).map(move |col| (r, col)))
        .filter_map(|(r, col)| c.screen().cell(r, col))
        .filter(|cell| cell.ch() == '█')
        .map(|cell| format!("{:?}", cell.fg()))
        .collect();
    assert_eq!(
        colours.into_iter().collect::<Vec<_>>(),
        ["Indexed(208)", "Indexed(4)"]
    );
    c.send_keys("0").unwrap();
    c.wait_for(|s| !s.text().contains("███")).unwrap();
    c.send_text("echo picked-$((4*4))").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("picked-16").unwrap();
    assert_eq!(active(&server), left);
    // With a template, a digit runs it for that pane; -d 0 keeps the numbers until a key
    // whatever display-panes-time says.
    ok(&server, &["set", "-g", "display-panes-time", "1"]);
    ok(
        &server,
        &[
            "bind",
            "Q",
            "display-panes",
            "-d",
            "0",
            "swap-pane -d -t '%%'",
        ],
    );
    c.send_keys("C-b Q").unwrap();
    c.wait_for_text("███").unwrap();
    c.send_keys("1").unwrap();
    c.wait_for(|s| !s.text().contains("███")).unwrap();
    // The panes swapped places: the focused one is on the right now.
    let list = panes(&server);
    let now_right = list.iter().max_by_key(|p| p.1).map(|p| p.0.clone());
    assert_eq!(now_right, Some(left));
}

#[test]
fn pane_numbers_and_messages_close_by_themselves() {
    let server = TestServer::new("overlaytime");
    let mut args = vec!["new", "-d", "-s", "p", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server, &args);
    ok(&server, &["split-window", "-h", "-t", "p"]);
    ok(&server, &["set", "-g", "display-panes-time", "200"]);
    ok(&server, &["set", "-g", "display-time", "200"]);
    let mut c = server.client(&["attach", "-t", "p"], 80, 24);
    c.wait_for_text("[p]").unwrap();
    c.send_keys("C-b q").unwrap();
    c.wait_for_text("███").unwrap();
    // No key: the numbers go after display-panes-time.
    c.wait_for(|s| !s.text().contains("███")).unwrap();
    c.send_keys("C-b :").unwrap();
    c.send_text("display-message shown-#{session_name}")
        .unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("shown-p").unwrap();
    c.wait_for(|s| !s.text().contains("shown-p")).unwrap();
    // The shell still has the keys: nothing was left waiting for one.
    c.send_text("echo typed-$((5*5))").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("typed-25").unwrap();
}

#[test]
fn moving_focus_prefers_the_most_recent_neighbour_and_wraps() {
    let server = TestServer::new("focusnav");
    let mut args = vec!["new", "-d", "-s", "p", "-x", "81", "-y", "24", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server, &args);
    let left = active(&server);
    ok(&server, &["split-window", "-h", "-t", &left]);
    let top = active(&server);
    ok(&server, &["split-window", "-v", "-t", &top]);
    let bottom = active(&server);
    ok(&server, &["select-pane", "-L", "-t", &bottom]);
    assert_eq!(active(&server), left);
    ok(&server, &["select-pane", "-R", "-t", &left]);
    assert_eq!(active(&server), bottom, "back to the pane it came from");
    ok(&server, &["select-pane", "-t", &top]);
    ok(&server, &["select-pane", "-L", "-t", &top]);
    ok(&server, &["select-pane", "-R", "-t", &left]);
    assert_eq!(active(&server), top);
    // At the edge, focus goes round to the other side.
    ok(&server, &["select-pane", "-L", "-t", &left]);
    assert_eq!(active(&server), top);
    ok(&server, &["select-pane", "-U", "-t", &top]);
    assert_eq!(active(&server), bottom);
}

#[test]
fn arrow_bindings_repeat_without_the_prefix() {
    let server = TestServer::new("repeat");
    let mut args = vec!["new", "-d", "-s", "p", "-x", "90", "-y", "24", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server, &args);
    let left = active(&server);
    ok(&server, &["split-window", "-h", "-t", &left]);
    let middle = active(&server);
    ok(&server, &["split-window", "-h", "-t", &middle]);
    let right = active(&server);
    let mut c = server.client(&["attach", "-t", "p"], 90, 25);
    c.wait_for_text("[p]").unwrap();
    // The second Left comes within repeat-time: it moves again, without the prefix.
    c.send_keys("C-b Left Left").unwrap();
    c.send_text("echo rep-$((2*3))").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("rep-6").unwrap();
    assert_eq!(active(&server), left);
    // A key that does not repeat ends it: the arrow after it goes to the program.
    c.send_keys("C-b Right").unwrap();
    c.send_text("x").unwrap();
    c.send_keys("Right BSpace").unwrap();
    c.send_text("echo again-$((3*3))").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("again-9").unwrap();
    assert_eq!(active(&server), middle);
    assert_ne!(middle, right);
}

#[test]
fn split_f_spans_the_whole_window() {
    let server = TestServer::new("splitf");
    let mut args = vec!["new", "-d", "-s", "p", "-x", "81", "-y", "24", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server, &args);
    ok(&server, &["split-window", "-h", "-t", "p"]);
    ok(&server, &["split-window", "-v", "-f", "-l", "6", "-t", "p"]);
    let list = panes(&server);
    assert_eq!(list.len(), 3, "{list:?}");
    let full = list.iter().find(|p| p.4).unwrap();
    assert_eq!((full.1, full.2, full.3), (0, 81, 6), "{list:?}");
    // -b: across the whole top.
    ok(
        &server,
        &["split-window", "-v", "-f", "-b", "-l", "5", "-t", "p"],
    );
    let top = json_list(&server, &["list-panes", "-t", "p", "--json"])
        .into_iter()
        .find(|p| p["active"].as_bool().unwrap())
        .unwrap();
    assert_eq!(top["top"].as_u64(), Some(0));
    assert_eq!(top["cols"].as_u64(), Some(81));
    assert_eq!(top["rows"].as_u64(), Some(5));
}

#[test]
fn join_pane_and_move_pane_bring_a_pane_beside_another() {
    let server = TestServer::new("joinp");
    let mut args = vec!["new", "-d", "-s", "p", "-x", "81", "-y", "24", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server, &args);
    let a = active(&server);
    let mut args = vec!["new-window", "-d", "-t", "p", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server, &args);
    let windows = json_list(&server, &["list-windows", "-t", "p", "--json"]);
    assert_eq!(windows.len(), 2);
    let b = json_list(&server, &["list-panes", "-t", "p:1", "--json"])[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    ok(
        &server,
        &["send-keys", "-t", &b, "echo in-b-$((7*7))", "Enter"],
    );
    ok(&server, &["wait", "-t", &b, "--text", "in-b-49"]);

    // B joins A's window on the right; its window closes; its program lives on.
    ok(&server, &["join-pane", "-h", "-s", "p:1", "-t", &a]);
    assert_eq!(
        json_list(&server, &["list-windows", "-t", "p", "--json"]).len(),
        1
    );
    let list = panes(&server);
    assert_eq!(list.len(), 2, "{list:?}");
    let pb = list.iter().find(|p| p.0 == b).unwrap();
    let pa = list.iter().find(|p| p.0 == a).unwrap();
    assert!(pb.1 > pa.1 && pb.4, "B on the right, focused: {list:?}");
    let screen = weft_tests::stdout_of(&server.weft(&["capture-pane", "-p", "-t", &b]));
    assert!(screen.contains("in-b-49"), "{screen}");

    // move-pane: B above A, across the window.
    ok(&server, &["move-pane", "-v", "-b", "-s", &b, "-t", &a]);
    let list = panes(&server);
    let pb = list.iter().find(|p| p.0 == b).unwrap();
    assert_eq!((pb.1, pb.2), (0, 81), "{list:?}");
    let same = server.weft(&["join-pane", "-s", &a, "-t", &a]);
    assert!(
        weft_tests::stderr_of(&same).contains("the same pane"),
        "{same:?}"
    );
}

#[test]
fn list_panes_on_a_zoomed_window_reports_what_the_program_sees() {
    let server = TestServer::new("zoomlist");
    let mut args = vec!["new", "-d", "-s", "p", "-x", "81", "-y", "25", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server, &args);
    ok(&server, &["split-window", "-h", "-t", "p"]);
    let zoomed = active(&server);
    ok(&server, &["resize-pane", "-Z", "-t", &zoomed]);
    let me = panes(&server).into_iter().find(|p| p.0 == zoomed).unwrap();
    assert_eq!((me.1, me.2, me.3), (0, 81, 24));
    ok(
        &server,
        &[
            "send-keys",
            "-t",
            &zoomed,
            "echo size=$(tput cols)x$(tput lines)",
            "Enter",
        ],
    );
    ok(&server, &["wait", "-t", &zoomed, "--text", "size=81x24"]);
}

#[test]
fn layouts_keep_the_order_and_undo_restores_sizes() {
    let server = TestServer::new("layouts");
    let mut args = vec!["new", "-d", "-s", "p", "-x", "81", "-y", "24", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server, &args);
    ok(&server, &["split-window", "-h", "-t", "p"]);
    ok(&server, &["split-window", "-v", "-t", "p"]);
    ok(&server, &["resize-pane", "-t", "p", "-y", "5"]);
    let before = panes(&server);
    // A preset, then its undo: the sizes come back.
    ok(&server, &["select-layout", "-t", "p", "even-horizontal"]);
    let even = panes(&server);
    assert_ne!(even, before);
    assert!(even.iter().all(|p| p.3 == 23), "{even:?}");
    ok(&server, &["select-layout", "-o", "-t", "p"]);
    assert_eq!(panes(&server), before);
    // Undo again goes back to the preset.
    ok(&server, &["select-layout", "-o", "-t", "p"]);
    assert_eq!(panes(&server), even);
    // Cycling keeps the panes' order.
    let order: Vec<String> = before.iter().map(|p| p.0.clone()).collect();
    for _ in 0..6 {
        ok(&server, &["next-layout", "-t", "p"]);
        let now: Vec<String> = panes(&server).iter().map(|p| p.0.clone()).collect();
        assert_eq!(now, order, "cycling keeps the panes' order");
    }
}

#[test]
fn pane_border_status_shows_titles_in_the_borders() {
    let server = TestServer::new("borderst");
    let config = server.dir.join("weft.toml");
    std::fs::write(&config, "pane-border-status = \"top\"\n").unwrap();
    let config = config.to_str().unwrap().to_string();
    let mut args = vec!["-f", &config, "new", "-d", "-s", "p", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server, &args);
    let first = active(&server);
    ok(
        &server,
        &["select-pane", "-t", &first, "-T", "build \u{1b}[31mlogs"],
    );
    let mut split = vec!["split-window", "-v", "-t", "p", "--"];
    split.extend_from_slice(TEST_SHELL);
    ok(&server, &split);
    let second = active(&server);
    let mut c = server.client(&["attach", "-t", "p"], 80, 24);
    c.wait_for(|s| {
        let text = s.text();
        let lines: Vec<&str> = text.lines().collect();
        // The escape is taken out: the title cannot act on the terminal.
        lines
            .first()
            .is_some_and(|l| l.starts_with(" 0 \"build") && l.ends_with("[31mlogs\""))
    })
    .unwrap();
    // A title set later shows at once, in the border between the panes (tmux's default
    // pane-border-format: the index, then the title in quotes).
    ok(&server, &["select-pane", "-t", &second, "-T", "tests"]);
    c.wait_for(|s| s.text().lines().any(|l| l.starts_with(" 1 \"tests\" ─")))
        .unwrap();
    // The format is the user's to change, at once.
    ok(
        &server,
        &[
            "set",
            "-g",
            "pane-border-format",
            "#{pane_index}/#{window_panes} #{pane_title}",
        ],
    );
    c.wait_for(|s| s.text().lines().any(|l| l.starts_with(" 1/2 tests ─")))
        .unwrap();
    // The window keeps a row for the first title: panes start below it.
    let list = panes(&server);
    let top = json_list(&server, &["list-panes", "-t", "p", "--json"])[0]["top"].as_u64();
    assert_eq!(top, Some(0), "layout coordinates: {list:?}");
}

#[test]
fn clock_mode_shows_the_time_in_big_digits_until_a_key() {
    let server = TestServer::new("clock");
    let mut args = vec!["new", "-d", "-s", "k", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server, &args);
    ok(&server, &["set", "-g", "clock-mode-colour", "red"]);
    let mut c = server.client(&["attach", "-t", "k"], 80, 24);
    c.wait_for_text("[k]").unwrap();
    c.send_keys("C-b t").unwrap();
    c.wait_for_text("███").unwrap();
    // In clock-mode-colour: the first block's cell is red.
    let red = c
        .screen()
        .text()
        .lines()
        .enumerate()
        .find_map(|(r, l)| l.find('█').map(|at| (r, l[..at].chars().count())));
    let (row, col) = red.expect("a block of the clock");
    let cell = c.screen().cell(row, col).unwrap();
    assert_eq!(cell.pen().fg, weft_testkit::Color::Indexed(1), "{cell:?}");
    // Any key leaves; it does not reach the shell.
    c.send_keys("x").unwrap();
    c.wait_for(|s| !s.text().contains("███")).unwrap();
    c.send_text("echo back-$((5*5))").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("back-25").unwrap();
    assert!(
        !c.screen().text().contains("xecho"),
        "{}",
        c.screen().text()
    );
}
