//! The server's logs and its start: show-messages, show-prompt-history,
//! clear-prompt-history, start-server.

use super::{Action, Entry};
use crate::outcome::{CommandError, Output};
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
    about: "Print the lines entered at prompts, oldest first: each kind's history (command, \
            search, target, window-target), or -T one kind's.",
    flags: "T:",
    long: &[],
    read_only: true,
    target: None,
    build: |args| {
        args.no_arguments()?;
        let kinds = prompt_kinds(args)?;
        Ok(Action::Server(Box::new(move |ctx| {
            async move {
                let mut lines = Vec::new();
                for kind in kinds {
                    let history: Vec<String> = ctx
                        .prompt_history
                        .lock()
                        .map(|h| h.of(kind).iter().cloned().collect())
                        .unwrap_or_default();
                    if !lines.is_empty() {
                        lines.push(String::new());
                    }
                    lines.push(format!("History for {}:", kind.name()));
                    lines.push(String::new());
                    lines.extend(
                        history
                            .iter()
                            .enumerate()
                            .map(|(i, line)| format!("{}: {line}", i + 1)),
                    );
                }
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
    about: "Forget the lines entered at prompts (Up no longer brings them back): every \
            kind's, or -T one kind's.",
    flags: "T:",
    long: &[],
    read_only: false,
    target: None,
    build: |args| {
        args.no_arguments()?;
        let kinds = prompt_kinds(args)?;
        Ok(Action::Server(Box::new(move |ctx| {
            async move {
                if let Ok(mut history) = ctx.prompt_history.lock() {
                    for kind in kinds {
                        history.of_mut(kind).clear();
                    }
                }
                Ok(Output::none())
            }
            .boxed()
        })))
    },
};

/// The kinds of prompt `-T` names: one, or all of them without it.
fn prompt_kinds(
    args: &super::Args,
) -> Result<Vec<crate::prompt_history::PromptType>, CommandError> {
    Ok(match args.value('T') {
        None => crate::prompt_history::PromptType::ALL.to_vec(),
        Some(_) => vec![super::client::prompt_type(args)?],
    })
}

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
