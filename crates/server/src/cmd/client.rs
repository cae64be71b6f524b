//! Commands about the client that typed them: detach-client, refresh-client, send-prefix,
//! command-prompt, confirm-before. Each builds a [`ClientRequest`] that the client's loop
//! carries out; from the command line only detach-client and refresh-client mean something
//! (they act on a session's clients). A read-only client may use all of them: the commands a
//! prompt or a confirmation runs are checked when they run.

use super::{Action, Entry, Parsed};
use crate::outcome::TargetKind;

/// What a client-side command asks the client's loop to do.
#[derive(Debug)]
pub enum ClientRequest {
    /// `if-shell`: run `test`, then `then` if it succeeded, else `otherwise`, as this client.
    IfShell {
        /// The shell command (or, with `format`, a format's expansion) to test.
        test: String,
        /// `test` is a format, not a shell command (`-F`).
        format: bool,
        /// Run when the test holds.
        then: String,
        /// Run when it does not.
        otherwise: Option<String>,
        /// The command run is a format, expanded for the pane first (`run-shell -C`).
        expand: bool,
    },
    /// Detach: this client, the others (`-a`), or every client of a session (`-t`).
    Detach {
        /// Detach every other client of this client's session.
        others: bool,
        /// Detach every client of this session instead.
        session: Option<String>,
        /// What the clients do as they leave (`-P`, `-E`).
        how: crate::session::DetachHow,
    },
    /// Repaint: this client, or every client of a session (`-t`).
    Refresh {
        /// Every client of this session instead.
        session: Option<String>,
    },
    /// Send the prefix key (`prefix2` with `-2`) to the pane, as if typed.
    SendPrefix {
        /// `-2`: the second prefix.
        second: bool,
    },
    /// Ask for a line in the status line, then run it (or `template` with `%%` replaced by it).
    Prompt {
        /// Shown before the input.
        label: String,
        /// The input to start from (`#W` and `#S` stand for the window and session names).
        initial: String,
        /// The command to run, `%%` standing for the input; empty: the input is the command.
        template: String,
        /// Whether one key is the whole input, and how it is given.
        one_key: OneKey,
        /// The command runs as the input changes, not only on Enter (`-i`: a search as you
        /// type); Escape runs it once more with empty input, to undo.
        incremental: bool,
        /// Only digits may be typed (`-N`).
        numeric: bool,
        /// The template is a format of the current pane, expanded first (`-F`).
        format: bool,
        /// Whose history Up and Down go through (`-T`: command, search, target,
        /// window-target).
        kind: crate::prompt_history::PromptType,
    },
    /// Show the paste buffers to choose one from (`choose-buffer`): Enter pastes it, or runs
    /// the template with `%%` standing for its name.
    ChooseBuffer {
        /// The command to run for the buffer chosen, if not pasting.
        template: Option<String>,
    },
    /// Show the attached clients to choose one from (`choose-client`): Enter detaches it, or
    /// runs the template with `%%` standing for its name.
    ChooseClient {
        /// The command to run for the client chosen, if not detaching it.
        template: Option<String>,
    },
    /// Show each pane's index over it; a digit focuses that pane (`display-panes`).
    DisplayPanes {
        /// How long they show (`-d`), else `display-panes-time`; zero: until a key.
        duration: Option<std::time::Duration>,
        /// What a digit runs, `%%` standing for the pane's id; else `select-pane -t %%`.
        template: Option<String>,
        /// Keys choose a pane or close the numbers (not with `-N`).
        takes_keys: bool,
    },
    /// Show the clock over the active pane (`clock-mode`).
    ClockMode,
    /// `send-keys -M`: the mouse event a mouse key's binding runs for, handled as weft
    /// handles it without the binding.
    SendMouse,
    /// `copy-mode -M`: the pane under the mouse event a mouse key's binding runs for enters
    /// copy mode, and the drag selects in it.
    CopyModeMouse,
    /// Open or close this client's popup (`display-popup`).
    Popup(Box<crate::session::popup::PopupAction>),
    /// Show a menu to choose a command from (`display-menu`).
    Menu(Box<crate::session::menu::MenuRequest>),
    /// Give the terminal back and stop the client, as `C-z` does to a program
    /// (`suspend-client`); it attaches again once its shell continues it.
    Suspend,
    /// Lock the client (`lock-client`): it runs `lock-command` on its terminal and attaches
    /// again once that exits.
    Lock,
    /// Show the sessions, windows and panes as a tree to choose from (`choose-tree`).
    ChooseTree {
        /// Sessions start expanded, showing their windows (`-w`).
        windows: bool,
        /// No preview of the selected pane (`-N`).
        no_preview: bool,
    },
    /// Show the first window whose name, pane titles or screens hold the text (`find-window`).
    FindWindow {
        /// The text.
        text: String,
        /// Where to look, and how to match.
        how: crate::cmd::session::FindIn,
    },
    /// `switch-client -T`: the next key is looked up in this table.
    KeyTable {
        /// The table's name.
        table: String,
    },
    /// Show another session (`switch-client`).
    Switch {
        /// The client (`-c`), from the command line.
        client: Option<String>,
        /// Which session.
        to: super::session::SwitchTo,
    },
    /// Rename a session (`rename-session`): this client's, or the one named.
    RenameSession {
        /// The session, if not this client's.
        target: Option<String>,
        /// Its new name.
        name: String,
    },
    /// Create a session and show it (`new-session` from the prompt).
    NewSession {
        /// Its name.
        name: Option<String>,
        /// Create it but stay in this session.
        detached: bool,
        /// Show the session named instead if it exists (`-A`).
        existing: bool,
        /// The first pane's directory.
        cwd: Option<String>,
        /// The first pane's program (empty: the shell).
        command: Vec<String>,
        /// The first window's name (`-n`).
        window_name: Option<String>,
    },
    /// Ask y/n, then run the command on `y`.
    Confirm {
        /// The question.
        prompt: String,
        /// What runs on `y`.
        command: Box<Parsed>,
    },
}

/// `detach-client`.
pub static DETACH_CLIENT: Entry = Entry {
    name: "detach-client",
    aliases: &["detach"],
    usage: "[-aP] [-E shell-command] [-s target-session] [-t target-client]",
    about: "Detach this client, every other client (-a), one client (-t client-N, as \
            list-clients names them), or every client of a session (-s, or -t naming a \
            session; from the command line: the current session inside weft, else every \
            session). -P also hangs up the shell the client was started from (SIGHUP to its \
            parent); -E runs shell-command in the client's place.",
    flags: "aPE:s:t:",
    long: &[],
    read_only: true,
    target: Some(TargetKind::Session),
    build: |args| {
        args.no_arguments()?;
        Ok(Action::Client(ClientRequest::Detach {
            how: crate::session::DetachHow {
                hangup_parent: args.has('P'),
                exec: args.value('E').map(str::to_string),
            },
            others: args.has('a'),
            session: args
                .value('s')
                .map(str::to_string)
                .or_else(|| args.target()),
        }))
    },
};

/// `refresh-client`.
pub static REFRESH_CLIENT: Entry = Entry {
    name: "refresh-client",
    aliases: &["refresh"],
    usage: "[-S] [-t target-session]",
    about: "Repaint this client, or every client of a session (-S, the status line only in \
            tmux, repaints everything here).",
    flags: "St:",
    long: &[],
    read_only: true,
    target: Some(TargetKind::Session),
    build: |args| {
        args.no_arguments()?;
        Ok(Action::Client(ClientRequest::Refresh {
            session: args.target(),
        }))
    },
};

/// `send-prefix`.
pub static SEND_PREFIX: Entry = Entry {
    name: "send-prefix",
    aliases: &[],
    usage: "[-2]",
    about: "Send the prefix key (-2: prefix2) to the active pane.",
    flags: "2",
    long: &[],
    read_only: true,
    target: None,
    build: |args| {
        args.no_arguments()?;
        Ok(Action::Client(ClientRequest::SendPrefix {
            second: args.has('2'),
        }))
    },
};

/// Whether a prompt takes one key as its whole input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OneKey {
    /// No: a line, ended by Enter.
    No,
    /// The character the key types (`-1`: a jump's target character).
    Character,
    /// The key's name, whatever the key (`-k`: `C-b`, `Enter`, `F5`).
    Name,
}

/// `command-prompt`.
pub static COMMAND_PROMPT: Entry = Entry {
    name: "command-prompt",
    aliases: &[],
    usage: "[-1bFikN] [-I initial] [-p prompt] [-T prompt-type] [template]",
    about: "Read a command in the status line and run it; with a template, the input replaces \
            %% in it (-F: the template is a format of the current pane first). -1 takes one \
            key as the character it types, -k as its name (C-b, Enter); -N takes digits (any \
            other key ends the input); \
            -i runs the template as the input changes; -T says whose history Up goes through \
            (command, search, target, window-target). -b is taken for tmux's sake: the \
            prompt never holds up other commands.",
    flags: "1bFikNI:p:t:T:",
    long: &[],
    read_only: true,
    target: None,
    build: |args| {
        Ok(Action::Client(ClientRequest::Prompt {
            label: args.value('p').unwrap_or(":").to_string(),
            initial: args.value('I').unwrap_or_default().to_string(),
            template: args.positional.join(" "),
            one_key: if args.has('k') {
                OneKey::Name
            } else if args.has('1') {
                OneKey::Character
            } else {
                OneKey::No
            },
            incremental: args.has('i'),
            numeric: args.has('N'),
            format: args.has('F'),
            kind: prompt_type(args)?,
        }))
    },
};

/// The prompt type `-T` names (`command` without it).
pub(super) fn prompt_type(
    args: &super::Args,
) -> Result<crate::prompt_history::PromptType, crate::outcome::CommandError> {
    match args.value('T') {
        None => Ok(Default::default()),
        Some(word) => crate::prompt_history::PromptType::parse(word).ok_or_else(|| {
            args.usage(format!(
                "-T takes command, search, target or window-target, not {word:?}"
            ))
        }),
    }
}

/// `choose-client`.
pub static CHOOSE_CLIENT: Entry = Entry {
    name: "choose-client",
    aliases: &[],
    usage: "[-NZ] [-t target-pane] [template]",
    about: "Choose an attached client from a list over the window: Enter or d detaches it (or \
            Enter runs the template, %% standing for the client's name), q or Escape leaves.",
    flags: "NZt:",
    long: &[],
    read_only: false,
    target: None,
    build: |args| {
        let template = (!args.positional.is_empty()).then(|| args.positional.join(" "));
        Ok(Action::Client(ClientRequest::ChooseClient { template }))
    },
};

/// `display-panes`.
pub static DISPLAY_PANES: Entry = Entry {
    name: "display-panes",
    aliases: &["displayp"],
    usage: "[-bN] [-d duration] [template]",
    about: "Show each pane's index in big digits over it, for display-panes-time (-d: this \
            many ms; 0 until a key); typing a digit focuses that pane (or runs the template, \
            %% standing for its id), any other key leaves. -N: keys are not taken: the first one \
            closes the numbers and goes where it always goes.",
    flags: "bNd:t:",
    long: &[],
    read_only: true,
    target: None,
    build: |args| {
        let duration = args
            .number('d', 0u64..=86_400_000)?
            .map(std::time::Duration::from_millis);
        let template = (!args.positional.is_empty()).then(|| args.positional.join(" "));
        Ok(Action::Client(ClientRequest::DisplayPanes {
            duration,
            template,
            takes_keys: !args.has('N'),
        }))
    },
};

/// `clock-mode`.
pub static CLOCK_MODE: Entry = Entry {
    name: "clock-mode",
    aliases: &[],
    usage: "[-t target-pane]",
    about: "Show the time in big digits over the active pane (in clock-mode-colour) until a \
            key is pressed.",
    flags: "t:",
    long: &[],
    read_only: true,
    target: None,
    build: |args| {
        args.no_arguments()?;
        Ok(Action::Client(ClientRequest::ClockMode))
    },
};

/// `suspend-client`.
pub static SUSPEND_CLIENT: Entry = Entry {
    name: "suspend-client",
    aliases: &["suspendc"],
    usage: "[-t target-client]",
    about: "Give the terminal back to the shell the client was started from and stop the \
            client, as C-z does (prefix C-z); `fg` continues it, attached to the same session.",
    flags: "t:",
    long: &[],
    read_only: true,
    target: None,
    build: |args| {
        args.no_arguments()?;
        Ok(Action::Client(ClientRequest::Suspend))
    },
};

/// `lock-client`.
pub static LOCK_CLIENT: Entry = Entry {
    name: "lock-client",
    aliases: &["lockc"],
    usage: "[-t target-client]",
    about: "Lock this client: it runs lock-command (`lock -np`: your system's screen lock) on \
            its terminal and shows the session again once that exits.",
    flags: "t:",
    long: &[],
    read_only: true,
    target: None,
    build: |args| {
        args.no_arguments()?;
        Ok(Action::Client(ClientRequest::Lock))
    },
};

/// `confirm-before`.
pub static CONFIRM_BEFORE: Entry = Entry {
    name: "confirm-before",
    aliases: &["confirm"],
    usage: "[-b] [-p prompt] [-t target-client] command",
    about: "Ask y/n in the status line, then run the command on y. -b is taken for tmux's \
            sake: the question never holds up other commands.",
    flags: "bp:t:",
    long: &[],
    read_only: true,
    target: None,
    build: |args| {
        if args.positional.is_empty() {
            return Err(args.usage("a command is needed"));
        }
        let command = super::parse(&super::command_words(&args.positional)?)?;
        let prompt = args
            .value('p')
            .map(str::to_string)
            .unwrap_or_else(|| format!("{}? (y/n)", args.positional.join(" ")));
        Ok(Action::Client(ClientRequest::Confirm {
            prompt,
            command: Box::new(command),
        }))
    },
};

/// The command line a prompt's input makes: the input itself, or the template with `%%`
/// replaced by the input (quoted so that it stays one word inside double quotes; tmux's
/// `%%%`, its quoted form, is the same).
pub fn fill_template(template: &str, input: &str) -> String {
    if template.is_empty() {
        return input.to_string();
    }
    let mut escaped = input.replace('\\', "\\\\").replace('"', "\\\"");
    if escaped.ends_with(';') {
        // A word's own `;` at its end, kept from ending the command (see
        // `separate_commands`).
        escaped.insert_str(escaped.len() - 1, "\\\\");
    }
    template.replace("%%%", "%%").replace("%%", &escaped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_takes_the_input_as_one_word() {
        let line = fill_template("rename-window -- \"%%\"", "my \"big\" one");
        assert_eq!(
            super::super::tokenize(&line).unwrap(),
            ["rename-window", "--", "my \"big\" one"]
        );
        assert_eq!(fill_template("", "kill-pane"), "kill-pane");
        assert_eq!(fill_template(r#"lsk "%%%""#, "\""), r#"lsk "\"""#);
        // A `;` typed is the input's, not a command separator.
        let words =
            |line: &str| crate::cmd::separate_commands(&super::super::tokenize(line).unwrap());
        assert_eq!(
            words(&fill_template(r#"set-buffer -- "%%""#, "echo hi;")),
            ["set-buffer", "--", "echo hi;"]
        );
        let key = words(&fill_template(r#"list-keys -1N "%%""#, ";"));
        assert_eq!(key.len(), 3, "{key:?}");
        assert_eq!(crate::keys::normalize(&key[2]).as_deref(), Ok(";"));
    }
}
