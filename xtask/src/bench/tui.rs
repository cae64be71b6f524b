//! The htop-like program of the `tui` workload: every 100 ms it repaints a full screen of a
//! process monitor (a header of CPU bars, memory and uptime, and a table of processes whose
//! figures change and whose order shifts), as a program that redraws everything each tick
//! does. Deterministic: the same frames every run.

use crate::bench::data::Rng;
use std::fmt::Write as _;

/// Ticks a run draws.
pub const TICKS: usize = 100;
/// Between ticks.
pub const TICK: std::time::Duration = std::time::Duration::from_millis(100);

/// One process of the table.
struct Process {
    pid: u32,
    user: &'static str,
    cpu: f64,
    mem: f64,
    command: &'static str,
}

const USERS: &[&str] = &["root", "alice", "postgres", "www-data", "bob"];
const COMMANDS: &[&str] = &[
    "/usr/lib/postgresql/16/bin/postgres -D /var/lib/postgresql",
    "cargo build --release --workspace",
    "/usr/bin/python3 -m http.server 8000",
    "nginx: worker process",
    "sshd: alice@pts/0",
    "/usr/sbin/cron -f",
    "node /srv/app/server.js --port 3000",
    "bash --login",
    "vim src/main.rs",
    "rustc --crate-name weft --edition=2021",
];

/// The monitor's state between frames.
pub struct Monitor {
    rng: Rng,
    procs: Vec<Process>,
    tick: usize,
}

impl Monitor {
    /// A monitor of `rows` table rows' worth of processes.
    pub fn new(rows: usize) -> Monitor {
        let mut rng = Rng::new(0x4709);
        let procs = (0..rows.max(1) * 2)
            .map(|i| Process {
                pid: 100 + (i as u32) * 37,
                user: USERS[rng.below(USERS.len())],
                cpu: rng.unit() * 20.0,
                mem: rng.unit() * 5.0,
                command: COMMANDS[rng.below(COMMANDS.len())],
            })
            .collect();
        Monitor {
            rng,
            procs,
            tick: 0,
        }
    }

    /// The next frame for a `cols` x `rows` screen: the whole screen, line by line.
    pub fn frame(&mut self, cols: usize, rows: usize) -> String {
        self.tick += 1;
        for p in &mut self.procs {
            if self.rng.unit() < 0.3 {
                p.cpu = (p.cpu + (self.rng.unit() - 0.5) * 8.0).clamp(0.0, 99.9);
                p.mem = (p.mem + (self.rng.unit() - 0.5) * 0.2).clamp(0.0, 50.0);
            }
        }
        self.procs.sort_by(|a, b| {
            b.cpu
                .partial_cmp(&a.cpu)
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        let mut lines: Vec<String> = Vec::with_capacity(rows);
        for cpu in 0..2 {
            let load = 20.0 + 60.0 * self.rng.unit();
            let width = cols.saturating_sub(12).max(1);
            let filled = (load / 100.0 * width as f64) as usize;
            lines.push(format!(
                "  {cpu}[\x1b[32m{}\x1b[0m{}{load:5.1}%]",
                "|".repeat(filled),
                " ".repeat(width - filled.min(width))
            ));
        }
        let seconds = self.tick / 10;
        lines.push(format!(
            "  Mem[\x1b[33m{:.2}G\x1b[0m/15.6G]   Tasks: {}, {} running   Uptime: 03:{:02}:{:02}",
            4.0 + self.rng.unit(),
            self.procs.len(),
            1 + self.rng.below(4),
            seconds / 60,
            seconds % 60
        ));
        lines.push(String::new());
        lines.push(format!(
            "\x1b[30;42m{:<cols$}\x1b[0m",
            "    PID USER      CPU% MEM%  COMMAND"
        ));
        for p in &self.procs {
            if lines.len() + 1 >= rows {
                break;
            }
            lines.push(format!(
                "{:>7} {:<9} {:>4.1} {:>4.1}  {}",
                p.pid, p.user, p.cpu, p.mem, p.command
            ));
        }
        lines.push(format!(
            "\x1b[30;46mF1\x1b[0mHelp  \x1b[30;46mF10\x1b[0mQuit   tick {}",
            self.tick
        ));
        let mut out = String::from("\x1b[H");
        for (row, line) in lines.iter().enumerate() {
            let _ = write!(out, "\x1b[{};1H{}\x1b[K", row + 1, clip(line, cols));
        }
        out.push_str("\x1b[J");
        out
    }
}

/// Lines the growing log of the `tui` table's second run prints.
pub const LOG_LINES: usize = 250;
/// Between log lines.
pub const LOG_TICK: std::time::Duration = std::time::Duration::from_millis(20);

/// Line `n` of the growing log: a service's request log, a coloured level and changing
/// figures. Deterministic.
pub fn log_line(n: usize, rng: &mut Rng) -> String {
    const PATHS: &[&str] = &["/api/users", "/api/orders/42", "/static/app.js", "/healthz"];
    let level = if rng.below(10) == 0 {
        "\x1b[33mWARN\x1b[0m"
    } else {
        "\x1b[32mINFO\x1b[0m"
    };
    format!(
        "12:{:02}:{:02}.{:03} {level} request {n:05} GET {:<16} 200 in {:.1} ms",
        n / 3000 % 60,
        n / 50 % 60,
        n * 20 % 1000,
        PATHS[rng.below(PATHS.len())],
        rng.unit() * 40.0
    )
}

/// `line` cut to `cols` visible characters (escape sequences do not count).
fn clip(line: &str, cols: usize) -> String {
    let mut out = String::with_capacity(line.len());
    let mut shown = 0;
    let mut in_escape = false;
    for c in line.chars() {
        if in_escape {
            out.push(c);
            in_escape = !c.is_ascii_alphabetic();
        } else if c == '\x1b' {
            out.push(c);
            in_escape = true;
        } else if shown < cols {
            out.push(c);
            shown += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_fill_the_screen_and_change() {
        let mut m = Monitor::new(20);
        let first = m.frame(80, 24);
        let second = m.frame(80, 24);
        assert_ne!(first, second);
        assert!(first.starts_with("\x1b[H") && first.contains("\x1b[24;1H"));
        assert_eq!(clip("ab\x1b[1mcd", 3), "ab\x1b[1mc");
        assert_eq!(Monitor::new(20).frame(80, 24), first, "deterministic");
    }
}
