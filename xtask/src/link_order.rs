//! `cargo xtask link-order`: writes `crates/weft/link-order.txt`, the functions a weft server
//! runs, in the order the linker is to lay them out (see `crates/weft/build.rs`).
//!
//! Why: the kernel maps a 64 KB window of the executable around each page of code first run,
//! so code that runs spread over the whole text makes most of an idle server's resident set.
//! Laid out together, the same code takes a few windows.
//!
//! How: weft runs under Callgrind, each time on its own socket: real clients in real
//! terminals, and the server the first of them starts by forking itself. The first runs only
//! start a session (as a user does, and as the bench does, attached and detached) and let it
//! sit at its prompt (what `cargo xtask bench` measures as "1 idle pane"); the last goes
//! through a day's commands: typing, output, splits, windows, copy mode, the command prompt,
//! buffers, captures, detaching. Each function run that is in the binary is listed: first
//! what the idle servers ran once their start-up was over (a forked server drops its pages
//! then, and only what runs after it comes back), then what only their start-up ran, then
//! what only their clients ran, then the rest of the day's, each part in the binary's present
//! order (which keeps the compiler's own neighbours together). The first part puts what ran
//! in every idle run before what ran only in some: where start-up ends depends on timing (a
//! prompt read in one piece or two), and code only some timings run then sits apart.
//!
//! The names carry hashes that change with the compiler and the dependencies; run this again
//! after updating either. A name that no longer matches costs only its gain.

use crate::bench::term::{Spec, Term};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

/// Longest any step may take: everything runs many times slower under Callgrind.
const STEP_TIMEOUT: Duration = Duration::from_secs(120);
/// The prompt of the panes' shells, looked for to know a pane is ready.
const PROMPT: &str = "order-prompt$ ";
/// How many times each idle start is profiled.
const IDLE_ROUNDS: usize = 3;
/// The order file, from the workspace root.
const ORDER_FILE: &str = "crates/weft/link-order.txt";

/// Runs `cargo xtask link-order`.
pub fn main(args: &[String]) -> ExitCode {
    if !args.is_empty() {
        eprintln!("usage: cargo xtask link-order");
        return ExitCode::from(2);
    }
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask link-order: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    if Command::new("valgrind").arg("--version").output().is_err() {
        return Err(
            "valgrind is not installed; install it (apt-get install valgrind) and run this again"
                .into(),
        );
    }
    crate::bench::launch::build_weft()?;
    let weft = crate::bench::launch::target_dir()?
        .join("release")
        .join("weft");
    let dir = std::env::temp_dir().join(format!("weft-link-order-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let result = profile_and_write(&weft, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn profile_and_write(weft: &Path, dir: &Path) -> Result<(), String> {
    let symbols = text_symbols(weft)?;
    // A user's start (the default socket and configuration) and the bench's (its own socket,
    // configuration and pane command, attached or detached) take different paths.
    // Each twice: what runs can depend on timing (a task finding its channel full, a join
    // handle dropped before or after its task ended), and Callgrind's pace differs each time.
    let mut idle = Ran::default();
    // In how many of the idle runs each function ran once start-up was over.
    let mut after_start_runs: BTreeMap<String, usize> = BTreeMap::new();
    let mut idle_runs = 0;
    let mut add = |ran: Ran| {
        idle_runs += 1;
        for name in &ran.server {
            *after_start_runs.entry(name.clone()).or_default() += 1;
        }
        idle.extend(ran);
    };
    for round in 0..IDLE_ROUNDS {
        let dir = dir.join(format!("idle-{round}"));
        add(profile(
            weft,
            &dir.join("user"),
            Flags::Default,
            idle_session,
        )?);
        add(profile(
            weft,
            &dir.join("bench"),
            Flags::Explicit,
            idle_with_command,
        )?);
        add(profile(
            weft,
            &dir.join("detached"),
            Flags::Explicit,
            idle_detached,
        )?);
    }
    let day = profile(weft, &dir.join("day"), Flags::Default, a_day)?;
    let in_binary = |names: &BTreeSet<String>| -> BTreeMap<u64, String> {
        names
            .iter()
            .filter_map(|n| symbols.get(n).map(|&(addr, _)| (addr, n.clone())))
            .collect()
    };
    // What the idle server runs once started first, then what only its start-up ran, then
    // what only its clients ran, then the rest.
    // Those that ran in every run first, then those that only some timings run: an idle
    // server then touches the fewest windows whichever way its start went.
    let first: BTreeMap<(Reverse<usize>, u64), String> = in_binary(&idle.server)
        .into_iter()
        .map(|(addr, n)| ((Reverse(after_start_runs[&n]), addr), n))
        .collect();
    let start: BTreeMap<u64, String> = in_binary(&idle.server_start)
        .into_iter()
        .filter(|(_, n)| !idle.server.contains(n))
        .collect();
    let in_server = |n: &String| idle.server.contains(n) || idle.server_start.contains(n);
    let clients: BTreeMap<u64, String> = in_binary(&idle.others)
        .into_iter()
        .filter(|(_, n)| !in_server(n))
        .collect();
    let seen = |n: &String| in_server(n) || idle.others.contains(n);
    let mut day_names = day.server;
    day_names.extend(day.server_start);
    day_names.extend(day.others);
    let rest: BTreeMap<u64, String> = in_binary(&day_names)
        .into_iter()
        .filter(|(_, n)| !seen(n))
        .collect();
    let size = |names: Vec<&String>| -> u64 {
        names
            .into_iter()
            .filter_map(|n| symbols.get(n).map(|&(_, size)| size))
            .sum()
    };
    let every_run: Vec<&String> = first
        .iter()
        .filter(|((Reverse(runs), _), _)| *runs == idle_runs)
        .map(|(_, n)| n)
        .collect();
    let (always, always_kb) = (every_run.len(), size(every_run) / 1024);
    let mut text = String::from(
        "# Functions a weft server runs, in the order the linker lays them out: those of\n\
         # an idle server once started first, then its start-up's, then the rest of a day's use.\n\
         # Written by `cargo xtask link-order`; read by build.rs.\n",
    );
    let order = first.values().chain(start.values());
    for name in order.chain(clients.values()).chain(rest.values()) {
        text.push_str(name);
        text.push('\n');
    }
    let path = crate::bench::launch::workspace_root().join(ORDER_FILE);
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!(
        "xtask link-order: {} functions ({} KB) in an idle server once started ({} of them, \
         {} KB, in every run), {} more ({} KB) in its start-up, {} more ({} KB) in its clients, \
         {} more ({} KB) for the rest; written to {ORDER_FILE}",
        first.len(),
        size(first.values().collect()) / 1024,
        always,
        always_kb,
        start.len(),
        size(start.values().collect()) / 1024,
        clients.len(),
        size(clients.values().collect()) / 1024,
        rest.len(),
        size(rest.values().collect()) / 1024
    );
    Ok(())
}

/// How many of the functions the order file lists are in `weft` (found, listed): few found
/// means the list was made for another build, and `cargo xtask link-order` should run again.
pub fn coverage(weft: &Path) -> Option<(usize, usize)> {
    let path = crate::bench::launch::workspace_root().join(ORDER_FILE);
    let listed = std::fs::read_to_string(path).ok()?;
    let symbols = text_symbols(weft).ok()?;
    let names: Vec<&str> = listed
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let found = names.iter().filter(|n| symbols.contains_key(**n)).count();
    Some((found, names.len()))
}

/// The binary's functions: name to address and size, from `nm`.
fn text_symbols(weft: &Path) -> Result<BTreeMap<String, (u64, u64)>, String> {
    let out = Command::new("nm")
        .args(["--defined-only", "--print-size"])
        .arg(weft)
        .output()
        .map_err(|e| format!("cannot run nm (install binutils): {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "nm {}: {}",
            weft.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let mut symbols = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if let [addr, size, kind, name] = fields[..] {
            if matches!(kind, "t" | "T" | "W" | "w") {
                let hex = |s: &str| u64::from_str_radix(s, 16).unwrap_or(0);
                symbols.insert(name.to_string(), (hex(addr), hex(size)));
            }
        }
    }
    Ok(symbols)
}

/// How clients name the server and its configuration.
#[derive(Clone, Copy, PartialEq)]
enum Flags {
    /// As a user types them: the default socket (under `$TMPDIR`) and configuration.
    Default,
    /// As the bench does: `-S` and `-f`.
    Explicit,
}

/// weft under Callgrind on its own socket in `dir`: every client, and the server a client
/// starts by forking itself (the server keeps the pages of code the client ran first).
struct Profiled {
    /// Valgrind's absolute path (a terminal's program is given by its path).
    valgrind: String,
    weft: PathBuf,
    dir: PathBuf,
    socket: PathBuf,
    config: PathBuf,
    flags: Flags,
    env: Vec<(String, String)>,
}

impl Profiled {
    /// Prepares `dir`: the configuration, the panes' shell profile, a file to print.
    fn new(weft: &Path, dir: &Path, flags: Flags) -> Result<Profiled, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let config = dir.join("empty.conf");
        std::fs::write(&config, "").map_err(|e| format!("{e}"))?;
        std::fs::write(dir.join("mixed.txt"), crate::soak::mixed_output())
            .map_err(|e| format!("{e}"))?;
        // Panes run the default shell as a login shell, which takes its prompt from the
        // system's profile and then from this one.
        std::fs::write(dir.join(".profile"), format!("PS1='{PROMPT}'\n"))
            .map_err(|e| format!("{e}"))?;
        let own = [
            ("HOME", dir.display().to_string()),
            ("PATH", std::env::var("PATH").unwrap_or_default()),
            ("SHELL", "/bin/sh".to_string()),
            ("PS1", PROMPT.to_string()),
            ("TERM", "xterm-256color".to_string()),
            ("TMPDIR", dir.display().to_string()),
        ];
        // A user's environment is larger than the bench's (some code runs only for larger
        // ones, such as sorting it); weft's own variables would point at another server.
        let inherited: Vec<(String, String)> = match flags {
            Flags::Default => std::env::vars()
                .filter(|(k, _)| !k.starts_with("WEFT") && !own.iter().any(|(o, _)| o == k))
                .collect(),
            Flags::Explicit => Vec::new(),
        };
        let env = own
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .chain(inherited)
            .collect();
        let valgrind = std::env::var("PATH")
            .unwrap_or_default()
            .split(':')
            .map(|d| Path::new(d).join("valgrind"))
            .find(|p| p.is_file())
            .ok_or("valgrind is not on PATH")?;
        Ok(Profiled {
            valgrind: valgrind.display().to_string(),
            weft: weft.to_path_buf(),
            dir: dir.to_path_buf(),
            socket: dir.join("order.sock"),
            config,
            flags,
            env,
        })
    }

    /// `weft args` under Callgrind, each process (and forked child) writing its own profile.
    fn argv(&self, args: &[&str]) -> Vec<String> {
        let mut argv: Vec<String> = [
            self.valgrind.as_str(),
            "--tool=callgrind",
            "--demangle=no",
            "--compress-strings=no",
            "--compress-pos=no",
            "--dump-instr=no",
            "--trace-children=no",
            // A profile up to each fork, then one from it: a server forked from its client
            // keeps none of the client's pages (see the client's fork_start).
            "--dump-before=fork",
            // And one when the server's start-up is over (see the server's memory module):
            // only what runs after it stays resident.
            "--dump-after=*start_settled*",
            "--log-file=/dev/null",
        ]
        .iter()
        .map(|a| a.to_string())
        .collect();
        argv.push(format!(
            "--callgrind-out-file={}/callgrind.%p",
            self.dir.display()
        ));
        argv.push(self.weft.display().to_string());
        argv.extend(self.flags());
        argv.extend(args.iter().map(|a| a.to_string()));
        argv
    }

    /// The flags that name the server and the configuration, if any.
    fn flags(&self) -> Vec<String> {
        match self.flags {
            Flags::Default => Vec::new(),
            Flags::Explicit => vec![
                "-S".into(),
                self.socket.display().to_string(),
                "-f".into(),
                self.config.display().to_string(),
            ],
        }
    }

    /// Runs a weft command; a failure is reported and the run goes on (the profile is what
    /// matters, not this one command).
    fn cli(&self, args: &[&str]) {
        let argv = self.argv(args);
        let out = Command::new(&argv[0])
            .args(&argv[1..])
            .env_clear()
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .current_dir(&self.dir)
            .output();
        match out {
            Ok(o) if o.status.success() => {}
            Ok(o) => eprintln!(
                "xtask link-order: weft {} failed: {}",
                args.join(" "),
                String::from_utf8_lossy(&o.stderr).trim()
            ),
            Err(e) => eprintln!("xtask link-order: weft {}: {e}", args.join(" ")),
        }
    }

    /// The server's pid: the parent of a pane's shell.
    fn server_pid(&self) -> Option<u32> {
        let out = Command::new(&self.weft)
            .args(self.flags())
            .args(["list-panes", "-a", "-F", "#{pane_pid}"])
            .env_clear()
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .output()
            .ok()?;
        let pane: u32 = String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()?
            .trim()
            .parse()
            .ok()?;
        crate::soak::parent_of(pane)
    }

    /// A client in a terminal of its own running `weft args`, once `watch` shows.
    fn client(&self, args: &[&str], watch: &str) -> Result<Term, String> {
        let argv = self.argv(args);
        let term = Term::spawn(&Spec {
            argv: &argv,
            env: &self.env,
            cwd: &self.dir,
            cols: 120,
            rows: 40,
            watch: Some(watch),
        })
        .map_err(|e| format!("weft {}: {e}", args.join(" ")))?;
        term.wait_watch(STEP_TIMEOUT)
            .map_err(|e| format!("weft {} never showed {watch:?}: {e}", args.join(" ")))?;
        Ok(term)
    }

    /// Stops the server and reads the functions Callgrind saw run in every process.
    fn finish(self) -> Result<Ran, String> {
        let server = self.server_pid();
        self.cli(&["kill-server"]);
        if let Some(pid) = server {
            let deadline = Instant::now() + STEP_TIMEOUT;
            while crate::bench::procs::is_alive(pid) && Instant::now() < deadline {
                // A fixed nap is right here: the server is not our child, so there is no exit
                // to wait on.
                std::thread::sleep(Duration::from_millis(50)); // deadline-ok
            }
        }
        let server_file = server.map(|pid| format!("callgrind.{pid}"));
        // Its last profile, and one up to each pane it forked.
        let is_server = |file: &str| {
            server_file.as_ref().is_some_and(|prefix| {
                file.strip_prefix(prefix.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
            })
        };
        let mut ran = Ran::default();
        let mut server_parts = Vec::new();
        let entries = std::fs::read_dir(&self.dir).map_err(|e| format!("{e}"))?;
        for entry in entries.flatten() {
            let file = entry.file_name().to_string_lossy().into_owned();
            if !file.starts_with("callgrind.") {
                continue;
            }
            let text = std::fs::read(entry.path()).map_err(|e| format!("{e}"))?;
            let text = String::from_utf8_lossy(&text).into_owned();
            if is_server(&file) {
                server_parts.push((part_number(&file), text));
            } else {
                ran.others.extend(function_names(&text));
            }
        }
        // The parts in the order they were written; those up to the one dumped as start-up
        // ended are start-up's (none such: all count as after it).
        server_parts.sort_by_key(|(part, _)| *part);
        let ended = server_parts.iter().position(|(_, text)| {
            text.lines()
                .any(|l| l.starts_with("desc: Trigger") && l.contains("start_settled"))
        });
        for (i, (_, text)) in server_parts.iter().enumerate() {
            let names = if ended.is_some_and(|ended| i <= ended) {
                &mut ran.server_start
            } else {
                &mut ran.server
            };
            names.extend(function_names(text));
        }
        if ran.server.is_empty() {
            return Err("Callgrind recorded no functions in the server".into());
        }
        Ok(ran)
    }
}

/// A Callgrind profile's part number: `callgrind.PID.N` is the Nth dump, `callgrind.PID`
/// the last (at exit).
fn part_number(file: &str) -> u64 {
    let mut fields = file.split('.').skip(2);
    fields
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(u64::MAX)
}

/// The functions a Callgrind profile names.
fn function_names(text: &str) -> impl Iterator<Item = String> + '_ {
    text.lines()
        .filter_map(|line| {
            line.strip_prefix("fn=")
                .or_else(|| line.strip_prefix("cfn="))
        })
        .map(str::to_string)
}

/// The functions a profiled run ran.
#[derive(Default)]
struct Ran {
    /// In the server once its start-up was over.
    server: BTreeSet<String>,
    /// In the server from its fork until its start-up was over.
    server_start: BTreeSet<String>,
    /// In the clients (the server's too before its fork), and in panes' processes before
    /// they start their program.
    others: BTreeSet<String>,
}

impl Ran {
    fn extend(&mut self, other: Ran) {
        self.server.extend(other.server);
        self.server_start.extend(other.server_start);
        self.others.extend(other.others);
    }
}

/// Profiles one run of `drive`, whose first client starts the server; returns the functions
/// its processes ran.
fn profile(
    weft: &Path,
    dir: &Path,
    flags: Flags,
    drive: fn(&Profiled) -> Result<(), String>,
) -> Result<Ran, String> {
    let profiled = Profiled::new(weft, dir, flags)?;
    let driven = drive(&profiled);
    let names = profiled.finish()?;
    driven.map(|()| names)
}

/// A session started in an attached client, left at its prompt.
fn idle_session(p: &Profiled) -> Result<(), String> {
    let _client = p.client(&["new", "-s", "idle"], PROMPT)?;
    Ok(())
}

/// A session running a given command, started in an attached client, left at its prompt.
fn idle_with_command(p: &Profiled) -> Result<(), String> {
    let _client = p.client(&["new", "-s", "idle", "--", "sh"], PROMPT)?;
    Ok(())
}

/// A detached session of a given size.
fn idle_detached(p: &Profiled) -> Result<(), String> {
    p.cli(&["new", "-d", "-s", "idle", "-x", "104", "-y", "59"]);
    Ok(())
}

/// A day's use: typing and output in an attached client, prefix keys, splits and windows,
/// copy mode and search, the command prompt, buffers, captures and formats, detaching.
fn a_day(p: &Profiled) -> Result<(), String> {
    let mut term = p.client(&["new", "-s", "day"], PROMPT)?;
    let type_and_wait = |term: &Term, keys: &str, shows: &str| -> Result<(), String> {
        let mark = term.mark();
        term.write(keys.as_bytes()).map_err(|e| format!("{e}"))?;
        term.wait_for_text(shows, mark, STEP_TIMEOUT)
            .map(|_| ())
            .map_err(|e| format!("typing {keys:?} never showed {shows:?}: {e}"))
    };
    type_and_wait(&term, "echo typed-$((6*7))\r", "typed-42")?;
    type_and_wait(&term, "cat mixed.txt\r", "truecolour 1999")?;
    type_and_wait(&term, "\x02%", PROMPT)?;
    type_and_wait(&term, "\x02\"", PROMPT)?;
    type_and_wait(&term, "\x02c", PROMPT)?;
    type_and_wait(
        &term,
        "printf '\\033[1;31mred\\033[m wide 漢字\\n'\r",
        "wide",
    )?;
    type_and_wait(&term, "\x02:display-message shown-$((1))\r", "shown")?;
    term.write(b"\x02n\x02p\x02z\x02z\x02o\x02[")
        .map_err(|e| format!("{e}"))?;
    term.write(b"\x1b[A\x1b[A\x1b[5~q")
        .map_err(|e| format!("{e}"))?;
    term.resize(100, 30).map_err(|e| format!("{e}"))?;
    term.resize(120, 40).map_err(|e| format!("{e}"))?;
    for args in [
        &["split-window", "-h", "-c", "/tmp", "-t", "day"][..],
        &["new-window", "-d", "-n", "logs", "-t", "day"],
        &["select-layout", "-t", "day", "tiled"],
        &["resize-pane", "-t", "day", "-Z"],
        &["rename-window", "-t", "day", "work"],
        &["send-keys", "-t", "day", "echo sent-$((2+3))", "Enter"],
        &["wait", "-t", "day", "--regex", "sent-5", "--timeout", "120"],
        &["copy-mode", "-t", "day"],
        &["send-keys", "-t", "day", "-X", "search-backward", "typed"],
        &["send-keys", "-t", "day", "-X", "cancel"],
        &["set-buffer", "pasted text"],
        &["paste-buffer", "-t", "day"],
        &["list-buffers"],
        &["capture-pane", "-p", "-e", "-S", "-", "-t", "day"],
        &["list-panes", "-a", "--json"],
        &["list-windows", "-t", "day"],
        &["list-sessions"],
        &[
            "display-message",
            "-p",
            "#{session_name} #{window_index} #{pane_current_path}",
        ],
        &["set-option", "-g", "status-right", "#{pane_title} %H:%M:%S"],
        &["bind-key", "F9", "next-window"],
        &["show-options", "-g"],
        &["list-keys"],
        &["kill-pane", "-t", "day"],
    ] {
        p.cli(args);
    }
    type_and_wait(&term, "echo after-$((9*9))\r", "after-81")?;
    term.write(b"\x02d").map_err(|e| format!("{e}"))?;
    if !term.wait_exit(STEP_TIMEOUT) {
        return Err("the client did not detach".into());
    }
    let _again = p.client(&["attach", "-t", "day"], "after-81")?;
    p.cli(&["new-session", "-d", "-s", "spare"]);
    p.cli(&["kill-session", "-t", "day"]);
    Ok(())
}
