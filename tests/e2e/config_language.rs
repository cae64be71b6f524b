//! tmux's configuration language beyond single commands: variables (`NAME=value`, `$NAME`,
//! `~`), shell commands run while a file is read, commands separated by `\;` against a word,
//! and formats in `if-shell`'s test, as the widely shared configurations use them.

use weft_tests::{show_option as show, stderr_of, stdout_of, write_file, TestServer};

#[test]
fn a_configuration_sets_and_expands_variables_and_runs_shell_commands() {
    let server = TestServer::new("confvars");
    // The background command writes into a fifo the pane's program reads.
    let fifo = server.dir.join("from-background");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let conf = write_file(
        &server,
        "vars.conf",
        &format!(
            "main=colour39\n\
             %hidden TAG=hid\n\
             set -g status-style \"fg=$main\"\n\
             set -g @home ~/x\n\
             set -g @tag \"${{TAG}}-1\"\n\
             set -g @literal '$main'\n\
             bind r set -g @r one\\; set -g @r2 two\n\
             run-shell 'echo printed-by-run'\n\
             run 'echo why-it-failed; exit 3'\n\
             run -b 'echo BG-SEEN > {fifo}'\n\
             run -C 'set -g @from-run yes'\n\
             run '{weft} -S {socket} new -d -s nested'\n\
             if-shell -F 1 {{ set -g @in-block \"[$main]\" }}\n\
             shadow=seen\n\
             %hidden shadow=hidden\n\
             set -g @shadow \"$shadow\"\n",
            fifo = fifo.display(),
            weft = weft_tests::weft_binary().display(),
            socket = server.socket.display(),
        ),
    );
    let read_fifo = format!("cat {}; exec sleep 60", fifo.display());
    let out = server.weft(&[
        "-f",
        conf.to_str().unwrap(),
        "new",
        "-d",
        "-s",
        "v",
        "--",
        "sh",
        "-c",
        &read_fifo,
    ]);
    assert!(out.status.success(), "{out:?}");
    let said = stderr_of(&out);
    // A command that succeeded says nothing; one that failed says what it printed.
    assert!(!said.contains("printed-by-run"), "{said}");
    assert!(
        said.contains(
            "vars.conf:9: run-shell: 'echo why-it-failed; exit 3' returned 3: why-it-failed"
        ),
        "{said}"
    );
    // It runs once the server takes connections, so a weft command in it reaches this server.
    assert_eq!(said.lines().count(), 1, "nothing else is refused: {said}");
    assert!(stdout_of(&server.weft(&["ls"])).contains("nested:"));
    assert_eq!(show(&server, "status-style"), "fg=colour39");
    assert_eq!(
        show(&server, "@home"),
        format!("{}/x", server.dir.display())
    );
    assert_eq!(show(&server, "@tag"), "hid-1");
    assert_eq!(show(&server, "@literal"), "$main");
    assert_eq!(show(&server, "@from-run"), "yes");
    assert_eq!(
        show(&server, "@in-block"),
        "[colour39]",
        "as the file is read"
    );
    // An assignment is in the global environment; a hidden one is not.
    let global = stdout_of(&server.weft(&["show-environment", "-g"]));
    assert!(global.lines().any(|l| l == "main=colour39"), "{global}");
    assert!(!global.contains("TAG="), "{global}");
    // A later %hidden of the same name wins, and leaves the environment.
    assert_eq!(show(&server, "@shadow"), "hidden");
    assert!(!global.contains("shadow="), "{global}");
    // `\\;` written against a word still ends the bound command there, as in tmux.
    let keys = stdout_of(&server.weft(&["list-keys", "-T", "prefix"]));
    let bound = keys.lines().find(|l| l.contains(" r ")).unwrap_or_default();
    assert!(
        bound.ends_with("set -g @r one \\; set -g @r2 two"),
        "{keys}"
    );
    // The background command ran on its own, after the file went on. The first client to
    // attach is shown the file's warnings first.
    let mut c = server.client(&["attach", "-t", "v"], 80, 24);
    c.wait_for_text("q closes").unwrap();
    c.send_keys("q").unwrap();
    c.wait_for_text("BG-SEEN").expect("run -b ran");
}

#[test]
fn a_vim_aware_binding_tests_the_panes_foreground_program_through_its_tty() {
    // vim-tmux-navigator's shape: a variable holding a test of the pane's terminal, used by a
    // root binding's if-shell.
    let server = TestServer::new("confnav");
    let conf = write_file(
        &server,
        "nav.conf",
        "in_cat=\"test -c '#{pane_tty}' && test '#{pane_current_command}' = cat\"\n\
         bind -n C-h if-shell \"$in_cat\" 'send-keys -l cat-got-it' 'send-keys -l shell-got-it'\n\
         bind -n C-l if-shell \"$in_cat\" {\n\
           send-keys -l cat-block\n\
         } { if-shell -F '#{pane_at_left}' { send-keys -l left-block } {} }\n\
         if-shell -F '#{==:1,1}' {\n\
           set -g @block yes # said in a block\n\
           set -g @block2 yes\n\
         } {\n\
           set -g @block no\n\
         }\n",
    );
    let mut c = weft_tests::attached_session(&server, "n", conf.to_str());
    let tty = stdout_of(&server.weft(&["display", "-p", "#{pane_tty}"]));
    assert!(tty.starts_with("/dev/pts/"), "{tty:?}");
    assert_eq!(
        (show(&server, "@block"), show(&server, "@block2")),
        ("yes".into(), "yes".into())
    );
    c.send_keys("C-h").unwrap();
    c.wait_for_text("shell-got-it").unwrap();
    c.send_keys("C-l").unwrap();
    c.wait_for_text("shell-got-itleft-block").unwrap();
    assert!(server
        .weft(&["new-window", "--", "sh", "-c", "echo CAT-READY; exec cat"])
        .status
        .success());
    c.wait_for_text("CAT-READY").unwrap();
    // Its output comes before `exec` replaces the shell: ask until the pane runs cat.
    let runs_cat = || {
        let out = server.weft(&["display", "-p", "#{pane_current_command}"]);
        stdout_of(&out).trim() == "cat"
    };
    assert!((0..1000).any(|_| runs_cat()), "cat never ran in the pane");
    c.send_keys("C-h").unwrap();
    c.wait_for_text("cat-got-it").unwrap();
    c.send_keys("C-l").unwrap();
    c.wait_for_text("cat-got-itcat-block").unwrap();
}

#[test]
fn tmux_aliases_and_a_confirmed_command_line_work_from_bindings() {
    let server = TestServer::new("confalias");
    let conf = write_file(
        &server,
        "alias.conf",
        "bind X confirm-before -p \"kill other windows? (y/n)\" \"kill-window -a\"\n\
         bind | split-pane -h\n\
         bind W choose-window\n",
    );
    let mut c = weft_tests::attached_session(&server, "a", conf.to_str());
    let count = |what: &str| stdout_of(&server.weft(&[what, "-t", "a"])).lines().count();
    c.send_keys("C-b |").unwrap();
    c.wait_for(|_| count("list-panes") == 2).unwrap();
    for _ in 0..2 {
        assert!(server.weft(&["new-window", "-t", "a"]).status.success());
    }
    assert_eq!(count("list-windows"), 3);
    c.send_keys("C-b X").unwrap();
    c.wait_for_text("kill other windows? (y/n)").unwrap();
    c.send_keys("y").unwrap();
    c.wait_for(|_| count("list-windows") == 1).unwrap();
    // The file's aliases were all taken (a binding that cannot run is refused at load).
    let keys = stdout_of(&server.weft(&["list-keys", "-T", "prefix"]));
    assert!(keys.contains("choose-window"), "{keys}");
    // kill-pane -a leaves the target, alone in its window.
    assert!(server.weft(&["split-window", "-t", "a"]).status.success());
    assert!(server
        .weft(&["kill-pane", "-a", "-t", "a"])
        .status
        .success());
    assert_eq!(count("list-panes"), 1);
}

#[test]
fn tmuxs_other_options_and_spellings_are_taken() {
    let server = TestServer::new("confopts");
    weft_tests::detached_session(&server, "o");
    // tmux's `-color` spelling is the `-colour` option.
    let out = server.weft(&["set", "-g", "clock-mode-color", "red"]);
    assert!(
        out.status.success() && stderr_of(&out).is_empty(),
        "{out:?}"
    );
    assert_eq!(show(&server, "clock-mode-colour"), "red");
    assert!(server
        .weft(&["set", "-g", "clock-mode-style", "12"])
        .status
        .success());
    assert_eq!(show(&server, "clock-mode-style"), "12");
    // tmux 3.4's copy-mode match colours are taken too.
    let out = server.weft(&["set", "-g", "copy-mode-match-style", "bg=red"]);
    assert!(
        out.status.success() && stderr_of(&out).is_empty(),
        "{out:?}"
    );
    assert_eq!(show(&server, "copy-mode-match-style"), "bg=red");
}

#[test]
fn a_file_sourced_by_a_running_server_runs_its_shell_commands_beside_it() {
    // A command that talks back to weft: waited for, it would wait on the very configuration
    // change the file is making.
    let server = TestServer::new("confserved");
    weft_tests::detached_session(&server, "s");
    let weft = format!(
        "{} -S {}",
        weft_tests::weft_binary().display(),
        server.socket.display()
    );
    let conf = write_file(
        &server,
        "served.conf",
        &format!(
            "run '{weft} set -g @ran yes && {weft} wait-for -S ran-done'\n\
             set -g @after yes\n\
             if-shell true {{\n\
               run '{weft} set -g @ran2 yes && {weft} wait-for -S ran2-done'\n\
             }}\n"
        ),
    );
    let out = server.weft(&["source-file", conf.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(show(&server, "@after"), "yes");
    // The command signals once its own weft command is done.
    assert!(server.weft(&["wait-for", "ran-done"]).status.success());
    assert_eq!(show(&server, "@ran"), "yes");
    // Inside an if-shell's branch too.
    assert!(server.weft(&["wait-for", "ran2-done"]).status.success());
    assert_eq!(show(&server, "@ran2"), "yes");
}

#[test]
fn bindings_with_braces_and_odd_keys_list_as_lines_that_load_back() {
    let server = TestServer::new("confbraces");
    weft_tests::detached_session(&server, "b");
    for args in [
        &["bind", "x", "send-keys", "{"][..],
        &["bind", "{", "display", "left"][..],
        &["bind", "~", "display", "tilde"][..],
    ] {
        let out = server.weft(args);
        assert!(out.status.success(), "{args:?}: {out:?}");
    }
    let keys = stdout_of(&server.weft(&["list-keys", "-T", "prefix"]));
    let ours: Vec<&str> = keys
        .lines()
        .filter(|l| {
            l.contains("send-keys \"{\"")
                || l.contains("display left")
                || l.contains("display tilde")
        })
        .collect();
    assert_eq!(ours.len(), 3, "{keys}");
    assert!(keys.contains("\\{ ") && keys.contains("\\~ "), "{keys}");
    // The listed lines are a configuration that gives the same bindings.
    let conf = write_file(&server, "keys.conf", &(ours.join("\n") + "\n"));
    let out = server.weft(&["source-file", conf.to_str().unwrap()]);
    assert!(
        out.status.success() && stderr_of(&out).is_empty(),
        "{out:?}"
    );
    assert_eq!(
        stdout_of(&server.weft(&["list-keys", "-T", "prefix"])),
        keys
    );
}

/// `set -F` (as themes write `set -gF @thm_bg "#{@ctp_bg}"`): the value is a format, expanded
/// when set, in a configuration file and from the command line.
#[test]
fn set_f_expands_the_value_as_a_format_when_set() {
    let server = TestServer::new("setf");
    let conf = write_file(
        &server,
        "theme.conf",
        "set -g @ctp_bg colour1\nset -gF @thm_bg '#{@ctp_bg}'\n",
    );
    let mut args = vec!["-f", conf.to_str().unwrap(), "new", "-d", "-s", "f", "--"];
    args.extend_from_slice(weft_tests::TEST_SHELL);
    let out = server.weft(&args);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(show(&server, "@thm_bg"), "colour1");
    let out = server.weft(&["set", "-F", "-t", "f", "@here", "#{session_name}"]);
    assert!(out.status.success(), "{out:?}");
    let here = stdout_of(&server.weft(&["show", "-v", "-t", "f", "@here"]));
    assert_eq!(here.trim_end(), "f");
}

/// `source-file -n` checks a file's lines, as tmux's does, and changes nothing.
#[test]
fn source_file_n_reports_bad_lines_and_applies_nothing() {
    let server = TestServer::new("sourcen");
    weft_tests::detached_session(&server, "n");
    let conf = write_file(
        &server,
        "check.conf",
        "set -g history-limit 5000\nno-such-command x\n",
    );
    let out = server.weft(&["source-file", "-n", conf.to_str().unwrap()]);
    assert!(!out.status.success(), "{out:?}");
    assert!(
        stderr_of(&out).contains("check.conf:2: unknown command: no-such-command"),
        "{out:?}"
    );
    assert_eq!(show(&server, "history-limit"), "10000", "nothing applied");
}
