//! weft's commands: one language for key bindings, the `:` prompt, the config file and the CLI.
//!
//! Names and flags follow tmux (`split-window -h -p 30`, `select-pane -L`, `resize-pane -Z`).

use crate::layout::{Dir, Preset, Side};

/// A parsed command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `split-window [-h|-v] [-d] [-p PERCENT] [-t TARGET] [-- CMD]`.
    SplitWindow {
        /// Side by side (`-h`) or stacked (`-v`, default).
        dir: Dir,
        /// New pane's share.
        percent: u16,
        /// Keep focus where it was.
        detached: bool,
        /// Pane to split.
        target: Option<String>,
        /// Program.
        command: Vec<String>,
    },
    /// `new-window [-d] [-n NAME] [-t TARGET] [-- CMD]`.
    NewWindow {
        /// Name.
        name: Option<String>,
        /// Keep focus where it was.
        detached: bool,
        /// Session.
        target: Option<String>,
        /// Program.
        command: Vec<String>,
    },
    /// `select-pane [-t TARGET] [-L|-R|-U|-D]`.
    SelectPane {
        /// Pane.
        target: Option<String>,
        /// Move from the target in a direction.
        side: Option<Side>,
    },
    /// `select-window -t TARGET`, `next-window`, `previous-window`, `last-window`.
    SelectWindow {
        /// Which.
        which: WindowChoice,
    },
    /// `resize-pane [-t TARGET] [-L|-R|-U|-D] [N] [-Z]`.
    ResizePane {
        /// Pane.
        target: Option<String>,
        /// Border to move.
        side: Option<Side>,
        /// Cells.
        cells: u16,
        /// Toggle zoom.
        zoom: bool,
    },
    /// `kill-pane [-t TARGET]`.
    KillPane {
        /// Pane.
        target: Option<String>,
    },
    /// `kill-window [-t TARGET]`.
    KillWindow {
        /// Window.
        target: Option<String>,
    },
    /// `select-layout [-t TARGET] NAME`, `next-layout`.
    SelectLayout {
        /// Window.
        target: Option<String>,
        /// The preset, or the next one.
        preset: Option<Preset>,
    },
    /// `rename-window [-t TARGET] NAME`.
    RenameWindow {
        /// Window.
        target: Option<String>,
        /// New name.
        name: String,
    },
    /// `swap-pane [-U|-D] [-t TARGET]`.
    SwapPane {
        /// Pane.
        target: Option<String>,
        /// Swap with the previous (`-U`) or next (`-D`) pane.
        up: bool,
    },
    /// `break-pane [-d] [-t TARGET]`.
    BreakPane {
        /// Pane.
        target: Option<String>,
        /// Keep focus in the old window.
        detached: bool,
    },
    /// `list-panes [-t TARGET] [--json]`.
    ListPanes {
        /// Window or session.
        target: Option<String>,
        /// JSON output.
        json: bool,
    },
    /// `list-windows [-t TARGET] [--json]`.
    ListWindows {
        /// Session.
        target: Option<String>,
        /// JSON output.
        json: bool,
    },
    /// `set-option [-w] NAME VALUE` (window options like `synchronize-panes`).
    SetOption {
        /// Window option.
        window: bool,
        /// Name.
        name: String,
        /// Value.
        value: String,
        /// Window, for `-w`.
        target: Option<String>,
    },
    /// `detach-client`.
    Detach,
    /// `refresh-client`.
    Refresh,
    /// `send-prefix`.
    SendPrefix,
    /// `command-prompt`.
    CommandPrompt,
    /// `confirm-before [-p PROMPT] COMMAND`.
    ConfirmBefore {
        /// Question shown.
        prompt: String,
        /// What runs on `y`.
        command: Box<Command>,
    },
    /// `list-keys`.
    ListKeys,
    /// `source-file PATH`.
    SourceFile {
        /// File; the configuration file in use when absent.
        path: Option<String>,
    },
    /// `show-options`.
    ShowOptions,
    /// `send-keys [-l] [-H] [-t TARGET] KEY...`.
    SendKeys {
        /// Pane.
        target: Option<String>,
        /// Key names (or text with `-l`, hex bytes with `-H`).
        keys: Vec<String>,
        /// Send the words as literal text.
        literal: bool,
        /// Words are hex bytes.
        hex: bool,
    },
    /// `capture [-t TARGET] [--ansi] [--json] [--scrollback N] [--join-wrapped]`.
    Capture {
        /// Pane.
        target: Option<String>,
        /// With escape sequences.
        ansi: bool,
        /// Cells as JSON.
        json: bool,
        /// History lines to include before the screen.
        scrollback: usize,
        /// Join soft-wrapped rows into one line.
        join_wrapped: bool,
    },
    /// `wait -t TARGET (--text STR | --regex RE | --idle MS | --exit) [--after REV] [--timeout S]`.
    Wait {
        /// Pane.
        target: Option<String>,
        /// What to wait for.
        until: WaitFor,
        /// Only a screen newer than this revision counts.
        after: u64,
        /// Give up after this long.
        timeout: std::time::Duration,
    },
}

/// What `wait` waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WaitFor {
    /// The screen contains this text.
    Text(String),
    /// The screen matches this regular expression.
    Regex(String),
    /// Nothing printed for this long.
    Idle(std::time::Duration),
    /// The program exited.
    Exit,
}

/// Which window `select-window` means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WindowChoice {
    /// A target (`:N`, `@N`, a name).
    Target(String),
    /// The next window.
    Next,
    /// The previous window.
    Previous,
    /// The window used before this one.
    Last,
}

/// Splits a command line into words: whitespace separates, quotes group, `\` escapes.
pub fn tokenize(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"') | None, '\\') => {
                let next = chars.next().ok_or("trailing backslash")?;
                word.push(next);
                in_word = true;
            }
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err("unterminated quote".into());
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// Parses a command line (as typed at the prompt or in a binding).
pub fn parse_line(line: &str) -> Result<Command, String> {
    parse(&tokenize(line)?)
}

/// Options and positional words of one command.
struct Args<'a> {
    name: &'a str,
    flags: Vec<char>,
    values: Vec<(char, String)>,
    positional: Vec<String>,
}

impl Args<'_> {
    fn has(&self, f: char) -> bool {
        self.flags.contains(&f)
    }

    fn value(&self, f: char) -> Option<String> {
        self.values
            .iter()
            .find(|(k, _)| *k == f)
            .map(|(_, v)| v.clone())
    }

    fn target(&self) -> Option<String> {
        self.value('t')
    }

    fn no_positional(&self) -> Result<(), String> {
        match self.positional.first() {
            Some(extra) => Err(format!("{}: unexpected argument {extra:?}", self.name)),
            None => Ok(()),
        }
    }
}

/// Splits `args` into flags, flag values and positional words. `with_value` lists the flags
/// that take a value. Everything after `--` is positional.
fn split_args<'a>(
    name: &'a str,
    rest: &[String],
    with_value: &str,
    bool_flags: &str,
) -> Result<Args<'a>, String> {
    let mut args = Args {
        name,
        flags: Vec::new(),
        values: Vec::new(),
        positional: Vec::new(),
    };
    let mut i = 0;
    while i < rest.len() {
        let a = &rest[i];
        if a == "--" {
            args.positional.extend(rest[i + 1..].iter().cloned());
            break;
        }
        if a == "--json" {
            args.flags.push('J');
        } else if a.len() > 1
            && a.starts_with('-')
            && !a[1..].starts_with(|c: char| c.is_ascii_digit())
        {
            let mut chars = a[1..].chars();
            while let Some(f) = chars.next() {
                if with_value.contains(f) {
                    let inline: String = chars.by_ref().collect();
                    let v = if !inline.is_empty() {
                        inline
                    } else {
                        i += 1;
                        rest.get(i)
                            .cloned()
                            .ok_or(format!("{name}: -{f} needs a value"))?
                    };
                    args.values.push((f, v));
                    break;
                } else if bool_flags.contains(f) {
                    args.flags.push(f);
                } else {
                    return Err(format!("{name}: unknown flag -{f}"));
                }
            }
        } else {
            args.positional.push(a.clone());
        }
        i += 1;
    }
    Ok(args)
}

fn side_flag(args: &Args) -> Option<Side> {
    if args.has('L') {
        Some(Side::Left)
    } else if args.has('R') {
        Some(Side::Right)
    } else if args.has('U') {
        Some(Side::Up)
    } else if args.has('D') {
        Some(Side::Down)
    } else {
        None
    }
}

/// Parses a command from words.
pub fn parse(words: &[String]) -> Result<Command, String> {
    let (name, rest) = words.split_first().ok_or("empty command")?;
    let name = name.as_str();
    let cmd = match name {
        "split-window" | "splitw" => {
            let a = split_args(name, rest, "pt", "hvd")?;
            let percent = match a.value('p') {
                Some(p) => p
                    .trim_end_matches('%')
                    .parse::<u16>()
                    .ok()
                    .filter(|p| (1..100).contains(p))
                    .ok_or(format!("split-window: bad percentage {p:?}"))?,
                None => 50,
            };
            Command::SplitWindow {
                dir: if a.has('h') {
                    Dir::Horizontal
                } else {
                    Dir::Vertical
                },
                percent,
                detached: a.has('d'),
                target: a.target(),
                command: a.positional,
            }
        }
        "new-window" | "neww" => {
            let a = split_args(name, rest, "nt", "d")?;
            Command::NewWindow {
                name: a.value('n'),
                detached: a.has('d'),
                target: a.target(),
                command: a.positional,
            }
        }
        "select-pane" | "selectp" => {
            let a = split_args(name, rest, "t", "LRUD")?;
            a.no_positional()?;
            Command::SelectPane {
                target: a.target(),
                side: side_flag(&a),
            }
        }
        "select-window" | "selectw" => {
            let a = split_args(name, rest, "t", "nplP")?;
            a.no_positional()?;
            let which = if a.has('n') {
                WindowChoice::Next
            } else if a.has('p') {
                WindowChoice::Previous
            } else if a.has('l') {
                WindowChoice::Last
            } else {
                WindowChoice::Target(a.target().ok_or("select-window: -t TARGET needed")?)
            };
            Command::SelectWindow { which }
        }
        "next-window" | "next" => Command::SelectWindow {
            which: WindowChoice::Next,
        },
        "previous-window" | "prev" => Command::SelectWindow {
            which: WindowChoice::Previous,
        },
        "last-window" | "last" => Command::SelectWindow {
            which: WindowChoice::Last,
        },
        "resize-pane" | "resizep" => {
            let a = split_args(name, rest, "t", "LRUDZ")?;
            let cells = match a.positional.first() {
                Some(n) => n
                    .parse::<u16>()
                    .map_err(|_| format!("resize-pane: bad adjustment {n:?}"))?,
                None => 1,
            };
            let side = side_flag(&a);
            if side.is_none() && !a.has('Z') {
                return Err("resize-pane: one of -L -R -U -D -Z needed".into());
            }
            Command::ResizePane {
                target: a.target(),
                side,
                cells,
                zoom: a.has('Z'),
            }
        }
        "kill-pane" | "killp" => {
            let a = split_args(name, rest, "t", "")?;
            a.no_positional()?;
            Command::KillPane { target: a.target() }
        }
        "kill-window" | "killw" => {
            let a = split_args(name, rest, "t", "")?;
            a.no_positional()?;
            Command::KillWindow { target: a.target() }
        }
        "select-layout" | "selectl" => {
            let a = split_args(name, rest, "t", "")?;
            let layout = a
                .positional
                .first()
                .ok_or("select-layout: layout name needed")?;
            let preset = Preset::from_name(layout).ok_or(format!(
                "select-layout: unknown layout {layout:?} (even-horizontal, even-vertical, \
                 main-horizontal, main-vertical, tiled)"
            ))?;
            Command::SelectLayout {
                target: a.target(),
                preset: Some(preset),
            }
        }
        "next-layout" | "nextl" => Command::SelectLayout {
            target: None,
            preset: None,
        },
        "rename-window" | "renamew" => {
            let a = split_args(name, rest, "t", "")?;
            let name = a.positional.join(" ");
            if name.is_empty() {
                return Err("rename-window: a name is needed".into());
            }
            Command::RenameWindow {
                target: a.target(),
                name,
            }
        }
        "swap-pane" | "swapp" => {
            let a = split_args(name, rest, "t", "UD")?;
            a.no_positional()?;
            Command::SwapPane {
                target: a.target(),
                up: a.has('U'),
            }
        }
        "break-pane" | "breakp" => {
            let a = split_args(name, rest, "t", "d")?;
            a.no_positional()?;
            Command::BreakPane {
                target: a.target(),
                detached: a.has('d'),
            }
        }
        "list-panes" | "lsp" => {
            let a = split_args(name, rest, "t", "aJ")?;
            Command::ListPanes {
                target: a.target(),
                json: a.has('J'),
            }
        }
        "list-windows" | "lsw" => {
            let a = split_args(name, rest, "t", "aJ")?;
            Command::ListWindows {
                target: a.target(),
                json: a.has('J'),
            }
        }
        "set-option" | "set" | "set-window-option" | "setw" => {
            let a = split_args(name, rest, "t", "gwu")?;
            let window = a.has('w') || name.starts_with("setw") || name.starts_with("set-window");
            let (opt, value) = match a.positional.as_slice() {
                [opt, value] => (opt.clone(), value.clone()),
                [opt] => (opt.clone(), String::new()),
                _ => return Err(format!("{name}: NAME [VALUE] needed")),
            };
            Command::SetOption {
                window,
                name: opt,
                value,
                target: a.target(),
            }
        }
        "detach-client" | "detach" => Command::Detach,
        "refresh-client" | "refresh" => Command::Refresh,
        "send-prefix" => Command::SendPrefix,
        "command-prompt" => Command::CommandPrompt,
        "confirm-before" | "confirm" => {
            let a = split_args(name, rest, "p", "")?;
            let command = parse(&a.positional)?;
            let prompt = a
                .value('p')
                .unwrap_or_else(|| format!("{}? (y/n)", a.positional.join(" ")));
            Command::ConfirmBefore {
                prompt,
                command: Box::new(command),
            }
        }
        "list-keys" | "lsk" => Command::ListKeys,
        "source-file" | "source" => Command::SourceFile {
            path: rest.first().cloned(),
        },
        "show-options" | "show" => Command::ShowOptions,
        "send-keys" | "send" => {
            let a = split_args(name, rest, "t", "lH")?;
            if a.positional.is_empty() {
                return Err("send-keys: keys needed".into());
            }
            Command::SendKeys {
                target: a.target(),
                keys: a.positional.clone(),
                literal: a.has('l'),
                hex: a.has('H'),
            }
        }
        "capture" | "capture-pane" | "capturep" => {
            let mut target = None;
            let (mut ansi, mut json, mut join_wrapped) = (false, false, false);
            let mut scrollback = 0;
            let mut i = 0;
            while i < rest.len() {
                match rest[i].as_str() {
                    "-t" => {
                        i += 1;
                        target = Some(rest.get(i).ok_or("capture: -t needs a value")?.clone());
                    }
                    "--ansi" | "-e" => ansi = true,
                    "--json" => json = true,
                    "--join-wrapped" | "-J" => join_wrapped = true,
                    "-p" => {}
                    "--scrollback" | "-S" => {
                        i += 1;
                        let n = rest.get(i).ok_or("capture: --scrollback needs a number")?;
                        scrollback = n
                            .trim_start_matches('-')
                            .parse()
                            .map_err(|_| format!("capture: bad line count {n:?}"))?;
                    }
                    other => return Err(format!("capture: unknown argument {other:?}")),
                }
                i += 1;
            }
            Command::Capture {
                target,
                ansi,
                json,
                scrollback,
                join_wrapped,
            }
        }
        "wait" => {
            let mut target = None;
            let mut until = None;
            let mut after = 0;
            let mut timeout = std::time::Duration::from_secs(10);
            let mut i = 0;
            let value = |i: &mut usize, flag: &str| -> Result<String, String> {
                *i += 1;
                rest.get(*i)
                    .cloned()
                    .ok_or(format!("wait: {flag} needs a value"))
            };
            while i < rest.len() {
                let flag = rest[i].clone();
                match flag.as_str() {
                    "-t" => target = Some(value(&mut i, "-t")?),
                    "--text" => until = Some(WaitFor::Text(value(&mut i, "--text")?)),
                    "--regex" => until = Some(WaitFor::Regex(value(&mut i, "--regex")?)),
                    "--idle" => {
                        let v = value(&mut i, "--idle")?;
                        let ms: u64 = v
                            .parse()
                            .map_err(|_| format!("wait: bad --idle {v:?} (milliseconds)"))?;
                        until = Some(WaitFor::Idle(std::time::Duration::from_millis(ms)));
                    }
                    "--exit" => until = Some(WaitFor::Exit),
                    "--after" => {
                        let v = value(&mut i, "--after")?;
                        after = v.parse().map_err(|_| format!("wait: bad revision {v:?}"))?;
                    }
                    "--timeout" => {
                        let v = value(&mut i, "--timeout")?;
                        let secs: f64 = v
                            .parse()
                            .ok()
                            .filter(|s: &f64| s.is_finite() && *s >= 0.0)
                            .ok_or(format!("wait: bad --timeout {v:?} (seconds)"))?;
                        timeout = std::time::Duration::from_secs_f64(secs.min(86_400.0));
                    }
                    other => return Err(format!("wait: unknown argument {other:?}")),
                }
                i += 1;
            }
            Command::Wait {
                target,
                until: until.ok_or("wait: one of --text --regex --idle --exit needed")?,
                after,
                timeout,
            }
        }
        other => return Err(format!("unknown command: {other}")),
    };
    Ok(cmd)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenizes_quotes_and_escapes() {
        assert_eq!(
            tokenize(r#"a "b c" 'd e' f\ g"#).unwrap(),
            vec!["a", "b c", "d e", "f g"]
        );
        assert!(tokenize("\"open").is_err());
    }

    #[test]
    fn parses_common_commands() {
        assert_eq!(
            parse_line("split-window -h -p 30 -t main").unwrap(),
            Command::SplitWindow {
                dir: Dir::Horizontal,
                percent: 30,
                detached: false,
                target: Some("main".into()),
                command: vec![]
            }
        );
        assert_eq!(
            parse_line("resize-pane -L 5").unwrap(),
            Command::ResizePane {
                target: None,
                side: Some(Side::Left),
                cells: 5,
                zoom: false
            }
        );
        assert!(matches!(
            parse_line("confirm-before -p \"kill?\" kill-pane").unwrap(),
            Command::ConfirmBefore { .. }
        ));
        assert_eq!(
            parse(&[
                "splitw".into(),
                "-v".into(),
                "--".into(),
                "top".into(),
                "-d".into()
            ])
            .unwrap(),
            Command::SplitWindow {
                dir: Dir::Vertical,
                percent: 50,
                detached: false,
                target: None,
                command: vec!["top".into(), "-d".into()]
            }
        );
    }

    #[test]
    fn errors_are_clear() {
        assert!(parse_line("bogus").unwrap_err().contains("unknown command"));
        assert!(parse_line("select-layout sideways")
            .unwrap_err()
            .contains("unknown layout"));
        assert!(parse_line("split-window -p 150")
            .unwrap_err()
            .contains("bad percentage"));
        assert!(parse_line("resize-pane").unwrap_err().contains("needed"));
        assert!(parse_line("kill-pane -x")
            .unwrap_err()
            .contains("unknown flag"));
    }
}
