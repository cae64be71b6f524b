//! The environment new panes start with: set-environment and show-environment.

use super::{on_session, Action, Entry};
use crate::outcome::{CommandError, Output, TargetKind};
use futures::FutureExt;
use std::collections::BTreeMap;

/// The longest value, and the most variables changed in one environment: a client may not
/// grow the server's memory without bound.
const MAX_VALUE_BYTES: usize = 64 << 10;
/// See [`MAX_VALUE_BYTES`].
const MAX_VARIABLES: usize = 4096;

/// `set-environment`.
pub static SET_ENVIRONMENT: Entry = Entry {
    name: "set-environment",
    aliases: &["setenv"],
    usage: "[-Fgru] [-t target-session] name [value]",
    about: "Set a variable for programs started in new panes: of the session, or -g of every \
            session. -u unsets the change, -r removes the variable from new panes; -F \
            expands the value as a format first.",
    flags: "gruhFt:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Session),
    build: |args| {
        let (name, value) = match args.positional.as_slice() {
            [name] => (name.clone(), None),
            [name, value] => (name.clone(), Some(value.clone())),
            _ => return Err(args.usage("a variable name (and a value) are needed")),
        };
        if value.as_ref().is_some_and(|v| v.len() > MAX_VALUE_BYTES) {
            return Err(args.usage(format!(
                "a value may be at most {} KiB",
                MAX_VALUE_BYTES >> 10
            )));
        }
        if name.is_empty() || name.len() > 1024 || name.contains('=') || name.contains('\0') {
            return Err(args.usage(format!("{name:?} is not a variable name")));
        }
        let change = match (args.has('u'), args.has('r'), value) {
            (true, _, _) => Change::Unset,
            (false, true, _) => Change::Set(None),
            (false, false, Some(v)) => Change::Set(Some(v)),
            (false, false, None) => return Err(args.usage("a value is needed (or -u, -r)")),
        };
        let format = args.has('F');
        if args.has('g') {
            return Ok(Action::Server(Box::new(move |ctx| {
                async move {
                    ctx.registry
                        .update_config(move |c| {
                            let change = if format {
                                change.expanded(|v| super::options::expand_global(v, c))
                            } else {
                                change
                            };
                            change
                                .apply(&mut c.environment, name)
                                .map(|()| String::new())
                                .map_err(|e| e.to_string())
                        })
                        .await
                        .map_err(CommandError::failed)?;
                    Ok(Output::none())
                }
                .boxed()
            })));
        }
        Ok(on_session(move |s, _| {
            let change = match s.current_format_context() {
                Some(context) if format => change.expanded(|v| crate::format::expand(v, &context)),
                _ => change,
            };
            change.apply(&mut s.environment, name)?;
            Ok(Output::none())
        }))
    },
};

impl Change {
    /// The value, if any, through `expand` (`-F`).
    fn expanded(self, expand: impl FnOnce(&str) -> String) -> Change {
        match self {
            Change::Set(Some(v)) => Change::Set(Some(expand(&v))),
            other => other,
        }
    }
}

/// What `set-environment` does to one variable.
#[derive(Clone)]
enum Change {
    /// Back to what it was (the change forgotten).
    Unset,
    /// A value, or removed from new panes.
    Set(Option<String>),
}

impl Change {
    fn apply(
        self,
        env: &mut BTreeMap<String, Option<String>>,
        name: String,
    ) -> Result<(), CommandError> {
        if env.len() >= MAX_VARIABLES && !env.contains_key(&name) {
            return Err(CommandError::failed(format!(
                "set-environment: at most {MAX_VARIABLES} variables are kept"
            )));
        }
        match self {
            Change::Unset => {
                env.remove(&name);
            }
            Change::Set(v) => {
                env.insert(name, v);
            }
        }
        Ok(())
    }
}

/// `show-environment`.
pub static SHOW_ENVIRONMENT: Entry = Entry {
    name: "show-environment",
    aliases: &["showenv"],
    usage: "[-gs] [-t target-session] [name]",
    about: "Print the environment new panes get: the session's changes, or -g the global \
            environment (the server's, with every session's changes: NAME=value, -NAME for a \
            variable removed); -s as shell commands to eval (NAME=\"value\"; export NAME;).",
    flags: "ghst:",
    long: &[],
    read_only: true,
    target: Some(TargetKind::Session),
    build: |args| {
        let name = args.positional.first().cloned();
        let shell = args.has('s');
        if args.has('g') {
            return Ok(Action::Server(Box::new(move |ctx| {
                async move {
                    // As tmux: the environment the server started with, under the changes.
                    let mut env: BTreeMap<String, Option<String>> = std::env::vars()
                        .filter(|(k, _)| !matches!(k.as_str(), "TMUX" | "WEFT" | "WEFT_PANE"))
                        .map(|(k, v)| (k, Some(v)))
                        .collect();
                    env.extend(ctx.config.borrow().environment.clone());
                    show(&env, name.as_deref(), shell)
                }
                .boxed()
            })));
        }
        Ok(on_session(move |s, _| {
            show(&s.environment, name.as_deref(), shell)
        }))
    },
};

/// The variables as `show-environment` prints them: `NAME=value` and `-NAME`, or with `shell`
/// (`-s`) as tmux writes them for a shell's `eval`: `NAME="value"; export NAME;` (`$`, `` ` ``,
/// `"` and `\` escaped) and `unset NAME;`.
fn show(
    env: &BTreeMap<String, Option<String>>,
    name: Option<&str>,
    shell: bool,
) -> Result<Output, CommandError> {
    let line = |(k, v): (&String, &Option<String>)| match (v, shell) {
        (Some(v), false) => format!("{k}={v}"),
        (None, false) => format!("-{k}"),
        (Some(v), true) => {
            let mut quoted = String::with_capacity(v.len());
            for c in v.chars() {
                if matches!(c, '$' | '`' | '"' | '\\') {
                    quoted.push('\\');
                }
                quoted.push(c);
            }
            format!("{k}=\"{quoted}\"; export {k};")
        }
        (None, true) => format!("unset {k};"),
    };
    match name {
        Some(n) => env
            .get_key_value(n)
            .map(|kv| Output::text(line(kv)))
            .ok_or_else(|| CommandError::failed(format!("unknown variable: {n}"))),
        None => Ok(Output::text(
            env.iter().map(line).collect::<Vec<_>>().join("\n"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s_writes_the_environment_for_a_shells_eval() {
        let env: BTreeMap<String, Option<String>> = [
            (
                "AGENT".to_string(),
                Some(r#"/tmp/a "b" $c\d`e`"#.to_string()),
            ),
            ("GONE".to_string(), None),
        ]
        .into_iter()
        .collect();
        let out = show(&env, None, true).unwrap().stdout;
        assert_eq!(
            out,
            "AGENT=\"/tmp/a \\\"b\\\" \\$c\\\\d\\`e\\`\"; export AGENT;\nunset GONE;"
        );
        assert_eq!(show(&env, Some("GONE"), false).unwrap().stdout, "-GONE");
    }
}
