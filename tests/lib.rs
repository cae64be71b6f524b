//! Helpers for weft's end-to-end tests: building, locating and running the real `weft` binary.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

/// The `weft` binary of this workspace, built once per test run (a no-op when up to date).
///
/// # Panics
/// When the binary cannot be built: every end-to-end test needs it.
pub fn weft_binary() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .parent()
                .map(PathBuf::from)
                .unwrap_or_default();
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            let status = Command::new(cargo)
                .args(["build", "--quiet", "-p", "weft-mux", "--bin", "weft"])
                .current_dir(&root)
                .status();
            assert!(
                status.as_ref().is_ok_and(|s| s.success()),
                "building weft failed: {status:?}"
            );
            let target = std::env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| root.join("target"));
            target.join("debug").join("weft")
        })
        .clone()
}

/// Runs `weft` with `args`, feeding `stdin`, and returns what it printed and its status.
///
/// # Panics
/// When the process cannot be started or waited for.
pub fn run_weft(args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(weft_binary())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start weft");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        // The process may exit without reading (bad arguments): a broken pipe is fine.
        let _ = input.write_all(&data);
    });
    let output = child.wait_with_output().expect("wait for weft");
    let _ = writer.join();
    output
}

/// A private weft server for one test: its own socket in a temporary directory, killed (with
/// everything it started) when dropped.
#[derive(Debug)]
pub struct TestServer {
    /// The temporary directory.
    pub dir: PathBuf,
    /// The socket.
    pub socket: PathBuf,
}

/// Environment every program in a test sees: a plain bash prompt, no user configuration.
/// `HOME` is also set, to the test's own directory: no `.bashrc` there, so a slow or stuck rc
/// file of the machine's user cannot stall a default-shell pane.
pub const TEST_ENV: &[(&str, &str)] = &[
    ("PS1", "$ "),
    ("SHELL", "/bin/bash"),
    ("HISTFILE", "/dev/null"),
    ("XDG_CONFIG_HOME", "/nonexistent-weft-test-config"),
    // Not inside weft, even when the tests run in a weft pane: an empty `$WEFT` is unset.
    ("WEFT", ""),
    ("WEFT_PANE", ""),
];

/// The shell tests run in panes.
pub const TEST_SHELL: &[&str] = &["bash", "--norc", "--noprofile"];

impl TestServer {
    /// A fresh directory and socket path; the server starts with the first command.
    pub fn new(name: &str) -> TestServer {
        let dir = std::env::temp_dir().join(format!(
            "weft-test-{}-{name}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos())
        ));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let socket = dir.join("weft.sock");
        TestServer { dir, socket }
    }

    /// `weft -S socket ARGS...` run to completion.
    pub fn weft(&self, args: &[&str]) -> Output {
        let mut cmd = Command::new(weft_binary());
        cmd.arg("-S").arg(&self.socket).args(args);
        for (k, v) in TEST_ENV {
            cmd.env(k, v);
        }
        cmd.env("HOME", &self.dir);
        cmd.stdin(Stdio::null()).output().expect("run weft")
    }

    /// `weft -S socket ARGS...` run to completion with extra environment (for a server it
    /// starts).
    pub fn weft_env(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        let mut cmd = Command::new(weft_binary());
        cmd.arg("-S").arg(&self.socket).args(args);
        cmd.env("HOME", &self.dir);
        for (k, v) in TEST_ENV.iter().chain(env) {
            cmd.env(k, v);
        }
        cmd.stdin(Stdio::null()).output().expect("run weft")
    }

    /// `weft -S socket ARGS...` in a test terminal of the given size (a user at a terminal).
    pub fn client(&self, args: &[&str], cols: u16, rows: u16) -> weft_testkit::TestTerminal {
        self.client_env(args, cols, rows, &[])
    }

    /// [`TestServer::client`] with extra environment for the client.
    pub fn client_env(
        &self,
        args: &[&str],
        cols: u16,
        rows: u16,
        env: &[(&str, &str)],
    ) -> weft_testkit::TestTerminal {
        self.client_builder(args, cols, rows, env)
            .start()
            .expect("start a client")
    }

    /// A test terminal running `weft -S socket ARGS...` with the tests' environment, `env`
    /// and this server's directory as `HOME`.
    fn client_builder(
        &self,
        args: &[&str],
        cols: u16,
        rows: u16,
        env: &[(&str, &str)],
    ) -> weft_testkit::TestTerminalBuilder {
        let mut argv: Vec<std::ffi::OsString> = vec![weft_binary().into(), "-S".into()];
        argv.push(self.socket.clone().into());
        argv.extend(args.iter().map(Into::into));
        let mut builder = weft_testkit::TestTerminal::spawn(argv).size(cols, rows);
        for (k, v) in TEST_ENV.iter().chain(env) {
            builder = builder.env(*k, *v);
        }
        builder.env("HOME", self.dir.as_os_str())
    }

    /// [`TestServer::client_env`] on a scripted terminal that answers weft's queries as `fake`
    /// says (see [`weft_testkit::FakeTerminal`]'s presets). A client's first frame does not
    /// wait for its terminal's answers: when `fake` answers at once, this returns once the
    /// server has taken them in, so what the test does next meets a terminal weft knows.
    ///
    /// # Panics
    /// When the answers are not taken in within 10 s (the client did not attach).
    pub fn client_answering(
        &self,
        args: &[&str],
        cols: u16,
        rows: u16,
        env: &[(&str, &str)],
        fake: weft_testkit::FakeTerminal,
    ) -> weft_testkit::TestTerminal {
        let answers = fake.primary.is_some() && !fake.hold;
        let before = answers.then(|| self.answered_clients());
        let mut client = self
            .client_builder(args, cols, rows, env)
            .answering(fake)
            .start()
            .expect("start a client");
        if let Some(before) = before {
            // DA1, weft's last query: once the fake terminal has seen it, it has answered all.
            client
                .wait_for_query(b"\x1b[c")
                .expect("weft asks its terminal");
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
            while self.answered_clients() <= before {
                assert!(
                    std::time::Instant::now() < deadline,
                    "the client's terminal answered, but weft never took the answers in"
                );
                // list-clients has nothing to wait on: asked again a little later.
                std::thread::sleep(std::time::Duration::from_millis(10)); // deadline-ok: polling a listing
            }
        }
        client
    }

    /// How many attached clients' terminals have answered weft's queries (`list-clients`).
    fn answered_clients(&self) -> usize {
        let out = self.weft(&["list-clients", "--json"]);
        serde_json::from_slice::<Vec<serde_json::Value>>(&out.stdout)
            .unwrap_or_default()
            .iter()
            .filter(|c| c["terminal"]["answered"] == true)
            .count()
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if self.socket.exists() {
            let _ = self.weft(&["kill-server"]);
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Makes session `name` detached, running [`TEST_SHELL`] at the default size.
///
/// # Panics
/// When `weft new` fails.
pub fn detached_session(server: &TestServer, name: &str) {
    let mut args = vec!["new", "-d", "-s", name, "--"];
    args.extend_from_slice(TEST_SHELL);
    let out = server.weft(&args);
    assert!(out.status.success(), "{out:?}");
}

/// A client in a test terminal of 80x24 attached to a new session `name` running
/// [`TEST_SHELL`], started with configuration file `conf` if given; returned at the prompt.
///
/// # Panics
/// When the prompt does not show.
pub fn attached_session(
    server: &TestServer,
    name: &str,
    conf: Option<&str>,
) -> weft_testkit::TestTerminal {
    let mut args: Vec<&str> = Vec::new();
    if let Some(c) = conf {
        args.extend(["-f", c]);
    }
    args.extend(["new", "-s", name, "--"]);
    args.extend_from_slice(TEST_SHELL);
    let mut client = server.client(&args, 80, 24);
    client.wait_for_text("$").expect("prompt");
    client
}

/// An option's value as `show-options -v NAME` prints it, without the line's end.
pub fn show_option(server: &TestServer, name: &str) -> String {
    stdout_of(&server.weft(&["show-options", "-v", name]))
        .trim_end()
        .to_string()
}

/// Writes `text` to `name` in the server's directory (a configuration file); its path.
///
/// # Panics
/// When the file cannot be written.
pub fn write_file(server: &TestServer, name: &str, text: &str) -> std::path::PathBuf {
    let path = server.dir.join(name);
    std::fs::write(&path, text).expect("write a file in the test's directory");
    path
}

/// Splits a pane with `split-window -P -F '#{pane_id}'` and `args` (a target, flags, then `--`
/// and a command if wanted); returns the new pane's id.
///
/// # Panics
/// When the split fails.
pub fn split_pane(server: &TestServer, args: &[&str]) -> String {
    let mut all = vec!["split-window", "-P", "-F", "#{pane_id}"];
    all.extend_from_slice(args);
    let out = server.weft(&all);
    assert!(out.status.success(), "split-window {args:?}: {out:?}");
    stdout_of(&out).trim().to_string()
}

/// Text of a finished command's stdout.
pub fn stdout_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Text of a finished command's stderr.
pub fn stderr_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The server's pid: the parent of the first pane's program (from `list-panes --json`).
///
/// # Panics
/// When there is no pane or its process is gone.
pub fn server_pid(server: &TestServer) -> u32 {
    let out = stdout_of(&server.weft(&["list-panes", "--json"]));
    let pid: u32 = out
        .split("\"pid\":")
        .nth(1)
        .map(|rest| {
            rest.chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
        })
        .and_then(|digits| digits.parse().ok())
        .expect("a pane with a pid");
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("the pane's process");
    // The command name may hold spaces and parentheses: fields follow the last ')'.
    let rest = &stat[stat.rfind(')').expect("a stat line") + 1..];
    rest.split_whitespace()
        .nth(1)
        .and_then(|ppid| ppid.parse().ok())
        .expect("a parent pid")
}

/// A process's resident memory, in KiB.
///
/// # Panics
/// When the process is gone.
pub fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .expect("the process's status")
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .expect("VmRSS")
}

/// The highest resident memory a process reaches while it is watched, sampled every 5 ms by
/// a thread of its own.
#[derive(Debug)]
pub struct RssPeak {
    before: u64,
    peak: std::sync::Arc<std::sync::atomic::AtomicU64>,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    sampler: std::thread::JoinHandle<()>,
}

impl RssPeak {
    /// Starts watching process `pid`.
    ///
    /// # Panics
    /// When the process is gone.
    pub fn watch(pid: u32) -> RssPeak {
        use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
        use std::sync::Arc;
        let before = rss_kib(pid);
        let peak = Arc::new(AtomicU64::new(before));
        let stop = Arc::new(AtomicBool::new(false));
        let sampler = {
            let (peak, stop) = (peak.clone(), stop.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    peak.fetch_max(rss_kib(pid), Ordering::Relaxed);
                    std::thread::sleep(std::time::Duration::from_millis(5)); // deadline-ok: memory sampling
                }
            })
        };
        RssPeak {
            before,
            peak,
            stop,
            sampler,
        }
    }

    /// Stops watching; the process's peak RSS in MiB.
    ///
    /// # Panics
    /// When the sampling thread panicked (the process went away).
    pub fn peak_mib(self) -> u64 {
        use std::sync::atomic::Ordering;
        self.stop.store(true, Ordering::Relaxed);
        self.sampler.join().expect("the memory sampler");
        self.peak.load(Ordering::Relaxed) / 1024
    }

    /// Stops watching; how many MiB the process grew at its peak over where it started.
    ///
    /// # Panics
    /// When the sampling thread panicked (the process went away).
    pub fn grown_mib(self) -> u64 {
        use std::sync::atomic::Ordering;
        self.stop.store(true, Ordering::Relaxed);
        self.sampler.join().expect("the memory sampler");
        self.peak
            .load(Ordering::Relaxed)
            .saturating_sub(self.before)
            / 1024
    }
}

/// The JSON array a listing command (`list-panes --json`, ...) prints.
///
/// # Panics
/// When the command fails or does not print a JSON array.
pub fn json_list(server: &TestServer, args: &[&str]) -> Vec<serde_json::Value> {
    let out = server.weft(args);
    assert!(out.status.success(), "{args:?}: {out:?}");
    match serde_json::from_slice::<serde_json::Value>(&out.stdout) {
        Ok(serde_json::Value::Array(items)) => items,
        other => panic!(
            "{args:?} printed no JSON array ({other:?}): {}",
            stdout_of(&out)
        ),
    }
}

/// An SGR mouse report as the user's terminal sends it, for 0-based `col` and `row` (`code`:
/// 0 left press, 32 a drag, 64/65 the wheel; `press` false for a release).
pub fn mouse_report(code: u16, col: u16, row: u16, press: bool) -> Vec<u8> {
    format!(
        "\x1b[<{code};{};{}{}",
        col + 1,
        row + 1,
        if press { 'M' } else { 'm' }
    )
    .into_bytes()
}
