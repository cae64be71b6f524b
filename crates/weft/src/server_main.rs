//! `weft __server`: the server process, started by a client.

use crate::cli::Cli;
use anyhow::Context;
use std::io::Write;

/// Worker threads: a flooding pane keeps two busy (its pty reader and its parser, which run
/// in parallel), and a third stays free for keys, echoes and frames. Measured on 2 cores: with
/// two workers either the flood's stages take turns on one worker (cat a third slower) or an
/// echo elsewhere waits behind them (p99 several ms).
const WORKER_THREADS: usize = 3;

/// How long the runtime's remaining tasks get once the server has shut down.
const RUNTIME_SHUTDOWN: std::time::Duration = std::time::Duration::from_millis(500);

/// Runs the server until its last session ends. Stdout is the readiness pipe.
pub fn run(cli: &Cli) -> anyhow::Result<u8> {
    let started = std::time::Instant::now();
    // Leave the client's session and terminal: the server outlives them.
    let _ = rustix::process::setsid();
    name_this_process();
    weft_server::panics::install();
    let socket = cli.socket_path()?;
    // What the server runs (`run-shell`, `if-shell`, `#()` in the status line, `pipe-pane`)
    // finds this server, as tmux's jobs find theirs by `$TMUX`: `weft` commands there need no
    // `-S`. No session is named; panes get their own `$WEFT` with theirs.
    // Changed while no other thread exists (the runtime is made later), so none reads the
    // environment as it changes.
    std::env::set_var(
        "WEFT",
        format!("{},{},", socket.display(), std::process::id()),
    );
    // A tmux the server was started from is not the panes' or the jobs' (jobs get `TMUX`
    // naming this server; see `tmux_shim`).
    std::env::remove_var("TMUX");
    // ...and `tmux` there is weft, so plugins and bindings written for tmux reach it.
    let private = weft_protocol::paths::socket_dir();
    weft_server::tmux_shim::prepare(&private);
    let warnings;
    let config = match weft_server::Config::load(
        cli.config.as_deref(),
        &weft_server::cmd::check,
        &weft_server::cmd::config_lines::run_config_line,
    ) {
        Ok(loaded) => {
            // The starting client shows these (lines before "ready"). A client that stopped
            // waiting has closed the pipe: the server starts all the same.
            let mut out = std::io::stdout();
            for warning in &loaded.warnings {
                let _ = writeln!(out, "warning: {warning}");
            }
            warnings = loaded.warnings;
            loaded.config
        }
        Err(e) => {
            // The starting client prints this.
            eprintln!("{e}");
            return Ok(1);
        }
    };
    let trace = crate::trace::init(cli.trace.as_deref());
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    // A task woken by a busy task goes to the woken-by worker's LIFO slot, which no other
    // worker may take: a renderer woken by a flooding pane's parser, or the parser woken by its
    // reader, would wait until that task yields. Without the slot they are stolen at once.
    #[cfg(tokio_unstable)]
    builder.disable_lifo_slot();
    let runtime = builder
        .worker_threads(WORKER_THREADS)
        .on_thread_start(weft_server::sched::short_slice_for_this_thread)
        .thread_name("weft-server")
        .enable_all()
        .build()
        .context("cannot start the runtime")?;
    let ready: Box<dyn Write + Send> = Box::new(ReadyPipe);
    runtime
        .block_on(weft_server::run(weft_server::ServerOptions {
            socket,
            config,
            version: env!("CARGO_PKG_VERSION").to_string(),
            warnings: warnings.clone(),
            ready: Some(ready),
            started,
        }))
        .context("server")?;
    // Tasks still running (a read that never ends) do not hold the process: the runtime is
    // given a moment, then dropped.
    runtime.shutdown_timeout(RUNTIME_SHUTDOWN);
    if let Some(trace) = trace {
        trace.finish();
    }
    Ok(0)
}

/// Says "ready" on stdout, then points stdout and stderr at /dev/null so nothing the server
/// might print later reaches a pipe nobody reads.
struct ReadyPipe;

impl Write for ReadyPipe {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        std::io::stdout().write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stdout().flush()?;
        if let Ok(null) = std::fs::OpenOptions::new().write(true).open("/dev/null") {
            let _ = rustix::stdio::dup2_stdout(&null);
            let _ = rustix::stdio::dup2_stderr(&null);
        }
        Ok(())
    }
}

/// Names the process `weft-server` (what `top`, `ps -o comm` and `pgrep` show): a server
/// forked from a client keeps that client's command line, so its name tells them apart.
#[allow(unsafe_code)]
fn name_this_process() {
    const NAME: &std::ffi::CStr = c"weft-server";
    // SAFETY: PR_SET_NAME reads a NUL-terminated string of at most 16 bytes, which NAME is.
    let _ = unsafe { libc::prctl(libc::PR_SET_NAME, NAME.as_ptr()) };
}
