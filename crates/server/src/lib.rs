//! The weft server: one per user and socket label, many sessions in it.
//!
//! Every task and channel of the pipeline is spawned and wired here:
//!
//! ```text
//!  listener --accept--> connection task (per client)
//!  connection --request--> registry task --spawn--> session task --spawn--> pane tasks
//!  pane: pty reader -> [PTY_OUTPUT_CAPACITY] -> pane task (Screen) -> notify -> render tasks
//!  render task -> the terminal (when nothing is queued) or [FRAME_CAPACITY] -> connection writer
//!  connection reader -> the pty (when nothing is queued) or [PANE_INPUT_CAPACITY] -> pty writer
//! ```
//! Channels are bounded; capacities are named constants next to the code that uses them. The
//! server wakes only for work: no timers tick while nothing happens. While a key's echo is on
//! its way, streaming panes hold off (see [`priority`]).

pub mod bindings;
pub mod buffers;
pub mod capture;
mod client_runtime;
pub mod cmd;
pub mod conf_file;
pub mod config;
mod connection;
pub mod context;
pub mod convert;
pub mod copy;
pub mod copy_keys;
mod deadline;
pub mod default_menus;
mod direct;
pub mod events;
pub mod flood_shares;
pub mod format;
mod hook_runner;
pub mod hooks;
pub mod ids;
pub mod key_names;
pub mod key_tables;
pub mod keys;
pub mod layout;
mod lease;
pub mod limits;
pub mod listener;
pub mod memory;
pub mod message_log;
pub mod metrics;
pub mod names;
pub mod option_arrays;
pub mod option_scopes;
pub mod options;
pub mod outcome;
pub mod pane;
pub mod pane_keys;
pub mod panics;
pub mod priority;
pub mod prompt_history;
pub mod registry;
pub mod render;
pub mod sched;
pub mod session;
pub mod socket_file;
pub mod startup_runs;
pub mod style;
pub mod terminal;
pub mod theme;
pub mod tmux_shim;
pub mod wait_channels;
pub mod words;

pub use config::{Config, ConfigError};
pub use listener::{run, ServerOptions};
