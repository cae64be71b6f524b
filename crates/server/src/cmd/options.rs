//! Option and configuration commands: set-option, show-options, source-file, list-keys.

use super::config_lines::run_config_line;
use super::{flag_value, on_session, Action, Entry};
use crate::config::Config;
use crate::options::{self, Applied, SetHow};
use crate::outcome::{CommandError, Output, TargetKind};
use futures::FutureExt;
use std::path::PathBuf;
use std::sync::Arc;

/// `set-option`.
pub static SET_OPTION: Entry = Entry {
    name: "set-option",
    aliases: &["set", "set-window-option", "setw"],
    usage: "[-agopqsuw] [-t target] option [value]",
    about: "Set an option, as tmux's: -g global, -s server, -w window, -p pane, -u back to the \
            default, -a append, -o only if not set, -q quiet. A flag without a value toggles. \
            User options (@name) are kept for plugins. Takes effect at once on every client.",
    flags: "agopqsuwFt:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Window),
    build: |args| {
        let (name, value, how) = set_args(args)?;
        let quiet = args.has('q');
        // synchronize-panes is a window's own (`setw synchronize-panes`), unless set with -g.
        if name == "synchronize-panes" && !args.has('g') {
            let args = args.clone();
            let value = value.unwrap_or_default();
            return Ok(on_session(move |s, scope| {
                let wpos = s.find_window(scope.target())?;
                let w = &mut s.windows[wpos];
                w.sync_panes = flag_value(w.sync_panes, &value, &name, &args)?;
                Ok(Output::none())
            }));
        }
        Ok(Action::Server(Box::new(move |ctx| {
            async move {
                let shown = name.clone();
                let result = ctx
                    .registry
                    .update_config(move |c| match c.set_option(&name, value.as_deref(), how) {
                        Ok(Applied::Stored) => {
                            Ok(format!("{name} is kept but weft does not use it yet"))
                        }
                        Ok(_) => Ok(String::new()),
                        Err(e) => Err(e),
                    })
                    .await;
                match result {
                    Ok(note) if note.is_empty() || quiet => Ok(Output::none()),
                    Ok(note) => Ok(Output {
                        stderr: note,
                        ..Output::none()
                    }),
                    // -q: an unknown option is not an error (as tmux).
                    Err(e) if quiet && options::find(&shown).is_none() => {
                        let _ = e;
                        Ok(Output::none())
                    }
                    Err(e) => Err(CommandError::Invalid(format!("set-option: {e}"))),
                }
            }
            .boxed()
        })))
    },
};

/// The option, value and manner a `set-option` names.
pub(super) fn set_args(
    args: &super::Args,
) -> Result<(String, Option<String>, SetHow), CommandError> {
    let (name, value) = match args.positional.as_slice() {
        [name] => (name.clone(), None),
        [name, value] => (name.clone(), Some(value.clone())),
        _ => return Err(args.usage("an option name and a value are needed")),
    };
    let how = SetHow {
        unset: args.has('u'),
        append: args.has('a'),
        only_if_unset: args.has('o'),
    };
    Ok((name, value, how))
}

/// `show-options`.
pub static SHOW_OPTIONS: Entry = Entry {
    name: "show-options",
    aliases: &["show", "show-window-options", "showw"],
    usage: "[-gpqsvwA] [-t target] [option]",
    about: "Print options and their values (one option with a name; -v the value alone). \
            weft keeps every option server-wide.",
    flags: "gpqsvwAHt:",
    long: &[],
    read_only: true,
    target: None,
    build: |args| {
        let name = args.positional.first().cloned();
        if args.positional.len() > 1 {
            return Err(args.usage("at most one option name"));
        }
        let (value_only, quiet) = (args.has('v'), args.has('q'));
        Ok(Action::Server(Box::new(move |ctx| {
            async move {
                let config = ctx.config.borrow().clone();
                let lines = match &name {
                    Some(n) => match config.option_value(n) {
                        Some(v) => vec![(n.clone(), v)],
                        None if quiet => Vec::new(),
                        None => {
                            return Err(CommandError::Invalid(format!(
                                "show-options: unknown option: {n}"
                            )))
                        }
                    },
                    None => config.option_lines(),
                };
                let text: Vec<String> = lines
                    .into_iter()
                    .map(|(n, v)| {
                        if value_only {
                            v
                        } else {
                            format!("{n} {}", show_value(&v))
                        }
                    })
                    .collect();
                Ok(Output::text(text.join("\n")))
            }
            .boxed()
        })))
    },
};

/// A value as `show-options` prints it: quoted when it has spaces or is empty, as tmux does.
fn show_value(v: &str) -> String {
    if v.is_empty() || v.contains(char::is_whitespace) || v.contains('"') {
        format!("\"{}\"", v.replace('\\', "\\\\").replace('"', "\\\""))
    } else {
        v.to_string()
    }
}

/// `list-keys`.
pub static LIST_KEYS: Entry = Entry {
    name: "list-keys",
    aliases: &["lsk"],
    usage: "[-N] [-T key-table]",
    about: "Print the key bindings: every table, or one (prefix, root, copy-mode, \
            copy-mode-vi, or your own); -N the notes given with bind -N.",
    flags: "NT:",
    long: &[],
    read_only: true,
    target: None,
    build: |args| {
        args.no_arguments()?;
        let table = args.value('T').map(str::to_string);
        let notes = args.has('N');
        Ok(Action::Server(Box::new(move |ctx| {
            async move {
                if notes {
                    let keys = ctx.config.borrow().keys.clone();
                    let lines: Vec<String> = keys
                        .notes
                        .iter()
                        .filter_map(|(id, note)| {
                            let (t, key) = id.split_once(' ')?;
                            table
                                .as_deref()
                                .is_none_or(|want| want == t)
                                .then(|| format!("{key:<12} {note}"))
                        })
                        .collect();
                    return Ok(Output::text(lines.join("\n")));
                }
                let lines = ctx.config.borrow().keys.describe();
                let Some(table) = table else {
                    return Ok(Output::text(lines.join("\n")));
                };
                let wanted = format!("-T {table} ");
                let shown: Vec<String> = lines
                    .into_iter()
                    .filter(|l| l.starts_with("bind-key ") && l.contains(&wanted))
                    .collect();
                // The built-in tables exist even when every key was unbound.
                let builtin = matches!(
                    table.as_str(),
                    "prefix" | "root" | "copy-mode" | "copy-mode-vi"
                );
                if shown.is_empty() && !builtin {
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

/// `convert-config`.
pub static CONVERT_CONFIG: Entry = Entry {
    name: "convert-config",
    aliases: &[],
    usage: "[path]",
    about: "Print an older TOML configuration (config.toml, or the one named) as the commands \
            of a weft.conf: weft convert-config > ~/.config/weft/weft.conf.",
    flags: "",
    long: &[],
    read_only: true,
    target: None,
    build: |args| {
        let path = args.positional.first().map(PathBuf::from);
        Ok(Action::Server(Box::new(move |ctx| {
            async move {
                let path = path
                    .or_else(|| {
                        ctx.config
                            .borrow()
                            .path
                            .clone()
                            .filter(|p| crate::config::is_toml(p))
                    })
                    .or_else(|| {
                        crate::config::default_path().map(|p| p.with_file_name("config.toml"))
                    })
                    .ok_or_else(|| CommandError::failed("convert-config: name the TOML file"))?;
                if !crate::config::is_toml(&path) {
                    return Err(CommandError::failed(format!(
                        "convert-config: {} is not a .toml file",
                        path.display()
                    )));
                }
                let loaded = Config::load(Some(&path), &super::check, &run_config_line)
                    .map_err(|e| CommandError::failed(e.to_string()))?;
                Ok(Output::text(crate::convert::as_commands(&loaded.config)))
            }
            .boxed()
        })))
    },
};

/// `source-file`.
pub static SOURCE_FILE: Entry = Entry {
    name: "source-file",
    aliases: &["source"],
    usage: "[-q] [path ...]",
    about: "Run a configuration file's commands (tmux's syntax) on the configuration in force, \
            as tmux does; `~` and `*` work, -q says nothing of a missing file. Without a path, \
            the configuration file read at start. A TOML file replaces the configuration. A \
            bad line is reported with its place and the rest still applies.",
    flags: "qnv",
    long: &[],
    read_only: false,
    target: None,
    build: |args| {
        let patterns = args.positional.clone();
        let quiet = args.has('q');
        Ok(Action::Server(Box::new(move |ctx| {
            async move {
                let paths: Vec<PathBuf> = if patterns.is_empty() {
                    let path = ctx
                        .config
                        .borrow()
                        .path
                        .clone()
                        .or_else(crate::config::default_path)
                        .ok_or_else(|| {
                            CommandError::failed("source-file: name a file: no configuration file")
                        })?;
                    vec![path]
                } else {
                    let base = std::env::current_dir().unwrap_or_default();
                    let mut found = Vec::new();
                    for p in &patterns {
                        let matched = crate::conf_file::expand(p, &base);
                        if matched.is_empty() && !quiet {
                            return Err(CommandError::failed(format!(
                                "source-file: no file matches {p}"
                            )));
                        }
                        found.extend(matched);
                    }
                    found
                };
                let mut warnings = Vec::new();
                for path in paths {
                    if crate::config::is_toml(&path) {
                        let loaded = Config::load(Some(&path), &super::check, &run_config_line)
                            .map_err(|e| CommandError::failed(e.to_string()))?;
                        warnings.extend(loaded.warnings);
                        ctx.registry.set_config(Arc::new(loaded.config)).await;
                        continue;
                    }
                    let found = ctx
                        .registry
                        .update_config(move |c| {
                            let mut w = Vec::new();
                            crate::conf_file::apply_file(c, &path, quiet, &run_config_line, &mut w);
                            Ok(w.join("\n"))
                        })
                        .await
                        .map_err(CommandError::failed)?;
                    if !found.is_empty() {
                        warnings.push(found);
                    }
                }
                if warnings.is_empty() {
                    Ok(Output::none())
                } else {
                    Err(CommandError::failed(warnings.join("\n")))
                }
            }
            .boxed()
        })))
    },
};
