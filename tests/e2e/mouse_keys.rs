//! tmux's mouse keys in bindings (`WheelUpPane`, `MouseDown3Pane`, ...): a bound mouse key
//! runs its binding, on the pane under the mouse, instead of weft's own handling; `send-keys
//! -M` hands the event on (and `copy-mode -M` in tmux's default drag binding); unbound, weft
//! handles it itself.

use weft_tests::{attached_session, mouse_report, stdout_of, write_file, TestServer};

/// `#{FORMAT}` for pane `target`.
fn shown(server: &TestServer, target: &str, format: &str) -> String {
    stdout_of(&server.weft(&["display", "-p", "-t", target, format]))
        .trim()
        .to_string()
}

/// Copy mode's position indicator (`[5/20]`) is on the top row.
fn indicator_shown(s: &weft_testkit::Screen) -> bool {
    let top = s.row(0).map(|r| r.text()).unwrap_or_default();
    top.rsplit_once('[')
        .and_then(|(_, rest)| rest.split_once(']'))
        .is_some_and(|(inside, _)| {
            inside
                .split_once('/')
                .is_some_and(|(a, b)| a.parse::<u64>().is_ok() && b.parse::<u64>().is_ok())
        })
}

#[test]
fn bound_mouse_keys_run_on_the_pane_under_the_mouse() {
    let server = TestServer::new("mousekeys");
    let conf = write_file(
        &server,
        "mouse.conf",
        "bind -n MouseDown3Pane select-pane -t = \\; display -d 0 'right-click-#{pane_id}'\n\
         bind -n WheelUpPane if-shell -F -t = '#{alternate_on}' 'send-keys -M' 'display -d 0 wheeled'\n\
         bind -n MouseDown1Pane send-keys -M \\; display -d 0 left-clicked\n",
    );
    let mut c = attached_session(&server, "m", Some(conf.to_str().unwrap()));
    let out = server.weft(&["split-window", "-h", "-t", "m", "-P", "-F", "#{pane_id}"]);
    assert!(out.status.success(), "{out:?}");
    let right = stdout_of(&out).trim().to_string();
    assert_eq!(shown(&server, "m", "#{pane_id}"), right);
    // A right click on the left pane: its binding selects the pane under the mouse and runs
    // there.
    c.send_bytes(&mouse_report(2, 5, 5, true)).unwrap();
    c.wait_for_text("right-click-%0").unwrap();
    assert_eq!(shown(&server, "m", "#{pane_id}"), "%0");
    // The wheel over a shell: the binding runs instead of copy mode.
    c.send_bytes(&mouse_report(64, 5, 5, true)).unwrap();
    c.wait_for_text("wheeled").unwrap();
    assert_eq!(shown(&server, "%0", "#{pane_in_mode}"), "0");
    // Unbound, the wheel is weft's again: copy mode.
    let out = server.weft(&["unbind", "-n", "WheelUpPane"]);
    assert!(out.status.success(), "{out:?}");
    c.send_bytes(&mouse_report(64, 5, 5, true)).unwrap();
    c.wait_for(indicator_shown).unwrap();
    assert_eq!(shown(&server, "%0", "#{pane_in_mode}"), "1");
    c.send_keys("q").unwrap();
    c.wait_for(|s| !indicator_shown(s)).unwrap();
    // send-keys -M hands a click to a program that asked for the mouse.
    c.send_text("printf '\\033[?1000h\\033[?1006h'; echo MOUSE-ON; cat -v")
        .unwrap();
    c.send_keys("Enter").unwrap();
    // Printed after the modes were set: the pane has taken them in.
    let out = server.weft(&["wait", "-t", "%0", "--regex", "(?m)^MOUSE-ON"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(shown(&server, "%0", "#{mouse_any_flag}"), "1");
    c.send_bytes(&mouse_report(0, 5, 5, true)).unwrap();
    c.wait_for_text("^[[<0;6;6M").unwrap();
    c.wait_for_text("left-clicked").unwrap();
}

#[test]
fn tmux_default_drag_binding_selects_with_copy_mode_m() {
    let server = TestServer::new("dragm");
    // tmux 3.3's own binding, as configurations copy it.
    let conf = write_file(
        &server,
        "drag.conf",
        "bind -n MouseDrag1Pane if -Ft= '#{mouse_any_flag}' \
         'if -Ft= \"#{pane_in_mode}\" \"copy-mode -M\" \"send-keys -M\"' 'copy-mode -M'\n",
    );
    let mut c = attached_session(&server, "d", Some(conf.to_str().unwrap()));
    let keys = stdout_of(&server.weft(&["list-keys", "-T", "root"]));
    assert!(
        keys.contains("MouseDrag1Pane"),
        "the binding loaded: {keys}"
    );
    c.send_text("echo DRAG$((6*7))\r").unwrap();
    c.wait_for_text("DRAG42").unwrap();
    let row = (0..24)
        .find(|&r| {
            c.screen()
                .row(r)
                .is_some_and(|l| l.text().starts_with("DRAG42"))
        })
        .unwrap() as u16;
    c.send_bytes(&mouse_report(0, 0, row, true)).unwrap();
    c.send_bytes(&mouse_report(32, 3, row, true)).unwrap();
    c.send_bytes(&mouse_report(32, 5, row, true)).unwrap();
    c.wait_for(indicator_shown).unwrap();
    c.send_bytes(&mouse_report(0, 5, row, false)).unwrap();
    c.wait_for(|_| stdout_of(&server.weft(&["save-buffer", "-"])) == "DRAG42")
        .unwrap();
    // Bound alone, it selects over a program that asked for the mouse too, as in tmux.
    let out = server.weft(&["bind", "-n", "MouseDrag1Pane", "copy-mode", "-M"]);
    assert!(out.status.success(), "{out:?}");
    c.send_text("printf '\\033[?1000h\\033[?1006h'; echo MOUSE-$((6*7)); cat\r")
        .unwrap();
    c.wait_for_text("MOUSE-42").unwrap();
    let row = (0..24)
        .find(|&r| {
            c.screen()
                .row(r)
                .is_some_and(|l| l.text().starts_with("MOUSE-42"))
        })
        .unwrap() as u16;
    c.send_bytes(&mouse_report(0, 0, row, true)).unwrap();
    c.send_bytes(&mouse_report(32, 2, row, true)).unwrap();
    c.send_bytes(&mouse_report(32, 4, row, true)).unwrap();
    c.wait_for(indicator_shown).unwrap();
    c.send_bytes(&mouse_report(0, 4, row, false)).unwrap();
    // The press went to the program: the selection starts where the drag does, as tmux's.
    c.wait_for(|_| stdout_of(&server.weft(&["save-buffer", "-"])) == "USE")
        .unwrap();
    // From the command line, -M is refused with where it works.
    let out = server.weft(&["copy-mode", "-M", "-t", "d"]);
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("key binding"), "{said}");
}
