//! A new server's first session, made by the client that starts the server: at that client's
//! size, once, and still shown when its program ends at once. Real clients in real terminals,
//! with no server running before each test.

use weft_tests::{detached_session, server_pid, stdout_of, TestServer};

/// `weft ls`, which must list exactly one session.
fn the_only_session(server: &TestServer) -> String {
    let listing = stdout_of(&server.weft(&["ls"]));
    assert_eq!(listing.lines().count(), 1, "one session: {listing}");
    listing
}

#[test]
fn the_first_program_starts_at_the_terminals_size() {
    let server = TestServer::new("firstsize");
    // The program says the size it finds as it starts, before any resize could reach it.
    let program = "echo \"start $(stty size)\"; exec sleep 60";
    let mut client = server.client(&["new", "-s", "sized", "--", "sh", "-c", program], 100, 30);
    // 30 rows less the status line.
    client.wait_for_text("start 29 100").unwrap();
}

#[test]
fn the_client_attaches_the_one_session_it_made() {
    let server = TestServer::new("firstone");
    let mut client = server.client(&["new", "-s", "only", "--", "sleep", "60"], 80, 24);
    client.wait_for_text("only").unwrap();
    let listing = the_only_session(&server);
    assert!(
        listing.starts_with("only:") && listing.contains("(attached)"),
        "{listing}"
    );
}

#[test]
fn a_detached_first_session_is_made_once() {
    let server = TestServer::new("firstdetached");
    detached_session(&server, "quiet");
    let listing = the_only_session(&server);
    assert!(listing.starts_with("quiet:"), "{listing}");
}

#[test]
fn a_program_that_ends_at_once_still_shows_exited() {
    let server = TestServer::new("firstbrief");
    // `true` may end before the client has attached.
    let mut client = server.client(&["new", "-s", "brief", "--", "true"], 80, 24);
    let exit = client.wait_exit().unwrap();
    assert!(
        client.screen().text().contains("[exited]"),
        "{}",
        client.screen().text()
    );
    assert_eq!(exit.code, 0);
    assert!(!server.socket.exists(), "the server removed its socket");
}

#[test]
fn the_server_loads_no_math_library() {
    // weft defines `pow`, the one function it took from `libm.so.6`, so the library's pages
    // (about 0.4 MB resident) are not part of every server.
    let server = TestServer::new("firstlibs");
    detached_session(&server, "libs");
    let pid = server_pid(&server);
    let maps = std::fs::read_to_string(format!("/proc/{pid}/maps")).expect("the server's maps");
    assert!(
        maps.contains("libc.so"),
        "the maps name the libraries: {maps}"
    );
    assert!(!maps.contains("libm.so"), "the server maps libm: {maps}");
}

#[test]
fn new_detached_is_quiet_unless_asked_to_print() {
    let server = TestServer::new("quietnew");
    let first = server.weft(&["new", "-d", "-s", "q", "--", "sleep", "60"]);
    assert!(first.status.success(), "{first:?}");
    assert_eq!(stdout_of(&first), "", "tmux's new -d prints nothing");
    let second = server.weft(&["new", "-d", "--", "sleep", "60"]);
    assert!(second.status.success(), "{second:?}");
    assert_eq!(stdout_of(&second), "");
    let printed = server.weft(&["new", "-dP", "-s", "p", "--", "sleep", "60"]);
    assert_eq!(stdout_of(&printed), "p:\n");
    let id = server.weft(&["new", "-dP", "-F", "#{session_id}", "--", "sleep", "60"]);
    assert!(stdout_of(&id).starts_with('$'), "{id:?}");
    assert_eq!(stdout_of(&server.weft(&["ls"])).lines().count(), 4);
}

/// tmux's `new \; COMMANDS` habit: the commands run in the new session before it is shown;
/// one that cannot run makes no session.
#[test]
fn new_runs_the_commands_after_its_semicolon_in_the_session() {
    let server = TestServer::new("newthen");
    let out = server.weft(&[
        "new",
        "-d",
        "-s",
        "dev",
        "--",
        "sleep",
        "60",
        ";",
        "split-window",
        "-h",
        "--",
        "sleep",
        "60;",
        "new-window",
        "-n",
        "logs",
        "--",
        "sleep",
        "60",
        ";",
        "display",
        "-p",
        "#{session_name} #{window_name}",
    ]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stdout_of(&out), "dev logs\n");
    let panes = stdout_of(&server.weft(&["list-panes", "-t", "dev:0"]));
    assert_eq!(panes.lines().count(), 2, "{panes}");
    let out = server.weft(&["new", "-d", "-s", "wrong", ";", "no-such-command"]);
    assert!(!out.status.success());
    assert!(!stdout_of(&server.weft(&["ls"])).contains("wrong"));
    // Attached: the client is shown the session as the commands left it.
    let mut args = vec!["new", "-s", "shown", "--"];
    args.extend_from_slice(weft_tests::TEST_SHELL);
    args.extend([";", "split-window", "-h"]);
    let mut client = server.client(&args, 80, 24);
    client
        .wait_for(|s| (0..s.rows()).any(|r| s.cell(r, 40).is_some_and(|c| c.ch() == '│')))
        .expect("two panes side by side");
    let panes = stdout_of(&server.weft(&["list-panes", "-t", "shown"]));
    assert_eq!(panes.lines().count(), 2, "{panes}");
}
