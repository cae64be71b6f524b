//! `xtask __bench-pane MODE STAMP ...`: the program the bench runs inside a pane (or directly
//! on the fake terminal, for the no-multiplexer baseline).
//!
//! Every mode first writes `STAMP.info` (`pid ppid cols rows`): the pane's parent is the
//! multiplexer's server, and the size is what the pane really got.
//!
//! - `stream STAMP READY DONE FILE`: no echo, byte at a time; prints READY, waits for one
//!   keystroke, runs `cat FILE` and times it, writes `STAMP.done` (`elapsed_ns status cols
//!   rows`, the size when `cat` started), prints
//!   DONE, then holds the pane.
//! - `fill STAMP READY DONE FILE`: runs `cat FILE` at once, then writes `STAMP.done`, prints
//!   DONE and holds.
//! - `hold STAMP READY`: prints READY and holds (reads its input until end of file).
//! - `echo STAMP READY`: raw mode; prints READY and echoes every byte back, `!` as "clear the
//!   line" so old probe characters are never redrawn.
//! - `load STAMP FILE`: raw mode; writes the start of FILE (newlines as CRLF) forever.
//! - `tui STAMP READY DONE`: prints READY, waits for one keystroke, then repaints an
//!   htop-like screen every 100 ms for 10 s (see `tui.rs`), writes `STAMP.done`, prints DONE
//!   and holds.
//! - `log STAMP READY DONE`: prints READY, waits for one keystroke, then prints a log line
//!   every 20 ms, 250 of them (see `tui.rs`), writes `STAMP.done`, prints DONE and holds.
//! - `shell STAMP PROMPT`: replaces itself with `bash --norc --noprofile -i` showing `PROMPT$ `.

use rustix::termios::{self, LocalModes, OptionalActions, SpecialCodeIndex};
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::AsFd;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, ExitCode};
use std::time::Instant;

/// The hidden subcommand of `xtask` that runs this.
pub const SUBCOMMAND: &str = "__bench-pane";

/// Bytes of the load file written over and over.
const LOAD_BYTES: usize = 4 << 20;

/// What `STAMP.info` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PaneInfo {
    /// The runner's pid.
    pub pid: u32,
    /// Its parent: the multiplexer's server (or the bench, without a multiplexer).
    pub ppid: u32,
    /// The pane's width.
    pub cols: u16,
    /// The pane's height.
    pub rows: u16,
}

impl PaneInfo {
    /// Parses `pid ppid cols rows`.
    pub fn parse(s: &str) -> Option<PaneInfo> {
        let mut it = s.split_whitespace();
        Some(PaneInfo {
            pid: it.next()?.parse().ok()?,
            ppid: it.next()?.parse().ok()?,
            cols: it.next()?.parse().ok()?,
            rows: it.next()?.parse().ok()?,
        })
    }
}

/// What `STAMP.done` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Done {
    /// How long `cat` ran, ns.
    pub elapsed_ns: u64,
    /// Whether it succeeded.
    pub ok: bool,
    /// The pane's width when `cat` started.
    pub cols: u16,
    /// The pane's height when `cat` started.
    pub rows: u16,
}

impl Done {
    /// Parses `elapsed_ns status cols rows`.
    pub fn parse(s: &str) -> Option<Done> {
        let mut it = s.split_whitespace();
        Some(Done {
            elapsed_ns: it.next()?.parse().ok()?,
            ok: it.next()? == "0",
            cols: it.next()?.parse().ok()?,
            rows: it.next()?.parse().ok()?,
        })
    }
}

/// Runs a mode; arguments after the subcommand.
pub fn main(args: &[String]) -> ExitCode {
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{SUBCOMMAND}: {e}");
            ExitCode::FAILURE
        }
    }
}

fn arg<'a>(args: &'a [String], i: usize, what: &str) -> std::io::Result<&'a str> {
    args.get(i)
        .map(String::as_str)
        .ok_or_else(|| std::io::Error::other(format!("missing {what}")))
}

fn run(args: &[String]) -> std::io::Result<()> {
    let mode = arg(args, 0, "mode")?;
    let stamp = arg(args, 1, "stamp")?;
    let mut out = stdout_file()?;
    write_info(stamp)?;
    match mode {
        "stream" => {
            let (ready, done, file) = (
                arg(args, 2, "READY")?,
                arg(args, 3, "DONE")?,
                arg(args, 4, "FILE")?,
            );
            set_mode(false)?;
            write!(out, "\r\n{ready}\r\n")?;
            let mut key = [0u8; 1];
            std::io::stdin().read_exact(&mut key)?;
            cat_and_report(&mut out, stamp, done, file)?;
            hold();
        }
        "fill" => {
            let (ready, done, file) = (
                arg(args, 2, "READY")?,
                arg(args, 3, "DONE")?,
                arg(args, 4, "FILE")?,
            );
            write!(out, "\r\n{ready}\r\n")?;
            cat_and_report(&mut out, stamp, done, file)?;
            hold();
        }
        "hold" => {
            write!(out, "\r\n{}\r\n", arg(args, 2, "READY")?)?;
            hold();
        }
        "echo" => {
            set_mode(true)?;
            write!(out, "{}\r\n", arg(args, 2, "READY")?)?;
            echo(&mut out)?;
        }
        "load" => {
            let mut data = Vec::with_capacity(LOAD_BYTES + LOAD_BYTES / 8);
            let mut raw = Vec::new();
            File::open(arg(args, 2, "FILE")?)?
                .take(LOAD_BYTES as u64)
                .read_to_end(&mut raw)?;
            for &b in &raw {
                if b == b'\n' {
                    data.push(b'\r');
                }
                data.push(b);
            }
            set_mode(true)?;
            loop {
                out.write_all(&data)?;
            }
        }
        "tui" => {
            let (ready, done) = (arg(args, 2, "READY")?, arg(args, 3, "DONE")?);
            set_mode(true)?;
            write!(out, "\x1b[?1049h\r\n{ready}\r\n")?;
            let mut key = [0u8; 1];
            std::io::stdin().read_exact(&mut key)?;
            let (cols, rows) = size();
            let mut monitor = super::tui::Monitor::new(usize::from(rows));
            let t0 = Instant::now();
            for tick in 0..super::tui::TICKS {
                out.write_all(
                    monitor
                        .frame(usize::from(cols), usize::from(rows))
                        .as_bytes(),
                )?;
                // The program redraws on a timer, as htop does.
                let due = t0 + super::tui::TICK * (tick as u32 + 1);
                let wait = due.saturating_duration_since(Instant::now());
                std::thread::sleep(wait); // deadline-ok: the workload's own 100 ms ticks
            }
            write_atomic(
                &format!("{stamp}.done"),
                &format!("{} 0 {cols} {rows}\n", t0.elapsed().as_nanos()),
            )?;
            write!(out, "\x1b[?1049l\x1b[0m\r\n{done}\r\n")?;
            hold();
        }
        "log" => {
            let (ready, done) = (arg(args, 2, "READY")?, arg(args, 3, "DONE")?);
            set_mode(true)?;
            write!(out, "\r\n{ready}\r\n")?;
            let mut key = [0u8; 1];
            std::io::stdin().read_exact(&mut key)?;
            let mut rng = super::data::Rng::new(0x106);
            let t0 = Instant::now();
            for n in 0..super::tui::LOG_LINES {
                write!(out, "{}\r\n", super::tui::log_line(n, &mut rng))?;
                // A line at a time, on a timer, as a service logs.
                let due = t0 + super::tui::LOG_TICK * (n as u32 + 1);
                let wait = due.saturating_duration_since(Instant::now());
                std::thread::sleep(wait); // deadline-ok: the workload's own 20 ms ticks
            }
            let (cols, rows) = size();
            write_atomic(
                &format!("{stamp}.done"),
                &format!("{} 0 {cols} {rows}\n", t0.elapsed().as_nanos()),
            )?;
            write!(out, "{done}\r\n")?;
            hold();
        }
        "shell" => {
            let prompt = format!("{}$ ", arg(args, 2, "PROMPT")?);
            // `exec` returns only when it failed: then try a plain POSIX shell.
            let _bash_missing = Command::new("bash")
                .args(["--norc", "--noprofile", "-i"])
                .env("PS1", &prompt)
                .env("HISTFILE", "/dev/null")
                .exec();
            return Err(Command::new("sh").arg("-i").env("PS1", &prompt).exec());
        }
        other => return Err(std::io::Error::other(format!("unknown mode {other}"))),
    }
    Ok(())
}

/// Standard output as an unbuffered file.
pub(super) fn stdout_file() -> std::io::Result<File> {
    Ok(File::from(std::io::stdout().as_fd().try_clone_to_owned()?))
}

/// Writes `path` whole or not at all.
fn write_atomic(path: &str, content: &str) -> std::io::Result<()> {
    let tmp = format!("{path}.tmp");
    std::fs::write(&tmp, content)?;
    std::fs::rename(&tmp, path)
}

fn write_info(stamp: &str) -> std::io::Result<()> {
    let ppid = rustix::process::getppid().map_or(0, |p| p.as_raw_nonzero().get());
    let (cols, rows) = size();
    write_atomic(
        &format!("{stamp}.info"),
        &format!("{} {ppid} {cols} {rows}\n", std::process::id()),
    )
}

/// The terminal size (0x0 when unknown).
fn size() -> (u16, u16) {
    termios::tcgetwinsize(std::io::stdout())
        .map(|w| (w.ws_col, w.ws_row))
        .unwrap_or((0, 0))
}

/// Raw mode (`raw`), or just no echo and byte-at-a-time reads.
fn set_mode(raw: bool) -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut t = termios::tcgetattr(&stdin)?;
    if raw {
        t.make_raw();
    } else {
        t.local_modes.remove(LocalModes::ICANON | LocalModes::ECHO);
        t.special_codes[SpecialCodeIndex::VMIN] = 1;
        t.special_codes[SpecialCodeIndex::VTIME] = 0;
    }
    termios::tcsetattr(&stdin, OptionalActions::Now, &t)?;
    Ok(())
}

fn cat_and_report(out: &mut File, stamp: &str, done: &str, file: &str) -> std::io::Result<()> {
    if !Path::new(file).is_file() {
        return Err(std::io::Error::other(format!("no such file {file}")));
    }
    let (cols, rows) = size();
    let t0 = Instant::now();
    let status = Command::new("cat").arg(file).status()?;
    let elapsed = t0.elapsed();
    write_atomic(
        &format!("{stamp}.done"),
        &format!(
            "{} {} {cols} {rows}\n",
            elapsed.as_nanos(),
            status.code().unwrap_or(-1)
        ),
    )?;
    write!(out, "\x1b[0m\r\n{done}\r\n")
}

/// Keeps the pane open without using the CPU until the pane is torn down.
fn hold() {
    let mut buf = [0u8; 1024];
    let mut stdin = std::io::stdin();
    while matches!(stdin.read(&mut buf), Ok(n) if n > 0) {}
}

fn echo(out: &mut File) -> std::io::Result<()> {
    let mut buf = [0u8; 256];
    let mut stdin = std::io::stdin();
    let mut reply = Vec::with_capacity(1024);
    loop {
        let n = stdin.read(&mut buf)?;
        if n == 0 {
            return Ok(());
        }
        reply.clear();
        for &b in &buf[..n] {
            if b == b'!' {
                reply.extend_from_slice(b"\r\x1b[K");
            } else {
                reply.push(b);
            }
        }
        out.write_all(&reply)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_parse() {
        assert_eq!(
            PaneInfo::parse("12 3 104 59\n"),
            Some(PaneInfo {
                pid: 12,
                ppid: 3,
                cols: 104,
                rows: 59
            })
        );
        assert_eq!(PaneInfo::parse("12 3"), None);
        assert_eq!(
            Done::parse("1500 0 104 59\n"),
            Some(Done {
                elapsed_ns: 1500,
                ok: true,
                cols: 104,
                rows: 59
            })
        );
    }
}
