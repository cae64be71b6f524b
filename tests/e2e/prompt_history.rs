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

#[test]
fn searches_and_commands_keep_histories_of_their_own() {
    let server = TestServer::new("histkinds");
    let mut c = attached_session(&server, "k", None);
    c.send_keys("C-b :").unwrap();
    c.send_text("rename-window typed-command").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("0:typed-command").unwrap();
    // A search in copy mode (C-s with emacs keys) goes to the search history.
    c.send_keys("C-b [").unwrap();
    c.send_keys("C-s").unwrap();
    c.wait_for_text("(search down)").unwrap();
    c.send_text("zzsearched").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| !s.text().contains("(search down)")).unwrap();
    // Keys are handled in order: once `q` has left copy mode, Enter's work is done.
    c.send_keys("q").unwrap();
    c.wait_for(|s| !s.text().contains("/0]")).unwrap();
    let out = server.weft(&["show-prompt-history", "-T", "search"]);
    let searches = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(searches.contains("1: zzsearched"), "{searches}");
    let out = server.weft(&["show-prompt-history", "-T", "command"]);
    let commands = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        commands.contains("typed-command") && !commands.contains("zzsearched"),
        "{commands}"
    );
    // Up at the `:` prompt brings back the command, not the search.
    c.send_keys("C-b :").unwrap();
    c.send_keys("Up").unwrap();
    c.wait_for_text(":rename-window typed-command").unwrap();
    let out = server.weft(&["show-prompt-history", "-T", "nonsense"]);
    assert!(!out.status.success());
}
