//! Option and configuration commands: set-option, show-options, source-file, list-keys.

use super::config_lines::run_config_line;
use super::{on_session, Action, Entry};
use crate::config::Config;
use crate::options::{self, Applied, SetHow};
use crate::outcome::{CommandError, Output, TargetKind};
use crate::session::Level;
use futures::FutureExt;
use std::path::PathBuf;
use std::sync::Arc;

/// `set-option`.
pub static SET_OPTION: Entry = Entry {
    name: "set-option",
    aliases: &["set", "set-window-option", "setw"],
    usage: "[-aFgopqsuw] [-t target] option [value]",
    about: "Set an option, as tmux's: -g global; without it, on the target session, window \
            (-w, or a window option) or pane (-p), over the global value. -s server, -u back \
            to the default (or to inheriting), -a append, -o only if not set, -q quiet, -F \
            the value a format expanded now. A flag without a value toggles. User options \
            (@name) are kept for plugins. Takes effect at once on every client.",
    flags: "agopqsuwFt:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Window),
    build: |args| {
        let (name, value, how) = set_args(args)?;
        let quiet = args.has('q');
        let expand = args.has('F');
        if let Some(level) = level_of(&name, args) {
            return Ok(on_session(move |s, scope| {
                // -F: the value is a format, expanded for the target now (as tmux).
                let value = match value {
                    Some(v) if expand => {
                        let (wpos, pane) = s.find_pane(scope)?;
                        Some(crate::format::expand(&v, &s.format_context(wpos, pane)))
                    }
                    v => v,
                };
                match s.set_local_option(level, scope, &name, value.as_deref(), how) {
                    Ok(Applied::Stored) if !quiet => Ok(Output {
                        stderr: format!("{name} is kept but weft does not use it yet"),
                        ..Output::none()
                    }),
                    Ok(_) => Ok(Output::none()),
                    Err(e) => Err(e),
                }
            }));
        }
        Ok(Action::Server(Box::new(move |ctx| {
            async move {
                let value = match value {
                    Some(v) if expand => Some(expand_global(&v, &ctx.config.borrow())),
                    v => v,
                };
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

/// `value` expanded as a format of the global options (`set -gF`, and while a configuration
/// is read), as a configuration's `if -F` expands its test.
pub(super) fn expand_global(value: &str, config: &Config) -> String {
    crate::format::expand(value, &crate::conf_file::config_format_vars(config))
}

/// Where `set-option` or `show-options` without `-g` acts, as tmux's scopes say: `None` for
/// the global options (`-g`, `-s`, a server option, or an option weft does not know, whose
/// error comes from there), else the target session, window or pane. A pane option without
/// `-p` goes on the window, which its panes inherit from.
fn level_of(name: &str, args: &super::Args) -> Option<Level> {
    if args.has('g') || args.has('s') {
        return None;
    }
    let window = || {
        if args.has('p') {
            Level::Pane
        } else {
            Level::Window
        }
    };
    if name.starts_with('@') {
        return Some(if args.has('p') || args.has('w') {
            window()
        } else {
            Level::Session
        });
    }
    match options::find(name)?.scope {
        options::Scope::Server => None,
        options::Scope::Session => Some(Level::Session),
        options::Scope::Window | options::Scope::Pane => Some(window()),
    }
}

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
    about: "Print options and their values (one option with a name; -v the value alone): \
            -g the global ones; without it, those in force in the target session, window (-w, \
            or a window option) or pane (-p), inherited values included.",
    flags: "gpqsvwAHt:",
    long: &[],
    read_only: true,
    target: Some(TargetKind::Window),
    build: |args| {
        let name = args.positional.first().cloned();
        if args.positional.len() > 1 {
            return Err(args.usage("at most one option name"));
        }
        let (value_only, quiet) = (args.has('v'), args.has('q'));
        let level = match &name {
            Some(n) => level_of(n, args),
            None if args.has('g') || args.has('s') => None,
            None if args.has('p') => Some(Level::Pane),
            None if args.has('w') => Some(Level::Window),
            None => Some(Level::Session),
        };
        let print = move |lines: Vec<(String, Option<String>)>| {
            let mut text = Vec::new();
            for (n, v) in lines {
                match v {
                    Some(v) if value_only => text.push(v),
                    Some(v) => text.push(format!("{n} {}", show_value(&v))),
                    None if quiet => {}
                    None => {
                        return Err(CommandError::Invalid(format!(
                            "show-options: unknown option: {n}"
                        )))
                    }
                }
            }
            Ok(Output::text(text.join("\n")))
        };
        if let Some(level) = level {
            return Ok(on_session(move |s, scope| {
                print(shown(&*s.config_at(level, scope)?, name.as_deref()))
            }));
        }
        Ok(Action::Server(Box::new(move |ctx| {
            async move {
                let config = ctx.config.borrow().clone();
                print(shown(&config, name.as_deref()))
            }
            .boxed()
        })))
    },
};

/// What `show-options` lists of `config`: option `name` (its value `None` when weft has no
/// such option), or every option.
fn shown(config: &Config, name: Option<&str>) -> Vec<(String, Option<String>)> {
    match name {
        // A whole array: each element on its own line, as tmux shows `status-format[0]`.
        Some(n)
            if !n.contains('[')
                && options::find(n).is_some_and(|d| d.kind == options::Kind::Array) =>
        {
            config
                .array_elements(n)
                .into_iter()
                .map(|(i, v)| (format!("{n}[{i}]"), Some(v)))
                .collect()
        }
        Some(n) => vec![(n.to_string(), config.option_value(n))],
        None => config
            .option_lines()
            .into_iter()
            .map(|(n, v)| (n, Some(v)))
            .collect(),
    }
}

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
    usage: "[-1aN] [-P prefix-string] [-T key-table] [key]",
    about: "Print the key bindings: every table, or one (prefix, root, copy-mode, \
            copy-mode-vi, or your own); -N the notes given with bind -N. With a key, only \
            what it is bound to (-N: its note, or its command), -1 the first of those.",
    flags: "1aNP:T:",
    long: &[],
    read_only: true,
    target: None,
    build: |args| {
        let table = args.value('T').map(str::to_string);
        let notes = args.has('N');
        let first_only = args.has('1');
        let prefix = args.value('P').map(str::to_string);
        let key = match args.positional.as_slice() {
            [] => None,
            [key] => Some(key.clone()),
            _ => return Err(args.usage("give one key at most")),
        };
        Ok(Action::Server(Box::new(move |ctx| {
            async move {
                if let Some(key) = key {
                    let keys = ctx.config.borrow().keys.clone();
                    let mut lines = keys
                        .describe_key(table.as_deref(), &key, notes, prefix.as_deref())
                        .map_err(|e| CommandError::Invalid(format!("list-keys: {e}")))?;
                    if first_only {
                        lines.truncate(1);
                    }
                    if lines.is_empty() {
                        return Ok(Output::text(format!("{key} is not bound")));
                    }
                    return Ok(Output::text(lines.join("\n")));
                }
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
    usage: "[-Fnq] [path ...]",
    about: "Run a configuration file's commands (tmux's syntax) on the configuration in force, \
            as tmux does; `~` and `*` work, -q says nothing of a missing file, -n only checks \
            the lines, running nothing, -F expands each path as a format first (in a file, \
            #{current_file} is that file). Without a path, the configuration file read at start. \
            A TOML file replaces the configuration. A bad line is reported with its place and \
            the rest still applies.",
    flags: "Fqnv",
    long: &[],
    read_only: false,
    target: None,
    build: |args| {
        let patterns = args.positional.clone();
        let format = args.has('F');
        let quiet = args.has('q');
        let check_only = args.has('n');
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
                        // -F: the path is a format of the options in force first.
                        let p = &if format {
                            expand_global(p, &ctx.config.borrow())
                        } else {
                            p.clone()
                        };
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
                    if check_only {
                        // On a copy, with a runner that only parses: nothing changes.
                        let mut scratch = Config::clone(&ctx.config.borrow());
                        let check = &super::config_lines::check_config_line;
                        crate::conf_file::apply_file(
                            &mut scratch,
                            &path,
                            quiet,
                            check,
                            &mut warnings,
                        );
                        continue;
                    }
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
                            let run = &super::config_lines::run_served_config_line;
                            crate::conf_file::apply_file(c, &path, quiet, run, &mut w);
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
