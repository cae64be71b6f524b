//! weft's commands, each defined once: name, aliases, flags, usage, what its target names, and
//! what it does. The CLI (`weft split-window ...`), the `:` prompt, key bindings and the
//! configuration file all parse and run commands through this table (tmux's `cmd-*.c` are the
//! model). Adding a command is a new entry in one of the family modules and a line in
//! [`ENTRIES`].
//!
//! A parsed command is an [`Action`] for where it runs: in the session task that owns the
//! windows ([`Action::Session`]), on a pane from the connection's task ([`Action::Pane`]), with
//! the whole server ([`Action::Server`]), or in the client that typed it ([`Action::Client`]).
//! [`run::execute`] finds the session or pane the target names and runs it there.

mod args;
mod bind;
mod buffer_files;
pub mod buffers;
mod capture_pane;
mod client;
pub mod config_lines;
mod config_shell;
pub mod copy;
mod display;
mod environment;
mod hooks;
mod io;
mod join;
mod layout;
mod listing;
pub mod menu;
mod messages;
mod options;
mod pane;
mod pipe;
pub mod popup;
mod record;
mod respawn;
pub mod run;
mod run_pane;
mod server;
pub mod session;
pub mod shell;
mod subscribe;
mod wait;
mod wait_for;
mod window;

pub use args::{tokenize, Args, Long};
pub use client::{fill_template, ClientRequest, OneKey};

use crate::context::ServerContext;
use crate::outcome::{CommandError, Output, TargetKind};
use crate::pane::PaneHandle;
use crate::session::SessionAction;
pub use capture_pane::NOBODY_READS;
use futures::future::BoxFuture;

/// A command's definition: everything about it, in one place.
#[derive(Debug)]
pub struct Entry {
    /// Its tmux name, e.g. `split-window`.
    pub name: &'static str,
    /// Other names, e.g. `splitw`.
    pub aliases: &'static [&'static str],
    /// Flags and arguments as shown in help and errors.
    pub usage: &'static str,
    /// One line saying what it does.
    pub about: &'static str,
    /// Single-letter flags, getopt style: `"dhvp:t:"` (a `:` follows a flag that takes a value).
    pub flags: &'static str,
    /// Long flags.
    pub long: &'static [Long],
    /// What `-t` names, if the command takes one.
    pub target: Option<TargetKind>,
    /// A read-only client (`attach -r`) may run it: it changes nothing (tmux's
    /// `CMD_READONLY`).
    pub read_only: bool,
    /// Reads the flags and arguments into what the command does.
    pub build: fn(&Args) -> Result<Action, CommandError>,
}

/// A command's work on a pane, run in the connection's task (with the server, for the paste
/// buffers).
pub type PaneAction = Box<
    dyn FnOnce(PaneHandle, ServerContext) -> BoxFuture<'static, Result<Output, CommandError>>
        + Send
        + Sync,
>;
/// A command's work on the server as a whole.
pub type ServerAction = Box<
    dyn FnOnce(ServerContext) -> BoxFuture<'static, Result<Output, CommandError>> + Send + Sync,
>;

/// What a parsed command does, by where it runs.
pub enum Action {
    /// In the task of the session the target names.
    Session(SessionAction),
    /// On the pane the target names.
    Pane(PaneAction),
    /// With the whole server.
    Server(ServerAction),
    /// In the client that typed it (from the command line, only `detach-client` and
    /// `refresh-client` mean something: they act on the target session's clients).
    Client(ClientRequest),
}

impl std::fmt::Debug for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Action::Session(_) => f.write_str("Session(..)"),
            Action::Pane(_) => f.write_str("Pane(..)"),
            Action::Server(_) => f.write_str("Server(..)"),
            Action::Client(request) => write!(f, "Client({request:?})"),
        }
    }
}

/// A command ready to run: its entry, its target, and its work.
#[derive(Debug)]
pub struct Parsed {
    /// Its definition.
    pub entry: &'static Entry,
    /// `-t`, as written.
    pub target: Option<String>,
    /// What it does.
    pub action: Action,
}

/// Every command weft has.
pub static ENTRIES: &[&Entry] = &[
    &window::NEW_WINDOW,
    &window::SELECT_WINDOW,
    &window::NEXT_WINDOW,
    &window::PREVIOUS_WINDOW,
    &window::LAST_WINDOW,
    &window::KILL_WINDOW,
    &window::RENAME_WINDOW,
    &window::RESIZE_WINDOW,
    &window::LIST_WINDOWS,
    &window::MOVE_WINDOW,
    &window::SWAP_WINDOW,
    &session::FIND_WINDOW,
    &pane::SPLIT_WINDOW,
    &pane::SELECT_PANE,
    &pane::LAST_PANE,
    &respawn::RESPAWN_PANE,
    &respawn::RESPAWN_WINDOW,
    &pane::RESIZE_PANE,
    &pane::KILL_PANE,
    &pane::SWAP_PANE,
    &pane::BREAK_PANE,
    &join::JOIN_PANE,
    &join::MOVE_PANE,
    &pane::LIST_PANES,
    &layout::SELECT_LAYOUT,
    &layout::NEXT_LAYOUT,
    &io::SEND_KEYS,
    &pipe::PIPE_PANE,
    &record::RECORD_PANE,
    &bind::BIND_KEY,
    &bind::UNBIND_KEY,
    &display::DISPLAY_MESSAGE,
    &shell::RUN_SHELL,
    &run_pane::RUN_PANE,
    &shell::IF_SHELL,
    &hooks::SET_HOOK,
    &hooks::SHOW_HOOKS,
    &wait_for::WAIT_FOR,
    &environment::SET_ENVIRONMENT,
    &environment::SHOW_ENVIRONMENT,
    &options::CONVERT_CONFIG,
    &copy::COPY_MODE,
    &capture_pane::CAPTURE_PANE,
    &pane::CLEAR_HISTORY,
    &wait::WAIT,
    &subscribe::SUBSCRIBE,
    &options::SET_OPTION,
    &options::SHOW_OPTIONS,
    &options::SOURCE_FILE,
    &options::LIST_KEYS,
    &client::DETACH_CLIENT,
    &client::REFRESH_CLIENT,
    &client::SEND_PREFIX,
    &client::COMMAND_PROMPT,
    &client::CONFIRM_BEFORE,
    &client::DISPLAY_PANES,
    &client::CHOOSE_CLIENT,
    &client::CLOCK_MODE,
    &popup::DISPLAY_POPUP,
    &menu::DISPLAY_MENU,
    &client::SUSPEND_CLIENT,
    &client::LOCK_CLIENT,
    &server::LOCK_SESSION,
    &server::LOCK_SERVER,
    &buffers::LIST_BUFFERS,
    &buffers::SHOW_BUFFER,
    &buffers::SET_BUFFER,
    &buffer_files::LOAD_BUFFER,
    &buffer_files::SAVE_BUFFER,
    &buffers::DELETE_BUFFER,
    &buffers::PASTE_BUFFER,
    &buffers::CHOOSE_BUFFER,
    &session::SWITCH_CLIENT,
    &session::RENAME_SESSION,
    &session::NEW_SESSION,
    &session::LIST_CLIENTS,
    &session::CHOOSE_TREE,
    &server::LIST_SESSIONS,
    &server::KILL_SESSION,
    &server::HAS_SESSION,
    &pane::ROTATE_WINDOW,
    &layout::PREVIOUS_LAYOUT,
    &server::KILL_SERVER,
    &server::LIST_COMMANDS,
    &messages::SHOW_MESSAGES,
    &messages::SHOW_PROMPT_HISTORY,
    &messages::CLEAR_PROMPT_HISTORY,
    &messages::START_SERVER,
];

/// The command with this name or alias, or, as tmux takes them, whose name alone begins with
/// it (`show-option`, `new-w`).
pub fn lookup(name: &str) -> Option<&'static Entry> {
    let exact = ENTRIES
        .iter()
        .copied()
        .find(|e| e.name == name || e.aliases.contains(&name));
    if exact.is_some() || name.is_empty() {
        return exact;
    }
    let starting: Vec<&'static Entry> = commands_starting_with(name).collect();
    match starting.as_slice() {
        [only] => Some(only),
        // A beginning unique among tmux's commands is tmux's (`su` is suspend-client, `wa`
        // wait-for), as scripts written for tmux mean it.
        several => {
            let mut tmux = several.iter().filter(|e| !WEFT_ONLY.contains(&e.name));
            let first = tmux.next()?;
            tmux.next().is_none().then_some(*first)
        }
    }
}

/// The commands tmux does not have: an abbreviation tmux would read as one of its own is not
/// made ambiguous by them.
const WEFT_ONLY: &[&str] = &[
    "convert-config",
    "record-pane",
    "run-pane",
    "subscribe",
    "wait",
];

/// The commands whose names begin with `start`.
fn commands_starting_with(start: &str) -> impl Iterator<Item = &'static Entry> + '_ {
    ENTRIES
        .iter()
        .copied()
        .filter(move |e| e.name.starts_with(start))
}

/// How deep commands may hold commands that are parsed with them (an if-shell's branches, a
/// binding's command, an alias's words): a `command-alias` naming an if-shell that names the
/// alias again would otherwise recurse until the server's stack ran out.
const MAX_PARSE_DEPTH: usize = 32;

thread_local! {
    /// How deep [`parse`] is on this thread now.
    static PARSE_DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// One level of [`parse`]: counted while it lives.
struct ParseLevel;

impl ParseLevel {
    fn enter() -> Result<ParseLevel, CommandError> {
        let depth = PARSE_DEPTH.with(|d| {
            d.set(d.get() + 1);
            d.get()
        });
        let level = ParseLevel;
        if depth > MAX_PARSE_DEPTH {
            return Err(CommandError::Invalid(
                "commands nest too deeply: does a command-alias name a command that uses it?"
                    .into(),
            ));
        }
        Ok(level)
    }
}

impl Drop for ParseLevel {
    fn drop(&mut self) {
        PARSE_DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    }
}

/// Parses a command from words: its name, then its flags and arguments.
pub fn parse(words: &[String]) -> Result<Parsed, CommandError> {
    let _level = ParseLevel::enter()?;
    let (name, rest) = words
        .split_first()
        .ok_or_else(|| CommandError::Syntax("empty command".into()))?;
    // A `command-alias` (tmux's `split-pane`, a user's own) stands for its command's words,
    // before the commands' own names, as in tmux; once, so an alias naming itself ends.
    if let Some(command) = crate::option_arrays::alias(name) {
        let mut expanded = tokenize(&command)?;
        expanded.extend_from_slice(rest);
        return parse_unaliased(&expanded);
    }
    parse_unaliased(words)
}

/// Why no command is called `name`: none is, or several begin with it (as tmux says it).
fn unknown_command(name: &str) -> CommandError {
    let could_be: Vec<&str> = commands_starting_with(name).map(|e| e.name).collect();
    if could_be.len() > 1 && !name.is_empty() {
        return CommandError::AmbiguousCommand {
            name: name.to_string(),
            could_be: could_be.join(", "),
        };
    }
    CommandError::UnknownCommand(name.to_string())
}

/// Whether `wait`'s words are tmux's `wait` (its alias of `wait-for`: `wait -S done`, `wait
/// done`) rather than weft's (`-t PANE` and `--` conditions only).
fn shaped_like_wait_for(words: &[String]) -> bool {
    let mut rest = words.iter();
    let mut any = false;
    while let Some(word) = rest.next() {
        if word == "-t" {
            rest.next();
        } else if word.starts_with("--") || word.starts_with("-t") {
            return false;
        } else {
            any = true;
        }
    }
    any
}

/// [`parse`] without aliases.
fn parse_unaliased(words: &[String]) -> Result<Parsed, CommandError> {
    let (name, rest) = words
        .split_first()
        .ok_or_else(|| CommandError::Syntax("empty command".into()))?;
    let mut entry = lookup(name).ok_or_else(|| unknown_command(name))?;
    if entry.name == "wait" && shaped_like_wait_for(rest) {
        entry = &wait_for::WAIT_FOR;
    }
    let args = Args::parse(entry, rest)?;
    let action = (entry.build)(&args)?;
    Ok(Parsed {
        entry,
        target: args.target(),
        action,
    })
}

/// Parses a command line as typed at the prompt, in a binding or in a configuration file.
pub fn parse_line(line: &str) -> Result<Parsed, CommandError> {
    parse(&tokenize(line)?)
}

/// Parses words holding one command or several separated by `;` (typed `\;`), in order.
pub fn parse_sequence(words: &[String]) -> Result<Vec<Parsed>, CommandError> {
    let parts: Vec<&[String]> = split_sequence(words)
        .into_iter()
        .filter(|part| !part.is_empty())
        .collect();
    if parts.is_empty() {
        return Err(CommandError::Syntax("empty command".into()));
    }
    parts.into_iter().map(parse).collect()
}

/// A command given to another command (`bind`, `confirm-before`): its words, or, when it
/// is one argument holding a whole line (`'kill-window -a'`), that line's words, as tmux
/// reads it.
pub(super) fn command_words(command: &[String]) -> Result<Vec<String>, CommandError> {
    match command {
        [line] if line.contains(char::is_whitespace) => tokenize(line),
        words => Ok(words.to_vec()),
    }
}

/// tmux's rule for a command's words: a word ending in `;` ends a command there, as in
/// `bind r source-file ~/.tmux.conf\; display Reloaded` (the `\;` written against the word);
/// one ending in `\;` (typed `\\;`) keeps a literal `;` instead.
pub fn separate_commands(words: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(words.len());
    for word in words {
        match word.strip_suffix(';') {
            // A literal `;` alone would read as a separator: `\;` is kept as written then.
            Some("\\") => out.push(word.clone()),
            Some(literal) if literal.ends_with('\\') => {
                out.push(format!("{};", &literal[..literal.len() - 1]));
            }
            Some(before) if !before.is_empty() => {
                out.push(before.to_string());
                out.push(";".to_string());
            }
            _ => out.push(word.clone()),
        }
    }
    out
}

/// Splits words at `;` words, except where a `;` is a flag's value (`paste-buffer -s ';'`).
fn split_sequence(words: &[String]) -> Vec<&[String]> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut i = 0;
    let mut entry = words.first().and_then(|w| lookup(w));
    let mut flags_done = false;
    while i < words.len() {
        let w = &words[i];
        if w == ";" {
            parts.push(&words[start..i]);
            start = i + 1;
            entry = words.get(start).and_then(|w| lookup(w));
            flags_done = false;
            i += 2;
            continue;
        }
        if i > start && !flags_done {
            if w == "--" || !w.starts_with('-') || w == "-" {
                // As getopt: `--` or the first argument ends the flags.
                flags_done = true;
            } else if let (Some(e), Some(last)) = (entry, w.chars().last()) {
                // A flag that takes a value with nothing after it inline: the next word is it.
                if w.len() > 1 && args::flag_kind(e.flags, last) == Some(true) {
                    i += 1;
                }
            }
        }
        i += 1;
    }
    parts.push(&words[start.min(words.len())..]);
    parts
}

/// Parses a command line that may hold several commands separated by `\;`, or by a word
/// ending in `;` as tmux reads it (`"select-pane -t =; copy-mode"`).
pub fn parse_line_sequence(line: &str) -> Result<Vec<Parsed>, CommandError> {
    parse_sequence(&separate_commands(&tokenize(line)?))
}

/// Words back into a line that [`tokenize`] splits into the same words (quoting where needed;
/// a `;` word stays a separator).
pub fn join_words(words: &[String]) -> String {
    words
        .iter()
        .map(|w| {
            if w == ";" {
                "\\;".to_string()
            } else if let Some(head) = w.strip_suffix(';') {
                // A word's own `;` at its end, escaped so it does not end the command.
                format!(
                    "\"{}\\\\;\"",
                    head.replace('\\', "\\\\").replace('"', "\\\"")
                )
            } else if w.is_empty()
                || w.starts_with(['{', '}'])
                || w.contains(|c: char| c.is_whitespace() || "\"'\\;#".contains(c))
            {
                format!("\"{}\"", w.replace('\\', "\\\\").replace('"', "\\\""))
            } else {
                w.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Checks a command line without running it: for key bindings as they are loaded.
pub fn check(line: &str) -> Result<(), String> {
    parse_line_sequence(line)
        .map(drop)
        .map_err(|e| e.to_string())
}

/// A command's help: its usage line and what it does.
pub fn help(entry: &Entry) -> String {
    let aliases = if entry.aliases.is_empty() {
        String::new()
    } else {
        format!(" (alias: {})", entry.aliases.join(", "))
    };
    format!(
        "{}{aliases}\n\nusage: weft {} {}\n",
        entry.about, entry.name, entry.usage
    )
}

/// One line per command: name, alias and usage, as `list-commands` prints them.
pub fn list() -> Vec<String> {
    let mut lines: Vec<String> = ENTRIES
        .iter()
        .map(|e| {
            let alias = e
                .aliases
                .first()
                .map(|a| format!(" ({a})"))
                .unwrap_or_default();
            format!("{}{alias} {}", e.name, e.usage)
        })
        .collect();
    lines.sort();
    lines
}

/// Reads an on/off value as tmux does (`on`, `off`, `1`, `0`, `yes`, `no`; empty toggles).
pub fn flag_value(
    current: bool,
    value: &str,
    name: &str,
    args: &Args,
) -> Result<bool, CommandError> {
    match value {
        "on" | "true" | "1" | "yes" => Ok(true),
        "off" | "false" | "0" | "no" => Ok(false),
        "" => Ok(!current),
        other => Err(args.usage(format!("{name} takes on or off, not {other:?}"))),
    }
}

/// A session action from a closure, boxed.
fn on_session(
    f: impl FnOnce(
            &mut crate::session::SessionState,
            &crate::session::Scope,
        ) -> Result<Output, CommandError>
        + Send
        + Sync
        + 'static,
) -> Action {
    Action::Session(Box::new(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_binding_is_a_valid_command() {
        let keys = crate::keys::KeyTables::default();
        for (key, line) in keys.prefix_table.iter().chain(&keys.root_table) {
            assert!(check(line).is_ok(), "{key}: {line}: {:?}", check(line));
        }
    }

    #[test]
    fn a_semicolon_against_a_word_ends_a_command_unless_escaped() {
        let words = |ws: &[&str]| ws.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        assert_eq!(
            separate_commands(&words(&["source-file", "~/.tmux.conf;", "display", "x"])),
            words(&["source-file", "~/.tmux.conf", ";", "display", "x"])
        );
        assert_eq!(
            separate_commands(&words(&["send-keys", "a\\;", ";", "b"])),
            words(&["send-keys", "a;", ";", "b"])
        );
        // A bare `\;` is kept: a `;` word alone would separate.
        assert_eq!(
            separate_commands(&words(&["send-keys", "\\;"])),
            words(&["send-keys", "\\;"])
        );
        // In a command line given to a command (if-shell's), as tmux reads it.
        let line = "select-pane -t =; copy-mode -e; send-keys -M";
        let names: Vec<&str> = parse_line_sequence(line)
            .unwrap()
            .iter()
            .map(|p| p.entry.name)
            .collect();
        assert_eq!(names, ["select-pane", "copy-mode", "send-keys"]);
        // A word's own `;` survives being joined into a line and read again.
        let joined = join_words(&words(&["send-keys", "-l", "a;"]));
        assert_eq!(
            separate_commands(&tokenize(&joined).unwrap()),
            words(&["send-keys", "-l", "a;"])
        );
    }

    #[test]
    fn names_and_aliases_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for entry in ENTRIES {
            for name in std::iter::once(&entry.name).chain(entry.aliases) {
                assert!(seen.insert(*name), "{name} is defined twice");
            }
        }
        let aliases = crate::config::Config::default().array_elements("command-alias");
        for (_, entry) in &aliases {
            let (alias, command) = entry.split_once('=').unwrap();
            assert!(seen.insert(alias), "{alias} is defined twice");
            let name = command.split(' ').next().unwrap();
            assert!(lookup(name).is_some(), "{alias}: no {name}");
        }
        let parsed = parse_line("choose-window").unwrap();
        assert_eq!(parsed.entry.name, "choose-tree");
    }

    #[test]
    fn parses_flags_values_and_the_command_after_dashes() {
        let parsed = parse_line("splitw -h -p30 -t main -- top -d").unwrap();
        assert_eq!(parsed.entry.name, "split-window");
        assert_eq!(parsed.target.as_deref(), Some("main"));
        assert!(matches!(parsed.action, Action::Session(_)));
        let parsed = parse_line("capture-pane --scrollback 5 --json -t %3").unwrap();
        assert_eq!(parsed.target.as_deref(), Some("%3"));
    }

    #[test]
    fn a_unique_beginning_of_a_name_finds_the_command_as_in_tmux() {
        let name = |n: &str| lookup(n).map(|e| e.name);
        assert_eq!(name("show-option"), Some("show-options"));
        assert_eq!(name("new-w"), Some("new-window"));
        assert_eq!(name("list-session"), Some("list-sessions"));
        // Exact names and aliases first: `ls` is list-sessions, not a beginning.
        assert_eq!(name("ls"), Some("list-sessions"));
        assert_eq!(name("show"), Some("show-options"));
        assert_eq!(name("s"), None);
        assert_eq!(name("su"), Some("suspend-client"));
        assert_eq!(name("wa"), Some("wait-for"));
        assert_eq!(name("sub"), Some("subscribe"));

        // tmux's `wait` is wait-for; weft's own `wait` takes conditions.
        let parsed = |w: &[&str]| parse(&w.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(
            parsed(&["wait", "-S", "done"]).unwrap().entry.name,
            "wait-for"
        );
        assert_eq!(parsed(&["wait", "done"]).unwrap().entry.name, "wait-for");
        let weft_wait = parsed(&["wait", "-t", "%1", "--text", "x"]).unwrap();
        assert_eq!(weft_wait.entry.name, "wait");
        assert_eq!(name(""), None);
        let words = ["res".to_string()];
        let said = parse(&words)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            said.starts_with("ambiguous command: res, could be: "),
            "{said}"
        );
        assert!(said.contains("resize-pane"), "{said}");
    }

    #[test]
    fn sequences_split_at_semicolons_but_not_flag_values() {
        let words = |l: &str| tokenize(l).unwrap();
        let names = |l: &str| -> Vec<&'static str> {
            parse_sequence(&words(l))
                .unwrap()
                .iter()
                .map(|p| p.entry.name)
                .collect()
        };
        assert_eq!(
            names("split-window \\; select-pane -L"),
            ["split-window", "select-pane"]
        );
        assert_eq!(names("pasteb -s ';' -t %1"), ["paste-buffer"]);
        assert_eq!(
            names("pasteb -s ';' \\; lsb"),
            ["paste-buffer", "list-buffers"]
        );
        let line = join_words(&words("bind x display \"a b\" \\; lsb"));
        assert_eq!(words(&line), words("bind x display \"a b\" \\; lsb"));
    }

    #[test]
    fn errors_are_sentences() {
        let message = |line: &str| parse_line(line).unwrap_err().to_string();
        assert_eq!(
            message("bogus"),
            "unknown command: bogus (list-commands shows them all)"
        );
        assert!(message("select-layout sideways").contains("unknown layout \"sideways\""));
        assert!(message("split-window -p 150").contains("-p takes a number from 1 to 100"));
        assert!(message("resize-pane").contains("one of -L -R -U -D -Z -x -y is needed"));
        assert!(message("kill-pane -x").starts_with("kill-pane: unknown flag -x; usage:"));
    }
}
