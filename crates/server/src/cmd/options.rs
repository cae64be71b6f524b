//! Option and configuration commands: set-option, show-options, source-file, list-keys.

use super::{flag_value, on_session, Action, Entry};
use crate::config::Config;
use crate::outcome::{CommandError, Output, TargetKind};
use futures::FutureExt;
use std::sync::Arc;

/// `set-option`.
pub static SET_OPTION: Entry = Entry {
    name: "set-option",
    aliases: &["set", "set-window-option", "setw"],
    usage: "[-gqw] [-t target-window] option [value]",
    about: "Set an option. At run time: the window option synchronize-panes (on, off, or toggle \
            without a value); the rest are set in the configuration file.",
    flags: "gqwt:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Window),
    build: |args| {
        let (name, value) = match args.positional.as_slice() {
            [name] => (name.clone(), String::new()),
            [name, value] => (name.clone(), value.clone()),
            _ => return Err(args.usage("an option name and a value are needed")),
        };
        if name != "synchronize-panes" {
            return Err(CommandError::Invalid(format!(
                "set-option: {name} cannot be changed while weft runs yet; set it in the \
                 configuration file and run `weft source-file`"
            )));
        }
        let args = args.clone();
        Ok(on_session(move |s, scope| {
            let wpos = s.find_window(scope.target())?;
            let w = &mut s.windows[wpos];
            w.sync_panes = flag_value(w.sync_panes, &value, &name, &args)?;
            Ok(Output::none())
        }))
    },
};

/// `show-options`.
pub static SHOW_OPTIONS: Entry = Entry {
    name: "show-options",
    aliases: &["show"],
    usage: "[-g]",
    about: "Print the options in force.",
    flags: "g",
    long: &[],
    read_only: true,
    target: None,
    build: |args| {
        args.no_arguments()?;
        Ok(with_config(|config| config.describe()))
    },
};

/// `list-keys`.
pub static LIST_KEYS: Entry = Entry {
    name: "list-keys",
    aliases: &["lsk"],
    usage: "[-T key-table]",
    about: "Print the key bindings: every table, or one (prefix, root, copy-mode, \
            copy-mode-vi).",
    flags: "T:",
    long: &[],
    read_only: true,
    target: None,
    build: |args| {
        args.no_arguments()?;
        let table = args.value('T').map(str::to_string);
        Ok(Action::Server(Box::new(move |ctx| {
            async move {
                let lines = ctx.config.borrow().keys.describe();
                let Some(table) = table else {
                    return Ok(Output::text(lines.join("\n")));
                };
                let wanted = format!("-T {table} ");
                let shown: Vec<String> = lines
                    .into_iter()
                    .filter(|l| l.starts_with("bind-key ") && l.contains(&wanted))
                    .collect();
                if shown.is_empty() {
                    return Err(CommandError::Invalid(format!(
                        "list-keys: no key table {table:?} (prefix, root, copy-mode, copy-mode-vi)"
                    )));
                }
                Ok(Output::text(shown.join("\n")))
            }
            .boxed()
        })))
    },
};

/// A server action that prints something about the configuration in force.
fn with_config(describe: fn(&Config) -> String) -> Action {
    Action::Server(Box::new(move |ctx| {
        async move { Ok(Output::text(describe(&ctx.config.borrow()))) }.boxed()
    }))
}

/// `source-file`.
pub static SOURCE_FILE: Entry = Entry {
    name: "source-file",
    aliases: &["source"],
    usage: "[path]",
    about: "Read the configuration file again (or another one) and apply it; a bad entry is \
            reported with its place and the rest still applies.",
    flags: "",
    long: &[],
    read_only: false,
    target: None,
    build: |args| {
        let path = args.positional.first().map(std::path::PathBuf::from);
        Ok(Action::Server(Box::new(move |ctx| {
            async move {
                let path = path
                    .or_else(|| ctx.config.borrow().path.clone())
                    .or_else(crate::config::default_path)
                    .ok_or_else(|| {
                        CommandError::failed("source-file: name a file: no configuration file")
                    })?;
                let loaded = Config::load(Some(&path), &super::check)
                    .map_err(|e| CommandError::failed(e.to_string()))?;
                ctx.registry.set_config(Arc::new(loaded.config)).await;
                if loaded.warnings.is_empty() {
                    Ok(Output::none())
                } else {
                    Err(CommandError::failed(loaded.warnings.join("\n")))
                }
            }
            .boxed()
        })))
    },
};
