//! The bench's pty relay (`xtask __bench-relay`), run for real in a pty as the bench runs it:
//! keys typed on its terminal reach the program through the program's own pty (with its own
//! line discipline), the program's output reaches the terminal, and its exit status is the
//! relay's.

use portable_pty::{native_pty_system, CommandBuilder, PtySize};
use std::io::{Read, Write};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Long enough for a loaded CI machine; the test returns as soon as the text shows.
const DEADLINE: Duration = Duration::from_secs(30);

/// Reads the terminal until `want` has been seen (everything read so far is returned) or
/// the deadline passes.
fn read_until(chunks: &mpsc::Receiver<Vec<u8>>, seen: &mut String, want: &str) -> bool {
    let end = Instant::now() + DEADLINE;
    while !seen.contains(want) {
        let left = end.saturating_duration_since(Instant::now());
        match chunks.recv_timeout(left) {
            Ok(chunk) => seen.push_str(&String::from_utf8_lossy(&chunk)),
            Err(_) => return false,
        }
    }
    true
}

#[test]
fn relay_copies_both_ways_and_exits_with_the_program() {
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: 24,
            cols: 80,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("a pty for the relay's terminal");
    // The program reads a whole line: only a pty of its own, canonical while the relay's
    // terminal is raw, hands it one at Enter. It also reports the size it was given.
    let script = "stty size; read line; echo \"got:$line\"; exit 3";
    let cmd = CommandBuilder::from_argv(
        [
            env!("CARGO_BIN_EXE_xtask"),
            "__bench-relay",
            "--",
            "sh",
            "-c",
            script,
        ]
        .iter()
        .map(Into::into)
        .collect(),
    );
    let mut child = pair.slave.spawn_command(cmd).expect("the relay starts");
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().expect("a reader");
    let mut writer = pair.master.take_writer().expect("a writer");
    let (tx, chunks) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut seen = String::new();
    assert!(
        read_until(&chunks, &mut seen, "24 80"),
        "the program did not get the terminal's size; the terminal showed {seen:?}"
    );
    writer.write_all(b"hello\r").expect("typing");
    assert!(
        read_until(&chunks, &mut seen, "got:hello"),
        "the line typed did not reach the program; the terminal showed {seen:?}"
    );
    let status = child.wait().expect("the relay exits");
    assert_eq!(
        status.exit_code(),
        3,
        "the relay exits with the program's status"
    );
}
