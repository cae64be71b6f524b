//! Command-line arguments.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// weft: a terminal multiplexer.
#[derive(Parser, Debug)]
#[command(
    name = "weft",
    version,
    about,
    propagate_version = true,
    after_help = "Every tmux-style command of the command table is a subcommand too: \
                  `weft list-commands` lists them, `weft COMMAND --help` describes one."
)]
pub struct Cli {
    /// Socket label: servers with different labels are independent (like tmux -L).
    #[arg(short = 'L', value_name = "LABEL")]
    pub label: Option<String>,
    /// Socket path, instead of a label in the private socket directory.
    #[arg(short = 'S', value_name = "SOCKET")]
    pub socket: Option<PathBuf>,
    /// Configuration file (tmux's command syntax, or the older TOML) for a server this command
    /// starts.
    #[arg(short = 'f', value_name = "CONFIG")]
    pub config: Option<PathBuf>,
    /// Write a Chrome trace-event file (Perfetto, chrome://tracing) from a server this command
    /// starts; also `WEFT_TRACE=FILE`.
    #[arg(long, value_name = "FILE", env = "WEFT_TRACE")]
    pub trace: Option<PathBuf>,
    /// What to do; without one, attach to the most recent session or create one.
    #[command(subcommand)]
    pub command: Option<Command>,
}

impl Cli {
    /// The server's socket this command speaks to: `-S`'s, else `-L`'s, else, inside weft (a
    /// pane, or a job such as `run-shell` runs), the server it runs in, from `$WEFT` as tmux
    /// reads `$TMUX`; else the default label's.
    pub fn socket_path(&self) -> Result<PathBuf, weft_protocol::paths::PathError> {
        let inside = (self.label.is_none() && self.socket.is_none())
            .then(inside_socket)
            .flatten();
        weft_protocol::paths::resolve_socket(
            self.label.as_deref(),
            self.socket.as_deref().or(inside.as_deref()),
        )
    }
}

/// The socket of the server this process runs inside: `$WEFT` is `socket,pid,session` (the
/// session empty in a job the server runs), read from the right since a path may hold a comma.
fn inside_socket() -> Option<PathBuf> {
    let value = std::env::var_os("WEFT")?;
    let value = value.to_str()?;
    let mut parts = value.rsplitn(3, ',');
    let (_session, pid, socket) = (parts.next()?, parts.next()?, parts.next()?);
    (!socket.is_empty() && pid.parse::<u32>().is_ok()).then(|| PathBuf::from(socket))
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Create a session (and attach to it unless -d).
    #[command(visible_alias = "new-session")]
    New(NewArgs),
    /// Attach to a session.
    #[command(visible_alias = "a", alias = "attach-session")]
    Attach(AttachArgs),
    /// Feed a byte stream (or an asciicast recording) to a fresh screen and print the final
    /// screen.
    Replay(ReplayArgs),
    /// Record a pane's output to an asciicast v2 file until its program ends or this is
    /// interrupted (Ctrl-C, SIGTERM), which finishes the file cleanly.
    Record(RecordArgs),
    /// Play an asciicast recording in this terminal, at its own speed or scaled.
    Play(PlayArgs),
    /// Where the time goes: per pane and per client, each stage's busy/idle/blocked time and
    /// latency percentiles.
    Diag(DiagArgs),
    /// Drive a program from a script: spawn it, type, press keys, wait for and check what it
    /// shows, compare snapshots (one command a line; see the README's scripting section).
    Script(ScriptArgs),
    /// Run the server (started by weft itself).
    #[command(name = "__server", hide = true)]
    Server,
    /// Any other command: one of the command table's (`split-window -h`, `ls`, ...), with its
    /// words as typed; checked and described by the table (`weft list-commands`).
    #[command(external_subcommand)]
    Table(Vec<String>),
}

/// Arguments of `weft new`.
#[derive(Args, Debug)]
pub struct NewArgs {
    /// Session name.
    #[arg(short = 's', value_name = "NAME")]
    pub name: Option<String>,
    /// Do not attach.
    #[arg(short = 'd')]
    pub detached: bool,
    /// Attach to the session named by -s instead, if it exists.
    #[arg(short = 'A')]
    pub attach_existing: bool,
    /// Width of a detached session.
    #[arg(short = 'x', value_name = "COLS", value_parser = clap::value_parser!(u16).range(1..=i64::from(weft_protocol::MAX_COLS)))]
    pub cols: Option<u16>,
    /// Height of a detached session.
    #[arg(short = 'y', value_name = "ROWS", value_parser = clap::value_parser!(u16).range(1..=i64::from(weft_protocol::MAX_ROWS)))]
    pub rows: Option<u16>,
    /// Working directory of the first pane.
    #[arg(short = 'c', value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Name of the first window (else it is named after its program).
    #[arg(short = 'n', value_name = "WINDOW")]
    pub window_name: Option<String>,
    /// A variable for the session's programs: NAME=VALUE (again for more).
    #[arg(short = 'e', value_name = "NAME=VALUE")]
    pub env: Vec<String>,
    /// Print the new session (with -d): -F's format, else `#{session_name}:`.
    #[arg(short = 'P')]
    pub print: bool,
    /// The format -P prints.
    #[arg(short = 'F', value_name = "FORMAT")]
    pub format: Option<String>,
    /// With -A: detach the session's other clients (-X: the same).
    #[arg(short = 'D', visible_short_alias = 'X')]
    pub detach_others: bool,
    /// Accepted for tmux: the attaching client's environment is not copied (weft copies it only
    /// for `update-environment`'s variables).
    #[arg(short = 'E', hide = true)]
    pub no_update_env: bool,
    /// Program and arguments, after -- or not (`weft new -s work htop`); one word with spaces
    /// runs through the shell. The default shell without.
    #[arg(trailing_var_arg = true, value_name = "CMD")]
    pub command: Vec<String>,
    /// Commands after `\;` to run in the session once made (`weft new -s dev \; split-window`),
    /// split off the command line before it is parsed (see `new_then`).
    #[arg(skip)]
    pub then: Vec<String>,
}

/// Arguments of `weft attach`.
#[derive(Args, Debug)]
pub struct AttachArgs {
    /// Session name or $id; the most recent without.
    #[arg(short = 't', value_name = "SESSION")]
    pub target: Option<String>,
    /// Read-only: keys other than the prefix bindings are ignored.
    #[arg(short = 'r')]
    pub read_only: bool,
    /// Detach the session's other clients.
    #[arg(short = 'd')]
    pub detach_others: bool,
}

/// Arguments of `weft diag`.
#[derive(Args, Debug)]
pub struct DiagArgs {
    /// Only this session.
    #[arg(short = 't', value_name = "SESSION")]
    pub target: Option<String>,
    /// Refresh in place once a second, like top.
    #[arg(long)]
    pub watch: bool,
    /// JSON output.
    #[arg(long)]
    pub json: bool,
    /// Start a new measuring window after printing.
    #[arg(long)]
    pub reset: bool,
}

/// Arguments of `weft script`.
#[derive(Args, Debug)]
pub struct ScriptArgs {
    /// Rewrite snapshot files that differ from the screen instead of failing.
    #[arg(long)]
    pub update: bool,
    /// The script; `-` for standard input.
    pub file: PathBuf,
}

/// Arguments of `weft record`.
#[derive(Args, Debug)]
pub struct RecordArgs {
    /// The pane to record; the current one (inside weft) without.
    #[arg(short = 't', value_name = "PANE")]
    pub target: Option<String>,
    /// The recording's file (asciicast v2, `.cast`).
    #[arg(short = 'o', value_name = "FILE")]
    pub output: PathBuf,
    /// Record what is sent to the program too (keys, pastes), as input events.
    #[arg(long)]
    pub input: bool,
}

/// Arguments of `weft play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Play this many times faster (0.5: half speed).
    #[arg(long, default_value_t = 1.0, value_parser = positive_number)]
    pub speed: f64,
    /// Shorten pauses longer than this many seconds to it.
    #[arg(long, value_name = "SECS", value_parser = positive_number)]
    pub max_idle: Option<f64>,
    /// The recording (asciicast v2).
    pub file: PathBuf,
}

/// A finite number above zero.
fn positive_number(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(n) if n.is_finite() && n > 0.0 => Ok(n),
        _ => Err(format!("{text:?} is not a number above zero")),
    }
}

/// Arguments of `weft replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// Screen width in columns (an asciicast recording carries its own).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub cols: Option<u16>,
    /// Screen height in rows (an asciicast recording carries its own).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub rows: Option<u16>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReplayFormat::Text)]
    pub format: ReplayFormat,
    /// Also print the scrollback, oldest line first, before the screen.
    #[arg(long)]
    pub scrollback: bool,
    /// Input file (bytes, or an asciicast v2 recording, told apart by its first line);
    /// standard input when absent or `-`.
    pub file: Option<PathBuf>,
}

/// How `weft replay` prints the screen.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayFormat {
    /// One line per row, trailing blanks trimmed.
    Text,
    /// Cells, cursor, modes and title as JSON.
    Json,
}
