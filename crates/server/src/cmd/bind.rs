//! Key binding commands: bind-key and unbind-key, changing the tables in force at once.

use super::{Action, Entry};
use crate::outcome::{CommandError, Output};
use futures::FutureExt;

/// `bind-key`.
pub static BIND_KEY: Entry = Entry {
    name: "bind-key",
    aliases: &["bind"],
    usage: "[-nr] [-N note] [-T key-table] key command [arguments]",
    about: "Bind a key: in the prefix table, the root table (-n, no prefix), or -T a table \
            (copy-mode, copy-mode-vi, or your own, entered with switch-client -T). -r lets it \
            repeat within repeat-time. Several commands go separated by \\\\;.",
    flags: "nrN:T:",
    long: &[],
    read_only: false,
    target: None,
    build: |args| {
        let Binding {
            table,
            key,
            line,
            repeat,
            note,
        } = binding(args)?;
        Ok(Action::Server(Box::new(move |ctx| {
            async move {
                ctx.registry
                    .update_config(move |c| {
                        c.keys
                            .bind(&table, &key, &line, repeat, note.as_deref())
                            .map(|()| String::new())
                    })
                    .await
                    .map_err(|e| CommandError::Invalid(format!("bind-key: {e}")))?;
                Ok(Output::none())
            }
            .boxed()
        })))
    },
};

/// `unbind-key`.
pub static UNBIND_KEY: Entry = Entry {
    name: "unbind-key",
    aliases: &["unbind"],
    usage: "[-anq] [-T key-table] [key]",
    about: "Remove a key's binding (-a: every binding of the table).",
    flags: "anqT:",
    long: &[],
    read_only: false,
    target: None,
    build: |args| {
        let (table, key) = unbinding(args)?;
        Ok(Action::Server(Box::new(move |ctx| {
            async move {
                ctx.registry
                    .update_config(move |c| {
                        c.keys
                            .unbind(&table, key.as_deref())
                            .map(|()| String::new())
                    })
                    .await
                    .map_err(|e| CommandError::Invalid(format!("unbind-key: {e}")))?;
                Ok(Output::none())
            }
            .boxed()
        })))
    },
};

/// What a `bind-key` binds.
pub(super) struct Binding {
    pub(super) table: String,
    pub(super) key: String,
    pub(super) line: String,
    pub(super) repeat: bool,
    pub(super) note: Option<String>,
}

/// The binding `bind-key`'s arguments make, its command checked (a binding that cannot run
/// is refused when it is made).
pub(super) fn binding(args: &super::Args) -> Result<Binding, CommandError> {
    let Some((key, command)) = args.positional.split_first() else {
        return Err(args.usage("a key and a command are needed"));
    };
    if command.is_empty() {
        return Err(args.usage("a command is needed after the key"));
    }
    // One argument holding a whole command line (`bind x 'new-window ; split-window'`) is
    // read as a line, as tmux does.
    let words = super::separate_commands(&super::command_words(command)?);
    super::parse_sequence(&words)?;
    Ok(Binding {
        table: table_of(args),
        key: key.clone(),
        line: super::join_words(&words),
        repeat: args.has('r'),
        note: args.value('N').map(str::to_string),
    })
}

/// The unbinding `unbind-key`'s arguments make: a table and a key (every key: `None`).
pub(super) fn unbinding(args: &super::Args) -> Result<(String, Option<String>), CommandError> {
    let key = match (args.positional.as_slice(), args.has('a')) {
        ([], true) => None,
        ([key], false) => Some(key.clone()),
        _ => return Err(args.usage("one key, or -a for every key of the table")),
    };
    Ok((table_of(args), key))
}

/// The table `-n` / `-T` name: the prefix table by default.
fn table_of(args: &super::Args) -> String {
    match (args.value('T'), args.has('n')) {
        (Some(t), _) => t.to_string(),
        (None, true) => "root".to_string(),
        (None, false) => "prefix".to_string(),
    }
}
