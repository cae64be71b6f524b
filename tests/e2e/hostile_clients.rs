//! Clients that misbehave on the socket: claiming a huge terminal, flooding keys before the
//! terminal has answered, sending garbage. Each gets a bounded answer; the server and its other
//! sessions go on.

use super::reliability::answers;
use weft_tests::{rss_kib, server_pid, stdout_of, TestServer};

/// A client speaking the protocol directly, as any program on the socket may (or, with
/// [`RawClient::over`], a server's end of the socket).
pub(super) struct RawClient {
    stream: std::os::unix::net::UnixStream,
    buf: bytes::BytesMut,
    codec: weft_protocol::FrameCodec,
}

impl RawClient {
    /// Frames on `stream`, nothing said yet.
    pub(super) fn over(stream: std::os::unix::net::UnixStream) -> RawClient {
        RawClient {
            stream,
            buf: bytes::BytesMut::new(),
            codec: weft_protocol::FrameCodec::default(),
        }
    }

    /// Connected to the server, hellos exchanged.
    pub(super) fn connect(server: &TestServer) -> RawClient {
        let stream = std::os::unix::net::UnixStream::connect(&server.socket).unwrap();
        let mut client = RawClient::over(stream);
        client.send(weft_protocol::Message::Hello(weft_protocol::Hello {
            protocol: weft_protocol::PROTOCOL_VERSION,
            version: "raw".into(),
        }));
        assert!(matches!(
            client.next(),
            Some(weft_protocol::Message::Hello(_))
        ));
        client
    }

    /// Gives up reading after `limit` (a read then fails the test) instead of waiting forever.
    pub(super) fn set_read_timeout(&self, limit: std::time::Duration) {
        self.stream.set_read_timeout(Some(limit)).unwrap();
    }

    /// Sends one message.
    pub(super) fn send(&mut self, message: weft_protocol::Message) {
        use std::io::Write;
        use tokio_util::codec::Encoder;
        let mut out = bytes::BytesMut::new();
        self.codec.encode(message, &mut out).unwrap();
        self.stream.write_all(&out).unwrap();
    }

    /// Asks to attach to `target` with a terminal of `cols` x `rows`, keeping the terminal
    /// (its keys and frames travel over the socket).
    fn attach(&mut self, target: &str, cols: u16, rows: u16) {
        use weft_protocol::{Attach, Message, Request};
        self.send(Message::Request(Request::Attach(Attach {
            target: Some(target.into()),
            read_only: false,
            cols,
            rows,
            pass_tty: false,
            detach_others: false,
            env: Vec::new(),
        })));
    }

    /// The next message; `None` when the peer closed the connection.
    pub(super) fn next(&mut self) -> Option<weft_protocol::Message> {
        use std::io::Read;
        use tokio_util::codec::Decoder;
        loop {
            if let Some(message) = self.codec.decode(&mut self.buf).unwrap() {
                return Some(message);
            }
            let mut chunk = [0u8; 65536];
            let n = match self.stream.read(&mut chunk) {
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => panic!("reading from the server failed: {e}"),
            };
            if n == 0 {
                return None;
            }
            self.buf.extend_from_slice(&chunk[..n]);
        }
    }
}

#[test]
fn a_client_claiming_a_huge_terminal_gets_a_clamped_session() {
    use weft_protocol::Message;
    let server = TestServer::new("huge");
    assert!(server
        .weft(&[
            "new",
            "-d",
            "-s",
            "big",
            "--",
            "sh",
            "-c",
            "echo HUGE; sleep 60"
        ])
        .status
        .success());
    assert!(server
        .weft(&["new", "-d", "-s", "other", "--", "sleep", "60"])
        .status
        .success());
    let pid = server_pid(&server);
    let before = rss_kib(pid);
    let mut client = RawClient::connect(&server);
    client.attach("big", u16::MAX, u16::MAX);
    // A frame comes: drawn at the clamped size.
    let mut drawn = 0;
    let mut heard = Vec::new();
    while drawn == 0 {
        match client.next() {
            Some(Message::Output(bytes)) => drawn += bytes.len(),
            Some(other) => heard.push(format!("{other:?}")),
            None => panic!(
                "the server closed the connection after {heard:?}; diag: {}",
                stdout_of(&server.weft(&["diag", "--json"]))
            ),
        }
    }
    // And a resize message claiming as much.
    client.send(Message::Resize {
        cols: u16::MAX,
        rows: u16::MAX,
    });
    let panes: serde_json::Value =
        serde_json::from_slice(&server.weft(&["list-panes", "-t", "big", "--json"]).stdout)
            .unwrap();
    assert_eq!(panes[0]["cols"], weft_protocol::MAX_COLS, "{panes}");
    assert_eq!(panes[0]["rows"], weft_protocol::MAX_ROWS - 1, "{panes}");
    // Memory follows what is drawn (a line of text and a status line), not the size: a
    // few MB, where a grid of cells at the clamp is 12 MB and each frame as much again.
    let pane_drawn = server.weft(&["wait", "-t", "big", "--text", "HUGE"]);
    assert!(pane_drawn.status.success(), "{pane_drawn:?}");
    // And other sessions answer.
    assert_bounded_and_alive(&server, (pid, before), 8 * 1024, "other");
}

/// The server (`pid`, whose RSS was `before` KiB) grew by less than `limit_kib`, answers for
/// `session`, and never panicked.
fn assert_bounded_and_alive(
    server: &TestServer,
    (pid, before): (u32, u64),
    limit_kib: u64,
    session: &str,
) {
    let rss = rss_kib(pid);
    eprintln!("server RSS: {before} -> {rss} KiB");
    assert!(rss < before + limit_kib, "server RSS {before} -> {rss} KiB");
    assert!(answers(server, session));
    let diag: serde_json::Value =
        serde_json::from_slice(&server.weft(&["diag", "--json"]).stdout).unwrap();
    assert_eq!(diag["panics"], 0, "{diag}");
}

#[test]
fn a_flood_of_keys_from_an_attaching_client_is_decoded_a_slice_at_a_time() {
    use weft_protocol::Message;
    let server = TestServer::new("keyflood");
    let pane = "stty raw -echo; echo READY; exec cat > /dev/null";
    assert!(server
        .weft(&["new", "-d", "-s", "k", "--", "sh", "-c", pane])
        .status
        .success());
    let ready = server.weft(&["wait", "-t", "k", "--text", "READY", "--timeout", "30"]);
    assert!(ready.status.success(), "{ready:?}");
    let pid = server_pid(&server);
    let before = rss_kib(pid);
    let mut client = RawClient::connect(&server);
    client.attach("k", 80, 24);
    // A megabyte of keys in one message, while the server still waits for the terminal to
    // answer its questions (this client never does): a million keys, about a hundred bytes
    // each once decoded.
    client.send(Message::Input(bytes::Bytes::from(vec![0u8; 1 << 20])));
    // The first frame (its status line names the session) comes once the server has stopped
    // waiting for the answers and taken the keys.
    let mut shown = Vec::new();
    while !String::from_utf8_lossy(&shown).contains("[k]") {
        match client.next() {
            Some(Message::Output(bytes)) => shown.extend_from_slice(&bytes),
            Some(_) => continue,
            None => panic!("the server closed the connection"),
        }
    }
    // Without slices: about 120 MB more.
    assert_bounded_and_alive(&server, (pid, before), 32 * 1024, "k");
}

#[test]
fn garbage_after_the_hello_closes_only_that_connection() {
    use std::io::{Read, Write};
    let server = TestServer::new("garbage");
    assert!(server
        .weft(&["new", "-d", "-s", "g", "--", "sleep", "60"])
        .status
        .success());
    for garbage in [
        &b"\xff\xff\xff\x7f"[..],              // a frame far over the limit
        &b"\x05\x00\x00\x00\x63abcd"[..],      // an unknown message tag
        &b"\x0a\x00\x00\x00\x02not json!"[..], // a request that is not JSON
        &b"\x01\x00\x00\x00\x06"[..],          // a resize too short
    ] {
        let mut raw = RawClient::connect(&server);
        raw.stream.write_all(garbage).unwrap();
        let mut buf = [0u8; 64];
        // The server closes it.
        while let Ok(n) = raw.stream.read(&mut buf) {
            if n == 0 {
                break;
            }
        }
    }
    assert!(answers(&server, "g"));
}
