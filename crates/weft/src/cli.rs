//! Command-line arguments.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// weft: a terminal multiplexer.
#[derive(Parser, Debug)]
#[command(name = "weft", version, about, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Feed a byte stream to a fresh screen and print the final screen.
    Replay(ReplayArgs),
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
