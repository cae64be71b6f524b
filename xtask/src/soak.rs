//! `cargo xtask soak [--minutes N] [--weft PATH]`: a long run of a real weft server under a
//! mixed load, checking that it neither grows nor loses anything.
//!
//! Three panes print mixed output (colours, wide and combining characters, long wrapped lines)
//! in bursts; a fourth is a shell that is typed one numbered command after another with
//! `send-keys`, each one's output waited for (a key lost or never echoed fails the run); every
//! few seconds a client attaches, resizes its terminal a few times and detaches. The server's
//! RSS and open descriptors are sampled throughout. The run fails if a key is lost, if the
//! server dies, or if after the warm-up its RSS or descriptors grow beyond noise.

use crate::bench::procs::rss_kib;
use crate::bench::term::{Spec, Term};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Output};
use std::time::{Duration, Instant};

/// History lines per pane during the soak.
const SOAK_HISTORY: usize = 1000;
/// How often the server is sampled and a client attaches.
const SAMPLE_EVERY: Duration = Duration::from_secs(5);
/// Longest a typed command's output may take to show before the key counts as lost.
const ECHO_TIMEOUT: &str = "10";
/// RSS growth after the warm-up that counts as noise: the allocator's free lists and the
/// clients attached at the moment of the sample.
const RSS_SLACK_KIB: u64 = 8 * 1024;
/// Descriptor growth after the warm-up that counts as noise (a client attaching right then).
const FD_SLACK: usize = 8;

/// Runs the command line `args` (after `soak`).
pub fn main(args: &[String]) -> ExitCode {
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask soak: {e}");
            ExitCode::FAILURE
        }
    }
}

/// One sample of the server.
struct Sample {
    at: Duration,
    rss_kib: u64,
    fds: usize,
}

fn run(args: &[String]) -> Result<(), String> {
    let mut minutes = 1.0_f64;
    let mut weft: Option<PathBuf> = None;
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "--minutes" => {
                minutes = words
                    .next()
                    .and_then(|m| m.parse().ok())
                    .filter(|m: &f64| *m > 0.0)
                    .ok_or("--minutes takes a positive number")?;
            }
            "--weft" => weft = words.next().map(PathBuf::from),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    let weft = match weft {
        Some(w) => w,
        None => build_debug_weft()?,
    };
    let length = Duration::from_secs_f64(minutes * 60.0);
    let warm_up = (length / 5).max(Duration::from_secs(20)).min(length / 2);
    let dir = std::env::temp_dir().join(format!("weft-soak-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let soak = Soak::new(weft, &dir)?;
    let result = soak.drive(length, warm_up);
    let _ = soak.weft(&["kill-server"]);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// A debug build of weft (the tests' build: already there in CI).
fn build_debug_weft() -> Result<PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "--quiet", "-p", "weft-mux", "--bin", "weft"])
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err("weft did not build".into());
    }
    Ok(crate::bench::launch::target_dir()?
        .join("debug")
        .join("weft"))
}

/// The server under soak.
struct Soak {
    weft: PathBuf,
    socket: PathBuf,
    dir: PathBuf,
    env: Vec<(String, String)>,
    server: u32,
    shell: String,
}

impl Soak {
    fn new(weft: PathBuf, dir: &Path) -> Result<Soak, String> {
        let env = vec![
            ("HOME".to_string(), dir.display().to_string()),
            (
                "PATH".to_string(),
                std::env::var("PATH").unwrap_or_default(),
            ),
            ("SHELL".to_string(), "/bin/sh".to_string()),
            ("TERM".to_string(), "xterm-256color".to_string()),
            ("WEFT".to_string(), String::new()),
            ("WEFT_PANE".to_string(), String::new()),
        ];
        let mut soak = Soak {
            weft,
            socket: dir.join("soak.sock"),
            dir: dir.to_path_buf(),
            env,
            server: 0,
            shell: String::new(),
        };
        let output = soak.dir.join("mixed.txt");
        std::fs::write(&output, mixed_output()).map_err(|e| format!("{e}"))?;
        // A short history, so that every pane's is full within the warm-up: growth after it
        // is then the server's, not history filling up.
        let config = soak.dir.join("soak.toml");
        std::fs::write(&config, format!("scrollback-lines = {SOAK_HISTORY}\n"))
            .map_err(|e| format!("{e}"))?;
        let config = config.display().to_string();
        soak.ok(&[
            "-f",
            &config,
            "new",
            "-d",
            "-s",
            "soak",
            "-x",
            "120",
            "-y",
            "40",
            "--",
            "bash",
            "--norc",
            "--noprofile",
        ])?;
        let flood = format!("while :; do cat {}; sleep 0.3; done", output.display());
        for _ in 0..3 {
            soak.ok(&["split-window", "-d", "-t", "soak", "--", "sh", "-c", &flood])?;
        }
        soak.ok(&["select-layout", "-t", "soak", "tiled"])?;
        let panes: serde_json::Value =
            serde_json::from_slice(&soak.ok(&["list-panes", "-t", "soak", "--json"])?.stdout)
                .map_err(|e| format!("list-panes: {e}"))?;
        let first = &panes[0];
        soak.shell = first["id"].as_str().ok_or("no pane id")?.to_string();
        let pid = first["pid"].as_u64().ok_or("no pane pid")?;
        soak.server = parent_of(pid as u32).ok_or("cannot find the server's pid")?;
        Ok(soak)
    }

    fn weft(&self, args: &[&str]) -> std::io::Result<Output> {
        Command::new(&self.weft)
            .arg("-S")
            .arg(&self.socket)
            .args(args)
            .env_clear()
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .output()
    }

    /// Runs a weft command that must succeed.
    fn ok(&self, args: &[&str]) -> Result<Output, String> {
        let out = self.weft(args).map_err(|e| format!("weft {args:?}: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "weft {}: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        Ok(out)
    }

    /// Types command `n` into the shell pane and waits for its output; returns how long the
    /// round trip took (two weft processes included).
    fn echo(&self, n: u64) -> Result<Duration, String> {
        let started = Instant::now();
        self.ok(&[
            "send-keys",
            "-t",
            &self.shell,
            "-l",
            &format!("echo K$(({n}+0))"),
        ])?;
        self.ok(&["send-keys", "-t", &self.shell, "Enter"])?;
        // The output anywhere in a line, not a whole line: when a resize's SIGWINCH reaches
        // bash between the newline of Enter and the command's start, readline redraws its
        // line on the new row and bash's carriage return then puts the output over the start
        // of it ("K61995.2# echo ..."), as in any terminal. No earlier output contains
        // `K{n}`: each is a smaller number, and the typed command spells it `K$((n+0))`.
        let out = self.weft(&[
            "wait",
            "-t",
            &self.shell,
            "--text",
            &format!("K{n}"),
            "--timeout",
            ECHO_TIMEOUT,
        ]);
        match out {
            Ok(o) if o.status.success() => Ok(started.elapsed()),
            // The screen `wait` saw last, and what it said, so that a failure can be read.
            Ok(o) => Err(format!(
                "command {n} typed into the shell never showed its output; `wait` said {:?} \
                 and the pane showed:\n{}",
                String::from_utf8_lossy(&o.stderr).trim(),
                String::from_utf8_lossy(&o.stdout).trim_end()
            )),
            Err(e) => Err(format!("command {n}: weft wait could not run: {e}")),
        }
    }

    /// A client attaches, resizes its terminal a few times, and detaches.
    fn client_visit(&self, round: u64) -> Result<(), String> {
        let argv = vec![
            self.weft.display().to_string(),
            "-S".into(),
            self.socket.display().to_string(),
            "attach".into(),
            "-t".into(),
            "soak".into(),
        ];
        let mut term = Term::spawn(&Spec {
            argv: &argv,
            env: &self.env,
            cwd: &self.dir,
            cols: 120,
            rows: 40,
            watch: Some("[soak]"),
        })
        .map_err(|e| format!("attach: {e:?}"))?;
        term.wait_watch(Duration::from_secs(10))
            .map_err(|e| format!("attach {round} never drew: {e:?}"))?;
        for (cols, rows) in [(100, 30), (140, 45), (120, 40)] {
            term.resize(cols, rows).map_err(|e| format!("{e:?}"))?;
        }
        term.write(b"\x02d").map_err(|e| format!("{e:?}"))?;
        if !term.wait_exit(Duration::from_secs(10)) {
            return Err(format!("client {round} did not detach"));
        }
        Ok(())
    }

    fn sample(&self, start: Instant) -> Result<Sample, String> {
        let rss_kib = rss_kib(self.server).ok_or("the server is gone")?;
        let fds = std::fs::read_dir(format!("/proc/{}/fd", self.server))
            .map(|d| d.count())
            .map_err(|e| format!("the server's descriptors: {e}"))?;
        Ok(Sample {
            at: start.elapsed(),
            rss_kib,
            fds,
        })
    }

    fn drive(&self, length: Duration, warm_up: Duration) -> Result<(), String> {
        let start = Instant::now();
        let mut samples = Vec::new();
        let mut echoes = Vec::new();
        let mut next_sample = start;
        let mut n = 0;
        eprintln!(
            "xtask soak: {:.1} min, warm-up {:.0} s, server pid {}",
            length.as_secs_f64() / 60.0,
            warm_up.as_secs_f64(),
            self.server
        );
        while start.elapsed() < length {
            n += 1;
            echoes.push(self.echo(n)?);
            if Instant::now() >= next_sample {
                self.client_visit(n)?;
                let s = self.sample(start)?;
                eprintln!(
                    "  {:>6.0} s  rss {:>7.1} MB  fds {:>4}  keys {n}",
                    s.at.as_secs_f64(),
                    s.rss_kib as f64 / 1024.0,
                    s.fds
                );
                samples.push(s);
                next_sample += SAMPLE_EVERY;
            }
        }
        let last = self.sample(start)?;
        samples.push(last);
        report(&samples, &mut echoes, warm_up)
    }
}

/// Summarises the run and fails it on growth after the warm-up.
fn report(samples: &[Sample], echoes: &mut [Duration], warm_up: Duration) -> Result<(), String> {
    echoes.sort();
    let pct = |p: usize| echoes[(echoes.len() - 1) * p / 100].as_secs_f64() * 1000.0;
    let baseline: Vec<&Sample> = samples.iter().filter(|s| s.at <= warm_up).collect();
    let after: Vec<&Sample> = samples.iter().filter(|s| s.at > warm_up).collect();
    let (Some(base), Some(end)) = (baseline.last(), after.iter().max_by_key(|s| s.rss_kib)) else {
        return Err("too short to compare before and after the warm-up".into());
    };
    let max_fds = after.iter().map(|s| s.fds).max().unwrap_or(0);
    eprintln!(
        "xtask soak: {} commands typed, none lost; round trip p50 {:.1} ms, p99 {:.1} ms, max \
         {:.1} ms (two weft processes each)",
        echoes.len(),
        pct(50),
        pct(99),
        pct(100)
    );
    eprintln!(
        "xtask soak: RSS {:.1} MB after warm-up, at most {:.1} MB after; descriptors {} then at \
         most {}",
        base.rss_kib as f64 / 1024.0,
        end.rss_kib as f64 / 1024.0,
        base.fds,
        max_fds
    );
    if end.rss_kib > base.rss_kib + base.rss_kib / 10 + RSS_SLACK_KIB {
        return Err(format!(
            "the server grew after the warm-up: {} KiB -> {} KiB",
            base.rss_kib, end.rss_kib
        ));
    }
    if max_fds > base.fds + FD_SLACK {
        return Err(format!(
            "the server's descriptors grew after the warm-up: {} -> {max_fds}",
            base.fds
        ));
    }
    Ok(())
}

/// The parent of process `pid`.
pub(crate) fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: fields follow the last ')'.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// About 200 KB of what terminals print: colours, bold and underline, wide and combining
/// characters, tabs, and lines longer than the pane (they wrap).
pub(crate) fn mixed_output() -> String {
    let mut out = String::new();
    for i in 0..2000 {
        match i % 5 {
            0 => out.push_str(&format!(
                "\x1b[3{}mline {i}\x1b[0m plain text after colour\n",
                i % 8
            )),
            1 => out.push_str(&format!(
                "\x1b[1;4mbold {i}\x1b[22;24m 漢字かな 한국어 e\u{301}\n"
            )),
            2 => out.push_str(&format!("{i}\tcol\tcol\tcol\t{}\n", "x".repeat(i % 50))),
            3 => out.push_str(&format!("{}{i}\n", "long-wrapped-line ".repeat(10))),
            _ => out.push_str(&format!(
                "\x1b[38;2;{};{};200mtruecolour {i}\x1b[m\n",
                i % 256,
                (i * 7) % 256
            )),
        }
    }
    out
}
