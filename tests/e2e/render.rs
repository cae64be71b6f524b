//! What a client's terminal shows, and how often: the frame pace follows the configuration.

use serde_json::Value;
use weft_testkit::TestTerminal;
use weft_tests::{stdout_of, TestServer, TEST_SHELL};

/// A client of `cols`x24 in a new session `name` started with configuration file `conf`, at
/// its prompt.
fn session_with_config(
    server: &TestServer,
    conf: &std::path::Path,
    name: &str,
    cols: u16,
) -> TestTerminal {
    let conf = conf.to_str().unwrap();
    let mut args = vec!["-f", conf, "new", "-s", name, "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut client = server.client(&args, cols, 24);
    client.wait_for_text("$").expect("prompt");
    client
}

#[test]
fn the_frame_interval_follows_source_file() {
    let server = TestServer::new("interval");
    let conf = server.dir.join("weft.toml");
    std::fs::write(&conf, "").unwrap();
    let _client = session_with_config(&server, &conf, "m", 80);
    let interval = || {
        let out = server.weft(&["diag", "--json"]);
        assert!(out.status.success(), "{out:?}");
        let report: Value = serde_json::from_str(&stdout_of(&out)).unwrap();
        report["clients"][0]["frame_interval_ms"].as_u64()
    };
    assert_eq!(interval(), Some(8), "the default");
    std::fs::write(&conf, "frame-interval-ms = 40\n").unwrap();
    let out = server.weft(&["source-file"]);
    assert!(out.status.success(), "{out:?}");
    let opts = stdout_of(&server.weft(&["show-options"]));
    assert!(opts.contains("frame-interval-ms 40"), "{opts}");
    // The render task takes the new settings when it next runs, which is soon but not
    // necessarily before `source-file` answers: wait for it.
    let give_up = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while interval() != Some(40) {
        assert!(
            std::time::Instant::now() < give_up,
            "the client still paces at {:?}",
            interval()
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}
