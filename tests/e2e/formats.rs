//! Formats: `display-message -p`, and `-c "#{pane_current_path}"` for new panes and windows.

use weft_tests::{detached_session, stdout_of, TestServer, TEST_SHELL};

#[test]
fn new_panes_start_in_the_current_path_and_display_expands_formats() {
    let server = TestServer::new("formats");
    let mut args = vec!["new", "-s", "fmt", "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut c = server.client(&args, 80, 24);
    c.wait_for_text("$").unwrap();
    let dir = server.dir.join("deep dir");
    std::fs::create_dir_all(&dir).unwrap();
    c.send_text(&format!("cd '{}' && echo c''d-done", dir.display()))
        .unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("cd-done").unwrap();
    let out = server.weft(&[
        "display-message",
        "-p",
        "-t",
        "fmt",
        "#S:#I #{b:pane_current_path} #{?pane_in_mode,copy,live} #{==:#{window_panes},1}",
    ]);
    assert_eq!(
        stdout_of(&out).trim_end(),
        "fmt:0 deep dir live 1",
        "{out:?}"
    );
    let out = server.weft(&[
        "list-sessions",
        "-F",
        "#{session_name} #{session_windows} #{?session_attached,attached,detached}",
    ]);
    assert_eq!(stdout_of(&out).trim_end(), "fmt 1 attached", "{out:?}");
    let out = server.weft(&["list-windows", "-t", "fmt", "-F", "#I:#W#F"]);
    assert_eq!(stdout_of(&out).trim_end(), "0:bash*", "{out:?}");
    // A binding as popular configs write it.
    assert!(server
        .weft(&[
            "bind",
            "|",
            "split-window",
            "-h",
            "-c",
            "#{pane_current_path}"
        ])
        .status
        .success());
    c.send_keys("C-b |").unwrap();
    c.wait_for(|_| stdout_of(&server.weft(&["list-panes"])).lines().count() == 2)
        .unwrap();
    c.wait_for_text("$").unwrap();
    c.send_text("echo \"[${PWD##*/}]\"").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("[deep dir]").unwrap();
    let out = server.weft(&[
        "list-panes",
        "-t",
        "fmt",
        "-F",
        "#{pane_index}:#{pane_active}",
    ]);
    assert_eq!(stdout_of(&out).trim_end(), "0:0\n1:1", "{out:?}");
    // new-window -c too.
    assert!(server
        .weft(&[
            "new-window",
            "-t",
            "fmt",
            "-c",
            "#{pane_current_path}",
            "--",
            "sh",
            "-c",
            "echo \"<${PWD##*/}>\"; sleep 30"
        ])
        .status
        .success());
    c.wait_for_text("<deep dir>").unwrap();
}

#[test]
fn run_shell_and_if_shell_run_commands_by_their_outcome() {
    let server = TestServer::new("shellcmds");
    assert!(server
        .weft(&["new", "-d", "-s", "sh", "--", "sleep", "60"])
        .status
        .success());
    let out = server.weft(&["run-shell", "echo from-the-shell; exit 3"]);
    assert_eq!(stdout_of(&out).trim_end(), "from-the-shell", "{out:?}");
    assert!(
        weft_tests::stderr_of(&out).contains("returned 3"),
        "{out:?}"
    );
    // if-shell picks a branch by the command's status, and -F by a format.
    let out = server.weft(&[
        "if-shell",
        "true",
        "set -g @picked yes",
        "set -g @picked no",
    ]);
    assert!(out.status.success(), "{out:?}");
    let picked = |s: &TestServer| {
        stdout_of(&s.weft(&["show", "-v", "@picked"]))
            .trim_end()
            .to_string()
    };
    assert_eq!(picked(&server), "yes");
    assert!(server
        .weft(&[
            "if-shell",
            "false",
            "set -g @picked yes",
            "set -g @picked no"
        ])
        .status
        .success());
    assert_eq!(picked(&server), "no");
    assert!(server
        .weft(&[
            "if",
            "-F",
            "-t",
            "sh",
            "#{==:#{session_name},sh}",
            "set -g @picked F"
        ])
        .status
        .success());
    assert_eq!(picked(&server), "F");
    // A chosen command that is wrong is refused before anything runs.
    let out = server.weft(&["if-shell", "true", "no-such-command"]);
    assert!(!out.status.success(), "{out:?}");
}

#[test]
fn new_window_and_split_window_print_what_they_made() {
    let server = TestServer::new("printnew");
    let mut args = vec!["new", "-d", "-s", "pn", "--"];
    args.extend_from_slice(TEST_SHELL);
    assert!(server.weft(&args).status.success());
    let window = stdout_of(&server.weft(&["new-window", "-d", "-t", "pn", "-P"]));
    assert_eq!(window.trim_end(), "pn:1");
    let pane = stdout_of(&server.weft(&["splitw", "-d", "-t", "pn:1", "-P", "-F", "#{pane_id}"]));
    let listed = stdout_of(&server.weft(&["list-panes", "-t", "pn:1", "-F", "#{pane_id}"]));
    assert!(pane.trim_end().starts_with('%'), "{pane:?}");
    assert!(
        listed.lines().any(|l| l == pane.trim_end()),
        "{pane:?} not in {listed}"
    );
    let quiet = stdout_of(&server.weft(&["new-window", "-d", "-t", "pn"]));
    assert_eq!(quiet, "", "nothing printed without -P");
}

#[test]
fn pid_is_the_servers_the_parent_of_every_pane() {
    let server = TestServer::new("fmtpid");
    let mut args = vec!["new", "-d", "-s", "p", "--"];
    args.extend_from_slice(TEST_SHELL);
    assert!(server.weft(&args).status.success());
    let out = server.weft(&["display-message", "-p", "-t", "p", "#{pid} #{pane_pid}"]);
    let printed = stdout_of(&out);
    let (pid, pane_pid) = printed.trim().split_once(' ').expect("two numbers");
    let stat = std::fs::read_to_string(format!("/proc/{pane_pid}/stat")).unwrap();
    // The fourth field of /proc/PID/stat, after the parenthesised command, is the parent.
    let after_comm = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest)
        .unwrap_or_default();
    let parent = after_comm.split_whitespace().nth(1).unwrap_or_default();
    assert_eq!(parent, pid, "{printed:?} {stat:?}");
}

/// `weft ARGS`, which must succeed: its standard output without the last newline.
fn printed(server: &TestServer, args: &[&str]) -> String {
    let out = server.weft(args);
    assert!(out.status.success(), "{args:?}: {out:?}");
    stdout_of(&out).trim_end().to_string()
}

#[test]
fn options_are_variables_in_every_format() {
    let server = TestServer::new("fmtopts");
    detached_session(&server, "o");
    printed(&server, &["set", "-g", "@plug", "hello"]);
    printed(&server, &["set", "-g", "status-left", "<#{session_name}>"]);
    assert_eq!(
        printed(
            &server,
            &[
                "display",
                "-p",
                "-t",
                "o",
                "#{@plug}|#{status-left}|#{E:status-left}|#{||:0,1}"
            ]
        ),
        "hello|<#{session_name}>|<o>|1"
    );
    assert_eq!(
        printed(&server, &["list-windows", "-t", "o", "-F", "#I #{@plug}"]),
        "0 hello"
    );
    assert_eq!(
        printed(
            &server,
            &["list-sessions", "-F", "#S #{@plug} #{window_width}"]
        ),
        "o hello 80"
    );
    // if -F sees them too.
    printed(
        &server,
        &[
            "if",
            "-F",
            "-t",
            "o",
            "#{@plug}",
            "set -g @picked yes",
            "set -g @picked no",
        ],
    );
    assert_eq!(printed(&server, &["show", "-v", "@picked"]), "yes");
    printed(&server, &["set", "-gu", "@plug"]);
    printed(
        &server,
        &[
            "if",
            "-F",
            "-t",
            "o",
            "#{@plug}",
            "set -g @picked yes",
            "set -g @picked no",
        ],
    );
    assert_eq!(printed(&server, &["show", "-v", "@picked"]), "no");
}

#[test]
fn session_loops_go_over_every_session() {
    let server = TestServer::new("fmtloop");
    detached_session(&server, "beta");
    detached_session(&server, "alpha");
    printed(&server, &["new-window", "-d", "-t", "beta"]);
    assert_eq!(
        printed(
            &server,
            &[
                "display",
                "-p",
                "-t",
                "beta",
                "#{S:#{session_name}=#{session_windows},[#{session_name}=#{session_windows}]}|"
            ]
        ),
        "alpha=1[beta=2]|"
    );
    // In the status line too, where it is expanded for each redraw.
    let mut c = server.client(&["attach", "-t", "alpha"], 80, 24);
    printed(
        &server,
        &["set", "-g", "status-right", "#{S:(#S:#{session_attached})}"],
    );
    c.wait_for(|s| {
        s.row(23)
            .is_some_and(|r| r.text().trim_end().ends_with("(alpha:1)(beta:0)"))
    })
    .unwrap();
    // Other sessions coming and going redraw it.
    detached_session(&server, "gamma");
    c.wait_for(|s| {
        s.row(23)
            .is_some_and(|r| r.text().trim_end().ends_with("(alpha:1)(beta:0)(gamma:0)"))
    })
    .unwrap();
    printed(&server, &["kill-session", "-t", "beta"]);
    c.wait_for(|s| {
        s.row(23)
            .is_some_and(|r| r.text().trim_end().ends_with("(alpha:1)(gamma:0)"))
    })
    .unwrap();
    // A session that ends leaves the loop.
    printed(&server, &["kill-session", "-t", "gamma"]);
    assert_eq!(
        printed(&server, &["display", "-p", "-t", "alpha", "#{S:#S }|"]),
        "alpha |"
    );
}

#[test]
fn buffers_and_clients_list_with_formats() {
    let server = TestServer::new("fmtlists");
    detached_session(&server, "l");
    printed(&server, &["set-buffer", "-b", "notes", "some text"]);
    let line = printed(
        &server,
        &[
            "list-buffers",
            "-F",
            "#{buffer_name}:#{buffer_size}:#{buffer_sample}:#{buffer_created}",
        ],
    );
    let (start, created) = line.rsplit_once(':').unwrap();
    assert_eq!(start, "notes:9:some text", "{line}");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let created: u64 = created.parse().unwrap();
    assert!(created <= now && now - created < 600, "{line}");
    assert_eq!(
        printed(&server, &["list-clients", "-F", "#{client_name}"]),
        ""
    );
    let mut c = server.client_env(
        &["attach", "-t", "l"],
        100,
        30,
        &[("TERM", "xterm-256color")],
    );
    c.wait_for_text("$").unwrap();
    let listed = printed(
        &server,
        &[
            "list-clients",
            "-F",
            "#{client_session} #{client_width}x#{client_height} #{client_termname} #{m:/dev/*,#{client_tty}}",
        ],
    );
    assert_eq!(listed, "l 100x30 xterm-256color 1");
    // Typing stamps the client's activity.
    c.send_text("echo ty''ped").unwrap();
    c.send_keys("Enter").unwrap();
    c.wait_for_text("typed").unwrap();
    let activity: u64 = printed(&server, &["list-clients", "-F", "#{client_activity}"])
        .parse()
        .unwrap();
    assert!(activity >= created && activity <= now + 600, "{activity}");
    // From the command line, display speaks of the session's most recent client.
    let name = printed(&server, &["list-clients", "-F", "#{client_name}"]);
    assert!(name.starts_with("client-"), "{name}");
    assert_eq!(
        printed(
            &server,
            &["display", "-p", "-t", "l", "#{client_name} #{client_width}"]
        ),
        format!("{name} 100")
    );
}

#[test]
fn display_message_stays_for_its_delay() {
    let server = TestServer::new("fmtdelay");
    detached_session(&server, "d");
    let mut c = server.client(&["attach", "-t", "d"], 80, 24);
    c.wait_for_text("$").unwrap();
    let status = |s: &weft_testkit::Screen| s.row(23).map(|r| r.text()).unwrap_or_default();
    // display-time 0 keeps messages until a key; -d 300 closes this one by itself.
    printed(&server, &["set", "-g", "display-time", "0"]);
    printed(
        &server,
        &["bind", "m", "display", "-d", "300", "brief-message"],
    );
    c.send_keys("C-b m").unwrap();
    c.wait_for(|s| status(s).contains("brief-message")).unwrap();
    c.wait_for(|s| !status(s).contains("brief-message"))
        .unwrap();
    // display-time 100 would close a message soon; -d 0 keeps this one past it, until a key.
    printed(&server, &["set", "-g", "display-time", "100"]);
    printed(
        &server,
        &["bind", "n", "display", "-d", "0", "kept-message"],
    );
    c.send_text("sleep 0.6; echo waited-''out").unwrap();
    c.send_keys("Enter").unwrap();
    c.send_keys("C-b n").unwrap();
    c.wait_for(|s| status(s).contains("kept-message")).unwrap();
    c.wait_for_text("waited-out").unwrap();
    assert!(
        status(c.screen()).contains("kept-message"),
        "the message closed before a key"
    );
    c.send_keys("Space").unwrap();
    c.wait_for(|s| !status(s).contains("kept-message")).unwrap();
    // A delay that is not a number is refused with a sentence.
    let out = server.weft(&["display", "-d", "soon", "x"]);
    assert!(!out.status.success());
    assert!(
        weft_tests::stderr_of(&out).contains("milliseconds"),
        "{out:?}"
    );
}

/// The history's formats, and its packing: a flood's history is packed once it stops, with no
/// more output needed to trigger it.
#[test]
fn history_formats_show_a_floods_history_packed_once_it_stops() {
    let server = TestServer::new("fmthist");
    let log = server.dir.join("flood.log");
    let lines = 30_000;
    let text: String = (0..lines)
        .map(|n| format!("{n:06} INFO worker finished a request in a few milliseconds\n"))
        .collect();
    std::fs::write(&log, &text).unwrap();
    let script = format!("cat '{}'; echo DONE; exec cat", log.display());
    let out = server.weft(&["new", "-d", "-s", "h", "--", "sh", "-c", &script]);
    assert!(out.status.success(), "{out:?}");
    assert!(server
        .weft(&["wait", "-t", "h", "--text", "DONE"])
        .status
        .success());
    let raw_line = text.len() / lines;
    let mut seen = String::new();
    for _ in 0..50 {
        // Each round waits for a quiet pane, not for time.
        assert!(server
            .weft(&["wait", "-t", "h", "--idle", "200"])
            .status
            .success());
        seen = printed(
            &server,
            &[
                "display",
                "-p",
                "-t",
                "h",
                "#{history_size} #{history_limit} #{history_bytes}",
            ],
        );
        let numbers: Vec<usize> = seen.split(' ').filter_map(|n| n.parse().ok()).collect();
        let [size, limit, bytes] = numbers[..] else {
            panic!("three numbers, not {seen:?}");
        };
        assert!(
            limit > 0 && size <= limit && size >= limit.min(lines) - 30,
            "{seen}"
        );
        // Unpacked, the history would take at least its text; packed, well under half.
        if bytes * 2 < size * raw_line {
            return;
        }
    }
    panic!("the history was never packed: size, limit, bytes {seen}");
}

#[test]
fn a_panes_tty_screen_and_synchronization_and_the_user_are_formats() {
    let server = TestServer::new("fmtpane");
    detached_session(&server, "q");
    let shown = printed(
        &server,
        &[
            "display",
            "-p",
            "-t",
            "q",
            "#{pane_tty} #{alternate_on} #{pane_synchronized} #{uid}",
        ],
    );
    let fields: Vec<&str> = shown.split(' ').collect();
    let [tty, alternate, synchronized, uid] = fields[..] else {
        panic!("four fields: {shown:?}");
    };
    // The pane's program has that terminal as its own.
    let pane_pid = printed(&server, &["display", "-p", "-t", "q", "#{pane_pid}"]);
    let own = std::fs::read_link(format!("/proc/{pane_pid}/fd/0")).unwrap();
    assert_eq!(own.display().to_string(), tty);
    assert_eq!((alternate, synchronized), ("0", "0"));
    assert_eq!(uid, rustix::process::getuid().as_raw().to_string());
    assert!(server
        .weft(&["set", "-w", "-t", "q", "synchronize-panes", "on"])
        .status
        .success());
    let shown = printed(
        &server,
        &["display", "-p", "-t", "q", "#{pane_synchronized}"],
    );
    assert_eq!(shown, "1");
    // A program on the alternate screen.
    let alt = weft_tests::split_pane(
        &server,
        &[
            "-t",
            "q",
            "--",
            "sh",
            "-c",
            "printf '\\033[?1049hALT'; exec sleep 60",
        ],
    );
    assert!(server
        .weft(&["wait", "-t", &alt, "--text", "ALT"])
        .status
        .success());
    let shown = printed(&server, &["display", "-p", "-t", &alt, "#{alternate_on}"]);
    assert_eq!(shown, "1");
}

#[test]
fn display_lists_every_variable_with_a_and_shows_text_as_it_is_with_l() {
    let server = TestServer::new("displaya");
    detached_session(&server, "va");
    let all = stdout_of(&server.weft(&["display-message", "-a", "-t", "va"]));
    let lines: Vec<&str> = all.lines().collect();
    assert!(lines.contains(&"session_name=va"), "{all}");
    assert!(lines.iter().any(|l| l.starts_with("pane_id=%")), "{all}");
    let mut sorted = lines.clone();
    sorted.sort_unstable();
    assert_eq!(lines, sorted, "sorted by name");
    let literal = stdout_of(&server.weft(&["display-message", "-lp", "-t", "va", "#S %H"]));
    assert_eq!(literal.trim_end(), "#S %H");
}

#[test]
fn run_shell_c_runs_its_argument_as_commands_after_expanding_it() {
    let server = TestServer::new("runc");
    detached_session(&server, "rc");
    let out = server.weft(&["run-shell", "-C", "set -g @ran 'in-#{session_name}'"]);
    assert!(out.status.success(), "{out:?}");
    let ran = stdout_of(&server.weft(&["show", "-gv", "@ran"]));
    assert_eq!(ran.trim_end(), "in-rc");
}
