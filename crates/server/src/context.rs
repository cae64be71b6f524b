//! What commands and client connections reach the server through.

use crate::config::Config;
use crate::ids::IdAllocator;
use crate::registry::Registry;
use std::sync::Arc;
use tokio::sync::watch;

/// The server as a connection or a command sees it: cheap to clone.
#[derive(Clone, Debug)]
pub struct ServerContext {
    /// The sessions.
    pub registry: Registry,
    /// Id numbers.
    pub ids: Arc<IdAllocator>,
    /// weft's version, for hello messages.
    pub version: String,
    /// The configuration in force (replaced by `source-file`).
    pub config: watch::Receiver<Arc<Config>>,
    /// Lines entered at prompts, one history per kind (server-wide, as tmux keeps them).
    pub prompt_history: Arc<std::sync::Mutex<crate::prompt_history::PromptHistories>>,
    /// The messages shown to clients, for `show-messages`.
    pub messages: Arc<crate::message_log::MessageLog>,
    /// Warnings from the configuration read at start, until a client attaches and shows them.
    pub startup_warnings: Arc<std::sync::Mutex<Vec<String>>>,
    /// Figures for `weft diag`.
    pub metrics: Arc<crate::metrics::MetricsRegistry>,
    /// The paste buffers, and the feed of clipboard writes to the attached clients.
    pub buffers: Arc<crate::buffers::Buffers>,
    /// Where hooks are fired to (the hook runner runs their commands).
    pub hooks: crate::hooks::HookFeed,
    /// The channels of `wait-for`.
    pub waits: Arc<crate::wait_channels::WaitChannels>,
    /// The attached clients' terminals: what they answered, and the colours programs' queries
    /// are answered with.
    pub terminals: Arc<crate::terminal::Terminals>,
}
