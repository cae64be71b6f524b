//! Paste buffers: the commands, pasting (safely: a buffer cannot carry escape sequences or end
//! a bracketed paste early), the bindings, and OSC 52 between programs, buffers and the user's
//! terminal.

use serde_json::Value;
use std::process::{Command, Stdio};
use weft_testkit::Event;
use weft_tests::{stderr_of, stdout_of, weft_binary, TestServer, TEST_ENV, TEST_SHELL};

/// The buffer planted to break out of a paste: it ends the bracketed paste, erases the line
/// (C-u) and runs a command.
fn planted(file: &std::path::Path) -> String {
    format!("x\x1b[201~\x15touch {}\r", file.display())
}

fn ok(out: &std::process::Output) -> String {
    assert!(out.status.success(), "{out:?}");
    stdout_of(out)
}

fn buffers(server: &TestServer) -> Vec<Value> {
    weft_tests::json_list(server, &["list-buffers", "--json"])
}

/// `weft -S socket ARGS` from directory `dir` with `stdin` as standard input.
fn weft_in(server: &TestServer, dir: &std::path::Path, args: &[&str], stdin: &[u8]) -> String {
    use std::io::Write;
    let mut cmd = Command::new(weft_binary());
    cmd.arg("-S")
        .arg(&server.socket)
        .args(args)
        .current_dir(dir);
    for (k, v) in TEST_ENV {
        cmd.env(k, v);
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    ok(&out)
}

/// Waits (on the pane's own changes) until `target` shows `text`.
fn wait_text(server: &TestServer, target: &str, text: &str) {
    let out = server.weft(&["wait", "-t", target, "--text", text]);
    assert!(
        out.status.success(),
        "waiting for {text:?}: {}",
        stdout_of(&out)
    );
}

/// Waits (on the pane's own changes) until `target` matches `regex`.
fn wait_regex(server: &TestServer, target: &str, regex: &str) {
    let out = server.weft(&["wait", "-t", target, "--regex", regex]);
    assert!(
        out.status.success(),
        "waiting for {regex:?}: {}",
        stdout_of(&out)
    );
}

fn capture(server: &TestServer, target: &str) -> String {
    ok(&server.weft(&["capture-pane", "-t", target]))
}

#[test]
fn set_show_list_rename_delete_save_and_load() {
    let server = TestServer::new("bufcmds");
    ok(&server.weft(&["new", "-d", "-s", "b", "--", "sleep", "60"]));
    ok(&server.weft(&["set-buffer", "hello"]));
    ok(&server.weft(&["setb", "-b", "named", "x\ny"]));
    assert_eq!(
        ok(&server.weft(&["list-buffers"])),
        "named: 3 bytes: \"x\"\nbuffer0: 5 bytes: \"hello\"\n"
    );
    assert_eq!(ok(&server.weft(&["show-buffer"])), "x\ny\n");
    assert_eq!(ok(&server.weft(&["showb", "-b", "buffer0"])), "hello\n");
    ok(&server.weft(&["setb", "-a", "-b", "named", "!"]));
    // Saved as it is: to a file (a relative path is the caller's directory), and to stdout.
    let dir = server.dir.join("work");
    std::fs::create_dir_all(&dir).unwrap();
    weft_in(
        &server,
        &dir,
        &["save-buffer", "-b", "named", "out.txt"],
        b"",
    );
    assert_eq!(std::fs::read(dir.join("out.txt")).unwrap(), b"x\ny!");
    weft_in(
        &server,
        &dir,
        &["saveb", "-a", "-b", "buffer0", "out.txt"],
        b"",
    );
    assert_eq!(std::fs::read(dir.join("out.txt")).unwrap(), b"x\ny!hello");
    assert_eq!(
        weft_in(&server, &dir, &["saveb", "-b", "named", "-"], b""),
        "x\ny!"
    );
    // Loaded from a file and from standard input; controls show escaped.
    std::fs::write(dir.join("in.bin"), b"a\x1b[31mb").unwrap();
    weft_in(&server, &dir, &["load-buffer", "-b", "file", "in.bin"], b"");
    assert_eq!(ok(&server.weft(&["showb", "-b", "file"])), "a\\033[31mb\n");
    weft_in(&server, &dir, &["loadb", "-"], b"from stdin\n");
    let list = buffers(&server);
    assert_eq!(list[0]["name"], "buffer1", "{list:?}");
    assert_eq!(list[0]["bytes"], 11, "{list:?}");
    // Rename, delete, and errors that say what is wrong.
    ok(&server.weft(&["setb", "-b", "named", "-n", "renamed"]));
    ok(&server.weft(&["delete-buffer", "-b", "renamed"]));
    ok(&server.weft(&["deleteb"]));
    let names: Vec<_> = buffers(&server).iter().map(|b| b["name"].clone()).collect();
    assert_eq!(names, ["file", "buffer0"]);
    let out = server.weft(&["deleteb", "-b", "renamed"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr_of(&out).contains("no buffer renamed"), "{out:?}");
}

#[test]
fn paste_buffer_sends_the_text_without_its_controls() {
    let server = TestServer::new("bufpaste");
    ok(&server.weft(&["new", "-d", "-s", "p", "--", "cat", "-v"]));
    ok(&server.weft(&["setb", "one\x1b[31mred\ntwo\n"]));
    ok(&server.weft(&["paste-buffer", "-t", "p"]));
    // The line feeds became CR (Enter): the terminal echoes both lines, then cat prints them;
    // cat -v shows an ESC as ^[, and none arrived.
    wait_regex(&server, "p", "(?s)two.*two");
    let screen = capture(&server, "p");
    assert_eq!(screen.matches("one[31mred\n").count(), 2, "{screen}");
    assert!(!screen.contains("^["), "{screen}");
}

#[test]
fn a_planted_buffer_cannot_break_out_of_a_bracketed_paste() {
    let server = TestServer::new("bufcat");
    let file = server.dir.join("INJECTED");
    let script = "printf '\\033[?2004h'; echo armed; exec cat -v";
    ok(&server.weft(&["new", "-d", "-s", "c", "--", "sh", "-c", script]));
    // Pasted only once cat has bracketed paste on.
    wait_text(&server, "c", "armed");
    ok(&server.weft(&["setb", &planted(&file)]));
    // cat enabled bracketed paste: the markers come once each, around the whole text.
    let line = format!("^[[200~x[201~touch {}", file.display());
    ok(&server.weft(&["pasteb", "-p", "-t", "c"]));
    ok(&server.weft(&["send-keys", "-t", "c", "Enter"]));
    // The terminal echoes the paste as it comes, then cat prints it; the closing marker was
    // still on the line, and comes on its own after Enter.
    wait_regex(&server, "c", r"(?m)^\^\[\[201~$");
    let screen = capture(&server, "c");
    assert_eq!(screen.matches(line.as_str()).count(), 2, "{screen}");
    assert_eq!(screen.matches("^[[200~").count(), 2, "{screen}");
}

#[test]
fn a_planted_buffer_pasted_into_bash_is_literal_input() {
    let server = TestServer::new("bufbash");
    let file = server.dir.join("INJECTED");
    let mut args = vec!["new", "-d", "-s", "sh", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server.weft(&args));
    wait_text(&server, "sh", "$");
    // Pasted, the planted text is on bash's command line as typed text, not run: had the
    // paste ended early, C-u would have erased the line and CR run `touch` at once. C-c then
    // drops the line, and a command run after it shows that bash has read everything.
    let check = |n: usize| {
        let literal = format!("$ x[201~touch {}", file.display());
        let count = format!(r"(?s)(\$ x\[201~touch .*){{{n}}}");
        wait_regex(&server, "sh", &count);
        ok(&server.weft(&["send-keys", "-t", "sh", "C-c"]));
        let command = format!("echo CHECK{n}");
        ok(&server.weft(&["send-keys", "-t", "sh", &command, "Enter"]));
        wait_regex(&server, "sh", &format!("(?m)^CHECK{n}$"));
        let screen = capture(&server, "sh");
        assert!(screen.contains(&literal), "literal input: {screen}");
        assert!(!file.exists(), "the pasted command ran: {screen}");
    };
    // Planted with set-buffer...
    ok(&server.weft(&["setb", &planted(&file)]));
    ok(&server.weft(&["pasteb", "-p", "-t", "sh"]));
    check(1);
    // ... and by a program, through OSC 52.
    let script = format!(
        "printf '\\033]52;c;%s\\007' \"$(printf 'x\\033[201~\\025touch {}\\r' | base64 -w0)\"; \
         echo DONE; sleep 60",
        file.display()
    );
    ok(&server.weft(&["new", "-d", "-s", "w", "--", "sh", "-c", &script]));
    wait_text(&server, "w", "DONE");
    let writer = weft_tests::json_list(&server, &["list-panes", "-t", "w", "--json"]);
    let list = buffers(&server);
    assert_eq!(
        list[0]["pane"], writer[0]["id"],
        "the pane is noted: {list:?}"
    );
    ok(&server.weft(&["pasteb", "-p", "-t", "sh"]));
    check(2);
}

#[test]
fn prefix_bracket_pastes_the_newest_buffer() {
    let server = TestServer::new("bufkey");
    let mut c = server.client(&["new", "-s", "k", "--", "cat", "-v"], 80, 24);
    c.wait_for(|s| s.is_alternate_screen()).unwrap();
    ok(&server.weft(&["setb", "paste me"]));
    c.send_keys("C-b ]").unwrap();
    c.wait_for_text("paste me").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| s.text().matches("paste me").count() == 2)
        .unwrap();
    assert!(!c.screen().text().contains("^["), "{}", c.screen().text());
}

#[test]
fn choose_buffer_pastes_the_chosen_one_and_deletes() {
    let server = TestServer::new("bufchoose");
    let mut c = server.client(&["new", "-s", "k", "--", "cat", "-v"], 80, 24);
    c.wait_for(|s| s.is_alternate_screen()).unwrap();
    ok(&server.weft(&["setb", "-b", "first", "one"]));
    ok(&server.weft(&["setb", "-b", "second", "two"]));
    ok(&server.weft(&["setb", "-b", "third", "three"]));
    c.send_keys("C-b =").unwrap();
    c.wait_for_text("> third: 5 bytes").unwrap();
    c.send_keys("d").unwrap();
    c.wait_for_text("> second: 3 bytes").unwrap();
    c.send_keys("Down").unwrap();
    c.wait_for_text("> first: 3 bytes").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| !s.text().contains("choose-buffer")).unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| s.text().lines().filter(|l| l.trim_end() == "one").count() == 2)
        .unwrap();
    let names: Vec<_> = buffers(&server).iter().map(|b| b["name"].clone()).collect();
    assert_eq!(names, ["second", "first"]);
    // With a template, Enter runs it for the buffer chosen instead of pasting.
    let out = server.weft(&[
        "bind",
        "B",
        "choose-buffer",
        "set-buffer -b '%%' -n 'kept-%%'",
    ]);
    assert!(out.status.success(), "{out:?}");
    c.send_keys("C-b B").unwrap();
    c.wait_for_text("> second: 3 bytes").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| !s.text().contains("choose-buffer")).unwrap();
    let names: Vec<_> = buffers(&server).iter().map(|b| b["name"].clone()).collect();
    assert_eq!(names, ["kept-second", "first"]);
}

#[test]
fn a_programs_osc52_becomes_a_buffer_and_reaches_the_terminal() {
    let server = TestServer::new("bufosc");
    let mut args = vec!["new", "-s", "o", "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut c = server.client(&args, 80, 24);
    c.wait_for_text("$").unwrap();
    let write = |text: &str, done: &str| {
        let script =
            format!("printf '\\033]52;c;%s\\007' $(printf {text} | base64); echo {done}; sleep 60");
        ok(&server.weft(&["new-window", "-d", "-t", "o", "--", "sh", "-c", &script]));
    };
    // With set-clipboard external, a program's write makes a buffer and stays there.
    let conf = server.dir.join("weft.toml");
    std::fs::write(&conf, "set-clipboard = \"external\"\n").unwrap();
    ok(&server.weft(&["source-file", conf.to_str().unwrap()]));
    write("kept", "DONE1");
    wait_text(&server, "o:1", "DONE1");
    assert_eq!(buffers(&server)[0]["preview"], "kept");
    // With on (the default), it goes on to the user's terminal as OSC 52.
    std::fs::write(&conf, "set-clipboard = \"on\"\n").unwrap();
    ok(&server.weft(&["source-file", conf.to_str().unwrap()]));
    write("hello", "DONE2");
    let base64 = next_clipboard_write(&mut c);
    assert_eq!(base64, b"aGVsbG8=", "the first write the terminal saw");
    wait_text(&server, "o:2", "DONE2");
    let list = buffers(&server);
    assert_eq!(list[0]["preview"], "hello", "{list:?}");
    assert_eq!(ok(&server.weft(&["showb"])), "hello\n");
}

#[test]
fn with_get_clipboard_a_program_reads_back_only_what_it_wrote() {
    let server = TestServer::new("bufget");
    let conf = server.dir.join("weft.toml");
    std::fs::write(&conf, "get-clipboard = true\n").unwrap();
    let config = conf.to_str().unwrap();
    // The reader writes "aaa", waits for Enter, then asks for the clipboard and prints the
    // answer as cat -v shows it (13 bytes: ESC ] 52 ; c ; YWFh ESC \).
    let reader = "printf '\\033]52;c;YWFh\\007'; echo WROTE; read x; stty raw -echo; \
                  printf '\\033]52;c;?\\007'; head -c 13 | cat -v; stty sane; echo; echo DONE; \
                  sleep 60";
    ok(&server.weft(&[
        "-f", config, "new", "-d", "-s", "r", "--", "sh", "-c", reader,
    ]));
    assert!(ok(&server.weft(&["show-options"])).contains("get-clipboard on"));
    wait_text(&server, "r", "WROTE");
    // Another pane's write is newer, and is not what the reader gets.
    let other = "printf '\\033]52;c;YmJi\\007'; echo DONE; sleep 60";
    ok(&server.weft(&["new", "-d", "-s", "o", "--", "sh", "-c", other]));
    wait_text(&server, "o", "DONE");
    assert_eq!(buffers(&server)[0]["preview"], "bbb");
    ok(&server.weft(&["send-keys", "-t", "r", "Enter"]));
    wait_text(&server, "r", "DONE");
    let screen = capture(&server, "r");
    assert!(screen.contains("^[]52;c;YWFh^[\\"), "{screen}");
}

#[test]
fn clipboard_writes_skip_terminals_known_not_to_take_them() {
    use weft_testkit::FakeTerminal;
    let server = TestServer::new("bufosc-term");
    let mut args = vec!["new", "-d", "-s", "o", "--"];
    args.extend_from_slice(TEST_SHELL);
    ok(&server.weft(&args));
    let attach = ["attach", "-t", "o"];
    let env = |term| [("TERM", term)];
    let mut xterm = server.client_answering(
        &attach,
        80,
        24,
        &env("xterm-256color"),
        FakeTerminal::xterm(),
    );
    let mut console =
        server.client_answering(&attach, 80, 24, &env("linux"), FakeTerminal::xterm());
    for c in [&mut xterm, &mut console] {
        c.wait_for_text("$").unwrap();
    }
    // set-clipboard on (the default): a program's write goes on to the terminals.
    let script = "printf '\\033]52;c;%s\\007' $(printf hello | base64); echo DONE; sleep 60";
    ok(&server.weft(&["new-window", "-d", "-t", "o", "--", "sh", "-c", script]));
    let event = xterm
        .wait_for_event(|e| matches!(e, Event::ClipboardWrite { .. }))
        .unwrap();
    let Event::ClipboardWrite { base64, .. } = event else {
        unreachable!()
    };
    assert_eq!(base64, b"aGVsbG8=");
    wait_text(&server, "o:1", "DONE");
    // A frame drawn after the write: the console would have had the write before it.
    ok(&server.weft(&["send-keys", "-t", "o:0", "echo after-$((1+1))", "Enter"]));
    console.wait_for_text("after-2").unwrap();
    let received =
        String::from_utf8_lossy(console.fake_terminal().unwrap().received()).into_owned();
    assert!(
        !received.contains("\x1b]52;"),
        "the Linux console got OSC 52"
    );
    assert!(
        !console
            .take_events()
            .iter()
            .any(|e| matches!(e, Event::ClipboardWrite { .. })),
        "the Linux console got a clipboard write"
    );
    let received = String::from_utf8_lossy(xterm.fake_terminal().unwrap().received()).into_owned();
    assert!(received.contains("\x1b]52;c;aGVsbG8="), "{received:?}");
}

#[test]
fn paste_buffer_takes_a_separator_raw_line_feeds_and_deletes() {
    let server = TestServer::new("bufpasteopts");
    // CR stays CR (shown as ^M) and only LF ends a line: what was pasted is visible.
    let reader = "stty -icrnl -echo; cat -v";
    ok(&server.weft(&["new", "-d", "-s", "p", "--", "sh", "-c", reader]));
    ok(&server.weft(&["setb", "-b", "x", "one\ntwo\n"]));
    let paste_then_lf = |args: &[&str]| {
        let mut all = vec!["paste-buffer", "-b", "x", "-t", "p"];
        all.extend_from_slice(args);
        ok(&server.weft(&all));
        ok(&server.weft(&["send-keys", "-t", "p", "C-j"]));
    };
    // -s: each line feed becomes the separator.
    paste_then_lf(&["-s", "|"]);
    wait_text(&server, "p", "one|two|");
    // The default: each becomes CR, as Enter.
    paste_then_lf(&[]);
    wait_text(&server, "p", "one^Mtwo^M");
    // -r: line feeds as they are; -d: the buffer goes after the paste.
    paste_then_lf(&["-r", "-d"]);
    wait_regex(&server, "p", "(?m)^one\\s*\\ntwo\\s*$");
    let screen = capture(&server, "p");
    assert_eq!(
        screen.lines().filter(|l| l.trim_end() == "one").count(),
        1,
        "{screen}"
    );
    assert!(buffers(&server).is_empty(), "-d kept the buffer");
}

#[test]
fn set_buffer_and_load_buffer_w_reach_the_terminals_clipboard() {
    let server = TestServer::new("bufw");
    let mut args = vec!["new", "-s", "w", "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut c = server.client(&args, 80, 24);
    c.wait_for_text("$").unwrap();
    ok(&server.weft(&["set-buffer", "-w", "-b", "named", "to-clip"]));
    let base64 = next_clipboard_write(&mut c);
    assert_eq!(base64, b"dG8tY2xpcA==", "base64 of to-clip");
    assert_eq!(
        ok(&server.weft(&["show-buffer", "-b", "named"])),
        "to-clip\n"
    );
    let file = server.dir.join("clip.txt");
    std::fs::write(&file, "from-file").unwrap();
    ok(&server.weft(&["load-buffer", "-w", file.to_str().unwrap()]));
    let base64 = next_clipboard_write(&mut c);
    assert_eq!(base64, b"ZnJvbS1maWxl", "base64 of from-file");
}

/// The base64 text of the next clipboard write (OSC 52) the client's terminal receives.
fn next_clipboard_write(c: &mut weft_testkit::TestTerminal) -> Vec<u8> {
    let event = c
        .wait_for_event(|e| matches!(e, Event::ClipboardWrite { .. }))
        .unwrap();
    let Event::ClipboardWrite { base64, .. } = event else {
        unreachable!()
    };
    base64
}

#[test]
fn e_in_choose_buffer_edits_the_buffer_in_the_editor() {
    let server = TestServer::new("bufedit");
    let mut c = server.client(&["new", "-s", "e", "--", "cat", "-v"], 80, 24);
    c.wait_for(|s| s.is_alternate_screen()).unwrap();
    ok(&server.weft(&["setb", "-b", "notes", "one two"]));
    // An editor that fails: what it wrote is not taken.
    let marker = server.dir.join("failed-editor-ran");
    let failing = format!(
        "sh -c 'printf changed > \"$1\"; touch {}; exit 3' sh",
        marker.display()
    );
    ok(&server.weft(&["set", "-s", "editor", &failing]));
    c.send_keys("C-b =").unwrap();
    c.wait_for_text("> notes: 7 bytes").unwrap();
    c.send_keys("e").unwrap();
    c.wait_for(|_| marker.exists()).unwrap();
    // The popup closes once the editor has exited.
    c.wait_for(|s| !s.text().contains('┌')).unwrap();
    // One that succeeds: its text is the buffer (without the newline it added to a text that
    // had none).
    let succeeding = "sh -c 'sed s/one/edited/ \"$1\" > \"$1.new\"; echo >> \"$1.new\"; \
                      mv \"$1.new\" \"$1\"' sh";
    ok(&server.weft(&["set", "-s", "editor", succeeding]));
    c.send_keys("C-b =").unwrap();
    c.wait_for_text("> notes: 7 bytes").unwrap();
    c.send_keys("e").unwrap();
    let edited =
        |server: &TestServer| stdout_of(&server.weft(&["save-buffer", "-b", "notes", "-"]));
    c.wait_for(|_| edited(&server) == "edited two").unwrap();
}
