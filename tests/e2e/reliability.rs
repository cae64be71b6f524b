//! What an unlucky or hostile user does must not lose a session: races, limits, bad input.

use std::process::{Command, Output};
use weft_tests::{stderr_of, stdout_of, weft_binary, TestServer};

/// Starts `n` `weft new -d` at once on the server's socket and waits for all of them.
fn start_many(server: &TestServer, n: usize) -> Vec<Output> {
    let children: Vec<_> = (0..n)
        .map(|i| {
            Command::new(weft_binary())
                .arg("-S")
                .arg(&server.socket)
                .args(["new", "-d", "-s", &format!("s{i}"), "--", "sleep", "60"])
                .env("HOME", &server.dir)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("spawn weft")
        })
        .collect();
    children
        .into_iter()
        .map(|c| c.wait_with_output().expect("wait for weft"))
        .collect()
}

fn assert_all_started(server: &TestServer, outs: &[Output]) {
    for out in outs {
        assert!(out.status.success(), "{}", stderr_of(out));
    }
    let ls = stdout_of(&server.weft(&["ls"]));
    assert_eq!(ls.lines().count(), outs.len(), "{ls}");
}

#[test]
fn clients_starting_at_once_share_one_server() {
    let server = TestServer::new("race");
    let outs = start_many(&server, 30);
    assert_all_started(&server, &outs);
}

#[test]
fn clients_starting_at_once_replace_a_stale_socket_once() {
    let server = TestServer::new("stale");
    // A socket file nobody listens on, as a crashed server leaves it.
    drop(std::os::unix::net::UnixListener::bind(&server.socket).expect("bind"));
    assert!(server.socket.exists());
    let outs = start_many(&server, 30);
    assert_all_started(&server, &outs);
}
