//! `display-popup`: a program in a box over the window, bound to a key as the published
//! configurations bind lazygit and session pickers. Driven through a real client.

use weft_tests::{attached_session, stdout_of, write_file, TestServer};

/// The text of row `row` of the client's screen.
fn row_text(c: &weft_testkit::TestTerminal, row: usize) -> String {
    c.screen()
        .text()
        .lines()
        .nth(row)
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_popup_takes_the_keys_over_a_busy_pane_and_closes_when_its_program_exits() {
    let server = TestServer::new("popup");
    let conf = write_file(
        &server,
        "popup.conf",
        "bind g display-popup -E -w 40 -h 10 -T 'T-#{session_name}' \
         'echo \"in $WEFT_PANE\"; read x; echo \"got:$x\"; read y'\n",
    );
    let mut c = attached_session(&server, "p", Some(conf.to_str().unwrap()));
    // The pane keeps printing under the popup.
    c.send_text("for i in $(seq 1 30); do echo line$i; sleep 0.05; done")
        .unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("line2").unwrap();
    c.send_keys("C-b g").unwrap();
    c.wait_for_text("in %0").unwrap();
    // Centred, 40x10 with its border: rows 6 to 15, columns 19 to 58; the title in the top.
    c.wait_for(|s| s.text().contains("┌─T-p")).unwrap();
    c.send_text("hello").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("got:hello").unwrap();
    let waited = server.weft(&["wait", "-t", "%0", "--text", "line30"]);
    assert!(waited.status.success(), "{waited:?}");
    // The pane got none of the keys.
    let underneath = stdout_of(&server.weft(&["capture-pane", "-p", "-t", "%0"]));
    assert!(!underneath.contains("hello"), "{underneath}");
    // The pane printed all along; the box is whole on top of it.
    c.wait_for(|s| s.text().contains("line30")).unwrap();
    assert!(row_text(&c, 6).contains("┌─T-p"), "{}", c.screen().text());
    assert!(row_text(&c, 15).contains("└────"), "{}", c.screen().text());
    assert_eq!(
        row_text(&c, 10).chars().nth(19),
        Some('│'),
        "{}",
        c.screen().text()
    );
    // The program ends: the popup closes and the pane shows whole again.
    c.send_keys("x Enter").unwrap();
    c.wait_for(|s| !s.text().contains("got:hello") && !s.text().contains('┌'))
        .unwrap();
    assert!(c.screen().text().contains("line30"));
}

#[test]
fn a_popup_without_e_stays_after_its_program_and_escape_closes_it() {
    let server = TestServer::new("popupkeep");
    let conf = write_file(
        &server,
        "popup.conf",
        "set -g popup-border-lines rounded\n\
         bind h display-popup -d '#{pane_current_path}' -x 0 -y 8 -w 30 -h 8 'pwd; echo finished'\n\
         bind j display-popup -EE -B 'echo failing; exit 3'\n",
    );
    let dir = server.dir.join("start-here");
    std::fs::create_dir_all(&dir).unwrap();
    let mut c = attached_session(&server, "k", Some(conf.to_str().unwrap()));
    c.send_text(&format!("cd {}", dir.display())).unwrap();
    c.send_keys("Enter").unwrap();
    c.send_keys("C-b h").unwrap();
    c.wait_for_text("finished").unwrap();
    // Its bottom on row 8, its left in column 0, in rounded lines; started where the pane is.
    assert!(row_text(&c, 0).starts_with("╭"), "{}", c.screen().text());
    assert!(row_text(&c, 7).starts_with("╰"), "{}", c.screen().text());
    assert!(c.screen().text().contains("start-here"));
    // The program has exited; the popup stays until Escape.
    c.send_keys("a").unwrap();
    c.wait_idle(std::time::Duration::from_millis(200)).unwrap();
    assert!(c.screen().text().contains("finished"));
    c.send_keys("Escape").unwrap();
    c.wait_for(|s| !s.text().contains("finished")).unwrap();
    // -EE keeps a popup whose program failed (no border with -B); C-c closes it.
    c.send_keys("C-b j").unwrap();
    c.wait_for_text("failing").unwrap();
    assert!(!c.screen().text().contains('╭'), "{}", c.screen().text());
    // Once its program has exited, a popup shows no cursor.
    c.wait_for(|s| !s.cursor_state().visible).unwrap();
    c.send_keys("C-c").unwrap();
    c.wait_for(|s| !s.text().contains("failing")).unwrap();
    // The keys typed at the popups never reached the shell.
    let pane = stdout_of(&server.weft(&["capture-pane", "-p", "-t", "k"]));
    assert!(!pane.contains("$ a"), "{pane}");
}

#[test]
fn a_popup_from_the_command_line_opens_on_the_client_and_returns_once_closed() {
    let server = TestServer::new("popupcli");
    let mut c = attached_session(&server, "c", None);
    std::thread::scope(|scope| {
        let waiting =
            scope.spawn(|| server.weft(&["display-popup", "-E", "echo from-cli; read x"]));
        c.wait_for_text("from-cli").unwrap();
        assert!(!waiting.is_finished(), "it waits while the popup is open");
        c.send_keys("Enter").unwrap();
        let out = waiting.join().unwrap();
        assert!(out.status.success(), "{out:?}");
    });
    c.wait_for(|s| !s.text().contains("from-cli")).unwrap();
    // `-C` closes it from outside, ending its program.
    std::thread::scope(|scope| {
        let waiting = scope.spawn(|| server.weft(&["popup", "echo open-popup; exec sleep 30"]));
        c.wait_for_text("open-popup").unwrap();
        let out = server.weft(&["display-popup", "-C"]);
        assert!(out.status.success(), "{out:?}");
        assert!(waiting.join().unwrap().status.success());
    });
    c.wait_for(|s| !s.text().contains("open-popup")).unwrap();
    // Without a client, it says what to do.
    c.send_keys("C-b d").unwrap();
    c.wait_exit().unwrap();
    let out = server.weft(&["display-popup", "true"]);
    assert!(!out.status.success());
    assert!(
        weft_tests::stderr_of(&out).contains("attach one to session c first"),
        "{out:?}"
    );
}

/// A binding's shell command that opens a popup and waits for it (what `fzf-tmux -p` and
/// session pickers do) gets it at once: the client's keys go to the popup meanwhile, and the
/// command's output shows when it ends.
#[test]
fn a_shell_command_bound_to_a_key_opens_a_popup_and_waits_for_it() {
    let server = TestServer::new("popuprun");
    let picked = server.dir.join("picked");
    let conf = write_file(
        &server,
        "popup.conf",
        &format!(
            "bind K run-shell \"{weft} -S {socket} display-popup -E 'read x; echo \\$x > {picked}'; \
             echo picked-\\$(cat {picked})\"\n",
            weft = weft_tests::weft_binary().display(),
            socket = server.socket.display(),
            picked = picked.display(),
        ),
    );
    let mut c = attached_session(&server, "r", Some(conf.to_str().unwrap()));
    c.send_keys("C-b K").unwrap();
    c.wait_for(|s| s.text().contains('┌')).unwrap();
    c.send_text("abc").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("picked-abc").unwrap();
    assert!(!c.screen().text().contains('┌'), "{}", c.screen().text());
}

/// A program in a popup that copies (OSC 52, as lazygit and neovim do) fills a paste buffer,
/// as a pane's program would.
#[test]
fn a_copy_in_a_popup_becomes_a_paste_buffer() {
    let server = TestServer::new("popupcopy");
    let conf = write_file(
        &server,
        "popup.conf",
        "bind g display-popup -E 'printf \"\\033]52;c;%s\\007\" $(printf from-popup | base64); \
         echo copied; read x'\n",
    );
    let mut c = attached_session(&server, "p", Some(conf.to_str().unwrap()));
    c.send_keys("C-b g").unwrap();
    c.wait_for_text("copied").unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let buffer = || stdout_of(&server.weft(&["show-buffer"]));
    while buffer().trim_end() != "from-popup" {
        if std::time::Instant::now() > deadline {
            // Closed first, so that a failure does not leave the popup waiting.
            c.send_keys("Enter").unwrap();
            panic!("no buffer from the popup's copy: {:?}", buffer());
        }
        std::thread::yield_now();
    }
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| !s.text().contains("copied")).unwrap();
}
