//! The arguments of `cargo xtask bench`.

use super::workloads::Workload;
use std::path::PathBuf;

/// One-line usage, also printed by `cargo xtask` without a known subcommand.
pub const USAGE: &str = "cargo xtask bench [--quick] [--rounds N] [--only WORKLOAD[,...]] \
[--with NAME[,...]] [--json FILE] [--weft PATH] [--size COLSxROWS]";

/// What `--help` prints after [`USAGE`].
const HELP: &str = "
Plays the user's terminal: a pty of COLSxROWS (default 104x59) with each multiplexer's client in
it, drained as fast as possible. Contenders: no multiplexer, weft, tmux, and GNU screen and Zellij
when installed (a missing one is reported and skipped).

  --quick         200,000-line cat, 100 keystrokes an echo run, 2 rounds
  --rounds N      rounds per workload (default 5; --quick: 2); contenders run in shuffled order
  --only W[,W]    workloads to run (repeatable): cat, dense_cells, cursor_motion, light_cells,
                  scroll_region, unicode, vtebench (all five streams), echo, idle, memory, startup,
                  copy, kit
  --with N[,N]    only these contenders (no-mux, relay, weft, tmux, screen, zellij); default: all
  --json FILE     also write every sample as JSON
  --weft PATH     the weft binary to measure (default: `cargo build --release -p weft-mux` and use it)
  --size CxR      the outer terminal's size (default 104x59)
";

/// Parsed arguments.
#[derive(Clone, Debug)]
pub struct Options {
    /// Smaller payloads and fewer rounds.
    pub quick: bool,
    /// Rounds per workload.
    pub rounds: usize,
    /// Workloads to run, in the order given; all of them when empty.
    pub only: Vec<Workload>,
    /// Contenders to run, by name; all installed ones when empty.
    pub with: Vec<String>,
    /// Where to write the JSON report.
    pub json: Option<PathBuf>,
    /// The weft binary to use instead of building one.
    pub weft: Option<PathBuf>,
    /// Outer terminal width.
    pub cols: u16,
    /// Outer terminal height.
    pub rows: u16,
    /// Set by the launcher: weft was just built, do not build it again.
    pub built: bool,
    /// `--help` was given.
    pub help: bool,
}

/// The hidden flag the launcher adds when it re-executes the release build.
pub const BUILT_FLAG: &str = "--built";

impl Options {
    /// Parses the arguments after `bench`.
    pub fn parse(args: &[String]) -> Result<Options, String> {
        let mut opts = Options {
            quick: false,
            rounds: 0,
            only: Vec::new(),
            with: Vec::new(),
            json: None,
            weft: None,
            cols: 104,
            rows: 59,
            built: false,
            help: false,
        };
        let mut rounds = None;
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            let (flag, inline) = match arg.split_once('=') {
                Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
                _ => (arg.as_str(), None),
            };
            let mut value = |name: &str| -> Result<String, String> {
                inline
                    .clone()
                    .or_else(|| it.next().cloned())
                    .ok_or_else(|| format!("{name} needs a value"))
            };
            match flag {
                "--quick" => opts.quick = true,
                "--rounds" => {
                    let v = value("--rounds")?;
                    let n: usize = v
                        .parse()
                        .map_err(|_| format!("--rounds: not a number: {v}"))?;
                    if n == 0 {
                        return Err("--rounds must be at least 1".into());
                    }
                    rounds = Some(n);
                }
                "--only" => {
                    for name in value("--only")?.split(',').filter(|s| !s.is_empty()) {
                        let found = Workload::parse(name)
                            .ok_or_else(|| format!("--only: unknown workload {name}"))?;
                        for w in found {
                            if !opts.only.contains(&w) {
                                opts.only.push(w);
                            }
                        }
                    }
                }
                "--with" => {
                    for name in value("--with")?.split(',').filter(|s| !s.is_empty()) {
                        if super::contenders::Kind::named(name).is_none() {
                            return Err(format!("--with: unknown contender {name}"));
                        }
                        opts.with.push(name.to_string());
                    }
                }
                "--json" => opts.json = Some(PathBuf::from(value("--json")?)),
                "--weft" => opts.weft = Some(PathBuf::from(value("--weft")?)),
                "--size" => {
                    let v = value("--size")?;
                    let (c, r) = v
                        .split_once(['x', 'X'])
                        .and_then(|(c, r)| Some((c.parse().ok()?, r.parse().ok()?)))
                        .filter(|&(c, r): &(u16, u16)| c >= 20 && r >= 10)
                        .ok_or_else(|| {
                            format!("--size: expected COLSxROWS (at least 20x10): {v}")
                        })?;
                    opts.cols = c;
                    opts.rows = r;
                }
                BUILT_FLAG => opts.built = true,
                "-h" | "--help" => opts.help = true,
                other => return Err(format!("unknown argument {other}")),
            }
        }
        opts.rounds = rounds.unwrap_or(if opts.quick { 2 } else { 5 });
        Ok(opts)
    }

    /// The full help text.
    pub fn help() -> String {
        format!("usage: {USAGE}\n{HELP}")
    }

    /// The workloads to run, in order.
    pub fn workloads(&self) -> Vec<Workload> {
        if self.only.is_empty() {
            Workload::ALL.to_vec()
        } else {
            self.only.clone()
        }
    }

    /// Lines of the `cat` log file.
    pub fn log_lines(&self) -> usize {
        if self.quick {
            200_000
        } else {
            2_000_000
        }
    }

    /// Bytes of each vtebench-like stream.
    pub fn vt_bytes(&self) -> usize {
        16_000_000
    }

    /// Keystrokes measured per echo run.
    pub fn probes(&self) -> usize {
        if self.quick {
            100
        } else {
            200
        }
    }

    /// Deadline for one streaming run.
    pub fn stream_timeout(&self) -> std::time::Duration {
        std::time::Duration::from_secs(if self.quick { 180 } else { 600 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Options, String> {
        Options::parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn with_selects_known_contenders_and_rejects_others() {
        let opts = parse(&["--with", "weft,no-mux", "--quick"]).expect("parses");
        assert_eq!(opts.with, ["weft", "no-mux"]);
        assert_eq!(opts.rounds, 2);
        let err = parse(&["--with=tmux,kitty"]).expect_err("kitty is no contender");
        assert!(err.contains("kitty"), "{err}");
        assert!(parse(&[]).expect("parses").with.is_empty());
    }
}
