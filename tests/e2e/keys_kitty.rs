//! Keys in the form the program in a pane asked for: the kitty keyboard protocol (pushed,
//! queried and popped by the program), xterm's `modifyOtherKeys`, and bindings on keys only
//! such terminals tell apart. The test terminal plays a user's terminal that reports keys in
//! kitty's form (`CSI 105 ; 5 u` for C-i); the programs show what reached them with `cat -A`.

use weft_tests::TestServer;

/// Starts a session running `script` (bash) in a 100x24 client.
fn session_running(server: &TestServer, script: &str) -> weft_testkit::TestTerminal {
    let path = server.dir.join("program.sh");
    std::fs::write(&path, script).unwrap();
    let path = path.to_str().unwrap().to_string();
    server.client(&["new", "-s", "k", "--", "bash", "--norc", &path], 100, 24)
}

/// C-Tab, C-i, Enter and C-m as a kitty-protocol terminal reports them.
const KITTY_KEYS: &[u8] = b"\x1b[9;5u\x1b[105;5u\r\x1b[109;5u";

#[test]
fn a_program_that_pushes_kitty_flags_gets_kitty_keys_until_it_pops_them() {
    let server = TestServer::new("kitty");
    // Raw input, flags pushed and queried (the answer is input too), then 23 bytes of keys;
    // then the flags popped and the same keys again, now 4 legacy bytes.
    let mut c = session_running(
        &server,
        "stty raw -echo\n\
         printf '\\033[>1u\\033[?u'\n\
         printf 'answer:'; head -c 5 | cat -A; printf '\\r\\nready1\\r\\n'\n\
         head -c 23 | cat -A; printf '\\r\\n'\n\
         printf '\\033[<u'\n\
         printf 'ready2\\r\\n'\n\
         head -c 4 | cat -A; printf '\\r\\ndone\\r\\n'\n\
         sleep 60\n",
    );
    c.wait_for_text("answer:^[[?1u").unwrap();
    c.wait_for_text("ready1").unwrap();
    c.send_bytes(KITTY_KEYS).unwrap();
    c.wait_for_text("^[[9;5u^[[105;5u^M^[[109;5u").unwrap();
    c.wait_for_text("ready2").unwrap();
    c.send_bytes(KITTY_KEYS).unwrap();
    c.wait_for_text("done").unwrap();
    assert!(
        c.screen().text().contains("^I^I^M^M"),
        "after the pop, legacy bytes: {}",
        c.screen().text()
    );
}

#[test]
fn a_modify_other_keys_program_tells_c_i_from_tab() {
    let server = TestServer::new("mok");
    let mut c = session_running(
        &server,
        "stty raw -echo\n\
         printf '\\033[>4;2m\\033[?4m'\n\
         printf 'answer:'; head -c 7 | cat -A; printf '\\r\\nready\\r\\n'\n\
         head -c 22 | cat -A; printf '\\r\\ndone\\r\\n'\n\
         head -c 11 | cat -A; printf '\\r\\nsent\\r\\n'\n\
         sleep 60\n",
    );
    c.wait_for_text("answer:^[[>4;2m").unwrap();
    c.wait_for_text("ready").unwrap();
    // C-i and Tab, then C-[ (which a legacy terminal could only send as Escape).
    c.send_bytes(b"\x1b[105;5u\t").unwrap();
    c.send_bytes(b"\x1b[27;5;91~").unwrap();
    c.wait_for_text("done").unwrap();
    let text = c.screen().text();
    assert!(
        text.contains("^[[27;5;105~^I^[[27;5;91~"),
        "C-i, Tab and C-[ in modifyOtherKeys form: {text}"
    );
    // The pane's modes say so, and send-keys encodes for the pane the same way (as tmux 3.5).
    let out = server.weft(&["capture-pane", "-t", "k", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["modes"]["modify_other_keys"], 2, "{json}");
    assert_eq!(json["modes"]["kitty_keyboard_flags"], 0, "{json}");
    let out = server.weft(&["send-keys", "-t", "k", "C-i"]);
    assert!(out.status.success(), "{out:?}");
    c.wait_for_text("sent").unwrap();
    let text = c.screen().text();
    assert!(
        text.lines().any(|l| l.trim_end() == "^[[27;5;105~"),
        "send-keys C-i in modifyOtherKeys form: {text}"
    );
}

#[test]
fn bindings_use_keys_only_extended_terminals_tell_apart() {
    let server = TestServer::new("xbind");
    let mut c = session_running(&server, "printf 'ready\\n'; sleep 60\n");
    c.wait_for_text("ready").unwrap();
    for (key, command) in [
        ("C-S-Left", "rename-window shiftleft"),
        ("M-S-Up", "rename-window metashiftup"),
        ("Super-a", "rename-window supera"),
        ("C-i", "new-window -d"),
    ] {
        let out = server.weft(&["bind-key", "-n", key, command]);
        assert!(out.status.success(), "{out:?}");
    }
    let window_name = || {
        let out = server.weft(&["display-message", "-p", "-t", "k", "#W"]);
        weft_tests::stdout_of(&out).trim().to_string()
    };
    let windows = || weft_tests::json_list(&server, &["list-windows", "-t", "k", "--json"]).len();
    for (bytes, name) in [
        (&b"\x1b[1;6D"[..], "shiftleft"),
        (b"\x1b[1;4A", "metashiftup"),
        (b"\x1b[97;9u", "supera"),
    ] {
        c.send_bytes(bytes).unwrap();
        c.wait_for(|_| window_name() == name).unwrap();
    }
    c.send_bytes(b"\x1b[105;5u").unwrap();
    c.wait_for(|_| windows() == 2).unwrap();
    // Tab is not C-i: it reaches the program, and the key after it is handled with no new
    // window made.
    let out = server.weft(&["rename-window", "-t", "k", "plain"]);
    assert!(out.status.success(), "{out:?}");
    c.send_bytes(b"\t\x1b[1;6D").unwrap();
    c.wait_for(|_| window_name() == "shiftleft").unwrap();
    assert_eq!(windows(), 2);
}

#[test]
fn extended_keys_off_gives_legacy_keys_and_always_gives_modify_other_keys() {
    let server = TestServer::new("extkeys");
    // A program that never asks: C-i reaches it as a tab (^I), until extended-keys always.
    let mut c = session_running(
        &server,
        "stty raw -echo\n\
         printf 'ready\\r\\n'\n\
         head -c 1 | cat -A; printf '\\r\\nlegacy\\r\\n'\n\
         head -c 11 | cat -A; printf '\\r\\nextended\\r\\n'\n\
         printf '\\033[>4;2m'; printf 'asked\\r\\n'\n\
         head -c 1 | cat -A; printf '\\r\\nrefused\\r\\n'\n\
         sleep 60\n",
    );
    c.wait_for_text("ready").unwrap();
    let send = |key: &str| {
        let out = server.weft(&["send-keys", "-t", "k", key]);
        assert!(out.status.success(), "{out:?}");
    };
    send("C-i");
    c.wait_for_text("legacy").unwrap();
    assert!(server
        .weft(&["set", "-s", "extended-keys", "always"])
        .status
        .success());
    send("C-i");
    c.wait_for_text("extended").unwrap();
    assert!(
        c.screen().text().contains("^[[27;5;105~"),
        "{}",
        c.screen().text()
    );
    // off: even a program that asks gets the legacy byte.
    assert!(server
        .weft(&["set", "-s", "extended-keys", "off"])
        .status
        .success());
    c.wait_for_text("asked").unwrap();
    send("C-i");
    c.wait_for_text("refused").unwrap();
    let text = c.screen().text();
    let after = &text[text.find("asked").unwrap()..];
    assert!(after.contains("^I"), "{text}");
}
