//! Paste buffer commands, as tmux's: list-buffers, show-buffer, set-buffer, delete-buffer,
//! paste-buffer, choose-buffer (load-buffer and save-buffer in `buffer_files.rs`); and
//! [`copy_text`], what copying text in weft does (a buffer, the terminals' clipboards,
//! `copy-command`).

use super::{Action, ClientRequest, Entry, Long};
use crate::buffers::{paste_bytes, preview, Buffer, BufferError};
use crate::config::SetClipboard;
use crate::context::ServerContext;
use crate::outcome::{CommandError, Output, TargetKind};
use crate::pane::PaneHandle;
use bytes::Bytes;
use futures::FutureExt;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// How long `copy-command` may take to read its input and exit before it is killed: a
/// clipboard tool that hangs (no display to talk to) must not pile up.
const COPY_COMMAND_TIMEOUT: Duration = Duration::from_secs(5);

/// Characters of a buffer's first line shown by `list-buffers` and `choose-buffer`.
pub const PREVIEW_CHARS: usize = 50;

impl From<BufferError> for CommandError {
    fn from(e: BufferError) -> Self {
        CommandError::failed(e.to_string())
    }
}

/// `list-buffers`.
pub static LIST_BUFFERS: Entry = Entry {
    name: "list-buffers",
    aliases: &["lsb"],
    usage: "[--json] [-F format] [-f filter]",
    about: "List the paste buffers, newest first: name, size and the start of the text; -F a \
            format per buffer (#{buffer_name}, #{buffer_size}, #{buffer_sample}, \
            #{buffer_created}); -f only those a format is true for.",
    flags: "F:f:",
    long: &[Long::switch("json")],
    read_only: true,
    target: None,
    build: |args| {
        args.no_arguments()?;
        let json = args.json();
        let format = args.value('F').map(str::to_string);
        let filter = args.value('f').map(str::to_string);
        Ok(server(move |ctx| async move {
            let mut buffers = ctx.buffers.list();
            if let Some(f) = &filter {
                let config = ctx.config.borrow().clone();
                buffers.retain(|b| {
                    let vars = crate::session::VarsWithOptions {
                        vars: buffer_vars(b),
                        config: &config,
                    };
                    crate::format::truthy(&crate::format::expand(f, &vars))
                });
            }
            if let Some(f) = &format {
                let config = ctx.config.borrow().clone();
                let lines: Vec<String> = buffers
                    .iter()
                    .map(|b| {
                        let vars = crate::session::VarsWithOptions {
                            vars: buffer_vars(b),
                            config: &config,
                        };
                        crate::format::expand(f, &vars)
                    })
                    .collect();
                return Ok(Output::text(lines.join("\n")));
            }
            if json {
                let items: Vec<_> = buffers
                    .iter()
                    .map(|b| {
                        serde_json::json!({
                            "name": b.name,
                            "bytes": b.data.len(),
                            "automatic": b.automatic,
                            "order": b.order,
                            "created": b.created,
                            "pane": b.pane.map(|p| p.to_string()),
                            "preview": preview(&b.data, PREVIEW_CHARS),
                        })
                    })
                    .collect();
                let text = serde_json::to_string(&items)
                    .map_err(|e| CommandError::failed(format!("cannot list buffers: {e}")))?;
                return Ok(Output::text(text));
            }
            Ok(Output::text(
                buffers.iter().map(line).collect::<Vec<_>>().join("\n"),
            ))
        }))
    },
};

/// Characters of a buffer's text in `#{buffer_sample}` (tmux's sample width).
const SAMPLE_CHARS: usize = 200;

/// A buffer's format variables, as tmux names them.
fn buffer_vars(b: &Buffer) -> std::collections::HashMap<String, String> {
    [
        ("buffer_name", crate::names::clean_name(&b.name)),
        ("buffer_size", b.data.len().to_string()),
        ("buffer_sample", preview(&b.data, SAMPLE_CHARS)),
        ("buffer_created", b.created.to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// A buffer as `list-buffers` prints it (tmux's form): `name: N bytes: "text"`.
pub fn line(buffer: &Buffer) -> String {
    format!(
        "{}: {} bytes: \"{}\"",
        crate::names::clean_name(&buffer.name),
        buffer.data.len(),
        preview(&buffer.data, PREVIEW_CHARS)
    )
}

/// `show-buffer`.
pub static SHOW_BUFFER: Entry = Entry {
    name: "show-buffer",
    aliases: &["showb"],
    usage: "[-b buffer-name]",
    about: "Print a buffer (the newest without -b); controls show as octal escapes (\\033).",
    flags: "b:",
    long: &[],
    read_only: true,
    target: None,
    build: |args| {
        args.no_arguments()?;
        let name = args.value('b').map(str::to_string);
        Ok(server(move |ctx| async move {
            let buffer = ctx.buffers.get(name.as_deref())?;
            let text = visible(&buffer.data);
            Ok(Output::text(text.strip_suffix('\n').unwrap_or(&text)))
        }))
    },
};

/// `data` as text a terminal shows without acting on it: controls but LF and TAB, and
/// invalid UTF-8, as octal escapes (`\033`), as tmux's `show-buffer` prints them.
fn visible(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len());
    for chunk in data.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\n' | '\t' => out.push(c),
                '\\' => out.push_str("\\\\"),
                c if crate::names::is_forbidden(c) && (c as u32) < 0x100 => {
                    out.push_str(&format!("\\{:03o}", c as u32));
                }
                c if crate::names::is_forbidden(c) => out.push('?'),
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\{b:03o}"));
        }
    }
    out
}

/// `set-buffer`.
pub static SET_BUFFER: Entry = Entry {
    name: "set-buffer",
    aliases: &["setb"],
    usage: "[-aw] [-b buffer-name] [-n new-buffer-name] [-t target-client] data",
    about: "Set a buffer's text (a new automatic buffer without -b), append to it (-a), or \
            rename it (-n); -w also sends it to the attached terminals' clipboards (OSC 52).",
    flags: "awb:n:t:",
    long: &[],
    read_only: false,
    target: None,
    build: |args| {
        let name = args.value('b').map(str::to_string);
        let append = args.has('a');
        if let Some(new) = args.value('n').map(str::to_string) {
            args.no_arguments()?;
            return Ok(server(move |ctx| async move {
                ctx.buffers.rename(name.as_deref(), &new)?;
                Ok(Output::none())
            }));
        }
        let data = match args.positional.as_slice() {
            [data] => data.clone(),
            [] => return Err(args.usage("the buffer's text is needed")),
            [_, extra, ..] => return Err(args.usage(format!("unexpected argument {extra:?}"))),
        };
        let clipboard = args.has('w');
        Ok(server(move |ctx| async move {
            store(&ctx, name.as_deref(), data.into_bytes(), append, clipboard)?;
            Ok(Output::none())
        }))
    },
};

/// Puts `data` in buffer `name` (or a new automatic one), or appends it; with `clipboard`
/// (`-w`), also sends the text to the attached terminals' clipboards.
pub(super) fn store(
    ctx: &ServerContext,
    name: Option<&str>,
    data: Vec<u8>,
    append: bool,
    clipboard: bool,
) -> Result<(), CommandError> {
    let stored = match (name, append) {
        (_, true) => ctx.buffers.append(name, &data),
        (Some(n), false) => ctx
            .buffers
            .set(n, Bytes::from(data))
            .map(|()| n.to_string()),
        (None, false) => ctx.buffers.add(Bytes::from(data), None),
    }?;
    // The whole buffer, an appended one too, as tmux sends it.
    if clipboard
        && !ctx
            .buffers
            .to_clients(&ctx.buffers.get(Some(&stored))?.data)
    {
        return Err(CommandError::failed(
            "the buffer is kept, but it is too large for the terminals' clipboards",
        ));
    }
    Ok(())
}

/// `delete-buffer`.
pub static DELETE_BUFFER: Entry = Entry {
    name: "delete-buffer",
    aliases: &["deleteb"],
    usage: "[-b buffer-name]",
    about: "Delete a buffer (the newest without -b).",
    flags: "b:",
    long: &[],
    read_only: false,
    target: None,
    build: |args| {
        args.no_arguments()?;
        let name = args.value('b').map(str::to_string);
        Ok(server(move |ctx| async move {
            ctx.buffers.delete(name.as_deref())?;
            Ok(Output::none())
        }))
    },
};

/// How `paste-buffer` pastes.
#[derive(Clone, Debug, Default)]
pub struct PasteOptions {
    /// Delete the buffer afterwards (`-d`).
    pub delete: bool,
    /// Bracket the paste when the program enabled bracketed paste (`-p`).
    pub bracket: bool,
    /// Keep line feeds (`-r`); else each becomes `separator`.
    pub keep_lf: bool,
    /// What a line feed becomes (`-s`); default CR.
    pub separator: Option<String>,
}

/// `paste-buffer`.
pub static PASTE_BUFFER: Entry = Entry {
    name: "paste-buffer",
    aliases: &["pasteb"],
    usage: "[-dpr] [-b buffer-name] [-s separator] [-t target-pane]",
    about: "Paste a buffer (the newest without -b) into a pane, without its control \
            characters; line feeds become CR (-s: SEPARATOR, -r: kept); -p brackets it if the \
            program enabled bracketed paste; -d deletes the buffer.",
    flags: "b:dprs:t:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Pane),
    build: |args| {
        args.no_arguments()?;
        let name = args.value('b').map(str::to_string);
        let options = PasteOptions {
            delete: args.has('d'),
            bracket: args.has('p'),
            keep_lf: args.has('r'),
            separator: args.value('s').map(str::to_string),
        };
        Ok(Action::Pane(Box::new(move |pane, ctx| {
            async move {
                paste(&ctx, &pane, name.as_deref(), &options).await?;
                Ok(Output::none())
            }
            .boxed()
        })))
    },
};

/// Pastes buffer `name` (or the newest; nothing when there are none and no name is given)
/// into `pane`, filtered as [`paste_bytes`] says.
pub async fn paste(
    ctx: &ServerContext,
    pane: &PaneHandle,
    name: Option<&str>,
    options: &PasteOptions,
) -> Result<(), CommandError> {
    let buffer = match ctx.buffers.get(name) {
        Ok(b) => b,
        Err(BufferError::NotFound(None)) => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    // The separator is filtered too: nothing but the bracket's own markers carries an ESC.
    let separator = options.separator.as_deref().unwrap_or("\r");
    let separator = paste_bytes(separator.as_bytes(), true, b"", false);
    let bracketed = options.bracket && pane.shared.bracketed_paste.load(Ordering::Relaxed);
    let bytes = paste_bytes(&buffer.data, options.keep_lf, &separator, bracketed);
    if options.delete {
        // Only the buffer pasted, not one set since under the same name.
        if ctx
            .buffers
            .get(Some(&buffer.name))
            .is_ok_and(|b| b.order == buffer.order)
        {
            let _ = ctx.buffers.delete(Some(&buffer.name));
        }
    }
    if !bytes.is_empty() && !pane.send_input(Bytes::from(bytes)).await {
        return Err(CommandError::PaneGone);
    }
    Ok(())
}

/// `choose-buffer`.
pub static CHOOSE_BUFFER: Entry = Entry {
    name: "choose-buffer",
    aliases: &[],
    usage: "[-NZ] [template]",
    about: "Choose a buffer from a list over the window: Enter pastes it into the active pane \
            (or runs the template, %% standing for the buffer's name), d deletes it, q or \
            Escape leaves.",
    flags: "NZ",
    long: &[],
    read_only: false,
    target: None,
    build: |args| {
        let template = (!args.positional.is_empty()).then(|| args.positional.join(" "));
        Ok(Action::Client(ClientRequest::ChooseBuffer { template }))
    },
};

/// Copies `text` as copying in weft does (copy mode calls this): a new automatic buffer (or,
/// with `append`, appended to the newest), sent to every attached client's clipboard as
/// OSC 52 unless `set-clipboard` is off, and piped to `copy-command` when one is set (in the
/// background: it never holds the server up, and is killed if it hangs). Failures are logged.
pub async fn copy_text(ctx: &ServerContext, text: String, append: bool) {
    copy_text_piped(ctx, text, append, None).await;
}

/// [`copy_text`], piped to `pipe` (`copy-pipe CMD`) instead of `copy-command` when given.
pub async fn copy_text_piped(
    ctx: &ServerContext,
    text: String,
    append: bool,
    pipe: Option<String>,
) {
    let data = text.into_bytes();
    let copied = if append {
        ctx.buffers
            .append(None, &data)
            .and_then(|name| ctx.buffers.get(Some(&name)))
            .map(|b| b.data)
    } else {
        let data = Bytes::from(data);
        ctx.buffers.add(data.clone(), None).map(|_| data)
    };
    let copied = match copied {
        Ok(c) => c,
        Err(e) => {
            tracing::info!("copy not kept: {e}");
            return;
        }
    };
    let config = ctx.config.borrow().clone();
    if config.set_clipboard != SetClipboard::Off {
        ctx.buffers.to_clients(&copied);
    }
    if let Some(command) = pipe.or_else(|| config.copy_command.clone()) {
        tokio::spawn(run_copy_command(command, copied, COPY_COMMAND_TIMEOUT));
    }
}

/// Pipes `text` to `pipe`, else to `copy-command` if set, keeping no buffer (copy mode's
/// `pipe`); in the background, killed if it hangs.
pub fn pipe_text(ctx: &ServerContext, text: String, pipe: Option<String>) {
    let command = pipe.or_else(|| ctx.config.borrow().copy_command.clone());
    if let Some(command) = command {
        tokio::spawn(run_copy_command(
            command,
            Bytes::from(text.into_bytes()),
            COPY_COMMAND_TIMEOUT,
        ));
    }
}

/// Runs `copy-command` with `data` on its standard input, closed after; killed when it takes
/// longer than `limit`. True when it ran and exited with success.
async fn run_copy_command(command: String, data: Bytes, limit: Duration) -> bool {
    use tokio::io::AsyncWriteExt;
    let spawned = tokio::process::Command::new("/bin/sh")
        .arg("-c")
        .arg(&command)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        // A group of its own: a hung command is killed with whatever it started.
        .process_group(0)
        .kill_on_drop(true)
        .spawn();
    let mut child = match spawned {
        Ok(c) => c,
        Err(e) => {
            tracing::warn!(command, "copy-command did not start: {e}");
            return false;
        }
    };
    let stdin = child.stdin.take();
    let run = async {
        if let Some(mut stdin) = stdin {
            // A command that exits without reading is its own business.
            let _ = stdin.write_all(&data).await;
            drop(stdin);
        }
        child.wait().await
    };
    match tokio::time::timeout(limit, run).await {
        Ok(Ok(status)) if status.success() => return true,
        Ok(Ok(status)) => tracing::warn!(command, %status, "copy-command failed"),
        Ok(Err(e)) => tracing::warn!(command, "copy-command: {e}"),
        Err(_) => {
            tracing::warn!(command, "copy-command took too long and was killed");
            if let Some(pid) = child.id().and_then(|id| i32::try_from(id).ok()) {
                if let Some(pid) = rustix::process::Pid::from_raw(pid) {
                    let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
                }
            }
            let _ = child.kill().await;
        }
    }
    false
}

/// A server action from an async closure, boxed.
pub(super) fn server<F, Fut>(f: F) -> Action
where
    F: FnOnce(ServerContext) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = Result<Output, CommandError>> + Send + 'static,
{
    Action::Server(Box::new(move |ctx| f(ctx).boxed()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server context with no sessions, and `config` in force.
    fn context(config: crate::config::Config) -> ServerContext {
        let (config_tx, config_rx) = tokio::sync::watch::channel(std::sync::Arc::new(config));
        let metrics = std::sync::Arc::new(crate::metrics::MetricsRegistry::default());
        let buffers = std::sync::Arc::new(crate::buffers::Buffers::default());
        let ids = std::sync::Arc::new(crate::ids::IdAllocator::default());
        let (hooks, _) = crate::hooks::HookFeed::new(metrics.clone());
        let terminals = std::sync::Arc::new(crate::terminal::Terminals::default());
        let registry = crate::registry::Registry::spawn(crate::registry::RegistryParts {
            config: config_tx,
            ids: ids.clone(),
            socket: std::sync::Arc::new(crate::socket_file::SocketFile::new(
                "/nonexistent/weft.sock".into(),
            )),
            metrics: metrics.clone(),
            buffers: buffers.clone(),
            hooks: hooks.clone(),
            host_colors: terminals.colors(),
            shutdown: tokio_util::sync::CancellationToken::new(),
            starting: false,
        });
        ServerContext {
            hooks,
            waits: Default::default(),
            registry,
            ids,
            version: "test".into(),
            config: config_rx,
            metrics,
            buffers,
            terminals,
            startup_warnings: Default::default(),
            prompt_history: Default::default(),
            messages: Default::default(),
        }
    }

    #[tokio::test]
    async fn copy_text_makes_a_buffer_and_tells_the_terminals() {
        let ctx = context(crate::config::Config::default());
        let mut feed = ctx.buffers.clipboard_feed();
        copy_text(&ctx, "hello".into(), false).await;
        assert_eq!(
            feed.try_recv().unwrap(),
            Bytes::from_static(b"\x1b]52;c;aGVsbG8=\x07")
        );
        copy_text(&ctx, " world".into(), true).await;
        let list = ctx.buffers.list();
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].data, Bytes::from_static(b"hello world"));
        // Appending sends the whole buffer.
        let whole = crate::buffers::osc52(b"hello world", "\x07");
        assert_eq!(feed.try_recv().unwrap(), Bytes::from(whole));

        let off = crate::config::Config {
            set_clipboard: SetClipboard::Off,
            ..crate::config::Config::default()
        };
        let ctx = context(off);
        let mut feed = ctx.buffers.clipboard_feed();
        copy_text(&ctx, "quiet".into(), false).await;
        assert_eq!(ctx.buffers.list().len(), 1);
        assert!(feed.try_recv().is_err(), "set-clipboard off");
    }

    #[tokio::test]
    async fn copy_command_gets_the_text_and_a_hung_one_is_killed() {
        let dir = std::env::temp_dir().join(format!("weft-copy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("copied");
        let command = format!("cat > '{}'", out.display());
        let data = Bytes::from_static(b"copied text");
        assert!(run_copy_command(command, data.clone(), Duration::from_secs(30)).await);
        assert_eq!(std::fs::read(&out).unwrap(), b"copied text");
        // Never reads, never exits: killed at the limit.
        let hung = "sleep 600; true".to_string();
        assert!(!run_copy_command(hung, data, Duration::from_millis(200)).await);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn show_buffer_escapes_controls() {
        assert_eq!(visible(b"a\x1b[201~\tb\n"), "a\\033[201~\tb\n");
        assert_eq!(visible(b"\xff\\"), "\\377\\\\");
        assert_eq!(visible("\u{9b}".as_bytes()), "\\233");
    }

    #[test]
    fn commands_parse_as_tmux_writes_them() {
        for line in [
            "lsb",
            "list-buffers --json",
            "showb -b x",
            "setb -a -b x text",
            "setb -n new",
            "loadb -b x /tmp/f",
            "loadb -",
            "saveb -a /tmp/f",
            "saveb -",
            "deleteb -b x",
            "pasteb -dpr -b x -s ; -t %1",
            "choose-buffer",
        ] {
            assert!(super::super::check(line).is_ok(), "{line}");
        }
        let err = |line| super::super::parse_line(line).unwrap_err().to_string();
        assert!(err("setb").contains("the buffer's text is needed"));
        assert!(super::super::buffer_files::full_path("f")
            .unwrap_err()
            .to_string()
            .contains("give a full path"));
        assert!(super::super::buffer_files::full_path("/f").is_ok());
        assert!(err("saveb").contains("a path is needed"));
    }
}
