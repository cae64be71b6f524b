//! The contenders and how to drive each: a private socket and a minimal configuration in the
//! session's own directory, the command lines for a new session, another pane, a detached
//! session, attaching and shutting down.
//!
//! Every multiplexer gives the pane the whole terminal: the status lines of weft and tmux are
//! turned off and GNU screen has no hardstatus line.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Which program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// No multiplexer: the workload runs directly on the terminal (the physical limit).
    Bare,
    /// The bench's own pty relay ([`super::relay`]): the workload on a pty whose bytes are
    /// only copied to the terminal, the floor under any multiplexer on ptys. Measured in the
    /// workloads where that floor is a target's reference (see [`Kind::measures`]).
    Relay,
    /// weft.
    Weft,
    /// tmux.
    Tmux,
    /// GNU screen.
    Screen,
    /// Zellij.
    Zellij,
}

impl Kind {
    /// The column name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Bare => "no-mux",
            Kind::Relay => "relay",
            Kind::Weft => "weft",
            Kind::Tmux => "tmux",
            Kind::Screen => "screen",
            Kind::Zellij => "zellij",
        }
    }

    /// The kind whose column is `name`.
    pub fn named(name: &str) -> Option<Kind> {
        [
            Kind::Bare,
            Kind::Relay,
            Kind::Weft,
            Kind::Tmux,
            Kind::Screen,
            Kind::Zellij,
        ]
        .into_iter()
        .find(|k| k.name() == name)
    }

    /// Whether this contender is measured in `workload` (by its `--only` name): the relay
    /// only where it is the floor of a target (the cat's, the echo's and start-up's), so it
    /// adds no time or columns elsewhere.
    pub fn measures(self, workload: &str) -> bool {
        self != Kind::Relay || matches!(workload, "cat" | "echo" | "startup")
    }

    /// Whether this is a multiplexer (not a reference: no multiplexer, or the relay), which
    /// targets such as "faster than every other multiplexer" compare weft with.
    pub fn is_multiplexer(self) -> bool {
        !matches!(self, Kind::Bare | Kind::Relay)
    }
}

/// A contender that is installed.
#[derive(Clone, Debug)]
pub struct Contender {
    /// Which.
    pub kind: Kind,
    /// Its binary (unused for [`Kind::Bare`]).
    pub bin: PathBuf,
    /// What `--version` says.
    pub version: String,
}

/// A contender that is not installed, and why.
#[derive(Clone, Debug)]
pub struct Missing {
    /// Which.
    pub kind: Kind,
    /// Why it is skipped.
    pub why: String,
}

/// How a second pane is added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PaneKind {
    /// Split the current window, the new pane below and focused.
    Split,
    /// A new window in the background.
    Window,
}

/// Where one session lives: its private directory and its name.
#[derive(Clone, Copy, Debug)]
pub struct Place<'a> {
    /// The session's private directory (socket, configuration, stamps).
    pub dir: &'a Path,
    /// The session name.
    pub name: &'a str,
    /// Terminal width.
    pub cols: u16,
    /// Terminal height.
    pub rows: u16,
}

/// A program on PATH.
pub fn which(name: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| {
            std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

/// The first line a program prints for `args`, or `None` when it cannot run.
fn first_line(bin: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new(bin)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .ok()?;
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    Some(
        text.lines()
            .find(|l| !l.trim().is_empty())?
            .trim()
            .to_string(),
    )
}

/// Finds the contenders: `weft` is the binary given, `runner` the bench's own executable
/// (the relay); the others come from PATH.
pub fn detect(weft: &Path, runner: &Path) -> (Vec<Contender>, Vec<Missing>) {
    let mut found = vec![
        Contender {
            kind: Kind::Bare,
            bin: PathBuf::new(),
            version: "no multiplexer".into(),
        },
        Contender {
            kind: Kind::Relay,
            bin: runner.to_path_buf(),
            version: "the bench's pty relay".into(),
        },
    ];
    let mut missing = Vec::new();
    for kind in [Kind::Weft, Kind::Tmux, Kind::Screen, Kind::Zellij] {
        let (bin, version_arg) = match kind {
            Kind::Weft => (
                Some(weft.to_path_buf()).filter(|p| p.is_file()),
                "--version",
            ),
            Kind::Tmux => (which("tmux"), "-V"),
            Kind::Screen => (which("screen"), "-v"),
            _ => (which("zellij"), "--version"),
        };
        let Some(bin) = bin else {
            let why = match kind {
                Kind::Weft => format!("{} does not exist", weft.display()),
                _ => format!("`{}` is not on PATH", kind.name()),
            };
            missing.push(Missing { kind, why });
            continue;
        };
        match first_line(&bin, &[version_arg]) {
            Some(version) => found.push(Contender { kind, bin, version }),
            None => missing.push(Missing {
                kind,
                why: format!("{} does not run", bin.display()),
            }),
        }
    }
    (found, missing)
}

fn s(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

fn argv(parts: &[&str], pane: &[String]) -> Vec<String> {
    parts
        .iter()
        .map(|p| p.to_string())
        .chain(pane.iter().cloned())
        .collect()
}

/// A KDL string literal.
fn kdl(x: &str) -> String {
    format!("\"{}\"", x.replace('\\', "\\\\").replace('"', "\\\""))
}

impl Contender {
    /// The column name.
    pub fn name(&self) -> &'static str {
        self.kind.name()
    }

    /// Whether there is a server (everything but the two references).
    pub fn has_server(&self) -> bool {
        self.kind.is_multiplexer()
    }

    fn bin(&self) -> String {
        s(&self.bin)
    }

    fn sock(&self, at: &Place<'_>) -> String {
        s(&at.dir.join(format!("{}.sock", self.name())))
    }

    fn conf(&self, at: &Place<'_>) -> String {
        let file = match self.kind {
            Kind::Weft => "weft.toml",
            Kind::Tmux => "tmux.conf",
            Kind::Screen => "screenrc",
            _ => "zellij/config.kdl",
        };
        s(&at.dir.join(file))
    }

    /// Environment the contender's processes need (private socket directories).
    pub fn env(&self, at: &Place<'_>) -> Vec<(String, String)> {
        match self.kind {
            Kind::Screen => vec![("SCREENDIR".into(), s(&at.dir.join("screen")))],
            Kind::Zellij => vec![
                ("ZELLIJ_SOCKET_DIR".into(), s(&at.dir.join("zellij-sock"))),
                ("ZELLIJ_CONFIG_DIR".into(), s(&at.dir.join("zellij"))),
            ],
            _ => Vec::new(),
        }
    }

    /// Writes the minimal configuration: the scrollback limit when given, no status line.
    pub fn prepare(&self, at: &Place<'_>, scrollback: Option<usize>) -> std::io::Result<()> {
        use std::os::unix::fs::PermissionsExt;
        match self.kind {
            Kind::Bare | Kind::Relay => {}
            Kind::Weft => {
                let mut body = "status = false\n".to_string();
                if let Some(n) = scrollback {
                    body += &format!("scrollback-lines = {n}\n");
                }
                std::fs::write(self.conf(at), body)?;
            }
            Kind::Tmux => {
                let mut body = "set -g status off\n".to_string();
                if let Some(n) = scrollback {
                    body += &format!("set -g history-limit {n}\n");
                }
                std::fs::write(self.conf(at), body)?;
            }
            Kind::Screen => {
                let dir = at.dir.join("screen");
                std::fs::create_dir_all(&dir)?;
                std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))?;
                let mut body =
                    "startup_message off\ndefutf8 on\naltscreen on\nhardstatus off\n".to_string();
                if let Some(n) = scrollback {
                    body += &format!("defscrollback {n}\n");
                }
                std::fs::write(self.conf(at), body)?;
            }
            Kind::Zellij => {
                let cfg = at.dir.join("zellij");
                std::fs::create_dir_all(cfg.join("layouts"))?;
                let sock = at.dir.join("zellij-sock");
                std::fs::create_dir_all(&sock)?;
                std::fs::set_permissions(&sock, std::fs::Permissions::from_mode(0o700))?;
                let mut body = vec![
                    "show_startup_tips false".to_string(),
                    "show_release_notes false".into(),
                    "pane_frames false".into(),
                    "simplified_ui true".into(),
                    format!("layout_dir {}", kdl(&s(&cfg.join("layouts")))),
                    // Empty: otherwise the built-in list loads a background plugin.
                    "load_plugins {\n}".into(),
                ];
                if let Some(n) = scrollback {
                    body.push(format!("scroll_buffer_size {n}"));
                }
                std::fs::write(self.conf(at), body.join("\n") + "\n")?;
            }
        }
        Ok(())
    }

    /// Writes Zellij's default layout: one pane running `pane`, no bars.
    fn zellij_layout(&self, at: &Place<'_>, pane: &[String]) -> std::io::Result<String> {
        let path = at.dir.join("zellij/layouts/default.kdl");
        let (cmd, args) = pane
            .split_first()
            .map_or(("", &[][..]), |(c, a)| (c.as_str(), a));
        let args: Vec<String> = args.iter().map(|a| kdl(a)).collect();
        let body = format!(
            "layout {{\n    pane command={} {{\n        args {}\n    }}\n}}\n",
            kdl(cmd),
            args.join(" ")
        );
        std::fs::write(&path, body)?;
        Ok(s(&path))
    }

    /// The client command that creates the session with `pane` and attaches to it.
    pub fn new_session(&self, at: &Place<'_>, pane: &[String]) -> std::io::Result<Vec<String>> {
        let (bin, sock, conf) = (self.bin(), self.sock(at), self.conf(at));
        Ok(match self.kind {
            Kind::Bare => pane.to_vec(),
            Kind::Relay => argv(&[&bin, super::relay::SUBCOMMAND, "--"], pane),
            Kind::Weft => argv(
                &[&bin, "-S", &sock, "-f", &conf, "new", "-s", at.name, "--"],
                pane,
            ),
            Kind::Tmux => argv(
                &[&bin, "-S", &sock, "-f", &conf, "new-session", "-s", at.name],
                pane,
            ),
            Kind::Screen => argv(&[&bin, "-U", "-c", &conf, "-S", at.name], pane),
            Kind::Zellij => {
                let layout = self.zellij_layout(at, pane)?;
                argv(
                    &[
                        &bin,
                        "--config",
                        &conf,
                        "--session",
                        at.name,
                        "--new-session-with-layout",
                        &layout,
                    ],
                    &[],
                )
            }
        })
    }

    /// The command that adds a pane running `pane` to the attached session.
    pub fn add_pane(&self, at: &Place<'_>, how: PaneKind, pane: &[String]) -> Option<Vec<String>> {
        let (bin, sock) = (self.bin(), self.sock(at));
        Some(match (self.kind, how) {
            (Kind::Bare | Kind::Relay, _) => return None,
            (Kind::Weft, PaneKind::Split) => argv(
                &[&bin, "-S", &sock, "split-window", "-v", "-t", at.name, "--"],
                pane,
            ),
            (Kind::Weft, PaneKind::Window) => argv(
                &[&bin, "-S", &sock, "new-window", "-d", "-t", at.name, "--"],
                pane,
            ),
            (Kind::Tmux, PaneKind::Split) => argv(
                &[&bin, "-S", &sock, "split-window", "-v", "-t", at.name],
                pane,
            ),
            (Kind::Tmux, PaneKind::Window) => argv(
                &[&bin, "-S", &sock, "new-window", "-d", "-t", at.name],
                pane,
            ),
            (Kind::Screen, PaneKind::Split) => {
                let quoted: Vec<String> = pane.iter().map(|a| format!("\"{a}\"")).collect();
                let screen = format!("screen {}", quoted.join(" "));
                argv(
                    &[
                        &bin,
                        "-S",
                        at.name,
                        "-X",
                        "eval",
                        "split",
                        "focus down",
                        &screen,
                    ],
                    &[],
                )
            }
            (Kind::Screen, PaneKind::Window) => argv(&[&bin, "-S", at.name, "-X", "screen"], pane),
            (Kind::Zellij, PaneKind::Split) => argv(
                &[
                    &bin,
                    "--session",
                    at.name,
                    "run",
                    "--direction",
                    "down",
                    "--",
                ],
                pane,
            ),
            (Kind::Zellij, PaneKind::Window) => {
                argv(&[&bin, "--session", at.name, "run", "--"], pane)
            }
        })
    }

    /// The command that creates a detached session of the terminal's size running `pane`.
    pub fn new_detached(
        &self,
        at: &Place<'_>,
        pane: &[String],
    ) -> std::io::Result<Option<Vec<String>>> {
        let (bin, sock, conf) = (self.bin(), self.sock(at), self.conf(at));
        let (x, y) = (at.cols.to_string(), at.rows.to_string());
        Ok(Some(match self.kind {
            Kind::Bare | Kind::Relay => return Ok(None),
            Kind::Weft => argv(
                &[
                    &bin, "-S", &sock, "-f", &conf, "new", "-d", "-s", at.name, "-x", &x, "-y", &y,
                    "--",
                ],
                pane,
            ),
            Kind::Tmux => argv(
                &[
                    &bin,
                    "-S",
                    &sock,
                    "-f",
                    &conf,
                    "new-session",
                    "-d",
                    "-s",
                    at.name,
                    "-x",
                    &x,
                    "-y",
                    &y,
                ],
                pane,
            ),
            Kind::Screen => argv(&[&bin, "-U", "-c", &conf, "-dmS", at.name], pane),
            Kind::Zellij => {
                self.zellij_layout(at, pane)?;
                argv(
                    &[
                        &bin,
                        "--config",
                        &conf,
                        "attach",
                        "--create-background",
                        at.name,
                    ],
                    &[],
                )
            }
        }))
    }

    /// The client command that attaches to the session.
    pub fn attach(&self, at: &Place<'_>) -> Option<Vec<String>> {
        let (bin, sock, conf) = (self.bin(), self.sock(at), self.conf(at));
        Some(match self.kind {
            Kind::Bare | Kind::Relay => return None,
            Kind::Weft => argv(&[&bin, "-S", &sock, "attach", "-t", at.name], &[]),
            Kind::Tmux => argv(&[&bin, "-S", &sock, "attach-session", "-t", at.name], &[]),
            Kind::Screen => argv(&[&bin, "-U", "-c", &conf, "-r", at.name], &[]),
            Kind::Zellij => argv(&[&bin, "--config", &conf, "attach", at.name], &[]),
        })
    }

    /// A command of weft's or tmux's CLI on this session's server (`args` after the socket);
    /// `None` for the others, whose CLIs the kit workload does not drive.
    pub fn control(&self, at: &Place<'_>, args: &[&str]) -> Option<Vec<String>> {
        let (bin, sock) = (self.bin(), self.sock(at));
        match self.kind {
            Kind::Weft | Kind::Tmux => {
                let rest: Vec<String> = args.iter().map(|a| a.to_string()).collect();
                Some(argv(&[&bin, "-S", &sock], &rest))
            }
            _ => None,
        }
    }

    /// The command that ends the server.
    pub fn kill(&self, at: &Place<'_>) -> Option<Vec<String>> {
        let (bin, sock) = (self.bin(), self.sock(at));
        Some(match self.kind {
            Kind::Bare | Kind::Relay => return None,
            Kind::Weft => argv(&[&bin, "-S", &sock, "kill-server"], &[]),
            Kind::Tmux => argv(&[&bin, "-S", &sock, "kill-server"], &[]),
            Kind::Screen => argv(&[&bin, "-S", at.name, "-X", "quit"], &[]),
            Kind::Zellij => argv(&[&bin, "kill-session", at.name], &[]),
        })
    }
}
