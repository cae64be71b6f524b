//! `display-menu` and tmux's default menus: the pane's (`C-b >`, the right mouse button over a
//! pane), the window's (`C-b <`, over its tab) and the session's (over `status-left`). Driven
//! through a real client, its keys and mouse as a terminal sends them.

use weft_tests::{attached_session, mouse_report, stdout_of, write_file, TestServer};

/// `#{FORMAT}` for `target`.
fn shown(server: &TestServer, target: &str, format: &str) -> String {
    stdout_of(&server.weft(&["display", "-p", "-t", target, format]))
        .trim()
        .to_string()
}

/// The row of the client's screen that contains `text`, and the column it starts at.
fn find(c: &weft_testkit::TestTerminal, text: &str) -> Option<(u16, u16)> {
    let screen = c.screen().text();
    screen.lines().enumerate().find_map(|(row, line)| {
        let at = line.find(text)?;
        let col = line[..at].chars().count();
        Some((u16::try_from(row).ok()?, u16::try_from(col).ok()?))
    })
}

/// Whether `text` on the client's screen is drawn dim.
fn dim(c: &weft_testkit::TestTerminal, text: &str) -> Option<bool> {
    let (row, col) = find(c, text)?;
    let cells = c.screen().row(usize::from(row))?.cells().to_vec();
    let cell = cells.get(usize::from(col))?;
    Some(cell.attrs().contains(weft_testkit::Attrs::DIM))
}

#[test]
fn the_pane_menu_opens_on_its_key_and_an_items_key_runs_it_on_that_pane() {
    let server = TestServer::new("menukeys");
    let mut c = attached_session(&server, "k", None);
    c.send_keys("C-b >").unwrap();
    c.wait_for_text("Horizontal Split").unwrap();
    // Its title, items with their keys, and a border; one pane: Swap Up is shown dim.
    c.wait_for(|s| s.text().contains("0 (%0)") && s.text().contains("(h)"))
        .unwrap();
    assert_eq!(dim(&c, "Swap Up"), Some(true), "{}", c.screen().text());
    // Keys move and Escape closes, running nothing.
    c.send_keys("Down Down Escape").unwrap();
    c.wait_for(|s| !s.text().contains("Horizontal Split"))
        .unwrap();
    assert_eq!(shown(&server, "k", "#{window_panes}"), "1");
    // An item's own key runs it: a split, on the pane the menu was for.
    c.send_keys("C-b >").unwrap();
    c.wait_for_text("Vertical Split").unwrap();
    c.send_keys("h").unwrap();
    c.wait_for(|s| !s.text().contains("Vertical Split"))
        .unwrap();
    // The split's border shows.
    c.wait_for(|s| s.text().contains('│')).unwrap();
    assert_eq!(shown(&server, "k", "#{window_panes}"), "2");
    // Two panes now: the swaps are offered, and the window menu has its items.
    c.send_keys("C-b >").unwrap();
    c.wait_for_text("Swap Up").unwrap();
    assert_eq!(dim(&c, "Swap Up"), Some(false), "{}", c.screen().text());
    c.send_keys("q").unwrap();
    c.wait_for(|s| !s.text().contains("Swap Up")).unwrap();
    c.send_keys("C-b <").unwrap();
    c.wait_for_text("New At End").unwrap();
    c.send_keys("W").unwrap();
    c.wait_for(|s| s.text().contains("1:bash")).unwrap();
    assert_eq!(shown(&server, "k", "#{session_windows}"), "2");
}

#[test]
fn a_right_click_opens_the_menu_at_the_mouse_and_a_click_chooses_an_item() {
    let server = TestServer::new("menumouse");
    let conf = write_file(&server, "mouse.conf", "set -g mouse on\n");
    let mut c = attached_session(&server, "m", Some(conf.to_str().unwrap()));
    c.send_text("echo helloword").unwrap();
    c.send_keys("Enter").unwrap();
    let out = server.weft(&["wait", "-t", "m", "--regex", "(?m)^helloword"]);
    assert!(out.status.success(), "{out:?}");
    c.wait_for(|s| s.text().lines().any(|l| l.starts_with("helloword")))
        .unwrap();
    let row = c
        .screen()
        .text()
        .lines()
        .position(|l| l.starts_with("helloword"))
        .and_then(|r| u16::try_from(r).ok())
        .unwrap();
    // Press and release the right button on the word: the menu offers it, and stays open.
    c.send_bytes(&mouse_report(2, 3, row, true)).unwrap();
    c.wait_for_text("Copy helloword").unwrap();
    c.send_bytes(&mouse_report(2, 3, row, false)).unwrap();
    c.wait_idle(std::time::Duration::from_millis(100)).unwrap();
    // Its top border is on the clicked row.
    let (item_row, item_col) = find(&c, "Copy helloword").unwrap();
    assert!(item_row > row, "{}", c.screen().text());
    // A click on the item chooses it: the word is copied.
    c.send_bytes(&mouse_report(0, item_col + 2, item_row, true))
        .unwrap();
    c.send_bytes(&mouse_report(0, item_col + 2, item_row, false))
        .unwrap();
    c.wait_for(|s| !s.text().contains("Copy helloword"))
        .unwrap();
    // The menu closes before its command runs: the buffer comes a moment later.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let buffer = || stdout_of(&server.weft(&["show-buffer"]));
    while buffer().trim_end() != "helloword" {
        assert!(std::time::Instant::now() < deadline, "{:?}", buffer());
        std::thread::yield_now();
    }
    // A press outside a menu closes it without running anything.
    c.send_bytes(&mouse_report(2, 3, row, true)).unwrap();
    c.wait_for_text("Horizontal Split").unwrap();
    c.send_bytes(&mouse_report(0, 79, 0, true)).unwrap();
    c.wait_for(|s| !s.text().contains("Horizontal Split"))
        .unwrap();
    assert_eq!(shown(&server, "m", "#{window_panes}"), "1");
}

#[test]
fn the_window_menu_from_a_tab_acts_on_that_window() {
    let server = TestServer::new("menutab");
    let conf = write_file(&server, "mouse.conf", "set -g mouse on\n");
    let mut c = attached_session(&server, "t", Some(conf.to_str().unwrap()));
    let out = server.weft(&["new-window", "-d", "-t", "t", "-n", "other"]);
    assert!(out.status.success(), "{out:?}");
    c.wait_for_text("1:other").unwrap();
    // A right click on window 1's tab (window 0 stays current): its menu, titled for it.
    let (row, col) = find(&c, "1:other").unwrap();
    c.send_bytes(&mouse_report(2, col + 1, row, true)).unwrap();
    c.wait_for_text("New After").unwrap();
    c.send_bytes(&mouse_report(2, col + 1, row, false)).unwrap();
    c.send_keys("X").unwrap();
    c.wait_for(|s| !s.text().contains("1:other")).unwrap();
    assert_eq!(shown(&server, "t", "#{session_windows}"), "1");
    let left = stdout_of(&server.weft(&["list-windows", "-t", "t", "-F", "#{window_name}"]));
    assert!(
        !left.contains("other"),
        "window 1 was killed, not 0: {left}"
    );
    // Over status-left: the session's menu.
    c.send_bytes(&mouse_report(2, 1, row, true)).unwrap();
    c.wait_for_text("New Session").unwrap();
    c.send_keys("Escape").unwrap();
    c.wait_for(|s| !s.text().contains("New Session")).unwrap();
}

#[test]
fn a_menu_from_the_command_line_waits_until_it_closes() {
    let server = TestServer::new("menucli");
    let mut c = attached_session(&server, "c", None);
    std::thread::scope(|scope| {
        let waiting = scope.spawn(|| {
            server.weft(&[
                "display-menu",
                "-T",
                "#[align=centre]Pick",
                "First",
                "1",
                "display -d 0 first-chosen",
                "",
                "-Later",
                "2",
                "display -d 0 later-chosen",
            ])
        });
        let opened = c.wait_for_text("First");
        // The disabled item's key chooses nothing: the command still waits.
        let disabled = c.send_keys("2");
        let idle = c.wait_idle(std::time::Duration::from_millis(100));
        let still_waiting = !waiting.is_finished();
        // Chosen whatever happened above, so the command returns.
        c.send_keys("1").unwrap();
        let out = waiting.join().unwrap();
        opened.unwrap();
        disabled.unwrap();
        idle.unwrap();
        assert!(
            still_waiting,
            "display-menu returned before an item was chosen"
        );
        assert!(out.status.success(), "{out:?}");
    });
    c.wait_for_text("first-chosen").unwrap();
    assert!(!c.screen().text().contains("later-chosen"));
}
