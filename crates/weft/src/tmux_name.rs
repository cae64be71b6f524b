//! weft run as `tmux`: the link weft puts first on `PATH` for what it runs for a configuration
//! (`run-shell`, `if-shell`, `#()`, popups; see the server's `tmux_shim`), so that plugins and
//! bindings written for tmux talk to weft. tmux's command line is weft's, but for a few global
//! flags: `-V` answers as the tmux whose commands weft speaks (plugin managers check it), and
//! flags about the terminal (`-2`, `-u`, `-l`, `-N`, `-q`, `-v`) mean nothing here.

use std::ffi::OsString;
use std::path::Path;

/// What `tmux -V` prints: the tmux version whose commands, options and formats weft takes.
pub const TMUX_VERSION: &str = "tmux 3.3a";

/// What a command line asks for when weft runs as `tmux`.
pub enum Invoked {
    /// `tmux -V`.
    Version,
    /// The arguments to parse as weft's.
    Args(Vec<OsString>),
}

/// The command line as weft's: unchanged unless the program was called `tmux`.
pub fn as_tmux(args: Vec<OsString>) -> Invoked {
    let called_tmux = args
        .first()
        .and_then(|a| Path::new(a).file_name())
        .is_some_and(|name| name == "tmux");
    if !called_tmux {
        return Invoked::Args(args);
    }
    let mut kept = Vec::with_capacity(args.len());
    let mut rest = args.into_iter();
    kept.extend(rest.next());
    for arg in rest.by_ref() {
        match arg.to_str() {
            Some("-V") => return Invoked::Version,
            Some("-2" | "-u" | "-l" | "-N" | "-q" | "-v" | "-2u" | "-u2") => {}
            _ => {
                kept.push(arg);
                break;
            }
        }
    }
    kept.extend(rest);
    Invoked::Args(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    fn parsed(args: &[&str]) -> Option<Vec<OsString>> {
        match as_tmux(words(args)) {
            Invoked::Args(a) => Some(a),
            Invoked::Version => None,
        }
    }

    #[test]
    fn only_a_program_called_tmux_reads_tmux_flags() {
        assert!(parsed(&["/tmp/weft-0/bin/tmux", "-V"]).is_none());
        assert_eq!(
            parsed(&["tmux", "-2", "-u", "new", "-d"]),
            Some(words(&["tmux", "new", "-d"]))
        );
        // After the command, flags are the command's.
        assert_eq!(
            parsed(&["tmux", "display", "-V"]),
            Some(words(&["tmux", "display", "-V"]))
        );
        assert_eq!(parsed(&["weft", "-V"]), Some(words(&["weft", "-V"])));
    }
}
