//! How clients leave on `detach-client`: the notice each is sent, with tmux's `-P` (hang up
//! the client's parent, the shell it was started from) and `-E` (run a command in its place).

use weft_protocol::ExitNotice;

/// What a detached client does as it leaves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DetachHow {
    /// `-P`: it sends `SIGHUP` to its parent.
    pub hangup_parent: bool,
    /// `-E`: it runs this shell command in its place.
    pub exec: Option<String>,
}

impl DetachHow {
    /// The notice for a client leaving session `session` this way, worded as tmux words it.
    pub fn notice(&self, session: &str) -> ExitNotice {
        let what = if self.hangup_parent {
            "detached and SIGHUP"
        } else {
            "detached"
        };
        ExitNotice {
            message: format!("[{what} (from session {session})]"),
            hangup_parent: self.hangup_parent,
            exec: self.exec.clone(),
            ..ExitNotice::default()
        }
    }
}
