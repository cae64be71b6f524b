//! The server's logs and its start: show-messages, show-prompt-history,
//! clear-prompt-history, start-server.

use super::{Action, Entry};
use crate::outcome::Output;
use futures::FutureExt;

/// `show-messages`.
pub static SHOW_MESSAGES: Entry = Entry {
    name: "show-messages",
    aliases: &["showmsgs"],
    usage: "[-JT] [-t target-client]",
    about: "Print the messages shown in the status line (display-message, errors, alerts), \
            oldest first, each with its time; message-limit says how many are kept.",
    flags: "JTt:",
    long: &[],
    read_only: true,
    target: None,
    build: |args| {
        args.no_arguments()?;
        Ok(Action::Server(Box::new(|ctx| {
            async move {
                let lines: Vec<String> = ctx
                    .messages
                    .entries()
                    .into_iter()
                    .map(|(when, text)| {
                        let at = chrono::DateTime::from_timestamp(when, 0)
                            .map(|t| t.with_timezone(&chrono::Local))
                            .map_or_else(String::new, |t| {
                                t.format("%a %b %e %H:%M:%S %Y").to_string()
                            });
                        format!("{at} {text}")
                    })
                    .collect();
                Ok(Output::text(lines.join("\n")))
            }
            .boxed()
        })))
    },
};

/// `show-prompt-history`.
pub static SHOW_PROMPT_HISTORY: Entry = Entry {
    name: "show-prompt-history",
    aliases: &["showphist"],
    usage: "[-T prompt-type]",
    about: "Print the lines run at the : prompt, oldest first (one history, server-wide: \
            -T command, or any type, shows it).",
    flags: "T:",
    long: &[],
    read_only: true,
    target: None,
    build: |args| {
        args.no_arguments()?;
        Ok(Action::Server(Box::new(|ctx| {
            async move {
                let history: Vec<String> = ctx
                    .prompt_history
                    .lock()
                    .map(|h| h.iter().cloned().collect())
                    .unwrap_or_default();
                let mut lines = vec!["History for command:".to_string(), String::new()];
                lines.extend(
                    history
                        .iter()
                        .enumerate()
                        .map(|(i, line)| format!("{}: {line}", i + 1)),
                );
                Ok(Output::text(lines.join("\n")))
            }
            .boxed()
        })))
    },
};

/// `clear-prompt-history`.
pub static CLEAR_PROMPT_HISTORY: Entry = Entry {
    name: "clear-prompt-history",
    aliases: &["clearphist"],
    usage: "[-T prompt-type]",
    about: "Forget the lines run at the : prompt (Up no longer brings them back).",
    flags: "T:",
    long: &[],
    read_only: false,
    target: None,
    build: |args| {
        args.no_arguments()?;
        Ok(Action::Server(Box::new(|ctx| {
            async move {
                if let Ok(mut history) = ctx.prompt_history.lock() {
                    history.clear();
                }
                Ok(Output::none())
            }
            .boxed()
        })))
    },
};

/// `start-server`.
pub static START_SERVER: Entry = Entry {
    name: "start-server",
    aliases: &["start"],
    usage: "",
    about: "Start the server (reading the configuration) if none is running, without a \
            session; nothing when one runs.",
    flags: "",
    long: &[],
    read_only: true,
    target: None,
    build: |args| {
        args.no_arguments()?;
        Ok(Action::Server(Box::new(|_| {
            async move { Ok(Output::none()) }.boxed()
        })))
    },
};
