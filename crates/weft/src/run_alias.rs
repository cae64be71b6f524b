//! `weft run`: which command the command line's `run` is.
//!
//! In tmux, `run` is the alias of `run-shell`, and configuration files, the `:` prompt and
//! key bindings use `run '...'` a lot: there it stays `run-shell`. On the command line, `weft
//! run` is `run-pane` (run a program in a new pane) when its words hold `--`, `--wait-exit`,
//! `--size` or `--remain` (`weft run --wait-exit -- make test`); otherwise it is `run-shell` as in tmux
//! (`weft run 'echo hi'`, `weft run -b 'cmd'`). Relative paths in the command are the
//! caller's: `run-pane` is given the caller's directory (`-c`) unless one was named.

/// The table command's words for the words typed after `weft`: `run` mapped to `run-pane`
/// when it means that, and `run-pane` given the current directory.
pub fn table_words(mut words: Vec<String>) -> Vec<String> {
    if words.first().map(String::as_str) == Some("run") && means_run_pane(&words[1..]) {
        words[0] = "run-pane".into();
    }
    if words.first().map(String::as_str) == Some("run-pane") {
        let flags_end = words.iter().position(|w| w == "--").unwrap_or(words.len());
        let has_dir = words[1..flags_end]
            .iter()
            .any(|w| w.starts_with("-c") && !w.starts_with("--"));
        if let (false, Ok(dir)) = (has_dir, std::env::current_dir()) {
            words.insert(1, "-c".into());
            words.insert(2, dir.display().to_string());
        }
    }
    words
}

/// Whether `weft run`'s arguments are `run-pane`'s: they hold `--`, `--wait-exit`, `--size`
/// or `--remain`; or `--help`, since on the command line `weft run` is mostly that (its help
/// says what `run` is without them).
fn means_run_pane(args: &[String]) -> bool {
    args.iter().any(|w| {
        matches!(
            w.as_str(),
            "--" | "--wait-exit" | "--size" | "--remain" | "--help"
        ) || w.starts_with("--size=")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn run_with_dashes_or_its_flags_is_run_pane() {
        for line in [
            "run -- true",
            "run --wait-exit -- make",
            "run -t main -- top",
            "run --size 80x24 -- top",
        ] {
            let mapped = table_words(words(line));
            assert_eq!(mapped[0], "run-pane", "{line}");
            assert_eq!(mapped[1], "-c", "{line}: the caller's directory is passed");
        }
    }

    #[test]
    fn run_without_them_stays_run_shell() {
        for line in [
            "run echo",
            "run -b sleep",
            "run -t %1 date",
            "run-shell -- true",
        ] {
            assert_eq!(table_words(words(line)), words(line), "{line}");
        }
    }

    #[test]
    fn a_named_directory_is_kept() {
        let mapped = table_words(words("run -c /tmp -- ls"));
        assert_eq!(mapped, words("run-pane -c /tmp -- ls"));
    }
}
