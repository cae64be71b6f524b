//! Real programs on real ptys.

#![allow(clippy::unwrap_used)] // Test helpers may panic on failure.

use pty_io::{spawn, SpawnOptions, READ_CHUNK_BYTES};

fn options(cmd: &[&str]) -> SpawnOptions {
    SpawnOptions {
        command: cmd.iter().map(Into::into).collect(),
        cols: 80,
        rows: 24,
        ..SpawnOptions::default()
    }
}

async fn read_all(reader: &mut pty_io::PtyReader) -> Vec<u8> {
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
