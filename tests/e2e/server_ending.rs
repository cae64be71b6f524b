//! A server on its way out: a client that reached it just before it ended gets its session
//! from a new server, never one lost with the old.

use super::hostile_clients::RawClient;
use super::reliability::answers;
use std::os::unix::net::UnixListener;
use std::time::Duration;
use weft_protocol::{Hello, Message, NewSession, Reply, Request, EXIT_SERVER_ENDING};
use weft_tests::{stderr_of, TestServer};

/// How long a test waits for what it expects before failing.
const PATIENCE: Duration = Duration::from_secs(10);

/// Waits until the server's socket is gone: it has begun to end.
fn wait_for_socket_to_go(server: &TestServer) {
    let deadline = std::time::Instant::now() + PATIENCE;
    while server.socket.exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "the server outlived its last session"
        );
        std::thread::sleep(Duration::from_millis(5)); // deadline-ok: polls a file's removal
    }
}

/// Waits until a client is waiting on `listener`; fails the test after [`PATIENCE`].
fn wait_for_a_client(listener: &UnixListener) {
    use rustix::event::{poll, PollFd, PollFlags, Timespec};
    let mut waiting = [PollFd::new(listener, PollFlags::IN)];
    let limit = Timespec {
        tv_sec: PATIENCE.as_secs() as i64,
        tv_nsec: 0,
    };
    let ready = poll(&mut waiting, Some(&limit)).expect("poll the listener");
    assert_eq!(ready, 1, "no client connected");
}

fn detached(name: &str) -> Request {
    Request::NewSession {
        session: NewSession {
            name: Some(name.into()),
            detached: true,
            command: vec!["sleep".into(), "60".into()],
            ..NewSession::default()
        },
        attach: None,
    }
}

#[test]
fn an_ending_server_makes_no_session_for_a_client_already_connected() {
    let server = TestServer::new("ending");
    let out = server.weft(&["new", "-d", "-s", "last", "--", "cat"]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    let mut client = RawClient::connect(&server);
    client.set_read_timeout(PATIENCE);
    // The last session ends: the server goes (exit-empty), with this client still connected.
    let out = server.weft(&["send-keys", "-t", "last", "C-d"]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    wait_for_socket_to_go(&server);
    client.send(Message::Request(detached("late")));
    match client.next() {
        Some(Message::Reply(Reply::Error { message, code })) => {
            assert_eq!(code, EXIT_SERVER_ENDING, "{message}");
            assert!(message.contains("shutting down"), "{message}");
        }
        Some(other) => panic!("a session made in an ending server: {other:?}"),
        None => panic!("the server closed the connection without an answer"),
    }
}

/// Plays a server that ends as a client reaches it: it takes the connection, its socket goes,
/// and it refuses the client's request as an ending weft does.
fn refusing_server(server: &TestServer) -> std::thread::JoinHandle<()> {
    let listener = UnixListener::bind(&server.socket).expect("bind");
    let socket = server.socket.clone();
    std::thread::spawn(move || {
        wait_for_a_client(&listener);
        let (stream, _) = listener.accept().expect("accept");
        std::fs::remove_file(&socket).expect("remove the socket");
        drop(listener);
        let mut peer = RawClient::over(stream);
        peer.set_read_timeout(PATIENCE);
        assert!(matches!(peer.next(), Some(Message::Hello(_))));
        peer.send(Message::Hello(Hello {
            protocol: weft_protocol::PROTOCOL_VERSION,
            version: "ending".into(),
        }));
        assert!(matches!(peer.next(), Some(Message::Request(_))));
        peer.send(Message::Reply(Reply::Error {
            message: "the server is shutting down".into(),
            code: EXIT_SERVER_ENDING,
        }));
    })
}

/// Plays a server that stops listening with the client's connection still waiting to be
/// taken.
fn server_that_never_accepts(server: &TestServer) -> std::thread::JoinHandle<()> {
    let listener = UnixListener::bind(&server.socket).expect("bind");
    let socket = server.socket.clone();
    std::thread::spawn(move || {
        wait_for_a_client(&listener);
        std::fs::remove_file(&socket).expect("remove the socket");
        drop(listener);
    })
}

#[test]
fn a_client_refused_by_an_ending_server_starts_a_new_one() {
    let server = TestServer::new("refused");
    let fake = refusing_server(&server);
    let out = server.weft(&["new", "-d", "-s", "after", "--", "sleep", "60"]);
    fake.join().expect("the ending server");
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(answers(&server, "after"));
}

#[test]
fn a_client_left_waiting_by_an_ending_server_starts_a_new_one() {
    let server = TestServer::new("unaccepted");
    let fake = server_that_never_accepts(&server);
    let out = server.weft(&["new", "-d", "-s", "after", "--", "sleep", "60"]);
    fake.join().expect("the ending server");
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(answers(&server, "after"));
}

#[test]
fn run_pane_refused_by_an_ending_server_runs_in_a_new_one() {
    let server = TestServer::new("runpane");
    let fake = refusing_server(&server);
    let out = server.weft(&["run-pane", "--", "sleep", "60"]);
    fake.join().expect("the ending server");
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(!weft_tests::stdout_of(&server.weft(&["ls"])).is_empty());
}

#[test]
fn a_session_made_while_kill_server_runs_is_made_in_a_new_server() {
    let server = TestServer::new("killing");
    // A program that ignores the hang-up: the old server takes until its SIGKILL to end.
    let out = server.weft(&[
        "new",
        "-d",
        "-s",
        "old",
        "--",
        "sh",
        "-c",
        "trap '' HUP; sleep 60",
    ]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    let old = weft_tests::server_pid(&server);
    let kill = std::process::Command::new(weft_tests::weft_binary())
        .arg("-S")
        .arg(&server.socket)
        .arg("kill-server")
        .spawn()
        .expect("run kill-server");
    // Once kill-server has begun (its socket goes at once), a new session goes to a new
    // server, while the old one still waits for its program to die.
    wait_for_socket_to_go(&server);
    let out = server.weft(&["new", "-d", "-s", "fresh", "--", "sleep", "60"]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    kill.wait_with_output().expect("kill-server");
    assert!(answers(&server, "fresh"));
    assert_ne!(weft_tests::server_pid(&server), old);
}
