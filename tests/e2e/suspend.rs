//! `suspend-client` (prefix `C-z`): the client gives the terminal back to the shell it was
//! started from and stops, as `C-z` stops a program; `fg` brings it back, attached to the same
//! session.

use weft_tests::{stdout_of, weft_binary, TestServer, TEST_SHELL};

#[test]
fn prefix_c_z_stops_the_client_and_fg_attaches_it_again() {
    let server = TestServer::new("suspend");
    let mut new = vec!["new", "-d", "-s", "z", "--"];
    new.extend_from_slice(TEST_SHELL);
    let out = server.weft(&new);
    assert!(out.status.success(), "{out:?}");
    // A shell with job control, as the user's, runs the client.
    let mut term = weft_testkit::TestTerminal::spawn(["bash", "--norc", "--noprofile", "-i"])
        .size(80, 24)
        .env("PS1", "outer$ ")
        .env("HOME", server.dir.as_os_str())
        .env("WEFT", "")
        .start()
        .expect("a shell");
    term.wait_for_text("outer$").unwrap();
    let attach = format!(
        "{} -S {} attach -t z\r",
        weft_binary().display(),
        server.socket.display()
    );
    term.send_text(&attach).unwrap();
    term.wait_for(|s| s.text().contains("[z] 0:")).unwrap();
    term.send_keys("C-b C-z").unwrap();
    // The shell has the terminal again and says its job stopped; the session lives on.
    term.wait_for(|s| s.text().contains("Stopped") && s.text().contains("outer$"))
        .unwrap();
    let clients = stdout_of(&server.weft(&["list-clients"]));
    assert!(
        clients.trim().is_empty(),
        "no client while stopped: {clients}"
    );
    term.send_text("fg\r").unwrap();
    term.wait_for(|s| s.text().contains("[z] 0:") && !s.text().contains("Stopped"))
        .unwrap();
    let clients = stdout_of(&server.weft(&["list-clients"]));
    assert_eq!(clients.lines().count(), 1, "attached again: {clients}");
    // Typed keys reach the session's shell again.
    term.send_text("echo back-$((40+2))\r").unwrap();
    term.wait_for_text("back-42").unwrap();
}
