//! The command prompt's history kept across servers in `history-file`.

use weft_tests::{attached_session, write_file, TestServer};

#[test]
fn the_prompts_history_outlives_the_server_in_history_file() {
    let server = TestServer::new("histfile");
    let file = server.dir.join("history");
    let conf = write_file(
        &server,
        "hist.conf",
        &format!("set -s history-file '{}'\n", file.display()),
    );
    let conf = conf.to_str().unwrap();
    let mut c = attached_session(&server, "h", Some(conf));
    c.send_keys("C-b :").unwrap();
    c.send_text("display-message -d 0 from-history").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("from-history").unwrap();
    let out = server.weft(&["kill-server"]);
    assert!(out.status.success(), "{out:?}");
    c.wait_exit().unwrap();
    // A new server with the same configuration: Up at the prompt brings the line back.
    let mut c = attached_session(&server, "h2", Some(conf));
    c.send_keys("C-b :").unwrap();
    c.send_keys("Up").unwrap();
    c.wait_for_text(":display-message -d 0 from-history")
        .unwrap();
    c.send_keys("Escape").unwrap();
}
