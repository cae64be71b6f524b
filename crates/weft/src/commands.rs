//! The client-side commands: each connects to the server (starting it when that makes sense),
//! sends one request, and prints the answer or runs the attached terminal.

use crate::cli::{Cli, Command};
use crate::client::{ClientError, Conn, ServerStart};
use anyhow::Context;
use std::path::PathBuf;
use weft_protocol::{Attach, Reply, Request};

pub(crate) const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Runs a client command; returns the exit status.
pub fn run(cli: &Cli) -> anyhow::Result<u8> {
    // Table commands are checked here: bad arguments fail without a server.
    if let Some(Command::Table(words)) = &cli.command {
        if words.iter().skip(1).any(|w| w == "--help") {
            return Ok(table_help(&words[0]));
        }
    }
    let socket = match cli.socket_path() {
        Ok(s) => s,
        Err(e) => {
            say_err!("weft: {e}");
            return Ok(1);
        }
    };
    if let Some(Command::Table(words)) = &cli.command {
        let (words, _) = take_output_file(words);
        match weft_server::cmd::parse_sequence(&words) {
            // A name this process does not know may be a running server's `command-alias`:
            // that server says whether it is.
            Err(e) if e.may_be_servers_alias() && socket.exists() => {}
            Err(e) => {
                say_err!("weft: {e}");
                return Ok(e.exit_code());
            }
            Ok(_) => {}
        }
    }
    let session_request = match crate::session_requests::session_request(cli) {
        Ok(request) => request,
        Err(e) => return Ok(report(e)),
    };
    // Before the runtime makes any thread: the server can then be this process's fork.
    if starts_server(cli) {
        if let Err(e) = crate::client::start_server_by_fork(&socket, || serve(cli)) {
            return Ok(report(e));
        }
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the runtime")?;
    let result = runtime.block_on(dispatch(cli, socket, session_request));
    // Pending stdin reads must not keep the process alive.
    runtime.shutdown_background();
    Ok(result.unwrap_or_else(report))
}

/// Tells the user why a command failed; its exit status.
fn report(error: ClientError) -> u8 {
    match error {
        ClientError::Refused { message, code } => {
            say_err!("weft: {message}");
            code
        }
        ClientError::NoServer(path) => {
            say_err!("weft: no server running on {}", path.display());
            1
        }
        e => {
            say_err!("weft: {e}");
            1
        }
    }
}

/// Whether `cli`'s command starts a server when none runs: attaching or creating sessions
/// (whose refusals [`session_request`] has already made), `run-pane` and `start-server`.
fn starts_server(cli: &Cli) -> bool {
    match &cli.command {
        None | Some(Command::New(_)) => true,
        Some(Command::Table(words)) => table_starts_server(words),
        Some(_) => false,
    }
}

/// Whether a table command starts the server when none runs: `run-pane` makes a session when
/// it needs one, as `new` does; `start-server` is for that.
fn table_starts_server(words: &[String]) -> bool {
    words.first().is_some_and(|name| {
        weft_server::cmd::lookup(name)
            .is_some_and(|e| matches!(e.name, "run-pane" | "start-server"))
    })
}

/// The server's main in a process forked from this client; its exit status.
fn serve(cli: &Cli) -> u8 {
    match crate::server_main::run(cli) {
        Ok(code) => code,
        Err(e) => {
            // The starting client prints it after "the server did not start:".
            say_err!("{e:#}");
            1
        }
    }
}

fn server_start(cli: &Cli, socket: &std::path::Path) -> std::io::Result<ServerStart> {
    let mut args: Vec<std::ffi::OsString> = vec!["-S".into(), socket.into()];
    if let Some(config) = &cli.config {
        args.push("-f".into());
        args.push(
            std::fs::canonicalize(config)
                .unwrap_or_else(|_| config.clone())
                .into(),
        );
    }
    if let Some(trace) = &cli.trace {
        args.push("--trace".into());
        let absolute = std::env::current_dir()
            .map(|d| d.join(trace))
            .unwrap_or_else(|_| trace.clone());
        args.push(absolute.into());
    }
    args.push("__server".into());
    Ok(ServerStart {
        program: std::env::current_exe()?,
        args,
    })
}

/// A connection to the server, started first when none runs.
pub(crate) async fn start_or_connect(
    cli: &Cli,
    socket: &std::path::Path,
) -> Result<Conn, ClientError> {
    let start = server_start(cli, socket)?;
    crate::client::connect_or_start(socket, VERSION, &start).await
}

pub(crate) fn here() -> Option<String> {
    std::env::current_dir()
        .ok()
        .map(|d| d.to_string_lossy().into_owned())
}

/// The most environment variables an attaching client sends.
const MAX_ATTACH_ENV: usize = 512;

pub(crate) fn attach_params(target: Option<String>, read_only: bool) -> Attach {
    let (cols, rows) = crate::client::current_size();
    Attach {
        target,
        read_only,
        cols,
        rows,
        pass_tty: crate::client::hand_over_terminal(),
        detach_others: false,
        // For update-environment (SSH_AUTH_SOCK, DISPLAY, ...): the server keeps only those.
        env: std::env::vars().take(MAX_ATTACH_ENV).collect(),
    }
}

/// The session weft runs inside, from `$WEFT` (`socket,pid,session`); none in a job the
/// server runs (`run-shell`, `if-shell`, the status line's `#()`), whose `$WEFT` names none.
pub(crate) fn current_session() -> Option<String> {
    let value = std::env::var("WEFT").ok().filter(|v| !v.is_empty())?;
    let session = value.rsplit(',').next()?;
    session
        .parse::<u32>()
        .is_ok()
        .then(|| format!("${session}"))
}

/// What a client inside weft that would attach says (tmux's words): attaching from a pane,
/// possibly to the very session it is in, would show a session inside itself.
const NESTED: &str = "sessions should be nested with care, unset $WEFT to force";

/// Refuses a command that would attach when this client runs inside weft (`$WEFT` set and not
/// empty, as tmux treats `$TMUX`).
pub(crate) fn refuse_nesting() -> Result<(), ClientError> {
    if std::env::var_os("WEFT").is_some_and(|v| !v.is_empty()) {
        return Err(ClientError::Refused {
            message: NESTED.into(),
            code: 1,
        });
    }
    Ok(())
}

pub(crate) async fn attach_and_run(
    mut conn: Conn,
    mut request: Request,
    socket: &std::path::Path,
) -> Result<u8, ClientError> {
    use futures::SinkExt;
    // After the first round (`suspend-client`, the lock commands) the session exists: an
    // ending server is then no reason to ask a new one.
    let mut resumed = false;
    loop {
        let (pass_tty, read_only) = match &request {
            Request::Attach(attach)
            | Request::AttachOrCreate { attach, .. }
            | Request::NewSession {
                attach: Some(attach),
                ..
            } => (attach.pass_tty, attach.read_only),
            _ => (false, false),
        };
        conn.send(weft_protocol::Message::Request(request))
            .await
            .map_err(|e| ClientError::Lost(e.to_string()))?;
        let end = crate::client::run_attached(conn, pass_tty)
            .await
            .map_err(|e| if resumed { e.after_the_session() } else { e })?;
        let Some(session) = end.resume else {
            if let Some(command) = end.exec {
                // `detach-client -E`: the command takes the client's place.
                return Ok(exec_shell(&command));
            }
            say!("{}", end.message);
            if end.hangup_parent {
                hang_up_parent();
            }
            return Ok(end.code);
        };
        // `suspend-client`: the terminal is the shell's again; stop as C-z stops a program,
        // and once continued (`fg`), attach to the same session again. The lock commands:
        // run `lock-command` on the terminal instead, then attach again.
        match end.lock {
            Some(command) => run_lock_command(&command),
            None => stop_until_continued(),
        }
        conn = crate::client::connect(socket, VERSION)
            .await
            .map_err(ClientError::after_the_session)?;
        request = Request::Attach(attach_params(Some(session), read_only));
        resumed = true;
    }
}

/// `detach-client -P`: the shell this client was started from is hung up, as tmux does it
/// (not when the parent is init, which a client started by a service has).
fn hang_up_parent() {
    let Some(parent) = rustix::process::getppid() else {
        return;
    };
    if parent.as_raw_nonzero().get() <= 1 {
        return;
    }
    if let Err(e) = rustix::process::kill_process(parent, rustix::process::Signal::HUP) {
        say_err!("weft: cannot hang up the shell this client was started from: {e}");
    }
}

/// `detach-client -E`: runs `command` with `sh -c` in this process's place; returns (the
/// status to exit with) only if that cannot be done.
fn exec_shell(command: &str) -> u8 {
    use std::os::unix::process::CommandExt;
    let e = std::process::Command::new("sh")
        .arg("-c")
        .arg(command)
        .exec();
    say_err!("weft: cannot run `{command}` in the client's place: {e}");
    1
}

/// Runs `lock-command` on the terminal (`sh -c`) and waits for it; says so when it fails,
/// so that a missing `lock` program is not taken for a lock.
fn run_lock_command(command: &str) {
    if command.trim().is_empty() {
        say_err!("weft: lock-command is empty: set it to a program that locks the screen");
        return;
    }
    let failure = match std::process::Command::new("sh")
        .arg("-c")
        .arg(command)
        .status()
    {
        Ok(status) if status.success() => return,
        Ok(status) => format!("lock-command `{command}` failed ({status})"),
        Err(e) => format!("cannot run lock-command `{command}`: {e}"),
    };
    // Said until a key, so that a lock that did not happen is not taken for one.
    say_err!("weft: {failure}; set lock-command to a program that locks the screen.");
    say_err!("Press Enter to go back to the session.");
    let mut line = String::new();
    if let Err(e) = std::io::stdin().read_line(&mut line) {
        say_err!("weft: {e}");
    }
}

/// Stops this process as `C-z` would, returning once it is continued. In a process group
/// without a job-control shell above it (orphaned), the kernel discards the stop and this
/// returns at once.
fn stop_until_continued() {
    let me = rustix::process::getpid();
    if let Err(e) = rustix::process::kill_process(me, rustix::process::Signal::TSTP) {
        say_err!("weft: cannot suspend ({e}); attaching again");
    }
}

pub(crate) async fn simple(conn: &mut Conn, request: Request) -> Result<u8, ClientError> {
    simple_output(conn, request, false, None).await
}

/// `rewrite` applied to each command of a line (`source-file x.conf \; display -p done`),
/// the `;` words between them kept.
fn each_command(
    words: &[String],
    rewrite: impl Fn(&[String]) -> Result<Vec<String>, String>,
) -> Result<Vec<String>, String> {
    let mut out = Vec::with_capacity(words.len());
    for (i, command) in words.split(|w| w == ";").enumerate() {
        if i > 0 {
            out.push(";".to_string());
        }
        if !command.is_empty() {
            out.extend(rewrite(command)?);
        }
    }
    Ok(out)
}

/// The most of standard input `load-buffer -` sends: the request must fit in one protocol
/// frame, where its text is JSON (a control character takes six bytes there).
const MAX_STDIN_BUFFER_BYTES: usize = 2 << 20;

/// A table command's words as the server needs them: `load-buffer` and `save-buffer` paths made
/// absolute (the server runs elsewhere), and `load-buffer -` turned into `set-buffer` with the
/// text read from standard input (UTF-8, up to [`MAX_STDIN_BUFFER_BYTES`]).
fn buffer_words(words: &[String]) -> Result<Vec<String>, String> {
    let name = weft_server::cmd::lookup(&words[0]).map(|e| e.name);
    if name == Some("source-file") {
        // Files named from a shell are where the shell is, not where the server runs.
        let dir = std::env::current_dir().unwrap_or_default();
        return Ok(words
            .iter()
            .enumerate()
            .map(|(i, w)| {
                // A format (`-F '#{@dir}/keys.conf'`) is the server's to expand.
                let relative =
                    i > 0 && !w.starts_with('-') && !w.starts_with('~') && !w.contains("#{");
                if relative && std::path::Path::new(w).is_relative() {
                    dir.join(w).display().to_string()
                } else {
                    w.clone()
                }
            })
            .collect());
    }
    if !matches!(name, Some("load-buffer" | "save-buffer")) || words.len() < 2 {
        return Ok(words.to_vec());
    }
    let mut words = words.to_vec();
    let last = words.len() - 1;
    if words[last] == "-" {
        if name != Some("load-buffer") {
            return Ok(words);
        }
        use std::io::Read;
        let mut data = Vec::new();
        std::io::stdin()
            .take(MAX_STDIN_BUFFER_BYTES as u64 + 1)
            .read_to_end(&mut data)
            .map_err(|e| format!("load-buffer: cannot read standard input: {e}"))?;
        if data.len() > MAX_STDIN_BUFFER_BYTES {
            return Err(format!(
                "load-buffer -: standard input is larger than {} MiB; save it to a file and run \
                 weft load-buffer FILE",
                MAX_STDIN_BUFFER_BYTES >> 20
            ));
        }
        let text = String::from_utf8(data).map_err(|_| {
            "load-buffer -: standard input is not UTF-8 text; save it to a file and run weft \
             load-buffer FILE"
                .to_string()
        })?;
        words[0] = "set-buffer".into();
        words[last] = "--".into();
        words.push(text);
        return Ok(words);
    }
    let path = std::path::Path::new(&words[last]);
    if path.is_relative() && !words[last].starts_with("~/") {
        if let Ok(dir) = std::env::current_dir() {
            words[last] = dir.join(path).display().to_string();
        }
    }
    Ok(words)
}

/// Sends `request` and prints its answer; with `raw`, streamed output is printed as it is,
/// without the newline that ends other output. With `to_file`, what it prints goes there
/// instead (made only once the command succeeded).
async fn simple_output(
    conn: &mut Conn,
    request: Request,
    raw: bool,
    to_file: Option<&std::path::Path>,
) -> Result<u8, ClientError> {
    if let Some(path) = to_file {
        return output_to_file(conn, request, path).await;
    }
    let (reply, streamed) =
        crate::client::request_streamed(conn, request, &mut std::io::stdout()).await?;
    print_reply(reply, raw, streamed)
}

/// Prints a command's answer (its text, or its output with the status to exit with); an
/// error is the caller's to say. `raw`: streamed output without a newline after it.
pub(crate) fn print_reply(reply: Reply, raw: bool, streamed: bool) -> Result<u8, ClientError> {
    match reply {
        Reply::Ok | Reply::Attached { .. } => Ok(0),
        Reply::Text { text } => {
            if !text.is_empty() {
                say!("{text}");
            }
            Ok(0)
        }
        Reply::Output {
            stdout,
            stderr,
            code,
        } => {
            if !stdout.is_empty() {
                say!("{stdout}");
            } else if raw {
                use std::io::Write;
                std::io::stdout().flush()?;
            } else if streamed {
                // Streamed output ends as printed output does.
                say!();
            }
            if !stderr.is_empty() {
                say_err!("{stderr}");
            }
            Ok(code)
        }
        Reply::Error { message, code } => Err(ClientError::Refused { message, code }),
    }
}

/// Sends `request` and writes what it prints to `path`, as it arrives and as it is (no
/// newline added); a command that fails leaves no file. Standard error and the status as for
/// printed output.
async fn output_to_file(
    conn: &mut Conn,
    request: Request,
    path: &std::path::Path,
) -> Result<u8, ClientError> {
    use std::io::Write;
    let cannot = |e: std::io::Error| ClientError::Refused {
        message: format!("cannot write {}: {e}", path.display()),
        code: 1,
    };
    let mut file = std::fs::File::create(path).map_err(cannot)?;
    let answer = crate::client::request_streamed(conn, request, &mut file).await;
    let (stdout, stderr, code) = match answer {
        Ok((Reply::Ok | Reply::Attached { .. }, _)) => (String::new(), String::new(), 0),
        Ok((Reply::Text { text }, _)) => (text, String::new(), 0),
        Ok((
            Reply::Output {
                stdout,
                stderr,
                code,
            },
            _,
        )) => (stdout, stderr, code),
        Ok((Reply::Error { message, code }, _)) => {
            let _ = std::fs::remove_file(path);
            return Err(ClientError::Refused { message, code });
        }
        Err(e) => {
            let _ = std::fs::remove_file(path);
            return Err(e);
        }
    };
    file.write_all(stdout.as_bytes()).map_err(cannot)?;
    file.flush().map_err(cannot)?;
    if !stderr.is_empty() {
        say_err!("{stderr}");
    }
    Ok(code)
}

/// `capture-pane -o FILE` (or `--output FILE`): the words without it, and the file. The
/// client writes the file, so a relative path is the caller's.
pub(crate) fn take_output_file(words: &[String]) -> (Vec<String>, Option<PathBuf>) {
    let is_capture = weft_server::cmd::lookup(&words[0]).is_some_and(|e| e.name == "capture-pane");
    if !is_capture {
        return (words.to_vec(), None);
    }
    let mut kept = vec![words[0].clone()];
    let mut file = None;
    let mut rest = words[1..].iter();
    while let Some(word) = rest.next() {
        match word.as_str() {
            "-o" | "--output" => match rest.next() {
                Some(path) => file = Some(PathBuf::from(path)),
                None => kept.push(word.clone()),
            },
            w if w.starts_with("--output=") => file = Some(PathBuf::from(&w[9..])),
            w if w.starts_with("-o") && w.len() > 2 => file = Some(PathBuf::from(&w[2..])),
            "--" => {
                kept.push(word.clone());
                kept.extend(rest.by_ref().cloned());
            }
            _ => kept.push(word.clone()),
        }
    }
    (kept, file)
}

async fn dispatch(
    cli: &Cli,
    socket: PathBuf,
    session_request: Option<Request>,
) -> Result<u8, ClientError> {
    if let Some(request) = session_request {
        return crate::session_requests::once_more_if_ending(|| {
            crate::session_requests::send_session_request(cli, &socket, request.clone())
        })
        .await;
    }
    match &cli.command {
        Some(Command::Attach(args)) => {
            refuse_nesting()?;
            let conn = crate::client::connect(&socket, VERSION).await?;
            let mut attach = attach_params(args.target.clone(), args.read_only);
            attach.detach_others = args.detach_others;
            attach_and_run(conn, Request::Attach(attach), &socket).await
        }
        Some(Command::Diag(args)) => crate::diag::run(&socket, args).await,
        Some(Command::Record(args)) => crate::record::run(&socket, args).await,
        // Sent above as `session_request`, or run before the runtime (main.rs).
        None
        | Some(Command::New(_))
        | Some(Command::Replay(_))
        | Some(Command::Play(_))
        | Some(Command::Server)
        | Some(Command::Script(_)) => Ok(0),
        Some(Command::Table(words)) => {
            let (words, to_file) = take_output_file(words);
            let words = match each_command(&words, buffer_words) {
                Ok(w) => w,
                Err(message) => return Err(ClientError::Refused { message, code: 1 }),
            };
            // `save-buffer` prints the buffer as it is, `subscribe` its JSON lines: no newline
            // after them.
            let raw = weft_server::cmd::lookup(&words[0])
                .is_some_and(|e| matches!(e.name, "save-buffer" | "subscribe" | "record-pane"));
            let request = Request::Command {
                args: words.clone(),
                pane: std::env::var("WEFT_PANE").ok(),
                session: current_session(),
            };
            let to_file = to_file.as_deref();
            if table_starts_server(&words) {
                crate::session_requests::once_more_if_ending(|| async {
                    let conn = start_or_connect(cli, &socket).await?;
                    send_command(conn, request.clone(), raw, to_file).await
                })
                .await
            } else {
                let conn = crate::client::connect(&socket, VERSION).await?;
                send_command(conn, request, raw, to_file).await
            }
        }
    }
}

/// Sends a table command and prints its answer; waits for the server to close the
/// connection (`kill-server` keeps it open until the server process is gone).
async fn send_command(
    mut conn: Conn,
    request: Request,
    raw: bool,
    to_file: Option<&std::path::Path>,
) -> Result<u8, ClientError> {
    let code = simple_output(&mut conn, request, raw, to_file).await?;
    use futures::StreamExt;
    while let Some(Ok(_)) = conn.next().await {}
    Ok(code)
}

/// `weft COMMAND --help`: the table's description of a command.
fn table_help(name: &str) -> u8 {
    match weft_server::cmd::lookup(name) {
        Some(entry) => {
            print!("{}", weft_server::cmd::help(entry));
            0
        }
        None => {
            say_err!("weft: unknown command: {name} (weft list-commands shows them all)");
            2
        }
    }
}
