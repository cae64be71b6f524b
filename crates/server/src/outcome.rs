//! What a command ends with: its output, or an error that is a sentence for the user, with the
//! exit status the CLI gives.

/// What a target names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetKind {
    /// `$N` or a session name.
    Session,
    /// `@N`, `session:index` or a window name.
    Window,
    /// `%N`, `window.index`, `.+`/`.-`.
    Pane,
}

impl TargetKind {
    /// The word used in messages.
    pub fn noun(self) -> &'static str {
        match self {
            TargetKind::Session => "session",
            TargetKind::Window => "window",
            TargetKind::Pane => "pane",
        }
    }
}

/// Why a command did not run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// No command has this name or alias.
    #[error("unknown command: {0} (list-commands shows them all)")]
    UnknownCommand(String),
    /// Several commands' names begin with this (tmux's abbreviations must be unique).
    #[error("ambiguous command: {name}, could be: {could_be}")]
    AmbiguousCommand {
        /// What was typed.
        name: String,
        /// The names it begins, comma-separated.
        could_be: String,
    },
    /// The words do not fit the command's flags.
    #[error("{command}: {message}; usage: {command} {usage}")]
    Usage {
        /// The command's name.
        command: &'static str,
        /// What is wrong.
        message: String,
        /// Its usage line.
        usage: &'static str,
    },
    /// A command line that cannot be split into words.
    #[error("{0}")]
    Syntax(String),
    /// The target names nothing that exists.
    #[error("can't find {}: {target}", kind.noun())]
    NotFound {
        /// What was looked for.
        kind: TargetKind,
        /// As the user wrote it.
        target: String,
    },
    /// No session to run the command in.
    #[error("no sessions: start one with `weft new`")]
    NoSessions,
    /// The session ended while the command was on its way.
    #[error("the session ended")]
    SessionEnded,
    /// The pane's program is gone.
    #[error("the pane's program has exited")]
    PaneGone,
    /// A command about the client that typed it, sent from the command line.
    #[error("{0}: only from a key binding or the command prompt")]
    ClientOnly(&'static str),
    /// The server is on its way out. Its exit status,
    /// [`weft_protocol::EXIT_SERVER_ENDING`], tells a client that would start a server to
    /// start a new one and ask it instead.
    #[error("the server is shutting down")]
    ShuttingDown,
    /// The command's words name something it cannot do (a key with no name, an option that
    /// cannot change); the sentence says what to do instead.
    #[error("{0}")]
    Invalid(String),
    /// The command ran and could not do what was asked; the sentence says why.
    #[error("{0}")]
    Failed(String),
}

impl CommandError {
    /// A failure with this sentence.
    pub fn failed(message: impl Into<String>) -> Self {
        CommandError::Failed(message.into())
    }

    /// Whether the command's name is what a client does not know: a running server may know
    /// it as a `command-alias`, so the client asks the server instead of failing.
    pub fn may_be_servers_alias(&self) -> bool {
        matches!(
            self,
            CommandError::UnknownCommand(_) | CommandError::AmbiguousCommand { .. }
        )
    }

    /// The exit status `weft COMMAND` ends with: 2 for a command that is wrong as written or
    /// names a window or pane that is not there, 1 for a missing session and for what went
    /// wrong while it ran.
    pub fn exit_code(&self) -> u8 {
        match self {
            CommandError::UnknownCommand(_)
            | CommandError::AmbiguousCommand { .. }
            | CommandError::Usage { .. }
            | CommandError::Syntax(_)
            | CommandError::Invalid(_)
            | CommandError::ClientOnly(_) => 2,
            CommandError::NotFound { kind, .. } if *kind != TargetKind::Session => 2,
            CommandError::ShuttingDown => weft_protocol::EXIT_SERVER_ENDING,
            _ => 1,
        }
    }
}

/// Shorthand for a missing target.
pub fn not_found(kind: TargetKind, target: impl Into<String>) -> CommandError {
    CommandError::NotFound {
        kind,
        target: target.into(),
    }
}

/// How many pieces of a streamed output wait for the client at most: a few pieces in flight
/// keep the pane task busy while the socket drains, and bound what the server holds (each
/// piece is about [`crate::capture::PIECE_BYTES`]) however slowly the client reads.
pub const OUTPUT_STREAM_PIECES: usize = 4;

/// What a command prints.
#[derive(Debug, Default)]
pub struct Output {
    /// Printed on standard output (or shown over the window, when typed at the prompt).
    pub stdout: String,
    /// More for standard output, after `stdout`, in pieces as they are made (a long capture);
    /// the sender ends it by dropping its end. Capacity [`OUTPUT_STREAM_PIECES`].
    pub stream: Option<tokio::sync::mpsc::Receiver<bytes::Bytes>>,
    /// Printed on standard error.
    pub stderr: String,
    /// The exit status (0 for success).
    pub code: u8,
    /// The connection stays open until the server exits (`kill-server` returns once it is gone).
    pub until_exit: bool,
    /// Shown as a message in a client's status line: for this long instead of
    /// `display-time` (`display-message -d`; zero: until a key).
    pub shown_for: Option<std::time::Duration>,
}

impl Output {
    /// Nothing to print.
    pub fn none() -> Self {
        Output::default()
    }

    /// Text to print.
    pub fn text(text: impl Into<String>) -> Self {
        Output {
            stdout: text.into(),
            ..Output::default()
        }
    }
}
