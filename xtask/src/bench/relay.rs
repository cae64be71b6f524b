//! `xtask __bench-relay -- CMD [ARGS]`: the `relay` contender, the least a multiplexer that
//! keeps its programs on ptys can be. Its terminal goes into raw mode, the program runs on a
//! pty of the terminal's size (opened and spawned by `portable-pty`, as weft's panes are), and
//! every byte is copied across as it comes, by one blocked read per direction. No emulation,
//! no screen, no frames: what it costs over no multiplexer is the floor under every pty
//! multiplexer's figures, measured in the same run as they are.

use portable_pty::{native_pty_system, CommandBuilder, PtySize};
use rustix::termios::{self, OptionalActions, Winsize};
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::AsFd;
use std::process::ExitCode;

/// The hidden subcommand of `xtask` that runs this.
pub const SUBCOMMAND: &str = "__bench-relay";

/// Bytes one read of the program's output may take: a flood's chunks pass whole.
const OUTPUT_CHUNK: usize = 64 * 1024;
/// Bytes one read of keys may take.
const INPUT_CHUNK: usize = 4096;

/// Runs the relay; arguments after the subcommand. Exits with the program's status.
pub fn main(args: &[String]) -> ExitCode {
    match run(args) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("{SUBCOMMAND}: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> io::Result<u8> {
    let argv = match args.split_first() {
        Some((first, rest)) if first == "--" => rest,
        _ => args,
    };
    if argv.is_empty() {
        return Err(io::Error::other("no command given"));
    }
    let stdin = io::stdin();
    let size = termios::tcgetwinsize(&stdin)?;
    let saved = termios::tcgetattr(&stdin)?;
    let mut raw = saved.clone();
    raw.make_raw();
    termios::tcsetattr(&stdin, OptionalActions::Now, &raw)?;
    let relayed = relay(argv, size);
    let restored = termios::tcsetattr(&stdin, OptionalActions::Now, &saved);
    let code = relayed?;
    restored?;
    Ok(code)
}

/// Runs `argv` on a pty of `size` and copies both ways until it exits.
fn relay(argv: &[String], size: Winsize) -> io::Result<u8> {
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: size.ws_row.max(1),
            cols: size.ws_col.max(1),
            pixel_width: 0,
            pixel_height: 0,
        })
        .map_err(io::Error::other)?;
    let mut cmd = CommandBuilder::from_argv(argv.iter().map(OsString::from).collect());
    cmd.cwd(std::env::current_dir()?);
    let mut child = pair.slave.spawn_command(cmd).map_err(io::Error::other)?;
    // Only the child holds the slave: the master reads EIO once the program is gone.
    drop(pair.slave);
    let mut output = pair.master.try_clone_reader().map_err(io::Error::other)?;
    let mut keys_to = pair.master.take_writer().map_err(io::Error::other)?;
    // Unbuffered copies of the terminal's descriptors: one read and one write per chunk.
    let mut keys = File::from(io::stdin().as_fd().try_clone_to_owned()?);
    let mut screen = super::pane::stdout_file()?;
    // Keys on their own thread, blocked in read; it ends with the process.
    std::thread::spawn(move || {
        let mut buf = [0u8; INPUT_CHUNK];
        loop {
            match keys.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    if keys_to.write_all(&buf[..n]).is_err() {
                        break;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
    });
    let mut buf = vec![0u8; OUTPUT_CHUNK];
    loop {
        match output.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => screen.write_all(&buf[..n])?,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            // EIO: the program, and everything else on its terminal, has gone.
            Err(_) => break,
        }
    }
    let status = child.wait()?;
    Ok(u8::try_from(status.exit_code()).unwrap_or(u8::MAX))
}
