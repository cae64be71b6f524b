//! `weft new ... \; COMMAND ...`: tmux's habit of making a session and shaping it on one
//! command line (`tmux new -s dev \; split-window -h \; select-pane -L`). The words from the
//! first `;` on are taken off before the command line is parsed, and sent with the session's
//! request; the server runs them in the session once it is made.

use std::ffi::OsString;

/// The global flags that take a value, before the subcommand.
const VALUE_FLAGS: &[&str] = &["-L", "-S", "-f", "--trace"];

/// `args` without what follows `new`'s first `;`, and those words as commands (with `;`
/// words between them); everything unchanged unless the subcommand is `new` or
/// `new-session`.
pub fn split(args: Vec<OsString>) -> (Vec<OsString>, Vec<String>) {
    let Some(at) = subcommand_at(&args) else {
        return (args, Vec::new());
    };
    if !matches!(args[at].to_str(), Some("new" | "new-session")) {
        return (args, Vec::new());
    }
    let end = args[at + 1..]
        .iter()
        .position(|a| a.to_str().is_some_and(ends_a_command))
        .map(|i| at + 1 + i);
    let Some(end) = end else {
        return (args, Vec::new());
    };
    let mut head: Vec<OsString> = args[..end].to_vec();
    if let Some(before) = args[end].to_str().and_then(|w| w.strip_suffix(';')) {
        if !before.is_empty() {
            head.push(before.into());
        }
    }
    let rest: Vec<String> = args[end + 1..]
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    (head, weft_server::cmd::separate_commands(&rest))
}

/// Where the subcommand is: after the program and its global flags.
fn subcommand_at(args: &[OsString]) -> Option<usize> {
    let mut i = 1;
    while let Some(arg) = args.get(i).and_then(|a| a.to_str()) {
        if VALUE_FLAGS.contains(&arg) {
            i += 2;
        } else if arg.starts_with('-') {
            i += 1;
        } else {
            return Some(i);
        }
    }
    None
}

/// A word that ends a command, as tmux reads a command line: `;`, or a word ending in one
/// that is not `\;`.
fn ends_a_command(word: &str) -> bool {
    word.strip_suffix(';').is_some_and(|w| !w.ends_with('\\'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split_words(args: &[&str]) -> (Vec<String>, Vec<String>) {
        let (head, then) = split(args.iter().map(OsString::from).collect());
        let head = head
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        (head, then)
    }

    #[test]
    fn new_takes_the_commands_after_its_semicolon() {
        let (head, then) = split_words(&[
            "weft",
            "-S",
            "/s",
            "new",
            "-s",
            "dev",
            ";",
            "split-window",
            "-h;",
            "select-pane",
            "-L",
        ]);
        assert_eq!(head, ["weft", "-S", "/s", "new", "-s", "dev"]);
        assert_eq!(then, ["split-window", "-h", ";", "select-pane", "-L"]);
        // Written against the word before it.
        let (head, then) = split_words(&["weft", "new", "-s", "dev;", "split-window"]);
        assert_eq!(head, ["weft", "new", "-s", "dev"]);
        assert_eq!(then, ["split-window"]);
    }

    #[test]
    fn other_command_lines_are_left_alone() {
        let (head, then) = split_words(&["weft", "new", "-d", "--", "sh", "-c", "a; b"]);
        assert_eq!(head, ["weft", "new", "-d", "--", "sh", "-c", "a; b"]);
        assert!(then.is_empty());
        let (head, then) = split_words(&["weft", "display", "-p", "x;", "ls"]);
        assert_eq!(head.len(), 5);
        assert!(then.is_empty());
        let (_, then) = split_words(&["weft", "new", "-s", "kept\\;"]);
        assert!(then.is_empty());
    }
}
