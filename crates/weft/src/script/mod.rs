//! `weft script FILE`: drive a terminal program from a small script (in the manner of vhs's
//! `.tape` files), through the server's own commands (`run-pane`, `send-keys`, `wait`,
//! `capture-pane`, `resize-window`, `kill-session`) over the socket.
//!
//! The whole file is parsed first ([`parse`]): a mistake exits 2 with `FILE:LINE:COL` before
//! anything runs. The runner ([`runner`]) then runs the steps in order; the first failure exits
//! 1 with `FILE:LINE: what failed` and the screen ([`report`]). The session the script made is
//! killed at the end either way.

mod parse;
mod report;
mod runner;

use crate::cli::{Cli, ScriptArgs};
use anyhow::Context;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest script read: scripts are a few hundred lines; anything this big is a mistake.
const MAX_SCRIPT_BYTES: u64 = 1 << 20;

/// Runs `weft script`; returns the exit status (0 passed, 1 failed, 2 a mistake in it).
pub fn run(cli: &Cli, args: &ScriptArgs) -> anyhow::Result<u8> {
    let from_stdin = args.file == Path::new("-");
    let (name, source) = if from_stdin {
        ("-".to_string(), read_limited(std::io::stdin().lock())?)
    } else {
        let file = std::fs::File::open(&args.file)
            .with_context(|| format!("cannot read the script {}", args.file.display()))?;
        (args.file.display().to_string(), read_limited(file)?)
    };
    let steps = match parse::parse(&source) {
        Ok(steps) => steps,
        Err(e) => {
            eprintln!("{name}:{}:{}: {}", e.line, e.col, e.message);
            return Ok(2);
        }
    };
    // Snapshots are found beside the script (beside the current directory for stdin).
    let base_dir = if from_stdin {
        PathBuf::from(".")
    } else {
        args.file
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."))
    };
    let socket = match cli.socket_path() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("weft: {e}");
            return Ok(1);
        }
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the runtime")?;
    let runner = runner::Runner::new(cli, socket, name, base_dir, args.update);
    let code = runtime.block_on(runner.run(steps));
    runtime.shutdown_background();
    Ok(code)
}

/// All of `input` as UTF-8, at most [`MAX_SCRIPT_BYTES`].
fn read_limited(input: impl Read) -> anyhow::Result<String> {
    let mut data = Vec::new();
    input
        .take(MAX_SCRIPT_BYTES + 1)
        .read_to_end(&mut data)
        .context("cannot read the script")?;
    if data.len() as u64 > MAX_SCRIPT_BYTES {
        anyhow::bail!("the script is larger than 1 MiB; split it into several scripts");
    }
    String::from_utf8(data).context("the script is not UTF-8 text; save it as UTF-8")
}
