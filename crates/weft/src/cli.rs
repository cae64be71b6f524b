//! Command-line arguments.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// weft: a terminal multiplexer.
#[derive(Parser, Debug)]
#[command(name = "weft", version, about, propagate_version = true)]
pub struct Cli {
    /// Socket label: servers with different labels are independent (like tmux -L).
    #[arg(short = 'L', value_name = "LABEL")]
    pub label: Option<String>,
    /// Socket path, instead of a label in the private socket directory.
    #[arg(short = 'S', value_name = "SOCKET")]
    pub socket: Option<PathBuf>,
    /// Configuration file (TOML) for a server this command starts.
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
    Ls(LsArgs),
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
    /// Split a pane: split-window [-h|-v] [-d] [-p PERCENT] [-t TARGET] [-- CMD...].
    #[command(visible_alias = "splitw")]
    SplitWindow(RawArgs),
    /// Create a window: new-window [-d] [-n NAME] [-t SESSION] [-- CMD...].
    #[command(visible_alias = "neww")]
    NewWindow(RawArgs),
    /// Focus a pane: select-pane [-t TARGET] [-L|-R|-U|-D].
    #[command(visible_alias = "selectp")]
    SelectPane(RawArgs),
    /// Show a window: select-window -t TARGET.
    #[command(visible_alias = "selectw")]
    SelectWindow(RawArgs),
    /// Show the next window.
    #[command(visible_alias = "next")]
    NextWindow(RawArgs),
    /// Show the previous window.
    #[command(visible_alias = "prev")]
    PreviousWindow(RawArgs),
    /// Show the window used before this one.
    #[command(visible_alias = "last")]
    LastWindow(RawArgs),
    /// Resize or zoom a pane: resize-pane [-t TARGET] [-L|-R|-U|-D] [N] [-Z].
    #[command(visible_alias = "resizep")]
    ResizePane(RawArgs),
    /// End a pane: kill-pane [-t TARGET].
    #[command(visible_alias = "killp")]
    KillPane(RawArgs),
    /// End a window: kill-window [-t TARGET].
    #[command(visible_alias = "killw")]
    KillWindow(RawArgs),
    /// Arrange panes: select-layout [-t TARGET] even-horizontal|even-vertical|main-horizontal|main-vertical|tiled.
    #[command(visible_alias = "selectl")]
    SelectLayout(RawArgs),
    /// The next preset layout.
    #[command(visible_alias = "nextl")]
    NextLayout(RawArgs),
    /// Rename a window: rename-window [-t TARGET] NAME.
    #[command(visible_alias = "renamew")]
    RenameWindow(RawArgs),
    /// Swap a pane with the previous (-U) or next (-D) one.
    #[command(visible_alias = "swapp")]
    SwapPane(RawArgs),
    /// Move a pane into a window of its own: break-pane [-d] [-t TARGET].
    #[command(visible_alias = "breakp")]
    BreakPane(RawArgs),
    /// List a window's panes: list-panes [-t TARGET] [--json].
    #[command(visible_alias = "lsp")]
    ListPanes(RawArgs),
    /// List a session's windows: list-windows [-t TARGET] [--json].
    #[command(visible_alias = "lsw")]
    ListWindows(RawArgs),
    /// Set a window option: set-option -w [-t TARGET] synchronize-panes on|off.
    #[command(visible_alias = "set", alias = "setw", alias = "set-window-option")]
    SetOption(RawArgs),
    /// Print the settings in force.
    #[command(visible_alias = "show")]
    ShowOptions(RawArgs),
    /// Print the key bindings.
    #[command(visible_alias = "lsk")]
    ListKeys(RawArgs),
    /// Reload the configuration file: source-file [PATH].
    #[command(visible_alias = "source")]
    SourceFile(RawArgs),
    /// Type keys into a pane: send-keys [-l] [-H] [-t TARGET] KEY... (tmux key names).
    #[command(visible_alias = "send")]
    SendKeys(RawArgs),
    /// Print a pane's screen: capture [-t TARGET] [--ansi] [--json] [--scrollback N] [--join-wrapped].
    #[command(visible_alias = "capture-pane")]
    Capture(RawArgs),
    /// Wait for a pane: wait -t TARGET (--text STR | --regex RE | --idle MS | --exit) [--after REV] [--timeout S].
    Wait(RawArgs),
    /// Where the time goes: per pane and per client, each stage's busy/idle/blocked time and
    /// latency percentiles.
    Diag(DiagArgs),
    /// Run the server (started by weft itself).
    #[command(name = "__server", hide = true)]
    Server,
}

/// The words of a window or pane command, checked by weft's command parser.
#[derive(Args, Debug)]
#[command(disable_help_flag = true)]
pub struct RawArgs {
    /// Print help.
    #[arg(long, action = clap::ArgAction::Help)]
    pub help: Option<bool>,
    /// The command's flags and arguments, as in tmux.
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "ARGS"
    )]
    pub args: Vec<String>,
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

/// Arguments of `weft ls`.
#[derive(Args, Debug)]
pub struct LsArgs {
    /// JSON output.
    #[arg(long)]
    pub json: bool,
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
