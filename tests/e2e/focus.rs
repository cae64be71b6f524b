//! Focus reports (`focus-events`, mode 1004): a program that enabled them hears `CSI I` and
//! `CSI O` when its pane gains and loses the focus, and when the user's terminal does.

use weft_tests::{json_list, TestServer};

#[test]
fn a_program_that_enabled_focus_reports_hears_focus_move_when_the_option_is_on() {
    let server = TestServer::new("focus");
    let script = server.dir.join("program.sh");
    std::fs::write(
        &script,
        "stty raw -echo\nprintf '\\033[?1004hready\\r\\n'\nexec cat -A\n",
    )
    .unwrap();
    let script = script.to_str().unwrap().to_string();
    let mut c = server.client(
        &["new", "-s", "f", "--", "bash", "--norc", &script],
        100,
        24,
    );
    c.wait_for_text("ready").unwrap();
    let first = json_list(&server, &["list-panes", "-t", "f", "--json"])[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let weft = |args: &[&str]| {
        let out = server.weft(args);
        assert!(out.status.success(), "{args:?}: {out:?}");
    };
    weft(&["set", "-g", "focus-events", "on"]);
    // The focus moves to a new pane and back; the user's terminal loses and regains focus.
    weft(&["split-window", "-t", "f", "--", "sleep", "60"]);
    weft(&["select-pane", "-t", &first]);
    c.send_bytes(b"\x1b[O").unwrap();
    c.send_bytes(b"\x1b[I").unwrap();
    c.wait_for_text("^[[O^[[I^[[O^[[I").unwrap();
    // Off: the same moves are not reported; a typed key shows nothing came before it.
    weft(&["set", "-g", "focus-events", "off"]);
    let second = json_list(&server, &["list-panes", "-t", "f", "--json"])[1]["id"]
        .as_str()
        .unwrap()
        .to_string();
    weft(&["select-pane", "-t", &second]);
    weft(&["select-pane", "-t", &first]);
    c.send_bytes(b"\x1b[O").unwrap();
    c.send_bytes(b"x").unwrap();
    c.wait_for_text("^[[O^[[I^[[O^[[Ix").unwrap();
}
