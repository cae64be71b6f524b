//! Command-line arguments.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// weft: a terminal multiplexer.
#[derive(Parser, Debug)]
#[command(name = "weft", version, about, propagate_version = true)]
pub struct Cli {
    /// Socket label: servers with different labels are independent (like tmux -L).
    #[arg(short = 'L', global = true, value_name = "LABEL")]
    pub label: Option<String>,
    /// Socket path, instead of a label in the private socket directory.
    #[arg(short = 'S', global = true, value_name = "SOCKET")]
    pub socket: Option<PathBuf>,
    /// Configuration file (TOML) for a server this command starts.
    #[arg(short = 'f', global = true, value_name = "CONFIG")]
    pub config: Option<PathBuf>,
    /// What to do; without one, attach to the most recent session or create one.
    #[command(subcommand)]
    pub command: Option<Command>,
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
    /// List sessions.
    #[command(visible_alias = "list-sessions")]
    Ls,
    /// End a session and its programs.
    KillSession(TargetArgs),
    /// End every session and the server; returns once the server is gone.
    KillServer,
    /// Detach the clients of a session (the current one inside weft, else all).
    #[command(alias = "detach-client")]
    Detach(OptionalTarget),
    /// Repaint the clients of a session.
    #[command(alias = "refresh-client")]
    Refresh(OptionalTarget),
    /// Feed a byte stream to a fresh screen and print the final screen.
    Replay(ReplayArgs),
    /// Run the server (started by weft itself).
    #[command(name = "__server", hide = true)]
    Server,
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
    /// Width of a detached session.
    #[arg(short = 'x', value_name = "COLS", value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub cols: Option<u16>,
    /// Height of a detached session.
    #[arg(short = 'y', value_name = "ROWS", value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub rows: Option<u16>,
    /// Working directory of the first pane.
    #[arg(short = 'c', value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Program and arguments (after --); the default shell without.
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<String>,
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
}

/// A required `-t`.
#[derive(Args, Debug)]
pub struct TargetArgs {
    /// Session name or $id.
    #[arg(short = 't', value_name = "SESSION")]
    pub target: String,
}

/// An optional `-t`.
#[derive(Args, Debug)]
pub struct OptionalTarget {
    /// Session name or $id.
    #[arg(short = 't', value_name = "SESSION")]
    pub target: Option<String>,
}

/// Arguments of `weft replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// Screen width in columns.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub cols: u16,
    /// Screen height in rows.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub rows: u16,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReplayFormat::Text)]
    pub format: ReplayFormat,
    /// Also print the scrollback, oldest line first, before the screen.
    #[arg(long)]
    pub scrollback: bool,
    /// Input file; standard input when absent or `-`.
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
