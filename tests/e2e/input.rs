//! Keys as the user's terminal sends them: the escape time that tells the Escape key from the
//! start of a sequence cut across reads.

use serde_json::Value;
use weft_tests::{stdout_of, TestServer, TEST_SHELL};

fn json(server: &TestServer, args: &[&str]) -> Vec<Value> {
    weft_tests::json_list(server, args)
}

/// Lines of the screen that are exactly `line`.
fn count_lines(screen: &weft_testkit::Screen, line: &str) -> usize {
    screen
        .text()
        .lines()
        .filter(|l| l.trim_end() == line)
        .count()
}

#[test]
fn a_lone_escape_and_a_sequence_in_two_writes_reach_the_program() {
    let server = TestServer::new("esc");
    let mut c = server.client(&["new", "-s", "e", "--", "cat", "-v"], 80, 24);
    c.wait_for(|s| s.is_alternate_screen()).unwrap();
    // ESC alone, with nothing after it: once the escape time passes it is the Escape key, and
    // the program gets it (the terminal echoes it as ^[, cat -v prints it after Enter).
    c.send_bytes(b"\x1b").unwrap();
    c.wait_for_text("^[").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| count_lines(s, "^[") == 2).unwrap();
    // ESC, then the rest of the Up key's sequence in a second write.
    c.send_bytes(b"\x1b").unwrap();
    c.send_bytes(b"[A").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| count_lines(s, "^[[A") == 2).unwrap();
}

#[test]
fn esc_and_the_rest_of_a_key_in_separate_reads_within_the_escape_time_are_one_key() {
    let server = TestServer::new("esctime");
    let mut args = vec!["new", "-s", "e", "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut c = server.client(&args, 80, 24);
    c.wait_for_text("$").unwrap();
    // A long escape time, from a configuration loaded into the running server, so "within
    // the time" holds however slow the machine is; Up and M-x get bindings that show they were
    // seen as keys.
    let conf = server.dir.join("weft.toml");
    std::fs::write(
        &conf,
        "escape-time-ms = 10000\n[keys.root]\n\"Up\" = \"select-pane -U\"\n\"M-x\" = \"new-window\"\n",
    )
    .unwrap();
    let out = server.weft(&["source-file", conf.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    assert!(stdout_of(&server.weft(&["show-options"])).contains("escape-time 10000"));
    let out = server.weft(&["split-window", "-v", "-t", "e", "--", "cat"]);
    assert!(out.status.success(), "{out:?}");
    let panes = json(&server, &["list-panes", "-t", "e", "--json"]);
    let top = panes[0]["id"].as_str().unwrap().to_string();
    assert_eq!(panes[1]["active"], true, "{panes:?}");

    // Text then ESC in one write: the text shows once the server has read it, so the rest of
    // the sequence, written after that, comes in another read. ESC, then [A: Up.
    c.send_bytes(b"first\x1b").unwrap();
    c.wait_for_text("first").unwrap();
    c.send_bytes(b"[A").unwrap();
    c.wait_for(|_| {
        json(&server, &["list-panes", "-t", "e", "--json"])
            .iter()
            .any(|p| p["id"] == top.as_str() && p["active"] == true)
    })
    .unwrap();
    // ESC, then x: M-x.
    c.send_bytes(b"second\x1b").unwrap();
    c.wait_for_text("second").unwrap();
    c.send_bytes(b"x").unwrap();
    c.wait_for(|_| json(&server, &["list-windows", "-t", "e", "--json"]).len() == 2)
        .unwrap();
}

#[test]
fn backspace_sends_what_the_backspace_option_says_and_the_pty_erases_with_it() {
    let server = TestServer::new("bspace");
    let mut c = weft_tests::attached_session(&server, "b", None);
    let out = server.weft(&["set-option", "-s", "backspace", "C-h"]);
    assert!(out.status.success(), "{out:?}");
    // A program started now: its pty erases with ^H, and the Backspace key (DEL from this
    // terminal) reaches it as ^H, as from the key and from send-keys.
    let probe = "stty -a | tr ';' '\\n' | grep -wo 'erase = ..' | tr -d ' '; stty raw -echo; \
                 echo ready; head -c2 | od -An -tx1 | tr -d ' '; sleep 5";
    let out = server.weft(&["new-window", "-t", "b", "sh", "-c", probe]);
    assert!(out.status.success(), "{out:?}");
    c.wait_for_text("erase=^H").unwrap();
    c.wait_for_text("ready").unwrap();
    c.send_keys("BSpace").unwrap();
    let out = server.weft(&["send-keys", "-t", "b", "BSpace"]);
    assert!(out.status.success(), "{out:?}");
    c.wait_for_text("0808").unwrap();
    // Back to the default: DEL, and the pty's own erase character.
    let out = server.weft(&["set-option", "-su", "backspace"]);
    assert!(out.status.success(), "{out:?}");
    let out = server.weft(&["new-window", "-t", "b", "sh", "-c", probe]);
    assert!(out.status.success(), "{out:?}");
    c.wait_for_text("erase=^?").unwrap();
    c.wait_for_text("ready").unwrap();
    c.send_keys("BSpace BSpace").unwrap();
    c.wait_for_text("7f7f").unwrap();
}
