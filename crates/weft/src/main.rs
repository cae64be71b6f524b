//! The `weft` command.

#[macro_use]
mod say;

mod cli;
mod client;
mod commands;
mod diag;
mod new_then;
mod play;
mod pow;
mod record;
mod replay;
mod run_alias;
mod script;
mod server_main;
mod session_requests;
mod tmux_name;
mod trace;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = match tmux_name::as_tmux(std::env::args_os().collect()) {
        tmux_name::Invoked::Version => {
            say!("{}", tmux_name::TMUX_VERSION);
            return ExitCode::SUCCESS;
        }
        tmux_name::Invoked::Args(args) => args,
    };
    let (args, then) = new_then::split(args);
    let mut cli = match cli::Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(err) => {
            // clap prints help/version to stdout with status 0, usage errors with status 2.
            let _ = err.print();
            return ExitCode::from(if err.use_stderr() { 2 } else { 0 });
        }
    };
    if let Some(cli::Command::New(new)) = &mut cli.command {
        new.then = then;
    }
    if let Some(cli::Command::Table(words)) = &mut cli.command {
        *words = run_alias::table_words(std::mem::take(words));
        // tmux's rule for a command line: a word ending in `;` ends a command there
        // (`weft start-server\; show-environment -g`). Not in `run-pane`'s program words.
        let run_pane = words
            .first()
            .and_then(|w| weft_server::cmd::lookup(w))
            .is_some_and(|e| e.name == "run-pane");
        if !run_pane {
            *words = weft_server::cmd::separate_commands(words);
        }
    }
    let result = match &cli.command {
        Some(cli::Command::Replay(args)) => replay::run(args),
        Some(cli::Command::Play(args)) => play::run(args),
        Some(cli::Command::Server) => server_main::run(&cli),
        Some(cli::Command::Script(args)) => script::run(&cli, args),
        _ => commands::run(&cli),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(err) => {
            if is_broken_pipe(&err) {
                return ExitCode::SUCCESS;
            }
            say_err!("weft: {err:#}");
            ExitCode::from(1)
        }
    }
}

/// A closed stdout (e.g. `weft replay | head`) is a normal way to stop.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
