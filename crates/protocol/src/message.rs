//! The messages.

use bytes::Bytes;
use serde::{Deserialize, Serialize};

/// Bumped whenever a message changes shape.
pub const PROTOCOL_VERSION: u32 = 3;

/// The exit status of a [`Reply::Error`] refused because the server is ending (its last
/// session ended, or `kill-server`): a client that would start a server when none runs starts
/// a new one and asks it instead. sysexits' `EX_TEMPFAIL`, "try again".
pub const EXIT_SERVER_ENDING: u8 = 75;

/// The first message in each direction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    /// [`PROTOCOL_VERSION`] of the sender.
    pub protocol: u32,
    /// The sender's weft version, for messages.
    pub version: String,
}

/// `weft new`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewSession {
    /// Session name; generated when absent.
    pub name: Option<String>,
    /// Do not attach.
    pub detached: bool,
    /// Size for a detached session (or until a client attaches).
    pub cols: Option<u16>,
    /// See `cols`.
    pub rows: Option<u16>,
    /// Working directory of the first pane.
    pub cwd: Option<String>,
    /// Program and arguments; empty means the default shell.
    pub command: Vec<String>,
    /// The client's environment entries to pass on (TERM is weft's own).
    pub env: Vec<(String, String)>,
    /// Attach to the session of this name instead if it exists (`new -A`).
    #[serde(default)]
    pub attach_existing: bool,
    /// The first window's name (`new -n`); named after its program when absent.
    #[serde(default)]
    pub window_name: Option<String>,
    /// Commands to run in the session once it is made, before a client attaches: the words
    /// after `new ... \;` (`weft new -s dev \; split-window -h`), `;` words between commands.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub then: Vec<String>,
}

/// `weft attach`, or the attach half of `weft new`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attach {
    /// Session to attach to; the most recently used when absent.
    pub target: Option<String>,
    /// Keys other than the prefix bindings are ignored.
    pub read_only: bool,
    /// The client's terminal size.
    pub cols: u16,
    /// See `cols`.
    pub rows: u16,
    /// The client hands its terminal over after the `Attached` reply
    /// ([`crate::tty_pass`]); otherwise keys and frames travel as messages.
    #[serde(default)]
    pub pass_tty: bool,
    /// Detach the session's other clients (`attach -d`).
    #[serde(default)]
    pub detach_others: bool,
    /// The client's environment, for the session's `update-environment` variables.
    #[serde(default)]
    pub env: Vec<(String, String)>,
}

/// Widest terminal the server draws for, in columns: wider than any real screen's text (a
/// 5K monitor with a 5-pixel font), small enough that a client claiming 65535 columns costs
/// the server a bounded frame.
pub const MAX_COLS: u16 = 1000;
/// Tallest terminal the server draws for, in rows (see [`MAX_COLS`]).
pub const MAX_ROWS: u16 = 500;

/// A terminal size as the server takes it: at least 1x1, at most [`MAX_COLS`] x [`MAX_ROWS`].
/// Every size that enters the server passes through here.
pub fn clamp_size(cols: u16, rows: u16) -> (u16, u16) {
    (cols.clamp(1, MAX_COLS), rows.clamp(1, MAX_ROWS))
}

/// What a client asks of the server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "request", rename_all = "kebab-case")]
pub enum Request {
    /// Create a session; attach unless detached (the connection then carries the terminal).
    NewSession {
        /// The session.
        session: NewSession,
        /// Where to attach, when not detached.
        attach: Option<Attach>,
    },
    /// Attach this connection to a session.
    Attach(Attach),
    /// Attach to the most recent session, or create one (plain `weft`).
    AttachOrCreate {
        /// The session to create if there is none.
        session: NewSession,
        /// Terminal size and options.
        attach: Attach,
    },
    /// `weft diag`: the figures as JSON, for one session or all.
    Diag {
        /// Session name.
        session: Option<String>,
        /// Start a new measuring window afterwards.
        reset: bool,
    },
    /// A command from the command table (`split-window -h -t main`, `list-sessions`, ...), as
    /// words.
    Command {
        /// The command and its arguments.
        args: Vec<String>,
        /// The pane the command is typed in (from `$WEFT_PANE`), for commands without `-t`.
        pane: Option<String>,
        /// The session the command is typed in (from `$WEFT`).
        session: Option<String>,
    },
}

/// A pane in a listing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaneInfo {
    /// `%N`.
    pub id: String,
    /// Columns.
    pub cols: u16,
    /// Rows.
    pub rows: u16,
    /// Program's pid.
    pub pid: Option<u32>,
    /// Title set by the program.
    pub title: String,
}

/// A session in a listing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionInfo {
    /// `$N`.
    pub id: String,
    /// Name.
    pub name: String,
    /// Attached clients.
    pub clients: usize,
    /// Size.
    pub cols: u16,
    /// Size.
    pub rows: u16,
    /// Seconds since the Unix epoch when it was created.
    pub created: u64,
    /// Number of windows.
    pub windows: usize,
    /// Panes of the current window.
    pub panes: Vec<PaneInfo>,
}

/// The answer to a [`Request`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reply", rename_all = "kebab-case")]
pub enum Reply {
    /// Done.
    Ok,
    /// Done, with text for the user.
    Text {
        /// What to print.
        text: String,
    },
    /// Attached: the client now hands over its terminal ([`crate::tty_pass`]) if it said
    /// so, else terminal bytes follow as [`Message::Output`].
    Attached {
        /// Session name.
        session: String,
    },
    /// Output for stdout and stderr with an exit status (capture, wait).
    Output {
        /// For stdout.
        stdout: String,
        /// For stderr.
        stderr: String,
        /// Exit status.
        code: u8,
    },
    /// Refused or failed.
    Error {
        /// What went wrong, for the user.
        message: String,
        /// Exit status the client should use.
        code: u8,
    },
}

/// Why an attached client's session ended, sent before the server closes the connection.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExitNotice {
    /// For the user, e.g. `[detached (from session main)]`.
    pub message: String,
    /// Exit status for the client.
    pub code: u8,
    /// Set by `suspend-client`: the client stops itself as on `C-z` and, once continued,
    /// attaches to this session again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume: Option<String>,
    /// With `resume`, set by the lock commands: instead of stopping, the client runs this
    /// shell command (`lock-command`) on its terminal and attaches again once it exits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock: Option<String>,
    /// `detach-client -P`: the client hangs up its parent (`SIGHUP`, the login shell it was
    /// started from), as tmux's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hangup_parent: bool,
    /// `detach-client -E`: the client runs this shell command in its place once detached.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exec: Option<String>,
}

impl ExitNotice {
    /// The session ended with its last program (`[exited]`, status 0).
    pub fn exited() -> Self {
        ExitNotice {
            message: "[exited]".into(),
            ..ExitNotice::default()
        }
    }
}

/// One frame's meaning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// First message each way.
    Hello(Hello),
    /// Client to server.
    Request(Request),
    /// Server to client.
    Reply(Reply),
    /// Keys from the client's terminal (when it kept its terminal).
    Input(Bytes),
    /// Bytes for the client's terminal (when it kept its terminal).
    Output(Bytes),
    /// The client's terminal changed size.
    Resize {
        /// Columns.
        cols: u16,
        /// Rows.
        rows: u16,
    },
    /// The attachment ended.
    Exit(ExitNotice),
}
