//! Options and key bindings changed while weft runs, and configuration files in tmux's syntax.

use weft_testkit::TestTerminal;
use weft_tests::{attached_session, stderr_of, stdout_of, TestServer, TEST_SHELL};

fn show(server: &TestServer, option: &str) -> String {
    weft_tests::show_option(server, option)
}

fn pane_count(server: &TestServer) -> usize {
    stdout_of(&server.weft(&["list-panes"])).lines().count()
}

#[test]
fn options_change_at_once_on_an_attached_client() {
    let server = TestServer::new("setopt");
    let mut c = attached_session(&server, "o", None);
    c.wait_for(|s| s.row(23).is_some_and(|r| r.text().contains("[o]")))
        .unwrap();
    // The status line goes, and comes back at the top.
    assert!(server
        .weft(&["set", "-g", "status", "off"])
        .status
        .success());
    c.wait_for(|s| !s.text().contains("[o]")).unwrap();
    assert!(server.weft(&["set", "-g", "status", "on"]).status.success());
    assert!(server
        .weft(&["set", "-g", "status-position", "top"])
        .status
        .success());
    c.wait_for(|s| s.row(0).is_some_and(|r| r.text().contains("[o]")))
        .unwrap();
    // A new prefix works at once; the old one is an ordinary key.
    assert!(server
        .weft(&["set", "-g", "prefix", "C-a"])
        .status
        .success());
    c.send_keys("C-a c").unwrap();
    c.wait_for(|_| stdout_of(&server.weft(&["list-windows"])).lines().count() == 2)
        .unwrap();
    // Values, toggles, user options, unset.
    assert!(server.weft(&["set", "-g", "mouse"]).status.success());
    assert_eq!(
        show(&server, "mouse"),
        "off",
        "a flag without a value toggles"
    );
    assert!(server
        .weft(&["set", "-g", "@theme", "dark"])
        .status
        .success());
    assert!(server
        .weft(&["set", "-ga", "@theme", "-blue"])
        .status
        .success());
    assert_eq!(show(&server, "@theme"), "dark-blue");
    assert!(server.weft(&["set", "-gu", "prefix"]).status.success());
    assert_eq!(show(&server, "prefix"), "C-b");
    // Every option weft knows takes effect, quietly; an unknown one is a sentence.
    let out = server.weft(&["set", "-g", "lock-after-time", "60"]);
    assert!(
        out.status.success() && stderr_of(&out).is_empty(),
        "{out:?}"
    );
    assert_eq!(show(&server, "lock-after-time"), "60");
    let out = server.weft(&["set", "-g", "no-such-option", "1"]);
    assert!(!out.status.success());
    assert!(
        stderr_of(&out).contains("unknown option: no-such-option"),
        "{out:?}"
    );
    assert!(server
        .weft(&["set", "-gq", "no-such-option", "1"])
        .status
        .success());
    let out = server.weft(&["set", "-g", "mouse", "sometimes"]);
    assert!(stderr_of(&out).contains("on or off"), "{out:?}");
}

#[test]
fn bindings_are_added_removed_and_run_sequences() {
    let server = TestServer::new("bindrt");
    let mut c = attached_session(&server, "b", None);
    assert!(server
        .weft(&["bind", "|", "split-window", "-h"])
        .status
        .success());
    c.send_keys("C-b |").unwrap();
    c.wait_for(|_| pane_count(&server) == 2).unwrap();
    // A sequence bound to a key without the prefix.
    assert!(server
        .weft(&["bind", "-n", "M-w", "new-window ; split-window"])
        .status
        .success());
    c.send_keys("M-w").unwrap();
    c.wait_for(|_| {
        stdout_of(&server.weft(&["list-windows"])).lines().count() == 2 && pane_count(&server) == 2
    })
    .unwrap();
    let keys = stdout_of(&server.weft(&["list-keys", "-T", "root"]));
    assert!(keys.contains("new-window \\; split-window"), "{keys}");
    assert!(server
        .weft(&[
            "bind",
            "-N",
            "Split side by side",
            "V",
            "split-window",
            "-h"
        ])
        .status
        .success());
    let notes = stdout_of(&server.weft(&["list-keys", "-N"]));
    assert!(notes.contains("Split side by side"), "{notes}");
    assert!(server.weft(&["unbind", "|"]).status.success());
    let keys = stdout_of(&server.weft(&["list-keys", "-T", "prefix"]));
    assert!(!keys.contains("bind-key -T prefix |"), "{keys}");
    // A binding that cannot run is refused when it is made.
    let out = server.weft(&["bind", "x", "no-such-command"]);
    assert!(!out.status.success());
    assert!(stderr_of(&out).contains("unknown command"), "{out:?}");
}

#[test]
fn a_popular_tmux_config_starts_applies_what_weft_knows_and_lists_the_rest() {
    let server = TestServer::new("tmuxconf");
    let conf = concat!(env!("CARGO_MANIFEST_DIR"), "/data/tmux-popular.conf");
    let out = server.weft(&["-f", conf, "new", "-d", "-s", "t", "--", "sleep", "60"]);
    assert!(out.status.success(), "{out:?}");
    // Warnings name the file and line of what weft does not run.
    let said = format!("{}{}", stdout_of(&out), stderr_of(&out));
    // The plugin manager is run, as tmux runs it; it is not installed here.
    assert!(
        said.contains("tmux-popular.conf:34: run-shell: '~/.tmux/plugins/tpm/tpm' returned 127"),
        "{said}"
    );
    assert!(!said.contains(":31:"), "the %if line is evaluated: {said}");
    assert_eq!(
        show(&server, "status-bg"),
        "default",
        "this host is not `laptop`"
    );
    assert!(!said.contains(":13:"), "terminal-overrides applies: {said}");
    assert!(!said.contains("pane-base-index"), "acted on: {said}");
    // Windows and panes count from 1, as the file says.
    assert!(server
        .weft(&["split-window", "-d", "-t", "t", "--", "sleep", "60"])
        .status
        .success());
    let out = server.weft(&["display", "-p", "-t", "t:1.2", "#I.#P #{pane_index}"]);
    assert_eq!(stdout_of(&out).trim(), "1.2 2", "{out:?}");
    assert!(!server
        .weft(&["display", "-p", "-t", "t:1.0", "#P"])
        .status
        .success());
    assert_eq!(show(&server, "prefix"), "C-a");
    assert_eq!(show(&server, "history-limit"), "50000");
    assert_eq!(show(&server, "escape-time"), "0");
    assert_eq!(show(&server, "mode-keys"), "vi");
    assert_eq!(show(&server, "default-terminal"), "tmux-256color");
    assert_eq!(
        show(&server, "status-left"),
        "#[fg=green]#S",
        "(trailing blank trimmed here)"
    );
    assert_eq!(show(&server, "@plugin"), "tmux-plugins/tmux-sensible");
    let keys = stdout_of(&server.weft(&["list-keys", "-T", "prefix"]));
    assert!(
        keys.contains("split-window -h -c \"#{pane_current_path}\""),
        "{keys}"
    );
    assert!(
        !keys.contains("bind-key -T prefix C-b "),
        "C-b unbound: {keys}"
    );
}

#[test]
fn source_file_appends_and_takes_home_and_globs() {
    let server = TestServer::new("sourcef");
    let _c = attached_session(&server, "s", None);
    let dir = server.dir.join("conf.d");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.conf"), "set -g @a one\n").unwrap();
    std::fs::write(dir.join("b.conf"), "set -g @b two\nbind Z new-window\n").unwrap();
    std::fs::write(dir.join("c.txt"), "set -g @c three\n").unwrap();
    // `~` is the test's home (HOME is its directory); `*` picks the .conf files.
    let out = server.weft(&["source-file", "~/conf.d/*.conf"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(show(&server, "@a"), "one");
    assert_eq!(show(&server, "@b"), "two");
    assert_eq!(show(&server, "@c"), "");
    // Appending: what an earlier file set stays.
    std::fs::write(dir.join("d.conf"), "set -g @d four\n").unwrap();
    assert!(server
        .weft(&["source-file", &dir.join("d.conf").display().to_string()])
        .status
        .success());
    assert_eq!(show(&server, "@a"), "one");
    assert_eq!(show(&server, "@d"), "four");
    // A missing file: an error, or nothing with -q.
    assert!(!server
        .weft(&["source-file", "~/nope.conf"])
        .status
        .success());
    assert!(server
        .weft(&["source-file", "-q", "~/nope.conf"])
        .status
        .success());
}

#[test]
fn the_first_client_to_attach_sees_the_configurations_warnings() {
    let server = TestServer::new("confwarn");
    let conf = server.dir.join("weft.conf");
    std::fs::write(
        &conf,
        "set -g mouse on\nfrobnicate --now\nset -g history-limit x\n",
    )
    .unwrap();
    let mut args = vec!["-f", conf.to_str().unwrap(), "new", "-s", "w", "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut c = server.client(&args, 100, 24);
    c.wait_for(|s| {
        let t = s.text();
        t.contains("could not apply")
            && t.contains("weft.conf:2: unknown command: frobnicate")
            && t.contains("weft.conf:3: history-limit: a number")
    })
    .unwrap();
    // q closes them, as tmux's view mode; the shell is there.
    c.send_keys("q").unwrap();
    c.wait_for(|s| !s.text().contains("could not apply"))
        .unwrap();
    c.wait_for_text("$").unwrap();
}

#[test]
fn a_repeatable_binding_needs_the_prefix_once() {
    let server = TestServer::new("repeat");
    let mut c = attached_session(&server, "r", None);
    for _ in 0..2 {
        assert!(server
            .weft(&["split-window", "-v", "-t", "r", "--", "cat"])
            .status
            .success());
    }
    let active = |server: &TestServer| {
        weft_tests::json_list(server, &["list-panes", "--json"])
            .iter()
            .position(|p| p["active"] == true)
    };
    assert_eq!(active(&server), Some(2));
    // Up is bound with -r (as in tmux): the second Up goes to the prefix table too.
    c.send_keys("C-b Up Up").unwrap();
    c.wait_for(|_| active(&server) == Some(0)).unwrap();
    let keys = stdout_of(&server.weft(&["list-keys", "-T", "prefix"]));
    assert!(keys.contains("bind-key -r -T prefix Up"), "{keys}");
}

#[test]
fn set_environment_reaches_new_panes() {
    let server = TestServer::new("setenv");
    let mut c = attached_session(&server, "e", None);
    assert!(server
        .weft(&["set-environment", "-g", "WEFT_T_GLOBAL", "from-global"])
        .status
        .success());
    assert!(server
        .weft(&["setenv", "-t", "e", "WEFT_T_SESSION", "from-session"])
        .status
        .success());
    assert!(server
        .weft(&["setenv", "-r", "-t", "e", "XDG_CONFIG_HOME"])
        .status
        .success());
    let shown = stdout_of(&server.weft(&["show-environment", "-t", "e"]));
    assert!(
        shown.contains("WEFT_T_SESSION=from-session") && shown.contains("-XDG_CONFIG_HOME"),
        "{shown}"
    );
    // -g: the server's own environment (HOME is the test's directory there) under the
    // global changes.
    let global = stdout_of(&server.weft(&["show-environment", "-g"]));
    let home = format!("HOME={}", server.dir.display());
    assert!(global.lines().any(|l| l == home), "{global}");
    assert!(!global.contains("WEFT_T_SESSION"), "{global}");
    assert!(server.weft(&["new-window", "-t", "e"]).status.success());
    c.wait_for(|_| stdout_of(&server.weft(&["list-windows"])).lines().count() == 2)
        .unwrap();
    c.wait_for_text("$").unwrap();
    c.send_text("echo \"[$WEFT_T_GLOBAL/$WEFT_T_SESSION/${XDG_CONFIG_HOME-unset}]\"")
        .unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("[from-global/from-session/unset]").unwrap();
}

#[test]
fn other_published_config_shapes_start_and_list_what_weft_skips() {
    let server = TestServer::new("tmuxconf2");
    let vim = concat!(env!("CARGO_MANIFEST_DIR"), "/data/tmux-vim-user.conf");
    let out = server.weft(&["-f", vim, "new", "-d", "-s", "v", "--", "sleep", "60"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(show(&server, "mode-keys"), "vi");
    assert_eq!(show(&server, "escape-time"), "10");
    let keys = stdout_of(&server.weft(&["list-keys", "-T", "copy-mode-vi"]));
    assert!(keys.contains("copy-pipe-and-cancel"), "{keys}");
    // A framework-style config: everything applies, its hook and its if-shell too (the test
    // runs in the server's environment, where HOME is the test's directory).
    std::fs::write(server.dir.join(".tmux.conf.local"), "set -g @local yes\n").unwrap();
    let framework = concat!(env!("CARGO_MANIFEST_DIR"), "/data/tmux-framework.conf");
    let out = server.weft(&["source-file", framework]);
    let said = stderr_of(&out);
    assert!(!said.contains(":11:"), "set-hook applies: {said}");
    let hooks = stdout_of(&server.weft(&["show-hooks", "-g"]));
    assert!(
        hooks.contains("after-new-window[0] display \"new window\""),
        "{hooks}"
    );
    assert!(!said.contains(":12:"), "if-shell runs: {said}");
    assert_eq!(show(&server, "@local"), "yes");
    assert_eq!(show(&server, "@continuum-restore"), "on");
    assert_eq!(show(&server, "prefix2"), "C-a");
}

#[test]
fn the_prompt_completes_edits_and_remembers() {
    let server = TestServer::new("prompt");
    let mut c = attached_session(&server, "p", None);
    let windows = |s: &TestServer| stdout_of(&s.weft(&["list-windows"])).lines().count();
    // Tab completes the command name; Enter runs it.
    c.send_keys("C-b :").unwrap();
    c.send_text("new-wi").unwrap();
    c.send_keys("Tab").unwrap();
    c.wait_for_text(":new-window").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| s.text().contains("1:bash*")).unwrap();
    // Up brings the line back; editing in the middle works.
    c.send_keys("C-b :").unwrap();
    c.send_keys("Up").unwrap();
    c.wait_for_text(":new-window").unwrap();
    c.send_keys("C-a").unwrap();
    c.send_text("   ").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| s.text().contains("2:bash*")).unwrap();
    assert_eq!(windows(&server), 3);
}

#[test]
fn the_prompt_completes_sessions_and_their_windows_after_t() {
    let server = TestServer::new("prompt-targets");
    let mut c = attached_session(&server, "p", None);
    let mut args = vec!["new", "-d", "-s", "workbench", "-n", "editor", "--"];
    args.extend_from_slice(TEST_SHELL);
    assert!(server.weft(&args).status.success());
    c.send_keys("C-b :").unwrap();
    c.send_text("switch-client -t workb").unwrap();
    c.send_keys("Tab").unwrap();
    // The session's name with its colon, and no space: a window may follow.
    c.wait_for(|s| {
        s.text()
            .lines()
            .any(|l| l.trim_end() == ":switch-client -t workbench:")
    })
    .unwrap();
    c.send_text("ed").unwrap();
    c.send_keys("Tab").unwrap();
    c.wait_for_text(":switch-client -t workbench:editor")
        .unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for(|s| s.text().contains("[workbench") && s.text().contains("0:editor*"))
        .unwrap();
}

#[test]
fn a_key_table_of_ones_own_is_entered_with_switch_client_t() {
    let server = TestServer::new("usertable");
    let mut c = attached_session(&server, "u", None);
    assert!(server
        .weft(&["bind", "-T", "windows", "n", "new-window"])
        .status
        .success());
    assert!(server
        .weft(&["bind", "w", "switch-client", "-T", "windows"])
        .status
        .success());
    // C-b w, then n in the "windows" table: a new window.
    c.send_keys("C-b w n").unwrap();
    c.wait_for(|s| s.text().contains("1:bash*")).unwrap();
    // The table lasts one key: the next n is typed into the shell.
    c.send_text("echo typed-$((40+2))").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("typed-42").unwrap();
    let keys = stdout_of(&server.weft(&["list-keys", "-T", "windows"]));
    assert!(keys.contains("bind-key -T windows n"), "{keys}");
}

#[test]
fn update_environment_takes_the_reattaching_clients_values() {
    let server = TestServer::new("updenv");
    let mut args = vec!["new", "-d", "-s", "ue", "--"];
    args.extend_from_slice(TEST_SHELL);
    assert!(server.weft(&args).status.success());
    assert!(server
        .weft(&["set", "-g", "update-environment", "WEFT_T_AGENT DISPLAY"])
        .status
        .success());
    // An attach over "SSH" with a new agent socket: new panes get it.
    let mut c = server.client_env(
        &["attach", "-t", "ue"],
        80,
        24,
        &[("WEFT_T_AGENT", "/tmp/agent.2")],
    );
    c.wait_for_text("[ue]").unwrap();
    assert!(server.weft(&["new-window", "-t", "ue"]).status.success());
    c.wait_for(|s| s.text().contains("1:bash*")).unwrap();
    c.send_text("echo \"[$WEFT_T_AGENT]\"").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("[/tmp/agent.2]").unwrap();
    let shown = stdout_of(&server.weft(&["show-environment", "-t", "ue"]));
    assert!(
        shown.contains("WEFT_T_AGENT=/tmp/agent.2") && shown.contains("-DISPLAY"),
        "{shown}"
    );
}

/// The panes after setting `option` to `value` and choosing the main-vertical layout.
fn main_vertical_with(server: &TestServer, option: &str, value: &str) -> Vec<serde_json::Value> {
    for args in [
        &["set", "-g", option, value][..],
        &["select-layout", "main-vertical"],
    ] {
        let out = server.weft(args);
        assert!(out.status.success(), "{args:?}: {out:?}");
    }
    weft_tests::json_list(server, &["list-panes", "--json"])
}

#[test]
fn a_second_prefix_and_the_main_pane_size() {
    let server = TestServer::new("prefix2");
    let mut c = attached_session(&server, "p2", None);
    assert!(server
        .weft(&["set", "-g", "prefix2", "C-a"])
        .status
        .success());
    assert_eq!(show(&server, "prefix2"), "C-a");
    c.send_keys("C-a %").unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while pane_count(&server) != 2 {
        assert!(std::time::Instant::now() < deadline, "C-a % made no pane");
    }
    // The first prefix still works.
    c.send_keys("C-b %").unwrap();
    while pane_count(&server) != 3 {
        assert!(std::time::Instant::now() < deadline, "C-b % made no pane");
    }
    // The main pane's width (cells or a percentage); other-pane-width makes the others
    // narrower, and so the main pane wider.
    for (option, value, main_cols) in [
        ("main-pane-width", "30", 30),
        ("main-pane-width", "50%", 40),
        ("other-pane-width", "20", 59),
    ] {
        let panes = main_vertical_with(&server, option, value);
        let main = panes.iter().find(|p| p["left"] == 0).unwrap();
        assert_eq!(main["cols"], main_cols, "{option} {value}: {panes:?}");
    }
    let panes = main_vertical_with(&server, "other-pane-width", "20");
    assert!(
        panes.iter().all(|p| p["left"] == 0 || p["cols"] == 20),
        "{panes:?}"
    );
    assert!(server
        .weft(&["set", "-g", "prefix2", "None"])
        .status
        .success());
    assert_eq!(show(&server, "prefix2"), "None");
}

#[test]
fn default_command_runs_in_new_panes_given_no_command() {
    let server = TestServer::new("defcmd");
    let mut args = vec!["new", "-d", "-s", "d", "--"];
    args.extend_from_slice(TEST_SHELL);
    assert!(server.weft(&args).status.success());
    // tmux runs it through the shell: the arithmetic proves a shell ran it.
    let set = server.weft(&[
        "set",
        "-g",
        "default-command",
        "echo dc-$((2+3)); exec sleep 60",
    ]);
    assert!(set.status.success(), "{set:?}");
    assert!(!stderr_of(&set).contains("does not use"), "{set:?}");
    assert!(server
        .weft(&["new-window", "-d", "-t", "d"])
        .status
        .success());
    let waited = server.weft(&["wait", "-t", "d:1", "--text", "dc-5", "--timeout", "10"]);
    assert!(waited.status.success(), "{waited:?}");
    // A command given still wins, and unset again means the shell.
    assert!(server
        .weft(&[
            "new-window",
            "-d",
            "-t",
            "d",
            "--",
            "sh",
            "-c",
            "echo given; exec sleep 60"
        ])
        .status
        .success());
    let waited = server.weft(&["wait", "-t", "d:2", "--text", "given", "--timeout", "10"]);
    assert!(waited.status.success(), "{waited:?}");
    assert!(!stdout_of(&server.weft(&["capture", "-p", "-t", "d:2"])).contains("dc-5"));
    assert!(server
        .weft(&["set", "-gu", "default-command"])
        .status
        .success());
    assert!(server
        .weft(&["split-window", "-d", "-t", "d:0"])
        .status
        .success());
    let panes =
        stdout_of(&server.weft(&["list-panes", "-t", "d:0", "-F", "#{pane_current_command}"]));
    assert!(!panes.contains("sleep"), "{panes}");
}

#[test]
fn allow_rename_lets_a_program_name_its_window_with_screens_escape() {
    let server = TestServer::new("allowrename");
    let mut c = attached_session(&server, "r", None);
    let name_it = |c: &mut TestTerminal, name: &str, done: &str| {
        c.send_text(&format!(
            "printf '\\033k{name}\\033\\\\'; echo {done}-$((1+1))"
        ))
        .unwrap();
        c.send_keys("Enter").unwrap();
        c.wait_for_text(&format!("{done}-2")).unwrap();
    };
    // Off (tmux's default): the name is swallowed, never printed, and the window keeps its own.
    name_it(&mut c, "ignored", "first");
    assert!(
        !c.screen().text().contains("ignored\n"),
        "{}",
        c.screen().text()
    );
    let windows = stdout_of(&server.weft(&["list-windows", "-F", "#W"]));
    assert_eq!(windows.trim(), "bash");
    assert!(server
        .weft(&["set", "-g", "allow-rename", "on"])
        .status
        .success());
    name_it(&mut c, "editor", "second");
    c.wait_until("status line shows the name", |s| {
        s.text()
            .lines()
            .last()
            .is_some_and(|l| l.contains("0:editor*"))
    })
    .unwrap();
    let windows = stdout_of(&server.weft(&["list-windows", "-F", "#W #{automatic-rename}"]));
    assert!(windows.starts_with("editor"), "{windows}");
}

#[test]
fn unbind_a_n_and_t_empty_tables_that_still_list() {
    let server = TestServer::new("unbindall");
    let _c = attached_session(&server, "u", None);
    let listed = |table: &str| {
        let out = server.weft(&["list-keys", "-T", table]);
        assert!(out.status.success(), "{table}: {out:?}");
        stdout_of(&out)
    };
    assert!(listed("copy-mode").contains("bind-key -T copy-mode"));
    assert!(server
        .weft(&["bind", "-n", "M-x", "new-window"])
        .status
        .success());
    assert!(listed("root").contains("M-x"));
    assert!(server.weft(&["unbind", "-n", "M-x"]).status.success());
    assert!(!listed("root").contains("M-x"));
    assert!(server
        .weft(&["unbind", "-a", "-T", "copy-mode"])
        .status
        .success());
    assert_eq!(
        listed("copy-mode").trim(),
        "",
        "an emptied table lists nothing"
    );
    assert!(server.weft(&["unbind", "-a"]).status.success());
    assert_eq!(listed("prefix").trim(), "");
    // A table of nobody's making is still an error that says which exist.
    let out = server.weft(&["list-keys", "-T", "nosuch"]);
    assert!(stderr_of(&out).contains("no key table"), "{out:?}");
}

#[test]
fn if_shell_in_a_configuration_file_chooses_lines_by_a_test_or_a_format() {
    let server = TestServer::new("confif");
    let conf = server.dir.join("if.conf");
    std::fs::write(
        &conf,
        "if-shell 'true' 'set -g @a yes' 'set -g @a no'\n\
         if 'test 1 = 2' 'set -g @b yes' 'set -g @b no'\n\
         if-shell -F '#{==:#{@a},yes}' 'set -g @c yes'\n\
         if-shell 'false' 'set -g @d yes'\n\
         %if \"#{==:#{@a},yes}\"\n\
         set -g @e yes\n\
         %else\n\
         set -g @e no\n\
         %endif\n",
    )
    .unwrap();
    let out = server.weft(&[
        "-f",
        conf.to_str().unwrap(),
        "new",
        "-d",
        "-s",
        "i",
        "--",
        "sleep",
        "60",
    ]);
    assert!(out.status.success(), "{out:?}");
    assert!(stderr_of(&out).is_empty(), "{out:?}");
    assert_eq!(show(&server, "@a"), "yes");
    assert_eq!(show(&server, "@b"), "no");
    assert_eq!(show(&server, "@c"), "yes");
    assert_eq!(show(&server, "@d"), "");
    assert_eq!(show(&server, "@e"), "yes");
}

#[test]
fn with_alternate_screen_off_a_full_screen_program_leaves_its_output_behind() {
    let server = TestServer::new("altoff");
    let mut c = attached_session(&server, "a", None);
    let out = server.weft(&["set", "-p", "-t", "a", "alternate-screen", "off"]);
    assert!(out.status.success(), "{out:?}");
    c.send_text("printf '\\033[?1049hin-alt-%s\\n\\033[?1049l' screen")
        .unwrap();
    c.send_keys("Enter").unwrap();
    let out = server.weft(&["wait", "-t", "a", "--text", "in-alt-screen"]);
    assert!(out.status.success(), "{out:?}");
    // Still there once the program has "left" the alternate screen it never entered.
    c.send_text("echo done-$((2+2))").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("done-4").unwrap();
    assert!(
        c.screen().text().contains("in-alt-screen"),
        "{}",
        c.screen().text()
    );
    assert_eq!(
        stdout_of(&server.weft(&["display", "-p", "-t", "a", "#{alternate_on}"])).trim(),
        "0"
    );
}

#[test]
fn keys_closer_than_assume_paste_time_reach_the_pane_not_a_binding() {
    let server = TestServer::new("pastetime");
    let mut c = attached_session(&server, "a", None);
    let out = server.weft(&["set", "-g", "assume-paste-time", "200"]);
    assert!(out.status.success(), "{out:?}");
    // Text, then the prefix and `x` right behind it, as a terminal sends a paste it does not
    // bracket: from the third fast key on, keys are pasted. `C-b x` would ask to kill the
    // pane; pasted, the shell gets C-b (back a character) and x.
    c.send_keys("e c h o Space a b C-b x Enter").unwrap();
    c.wait_for_text("axb").unwrap();
    assert!(
        !c.screen().text().contains("kill-pane?"),
        "{}",
        c.screen().text()
    );
    // Off again: the same keys run the binding.
    let out = server.weft(&["set", "-g", "assume-paste-time", "0"]);
    assert!(out.status.success(), "{out:?}");
    c.send_keys("C-b x").unwrap();
    c.wait_for_text("kill-pane?").unwrap();
    c.send_keys("n").unwrap();
}
