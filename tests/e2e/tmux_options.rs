//! Options of tmux 3.3 that a `.tmux.conf` sets: several status lines and `status-format[N]`,
//! the user's own `command-alias[N]`, `key-table`, `default-size`, `destroy-unattached`,
//! `cursor-style`, `remain-on-exit-format` and `user-keys`, each checked where the user meets
//! it.

use weft_testkit::Screen;
use weft_tests::{
    attached_session, detached_session, split_pane, stderr_of, stdout_of, TestServer,
};

/// Runs `weft ARGS`, which must succeed; its output.
fn ok(server: &TestServer, args: &[&str]) -> String {
    let out = server.weft(args);
    assert!(out.status.success(), "{args:?}: {}", stderr_of(&out));
    stdout_of(&out)
}

/// Row `r`'s text.
fn row(screen: &Screen, r: usize) -> String {
    screen.row(r).map(|r| r.text()).unwrap_or_default()
}

#[test]
fn status_2_draws_a_second_line_from_status_format() {
    let server = TestServer::new("statuslines");
    let mut c = attached_session(&server, "sl", None);
    c.wait_for(|s| row(s, 23).starts_with("[sl]")).unwrap();
    ok(&server, &["set", "-g", "status", "2"]);
    // tmux's second line: the window's panes and their sizes, the active one reversed; the
    // window gives up a row for it.
    c.wait_for(|s| row(s, 22).starts_with("[sl]") && row(s, 23).contains("0[80x22]"))
        .unwrap();
    assert_eq!(
        ok(&server, &["display", "-p", "#{pane_height}"]).trim(),
        "22"
    );
    assert_eq!(ok(&server, &["show", "-gv", "status"]).trim(), "2");
    ok(
        &server,
        &[
            "set",
            "-g",
            "status-format[1]",
            "#[align=right]R-#{session_name}",
        ],
    );
    c.wait_for(|s| row(s, 23).trim_end().ends_with("R-sl") && row(s, 23).starts_with(' '))
        .unwrap();
    // Set on the session alone, the array is that session's whole; unset, inherited again.
    ok(
        &server,
        &["set", "-t", "sl", "status-format[1]", "LOCAL-#S"],
    );
    c.wait_for(|s| row(s, 23).contains("LOCAL-sl")).unwrap();
    ok(&server, &["set", "-t", "sl", "-u", "status-format"]);
    c.wait_for(|s| row(s, 23).trim_end().ends_with("R-sl"))
        .unwrap();
    // A user's own first line replaces tmux's default one.
    ok(&server, &["set", "-g", "status-format[0]", "FIRST #S"]);
    c.wait_for(|s| row(s, 22).starts_with("FIRST sl")).unwrap();
    let shown = ok(&server, &["show", "-g", "status-format"]);
    assert!(shown.contains("status-format[0] \"FIRST #S\""), "{shown}");
    assert!(shown.contains("status-format[1] "), "{shown}");
    // Unset, the array is tmux's defaults again.
    ok(&server, &["set", "-gu", "status-format"]);
    c.wait_for(|s| row(s, 22).starts_with("[sl]") && row(s, 23).contains("0[80x22]"))
        .unwrap();
    // At the top, the first line comes first.
    ok(&server, &["set", "-g", "status-position", "top"]);
    c.wait_for(|s| row(s, 0).starts_with("[sl]") && row(s, 1).contains("0[80x22]"))
        .unwrap();
    ok(&server, &["set", "-g", "status", "on"]);
    c.wait_for(|s| row(s, 0).starts_with("[sl]") && !row(s, 1).contains("[80x"))
        .unwrap();
    assert_eq!(
        ok(&server, &["display", "-p", "#{pane_height}"]).trim(),
        "23"
    );
    // Not an array, not an index: sentences.
    let out = server.weft(&["set", "-g", "mouse[1]", "on"]);
    assert!(stderr_of(&out).contains("not an array option"), "{out:?}");
    let out = server.weft(&["set", "-g", "status-format[x]", "a"]);
    assert!(stderr_of(&out).contains("an index is a number"), "{out:?}");
}

#[test]
fn a_users_command_alias_works_from_the_cli_and_from_a_key() {
    let server = TestServer::new("aliases");
    let mut c = attached_session(&server, "al", None);
    ok(
        &server,
        &[
            "set",
            "-s",
            "command-alias[100]",
            "zz=display-message -p zz-#{session_name}",
        ],
    );
    assert_eq!(ok(&server, &["zz"]).trim(), "zz-al");
    assert!(ok(&server, &["show", "-s", "command-alias"]).contains("command-alias[100] "));
    // `-a` adds one at the next index; tmux's own aliases stay.
    ok(
        &server,
        &["set", "-as", "command-alias", "nw=new-window -n viaalias"],
    );
    ok(&server, &["bind-key", "-n", "F5", "nw"]);
    c.send_keys("F5").unwrap();
    c.wait_for(|_| ok(&server, &["list-windows", "-F", "#W"]).contains("viaalias"))
        .unwrap();
    assert!(
        server.weft(&["splitp", "-d"]).status.success(),
        "tmux's alias"
    );
    // One command an alias: several are refused with what to do instead.
    let out = server.weft(&[
        "set",
        "-s",
        "command-alias[4]",
        "two=new-window ; split-window",
    ]);
    assert!(stderr_of(&out).contains("several commands"), "{out:?}");
    // A bad alias is refused with what to write; an unknown command is still one.
    let out = server.weft(&["set", "-s", "command-alias[3]", "nonsense"]);
    assert!(stderr_of(&out).contains("NAME=COMMAND"), "{out:?}");
    let out = server.weft(&["no-such-command"]);
    assert!(!out.status.success());
    assert!(stderr_of(&out).contains("unknown command"), "{out:?}");
}

#[test]
fn key_table_picks_the_table_keys_go_to_first() {
    let server = TestServer::new("keytable");
    let mut c = attached_session(&server, "kt", None);
    ok(
        &server,
        &[
            "bind-key",
            "-T",
            "mine",
            "F6",
            "new-window",
            "-n",
            "fromtable",
        ],
    );
    ok(&server, &["set", "-g", "key-table", "mine"]);
    c.send_keys("F6").unwrap();
    c.wait_for(|_| ok(&server, &["list-windows", "-F", "#W"]).contains("fromtable"))
        .unwrap();
    // Keys the table does not bind reach the program; the prefix still works.
    c.send_text("echo typed-$((6*7))\r").unwrap();
    c.wait_for_text("typed-42").unwrap();
    c.send_keys("C-b c").unwrap();
    c.wait_for(|_| ok(&server, &["list-windows"]).lines().count() == 3)
        .unwrap();
}

#[test]
fn default_size_sizes_sessions_made_without_a_client() {
    let server = TestServer::new("defsize");
    ok(
        &server,
        &["new", "-d", "-s", "given", "-x", "100", "-y", "30"],
    );
    ok(&server, &["set", "-g", "default-size", "100x30"]);
    ok(&server, &["new", "-d", "-s", "defaulted"]);
    let size = |t: &str| {
        ok(
            &server,
            &["display", "-p", "-t", t, "#{window_width}x#{window_height}"],
        )
    };
    assert_eq!(size("defaulted"), size("given"));
    assert!(size("defaulted").starts_with("100x"));
    let out = server.weft(&["set", "-g", "default-size", "huge"]);
    assert!(stderr_of(&out).contains("80x24"), "{out:?}");
}

#[test]
fn destroy_unattached_ends_a_session_its_last_client_leaves() {
    let server = TestServer::new("destroyun");
    detached_session(&server, "keep");
    // A second client watches the session list in its status line.
    let mut watcher = server.client(&["attach", "-t", "keep"], 80, 24);
    ok(
        &server,
        &["set", "-g", "status-left", "#{S:<#{session_name}>}"],
    );
    let mut c = attached_session(&server, "gone", None);
    watcher.wait_for(|s| row(s, 23).contains("<gone>")).unwrap();
    ok(&server, &["set", "-t", "gone", "destroy-unattached", "on"]);
    c.send_keys("C-b d").unwrap();
    c.wait_exit().unwrap();
    watcher
        .wait_for(|s| row(s, 23).contains("<keep>") && !row(s, 23).contains("<gone>"))
        .unwrap();
    assert!(!server.weft(&["has-session", "-t", "gone"]).status.success());
    assert!(server.weft(&["has-session", "-t", "keep"]).status.success());
}

#[test]
fn cursor_style_reaches_the_terminal_until_the_program_sets_its_own() {
    let server = TestServer::new("cursorstyle");
    let mut c = attached_session(&server, "cs", None);
    ok(&server, &["set", "-g", "cursor-style", "bar"]);
    c.send_text("\r").unwrap();
    c.wait_for(|s| s.cursor_state().style == 6).unwrap();
    // The program's own choice wins.
    c.send_text("printf '\\033[4 q'\r").unwrap();
    c.wait_for(|s| s.cursor_state().style == 4).unwrap();
    let out = server.weft(&["set", "-g", "cursor-style", "sparkly"]);
    assert!(!out.status.success());
}

#[test]
fn remain_on_exit_format_is_the_dead_panes_line() {
    let server = TestServer::new("deadline");
    detached_session(&server, "d");
    ok(&server, &["set", "-g", "remain-on-exit", "on"]);
    ok(
        &server,
        &[
            "set",
            "-g",
            "remain-on-exit-format",
            "gone with #{pane_dead_status}",
        ],
    );
    let pane = split_pane(&server, &["-d", "--", "sh", "-c", "exit 4"]);
    let out = server.weft(&["wait", "-t", &pane, "--text", "gone with 4"]);
    assert!(out.status.success(), "{out:?}");
}

#[test]
fn a_cleared_screen_is_kept_in_the_history_unless_scroll_on_clear_is_off() {
    let server = TestServer::new("scrollclear");
    detached_session(&server, "c");
    let run = |line: &str, done: &str| {
        ok(&server, &["send-keys", "-t", "c", line, "Enter"]);
        let out = server.weft(&["wait", "-t", "c", "--text", done]);
        assert!(out.status.success(), "{out:?}");
    };
    run(
        "echo before-$((2*21)); printf '\\033[H\\033[2J'; echo after-$((2*2))",
        "after-4",
    );
    let history = ok(
        &server,
        &["capture-pane", "-p", "-t", "c", "-S", "-", "-E", "-1"],
    );
    assert!(history.contains("before-42"), "{history}");
    ok(&server, &["set", "-g", "scroll-on-clear", "off"]);
    run(
        "echo gone-$((3*3)); printf '\\033[H\\033[2J'; echo cleared-$((3*2))",
        "cleared-6",
    );
    let history = ok(
        &server,
        &["capture-pane", "-p", "-t", "c", "-S", "-", "-E", "-1"],
    );
    assert!(!history.contains("gone-9"), "{history}");
}

#[test]
fn capture_pane_keeps_its_text_in_a_buffer_from_a_key_or_with_b() {
    let server = TestServer::new("capbuf");
    let mut c = attached_session(&server, "cb", None);
    c.send_text("echo captured-$((5*5))   \r").unwrap();
    c.wait_for_text("captured-25").unwrap();
    // tmux's way from a key: no -p, so the text goes to a new buffer.
    ok(
        &server,
        &["bind-key", "-n", "F7", "capture-pane", "-S", "-"],
    );
    c.send_keys("F7").unwrap();
    c.wait_for(|_| ok(&server, &["list-buffers"]).contains("buffer"))
        .unwrap();
    assert!(ok(&server, &["show-buffer"]).contains("captured-25"));
    // -b names the buffer, from the command line too, and prints nothing.
    assert_eq!(ok(&server, &["capture-pane", "-b", "mine", "-t", "cb"]), "");
    assert!(ok(&server, &["show-buffer", "-b", "mine"]).contains("captured-25"));
    // From the command line without -b, it prints (weft's scripting use).
    assert!(ok(&server, &["capture-pane", "-t", "cb"]).contains("captured-25"));
    // -N keeps the trailing spaces of what the program wrote, -C shows controls in octal.
    c.send_text("printf 'tab\\there  \\n'\r").unwrap();
    c.wait_for_text("tab").unwrap();
    let kept = ok(&server, &["capture-pane", "-p", "-N", "-t", "cb"]);
    assert!(kept.lines().any(|l| l.len() == 80), "{kept}");
    c.send_text("echo 'back\\slash'\r").unwrap();
    c.wait_for_text("back\\slash").unwrap();
    let escaped = ok(&server, &["capture-pane", "-p", "-C", "-t", "cb"]);
    assert!(escaped.contains("back\\\\slash"), "{escaped}");
    let out = server.weft(&["capture-pane", "-b", "x", "--json", "-t", "cb"]);
    assert!(!out.status.success());
}

#[test]
fn an_alias_a_configuration_file_sets_works_in_its_later_lines() {
    let server = TestServer::new("confalias");
    let conf = weft_tests::write_file(
        &server,
        "alias.conf",
        "set -s command-alias[20] 'mw=new-window -n fromconf'\nbind-key -n F8 mw\n",
    );
    let mut c = attached_session(&server, "ca", Some(conf.to_str().unwrap()));
    c.send_keys("F8").unwrap();
    c.wait_for(|_| ok(&server, &["list-windows", "-F", "#W"]).contains("fromconf"))
        .unwrap();
}

#[test]
fn source_file_f_finds_a_file_beside_the_one_being_read() {
    let server = TestServer::new("sourcef");
    let dir = server.dir.join("conf.d");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("keys.conf"), "set -g @beside loaded-beside\n").unwrap();
    std::fs::write(
        dir.join("main.conf"),
        "source-file -F '#{d:current_file}/keys.conf'\n",
    )
    .unwrap();
    let main = dir.join("main.conf");
    let _c = attached_session(&server, "sf", Some(main.to_str().unwrap()));
    assert_eq!(
        ok(&server, &["show", "-gv", "@beside"]).trim(),
        "loaded-beside"
    );
    // From the command line, a format of the options in force.
    ok(&server, &["set", "-g", "@dir", dir.to_str().unwrap()]);
    std::fs::write(dir.join("more.conf"), "set -g @more yes\n").unwrap();
    ok(&server, &["source-file", "-F", "#{@dir}/more.conf"]);
    assert_eq!(ok(&server, &["show", "-gv", "@more"]).trim(), "yes");
}

#[test]
fn exit_unattached_ends_the_server_when_its_last_client_leaves() {
    let server = TestServer::new("exitun");
    let mut c = attached_session(&server, "eu", None);
    ok(&server, &["set", "-s", "exit-unattached", "on"]);
    detached_session(&server, "other");
    let pid = weft_tests::server_pid(&server);
    c.send_keys("C-b d").unwrap();
    c.wait_exit().unwrap();
    // The server goes though a session is left.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while std::path::Path::new(&format!("/proc/{pid}")).exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "the server is still running"
        );
        std::thread::sleep(std::time::Duration::from_millis(20)); // deadline-ok: polling the server's exit
    }
    assert!(!server
        .weft(&["has-session", "-t", "other"])
        .status
        .success());
}

#[test]
fn set_environment_f_expands_the_value() {
    let server = TestServer::new("setenvf");
    detached_session(&server, "se");
    ok(
        &server,
        &[
            "set-environment",
            "-F",
            "-t",
            "se",
            "FROM_FORMAT",
            "in-#{session_name}",
        ],
    );
    let shown = ok(&server, &["show-environment", "-t", "se", "FROM_FORMAT"]);
    assert_eq!(shown.trim(), "FROM_FORMAT=in-se");
    ok(&server, &["set", "-g", "@where", "global-value"]);
    ok(
        &server,
        &["set-environment", "-gF", "GLOBAL_FORMAT", "#{@where}"],
    );
    let shown = ok(&server, &["show-environment", "-g", "GLOBAL_FORMAT"]);
    assert_eq!(shown.trim(), "GLOBAL_FORMAT=global-value");
}

#[test]
fn a_format_expanded_for_a_command_keeps_its_percent_signs() {
    let server = TestServer::new("pctkept");
    detached_session(&server, "pc");
    // The shell test is a format of the pane (#{session_name}), and its `%s` stays printf's,
    // as tmux's format_single leaves it.
    ok(
        &server,
        &[
            "if-shell",
            "-t",
            "pc",
            "printf '%s' '#{session_name}' | grep -qx pc",
            "set -g @pct kept",
        ],
    );
    assert_eq!(ok(&server, &["show", "-gv", "@pct"]).trim(), "kept");
}

#[test]
fn user_keys_from_a_configuration_file_are_keys_to_bind() {
    let server = TestServer::new("userkeys");
    // Written as tmux's documentation writes it: `\e` in double quotes is ESC.
    let conf = weft_tests::write_file(
        &server,
        "userkeys.conf",
        "set -s escape-time 10000\nset -s user-keys[0] \"\\e[5;30012~\"\n\
         bind-key -n User0 new-window -n fromuserkey\n",
    );
    let mut c = attached_session(&server, "uk", Some(conf.to_str().unwrap()));
    // The terminal sends the sequence in two reads: one key all the same.
    c.send_bytes(b"\x1b[5;30").unwrap();
    c.send_bytes(b"012~").unwrap();
    c.wait_for(|_| ok(&server, &["list-windows", "-F", "#W"]).contains("fromuserkey"))
        .unwrap();
    // Unbound, the sequence reaches no program (as in tmux): the shell sees only what follows.
    ok(&server, &["unbind-key", "-n", "User0"]);
    ok(&server, &["select-window", "-t", "uk:0"]);
    c.send_bytes(b"\x1b[5;30012~").unwrap();
    c.send_text("echo after-$((6*7))\r").unwrap();
    c.wait_for_text("after-42").unwrap();
    assert!(
        !c.screen().text().contains("30012"),
        "{}",
        c.screen().text()
    );
}
