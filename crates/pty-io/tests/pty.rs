//! Real programs on real ptys.

#![allow(clippy::unwrap_used)] // Test helpers may panic on failure.

use std::io::Write;
use weft_pty_io::{spawn, SpawnOptions, READ_CHUNK_BYTES};

fn options(cmd: &[&str]) -> SpawnOptions {
    SpawnOptions {
        command: cmd.iter().map(Into::into).collect(),
        cols: 80,
        rows: 24,
        ..SpawnOptions::default()
    }
}

async fn read_all(reader: &mut weft_pty_io::PtyReader) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = vec![0; READ_CHUNK_BYTES];
    loop {
        let n = reader.read(&mut buf).await.unwrap();
        if n == 0 {
            return out;
        }
        out.extend_from_slice(&buf[..n]);
    }
}

/// Reads until the output so far holds `marker` (the program is ready for input).
async fn wait_for(reader: &mut weft_pty_io::PtyReader, marker: &[u8]) {
    let mut out = Vec::new();
    let mut buf = vec![0; READ_CHUNK_BYTES];
    while !out.windows(marker.len()).any(|w| w == marker) {
        let n = reader.read_available(&mut buf).await.unwrap();
        assert!(n > 0, "output ended before {marker:?}: {out:?}");
        out.extend_from_slice(&buf[..n]);
    }
}

#[tokio::test]
async fn output_then_eof_then_exit_status() {
    let (_pty, mut child, mut reader, _writer) =
        spawn(&options(&["sh", "-c", "echo hi; exit 3"])).unwrap();
    let out = read_all(&mut reader).await;
    assert_eq!(String::from_utf8_lossy(&out), "hi\r\n");
    let status = child.wait_exit().await.unwrap();
    assert_eq!(status.code, 3);
}

#[tokio::test]
async fn input_reaches_the_program() {
    let (_pty, mut child, mut reader, writer) =
        spawn(&options(&["sh", "-c", "read line; echo got:$line"])).unwrap();
    writer.write_all(b"abc\r").await.unwrap();
    let out = String::from_utf8_lossy(&read_all(&mut reader).await).into_owned();
    assert!(out.contains("got:abc"), "{out:?}");
    assert_eq!(child.wait_exit().await.unwrap().code, 0);
}

#[tokio::test]
async fn resize_reaches_the_program() {
    let (pty, _child, mut reader, writer) = spawn(&options(&[
        "sh",
        "-c",
        "trap 'stty size; exit 0' WINCH; echo ready; while :; do read x; done",
    ]))
    .unwrap();
    let mut buf = vec![0; 1024];
    let mut seen = String::new();
    while !seen.contains("ready") {
        let n = reader.read(&mut buf).await.unwrap();
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    pty.resize(100, 30).unwrap();
    let _ = writer.write_all(b"\r").await;
    let out = String::from_utf8_lossy(&read_all(&mut reader).await).into_owned();
    assert!(out.contains("30 100"), "{out:?}");
}

#[tokio::test]
async fn environment_and_cwd_are_passed() {
    let mut opts = options(&["sh", "-c", "echo $WEFT_TEST_VAR; pwd"]);
    opts.env.push(("WEFT_TEST_VAR".into(), "present".into()));
    opts.cwd = Some("/tmp".into());
    let (_pty, _child, mut reader, _w) = spawn(&opts).unwrap();
    let out = String::from_utf8_lossy(&read_all(&mut reader).await).into_owned();
    assert!(out.contains("present") && out.contains("/tmp"), "{out:?}");
}

#[tokio::test]
async fn a_missing_cwd_and_home_fall_back_to_the_root() {
    let mut opts = options(&["sh", "-c", "pwd"]);
    opts.env
        .push(("HOME".into(), "/nonexistent-weft-home".into()));
    opts.cwd = Some("/nonexistent-weft-cwd".into());
    let (_pty, mut child, mut reader, _w) = spawn(&opts).unwrap();
    let out = String::from_utf8_lossy(&read_all(&mut reader).await).into_owned();
    assert_eq!(out.trim(), "/");
    assert_eq!(child.wait_exit().await.unwrap().code, 0);
}

#[tokio::test]
async fn exit_is_seen_while_a_background_job_holds_the_terminal() {
    let (_pty, mut child, _reader, _w) =
        spawn(&options(&["sh", "-c", "sleep 30 & exit 7"])).unwrap();
    // The master would not read EIO for 30 s; the exit status still arrives at once.
    let status = tokio::time::timeout(std::time::Duration::from_secs(10), child.wait_exit())
        .await
        .expect("exit seen before the background job ends")
        .unwrap();
    assert_eq!(status.code, 7);
}

#[tokio::test]
async fn a_missing_program_is_a_clear_error() {
    let err = spawn(&options(&["/nonexistent/program"])).unwrap_err();
    assert!(err.to_string().contains("/nonexistent/program"), "{err}");
}

#[tokio::test]
async fn a_write_larger_than_the_pty_waits_for_room_and_arrives_whole() {
    // 1 MiB is far more than a pty's input buffer: `write_all` must wait for the program to
    // read (the descriptor is registered only for that wait) and lose nothing.
    let (_pty, mut child, mut reader, writer) = spawn(&options(&[
        "sh",
        "-c",
        "stty raw -echo; echo READY; head -c 1048576 | wc -c",
    ]))
    .unwrap();
    wait_for(&mut reader, b"READY").await;
    let data = vec![b'x'; 1 << 20];
    let (written, out) = tokio::join!(writer.write_all(&data), read_all(&mut reader));
    written.unwrap();
    let out = String::from_utf8_lossy(&out).into_owned();
    assert!(out.contains("1048576"), "{out:?}");
    assert_eq!(child.wait_exit().await.unwrap().code, 0);
}

#[tokio::test]
async fn small_reads_then_a_stream_lose_nothing() {
    // Echoes typed bytes one at a time (short reads end at once), then a stream that fills
    // reads: every byte arrives, in order.
    let (_pty, _child, mut reader, writer) = spawn(&options(&[
        "sh",
        "-c",
        "stty raw -echo; echo READY; for i in 1 2 3; do head -c 1; done; seq 1 20000; printf END",
    ]))
    .unwrap();
    wait_for(&mut reader, b"READY\n").await;
    let mut got = Vec::new();
    let mut buf = vec![0; READ_CHUNK_BYTES];
    for (typed, key) in [b"a", b"b", b"c"].into_iter().enumerate() {
        writer.write_all(key).await.unwrap();
        // The last echo may come with the start of the stream.
        while got.len() <= typed {
            let n = reader.read_available(&mut buf).await.unwrap();
            assert!(n > 0, "output ended early: {got:?}");
            got.extend_from_slice(&buf[..n]);
        }
    }
    while !got.ends_with(b"END") {
        let n = reader.read_available(&mut buf).await.unwrap();
        assert!(n > 0, "output ended early");
        got.extend_from_slice(&buf[..n]);
    }
    let text = String::from_utf8_lossy(&got).replace("\r\n", "\n");
    let expected: String = (1..=20000).map(|i| format!("{i}\n")).collect();
    assert_eq!(text, format!("abc{expected}END"));
}

/// A pty whose terminal side the test holds, as a client's terminal is handed to weft's
/// server: the master (kept open), a writer into it (what the user types), and the terminal
/// file, raw or canonical.
fn user_terminal(
    raw: bool,
) -> (
    Box<dyn portable_pty::MasterPty + Send>,
    Box<dyn std::io::Write + Send>,
    weft_pty_io::PtyReader,
) {
    let pair = portable_pty::native_pty_system()
        .openpty(portable_pty::PtySize::default())
        .unwrap();
    let path = pair.master.tty_name().unwrap();
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .unwrap();
    let mut termios = rustix::termios::tcgetattr(&file).unwrap();
    if raw {
        termios.make_raw();
    } else {
        termios
            .local_modes
            .insert(rustix::termios::LocalModes::ICANON);
    }
    rustix::termios::tcsetattr(&file, rustix::termios::OptionalActions::Now, &termios).unwrap();
    let writer = pair.master.take_writer().unwrap();
    let reader = weft_pty_io::PtyReader::from_file(file).unwrap();
    (pair.master, writer, reader)
}

/// Bounds a wait that a lost readiness event would make endless.
async fn within_a_while<T>(what: &str, wait: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(std::time::Duration::from_secs(10), wait)
        .await
        .unwrap_or_else(|_| panic!("{what}: nothing arrived"))
}

#[tokio::test]
async fn keys_from_a_raw_terminal_each_arrive_after_a_short_read() {
    // A short read ends `read_keys` without the read that would say EAGAIN; the next key
    // must still wake it.
    let (_master, mut typing, mut keys) = user_terminal(true);
    let mut buf = vec![0; 1024];
    for key in [&b"ab"[..], b"c", b"\x1b[A", b"d"] {
        typing.write_all(key).unwrap();
        let mut got = Vec::new();
        while got.len() < key.len() {
            let n = within_a_while("a key", keys.read_keys(&mut buf))
                .await
                .unwrap();
            assert!(n > 0, "the terminal closed");
            got.extend_from_slice(&buf[..n]);
        }
        assert_eq!(got, key);
    }
}

#[tokio::test]
async fn lines_from_a_canonical_terminal_all_arrive_without_more_typing() {
    // In canonical mode a read returns one line while the next waits with no new readiness
    // event: a short read must not count as draining the terminal there.
    let (_master, mut typing, mut keys) = user_terminal(false);
    let mut buf = vec![0; 1024];
    typing.write_all(b"one\ntwo\nthree\n").unwrap();
    let mut got = Vec::new();
    while !got.ends_with(b"three\n") {
        let n = within_a_while("the next line", keys.read_keys(&mut buf))
            .await
            .unwrap();
        assert!(n > 0, "the terminal closed");
        got.extend_from_slice(&buf[..n]);
    }
    assert_eq!(got, b"one\ntwo\nthree\n");
}

#[tokio::test]
async fn keys_after_a_stream_are_each_read_at_once() {
    // A stream takes the master out of tokio's reactor; the short reads after it bring it
    // back. Each key's echo must arrive without more output to push it.
    let (_pty, _child, mut reader, writer) = spawn(&options(&[
        "sh",
        "-c",
        "stty raw -echo; seq 1 20000; printf MID; for i in 1 2 3; do head -c 1; done; printf END",
    ]))
    .unwrap();
    wait_for(&mut reader, b"MID").await;
    let mut got = Vec::new();
    let mut buf = vec![0; READ_CHUNK_BYTES];
    for (typed, key) in [b"x", b"y", b"z"].into_iter().enumerate() {
        writer.write_all(key).await.unwrap();
        // The last echo may come with END.
        while got.len() <= typed {
            let n = within_a_while("an echo", reader.read_available(&mut buf))
                .await
                .unwrap();
            assert!(n > 0, "output ended early: {got:?}");
            got.extend_from_slice(&buf[..n]);
        }
    }
    while !got.ends_with(b"END") {
        let n = within_a_while("the end", reader.read_available(&mut buf))
            .await
            .unwrap();
        assert!(n > 0, "output ended early");
        got.extend_from_slice(&buf[..n]);
    }
    assert_eq!(got, b"xyzEND");
}

#[tokio::test]
async fn a_stream_gathers_only_while_asked_to() {
    // `seq` floods the pty. The gather check is asked before each further read: told to
    // stop, a read hands over what its first read got; asked on, reads fill the buffer. No
    // byte is lost either way.
    let (_pty, _child, mut reader, _writer) =
        spawn(&options(&["sh", "-c", "seq 1 100000; printf END"])).unwrap();
    let mut got = Vec::new();
    let mut buf = vec![0; READ_CHUNK_BYTES];
    let mut stopped_reads = 0;
    let mut gathered_reads = 0;
    while !got.ends_with(b"END") {
        let asked = std::cell::RefCell::new(Vec::new());
        // Alternate: stop at once, then gather on.
        let stop = stopped_reads <= gathered_reads;
        let n = reader
            .read_available_while(&mut buf, |filled| {
                asked.borrow_mut().push(filled);
                !stop
            })
            .await
            .unwrap();
        assert!(n > 0, "output ended early");
        let asked = asked.into_inner();
        if stop && !asked.is_empty() {
            assert_eq!(asked, [n], "one check, with what the first read got");
            stopped_reads += 1;
        } else if !stop && asked.len() > 1 {
            assert!(asked.windows(2).all(|w| w[0] < w[1]), "{asked:?}");
            gathered_reads += 1;
        }
        got.extend_from_slice(&buf[..n]);
    }
    assert!(
        stopped_reads > 0 && gathered_reads > 0,
        "{stopped_reads} {gathered_reads}"
    );
    let text = String::from_utf8_lossy(&got).replace("\r\n", "\n");
    let expected: String = (1..=100000).map(|i| format!("{i}\n")).collect();
    assert_eq!(text, format!("{expected}END"));
}
