//! The commands a configuration file runs (tmux's syntax: `set -g mouse on`, `bind | split-window
//! -h`, `source-file ~/x.conf`), applied to a configuration before it is in force; parsed with
//! the command table, as the same commands typed anywhere else.

use super::{lookup, Args};
use crate::conf_file::LineEffect;
use crate::config::Config;
use crate::options::Applied;

/// [`run_config_line`] for a file a running server reads (`source-file`): a `run-shell`,
/// wherever it is in the line (after `;`, in an if-shell's branch), is started and not
/// waited for, because the server's configuration waits for the file, and a command that
/// talks back to weft would wait on that very change.
pub fn run_served_config_line(config: &mut Config, words: &[String]) -> Result<LineEffect, String> {
    run_line(config, words, true)
}

/// Checks one configuration line's words without running them (`source-file -n`): each
/// command must be one weft knows, with flags and arguments it takes.
pub fn check_config_line(_config: &mut Config, words: &[String]) -> Result<LineEffect, String> {
    let words = super::separate_commands(words);
    for part in words.split(|w| w == ";").filter(|p| !p.is_empty()) {
        super::parse(part).map_err(|e| e.to_string())?;
    }
    Ok(LineEffect::Done)
}

/// Runs one configuration line's words on `config` (see [`crate::conf_file::LineRunner`]).
pub fn run_config_line(config: &mut Config, words: &[String]) -> Result<LineEffect, String> {
    run_line(config, words, false)
}

/// A line's words run on `config`; `serving`: a running server reads the file.
pub(super) fn run_line(
    config: &mut Config,
    words: &[String],
    serving: bool,
) -> Result<LineEffect, String> {
    run_words(config, words, serving, true)
}

/// [`run_line`], its first word looked up as a `command-alias` too when `aliases` (once: the
/// words an alias stands for are not expanded again).
fn run_words(
    config: &mut Config,
    words: &[String],
    serving: bool,
    aliases: bool,
) -> Result<LineEffect, String> {
    // `bind x a \; b` binds a sequence; elsewhere `\;` separates commands of the line.
    let is_bind = words
        .first()
        .and_then(|w| lookup(w))
        .is_some_and(|e| e.name == "bind-key");
    if !is_bind && words.iter().any(|w| w == ";") {
        let mut last = LineEffect::Done;
        // Every `run-shell` of the line runs later, in order.
        let mut runs = Vec::new();
        for part in words.split(|w| w == ";").filter(|p| !p.is_empty()) {
            match run_line(config, part, serving)? {
                LineEffect::RunOnceServing(commands) => runs.extend(commands),
                effect => last = effect,
            }
        }
        if !runs.is_empty() {
            return Ok(LineEffect::RunOnceServing(runs));
        }
        return Ok(last);
    }
    let (name, rest) = words.split_first().ok_or("empty line")?;
    // A `command-alias` (of the configuration being read), before the commands' own names
    // as in tmux: its command's words, then the line's arguments.
    if let Some(command) = aliases
        .then(|| crate::option_arrays::alias_in(config, name))
        .flatten()
    {
        let mut expanded = crate::words::tokenize(&command).map_err(|e| e.to_string())?;
        expanded.extend_from_slice(rest);
        return run_words(config, &expanded, serving, false);
    }
    let entry = lookup(name).ok_or_else(|| format!("unknown command: {name}"))?;
    let args = Args::parse(entry, rest).map_err(|e| e.to_string())?;
    match entry.name {
        "set-option" => {
            let (option, value, how) =
                super::options::set_args(&args).map_err(|e| e.to_string())?;
            // -F: the value a format of the options set so far (a theme's `set -gF`).
            let value = match value {
                Some(v) if args.has('F') => Some(super::options::expand_global(&v, config)),
                v => v,
            };
            let set = config.set_option(&option, value.as_deref(), how);
            if option.starts_with("command-alias") {
                // The file's later lines (a binding to an alias) see it at once; a running
                // server's copy is put in force once the file is read, and published again.
                crate::option_arrays::publish_aliases(config);
            }
            match set {
                Ok(Applied::Stored) => Ok(LineEffect::Note(format!(
                    "{option} is kept but weft does not use it yet"
                ))),
                Ok(_) => Ok(LineEffect::Done),
                Err(e) if args.has('q') && e.starts_with("unknown option") => Ok(LineEffect::Done),
                Err(e) => Err(e),
            }
        }
        "bind-key" => {
            let b = super::bind::binding(&args).map_err(|e| e.to_string())?;
            config
                .keys
                .bind(&b.table, &b.key, &b.line, b.repeat, b.note.as_deref())?;
            Ok(LineEffect::Done)
        }
        "unbind-key" => {
            let (table, key) = super::bind::unbinding(&args).map_err(|e| e.to_string())?;
            config.keys.unbind(&table, key.as_deref())?;
            Ok(LineEffect::Done)
        }
        "set-environment" => {
            // No session exists yet while a configuration is read: the change is global.
            let (var, value) = match args.positional.as_slice() {
                [var] => (var.clone(), None),
                [var, value] => (var.clone(), Some(value.clone())),
                _ => return Err("set-environment: a variable name (and a value) are needed".into()),
            };
            if args.has('u') {
                config.environment.remove(&var);
            } else if args.has('r') {
                config.environment.insert(var, None);
            } else {
                let value = value.ok_or("set-environment: a value is needed (or -u, -r)")?;
                config.environment.insert(var, Some(value));
            }
            Ok(LineEffect::Done)
        }
        "set-hook" => {
            super::hooks::set_hook_line(config, &args)?;
            Ok(LineEffect::Done)
        }
        "source-file" => Ok(LineEffect::Source {
            patterns: args.positional.clone(),
            quiet: args.has('q'),
            format: args.has('F'),
        }),
        "if-shell" => {
            // Configurations choose lines by platform or version: `if 'uname | grep -q Darwin'
            // 'set ...'`. The test runs now, while the file is read, as tmux's does.
            let (test, then, otherwise) = match args.positional.as_slice() {
                [t, a] => (t, a, None),
                [t, a, b] => (t, a, Some(b)),
                _ => return Err("if-shell: a test and one or two commands are needed".into()),
            };
            let passed = if args.has('F') {
                let value =
                    crate::format::expand(test, &crate::conf_file::config_format_vars(config));
                !value.is_empty() && value != "0"
            } else {
                super::config_shell::test_passes(test)?
            };
            match if passed { Some(then) } else { otherwise } {
                Some(line) if !line.trim().is_empty() => {
                    let words = crate::words::tokenize(line).map_err(|e| e.to_string())?;
                    run_line(config, &words, serving)
                }
                _ => Ok(LineEffect::Done),
            }
        }
        "run-shell" => super::config_shell::run_shell(config, &args, serving),
        other => Err(format!(
            "{other} is not run from a configuration file yet (weft runs set-option, bind-key, \
             unbind-key, set-environment, set-hook, source-file, if-shell and run-shell there)"
        )),
    }
}
