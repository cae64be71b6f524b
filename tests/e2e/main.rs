//! End-to-end tests: one test binary, one module per capability.

#![allow(clippy::unwrap_used)] // Test helpers may panic on failure.

mod alerts;
mod buffers;
mod cli_run;
mod commands;
mod config_language;
mod copy_mode;
mod default_keys;
mod diag;
mod examples;
mod first_session;
mod focus;
mod formats;
mod hostile_clients;
mod input;
mod keys_kitty;
mod menus;
mod mouse_keys;
mod navigation;
mod option_scopes;
mod options;
mod pane_colours;
mod pane_events;
mod pane_sizes;
mod pane_styles;
mod panes;
mod popup;
mod prompt_history;
mod record;
mod reliability;
mod render;
mod replay;
mod script;
mod script_commands;
mod scripting;
mod sessions;
mod status;
mod subscribe;
mod suspend;
mod terminal;
mod theme;
mod tmux_flags;
mod tmux_options;
mod wait;
mod windows;
