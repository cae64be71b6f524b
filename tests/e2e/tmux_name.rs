//! `tmux` is weft in what weft runs for a configuration (`run-shell`, `if-shell`, `#()`,
//! popups), as plugins and tmux bindings expect; a pane's `tmux` stays the user's.

use weft_tests::{attached_session, stderr_of, stdout_of, TestServer};

fn ok(server: &TestServer, args: &[&str]) -> String {
    let out = server.weft(args);
    assert!(out.status.success(), "{args:?}: {}", stderr_of(&out));
    stdout_of(&out)
}

/// Starts the server with the configuration `conf` by a detached `new` of session `name`;
/// its commands must have run without a warning.
fn starts_quietly(server: &TestServer, conf: &std::path::Path, name: &str) {
    let conf = conf.to_str().expect("a UTF-8 path");
    let out = server.weft(&["-f", conf, "new", "-d", "-s", name, "--", "sleep", "60"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stderr_of(&out), "", "no warnings");
}

#[test]
fn run_shell_and_if_shell_find_tmux_to_be_weft() {
    let server = TestServer::new("tmuxjobs");
    weft_tests::detached_session(&server, "plugins");
    // What a plugin manager checks first, then how plugins read and set options.
    assert_eq!(ok(&server, &["run-shell", "tmux -V"]), "tmux 3.3a\n");
    ok(
        &server,
        &[
            "run-shell",
            "tmux set -g @via-tmux \"$(tmux display -p '#S')\"",
        ],
    );
    assert_eq!(ok(&server, &["show", "-gv", "@via-tmux"]), "plugins\n");
    ok(
        &server,
        &[
            "if-shell",
            "tmux has-session -t plugins",
            "set -g @has yes",
            "set -g @has no",
        ],
    );
    assert_eq!(ok(&server, &["show", "-gv", "@has"]), "yes\n");
    // A pane's PATH is the user's: weft's `tmux` is not put first there.
    let line = "echo path-$((6*7)) ${PATH%%:*}";
    ok(&server, &["send-keys", "-t", "plugins", line, "Enter"]);
    let out = server.weft(&["wait", "-t", "plugins", "--text", "path-42 "]);
    assert!(out.status.success(), "{out:?}");
    let screen = ok(&server, &["capture-pane", "-p", "-t", "plugins"]);
    let first = screen
        .lines()
        .find_map(|l| l.strip_prefix("path-42 "))
        .expect("the pane said its PATH");
    assert!(
        !(first.contains("weft") && first.ends_with("/bin")),
        "{first}"
    );
}

#[test]
fn a_popups_tmux_is_weft() {
    let server = TestServer::new("tmuxpopup");
    let mut c = attached_session(&server, "pick", None);
    std::thread::scope(|scope| {
        let popup = scope.spawn(|| {
            server.weft(&[
                "display-popup",
                "-E",
                "tmux set -g @from-popup \"$(tmux ls -F '#S')\"",
            ])
        });
        let out = popup.join().unwrap();
        assert!(out.status.success(), "{out:?}");
    });
    assert_eq!(ok(&server, &["show", "-gv", "@from-popup"]), "pick\n");
    c.send_keys("C-b d").unwrap();
    c.wait_exit().unwrap();
}

/// A plugin manager shaped like TPM, run by the last line of a `.tmux.conf`: it checks
/// `tmux -V`, reads `@plugin` options and its path from the global environment (with
/// `start-server\;`), binds its keys and runs each plugin's `*.tmux` file, all through `tmux`
/// while the server starts. The starting client waits for it.
#[test]
fn a_plugin_manager_run_by_the_configuration_sets_up_its_plugins() {
    let server = TestServer::new("tpm");
    let plugins = server.dir.join("plugins");
    let plugin = plugins.join("sensible");
    std::fs::create_dir_all(&plugin).unwrap();
    let script = |path: &std::path::Path, text: &str| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::write(path, text).unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    script(
        &plugin.join("sensible.tmux"),
        "#!/bin/sh\ntmux set -g @sensible-loaded yes\ntmux bind-key R source-file ~/.tmux.conf\n",
    );
    let manager = server.dir.join("tpm");
    script(
        &manager,
        &format!(
            "#!/bin/sh\n\
             digits=$(tmux -V | tr -dC '[:digit:]')\n\
             [ \"$digits\" -ge 19 ] || {{ echo 'Tmux version unsupported'; exit 1; }}\n\
             tmux show-environment -g TMUX_PLUGIN_MANAGER_PATH >/dev/null 2>&1 || \
               tmux set-environment -g TMUX_PLUGIN_MANAGER_PATH '{dir}/'\n\
             tmux bind-key I run-shell 'echo install'\n\
             path=$(tmux start-server\\; show-environment -g TMUX_PLUGIN_MANAGER_PATH | cut -f2 -d=)\n\
             for name in $(tmux show-option -gqv @plugin); do\n\
               for file in \"$path\"$(basename \"$name\")/*.tmux; do \"$file\"; done\n\
             done\n",
            dir = plugins.display()
        ),
    );
    let conf = weft_tests::write_file(
        &server,
        "tmux.conf",
        &format!(
            "set -g @plugin 'tmux-plugins/sensible'\nrun '{}'\n",
            manager.display()
        ),
    );
    starts_quietly(&server, &conf, "t");
    // Done before the starting client went on.
    assert_eq!(ok(&server, &["show", "-gv", "@sensible-loaded"]), "yes\n");
    let keys = ok(&server, &["list-keys", "-T", "prefix"]);
    assert!(keys.contains(" I ") && keys.contains(" R "), "{keys}");
    let env = ok(
        &server,
        &["show-environment", "-g", "TMUX_PLUGIN_MANAGER_PATH"],
    );
    assert_eq!(
        env,
        format!("TMUX_PLUGIN_MANAGER_PATH={}/\n", plugins.display())
    );
}

/// As in tmux, the file's lines after a `run-shell` wait for it: a theme's `run` sets options
/// that the next lines read (`set -gF`, `%if`), with the file's `%hidden` variables kept.
#[test]
fn lines_after_a_run_see_what_it_set() {
    let server = TestServer::new("runorder");
    let conf = weft_tests::write_file(
        &server,
        "theme.conf",
        "%hidden SHADE=dark\n\
         run 'tmux set -g @theme_cpu \"cpu-$((6*7))\"'\n\
         set -gF status-right \"#{@theme_cpu} $SHADE\"\n\
         %if \"#{@theme_cpu}\"\n\
         set -g @branch themed\n\
         %else\n\
         set -g @branch plain\n\
         %endif\n\
         run 'tmux set -g @second \"$(tmux show -gv @branch)\"'\n\
         set -gF @last '#{@second}'\n",
    );
    starts_quietly(&server, &conf, "o");
    assert_eq!(
        ok(&server, &["show", "-gv", "status-right"]),
        "cpu-42 dark\n"
    );
    assert_eq!(ok(&server, &["show", "-gv", "@branch"]), "themed\n");
    assert_eq!(ok(&server, &["show", "-gv", "@last"]), "themed\n");
}

/// A session a start-up command makes and ends does not end the server before its first
/// client's session is made (tmux waits for its jobs).
#[test]
fn a_session_made_and_ended_by_a_start_up_command_leaves_the_server() {
    let server = TestServer::new("brief");
    let conf = weft_tests::write_file(
        &server,
        "brief.conf",
        "run 'tmux new -d -s brief -- sleep 60 && tmux kill-session -t brief'\n",
    );
    starts_quietly(&server, &conf, "kept");
    assert_eq!(ok(&server, &["ls", "-F", "#S"]), "kept\n");
}
