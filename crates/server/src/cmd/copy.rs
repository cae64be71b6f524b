//! Copy mode's commands: `copy-mode`, and what `send-keys -X` runs in it.

use super::io::pane_server_action;
use super::{Action, Entry};
use crate::context::ServerContext;
use crate::copy::Outcome;
use crate::outcome::{CommandError, Output, TargetKind};
use crate::pane::{CopyResult, PaneHandle};
use weft_screen_model::Color;

/// `copy-mode`.
pub static COPY_MODE: Entry = Entry {
    name: "copy-mode",
    aliases: &[],
    usage: "[-eHMqu] [-t target-pane]",
    about: "Enter copy mode: scroll, search and select the pane's history with the keys of \
            mode-keys (vi or emacs). -u scrolls a page up, -e leaves at the bottom, -q leaves, \
            -H hides the position indicator. -M, in a mouse key's binding (tmux's default \
            MouseDrag1Pane one), selects with the drag in the pane under the mouse, whatever \
            its program asked of the mouse.",
    flags: "equHMt:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Pane),
    build: |args| {
        args.no_arguments()?;
        if args.has('M') {
            return Ok(super::Action::Client(super::ClientRequest::CopyModeMouse));
        }
        let (leave, exit_at_bottom, page_up) = (args.has('q'), args.has('e'), args.has('u'));
        let hide_position = args.has('H');
        Ok(pane_server_action(move |pane, ctx| async move {
            if leave {
                pane.leave_copy_mode();
                return Ok(Output::none());
            }
            let mut settings = copy_settings(&pane.shared.options());
            settings.hide_position = hide_position;
            pane.enter_copy_mode(&settings, exit_at_bottom);
            if page_up {
                run_copy_command(&pane, &ctx, "page-up", &[], 1).await?;
            }
            Ok(Output::none())
        }))
    },
};

/// What entering copy mode takes from the configuration: vi keys, and the characters that end
/// words (`word-separators`).
pub fn copy_settings(config: &crate::config::Config) -> crate::copy::Settings {
    let separators = config
        .option_value("word-separators")
        .unwrap_or_else(|| crate::copy::motion::WORD_SEPARATORS.to_string());
    let colours = |name: &str, default: (Color, Color)| {
        config
            .option_value(name)
            .and_then(|text| crate::style::parse(&text, &Default::default()).ok())
            .map_or(default, |s| (s.pen.fg, s.pen.bg))
    };
    let d = crate::copy::COPY_STYLES;
    let styles = crate::copy::CopyStyles {
        mode: colours("mode-style", d.mode),
        matched: colours("copy-mode-match-style", d.matched),
        current: colours("copy-mode-current-match-style", d.current),
        mark: colours("copy-mode-mark-style", d.mark),
    };
    crate::copy::Settings {
        vi: config.mode_keys_vi,
        separators,
        styles,
        wrap_search: config.option_value("wrap-search").as_deref() != Some("off"),
        hide_position: false,
    }
}

/// `send-keys -X NAME [ARGS]` on `pane`: runs the copy-mode command `count` times; with
/// `formats` (`-F`), its arguments expanded as formats of the pane first.
pub(super) fn send_keys_x(
    name: String,
    mut args: Vec<String>,
    count: usize,
    formats: bool,
) -> Action {
    // As tmux reads a copy-mode command's own arguments: `--` ends its flags.
    if args.first().is_some_and(|a| a == "--") {
        args.remove(0);
    }
    pane_server_action(move |pane, ctx| async move {
        if formats {
            let origin = super::run::Origin {
                pane: Some(pane.id()),
                ..Default::default()
            };
            for arg in &mut args {
                if let Some(expanded) = super::shell::expand_for(&ctx, &origin, arg).await {
                    *arg = expanded;
                }
            }
        }
        run_copy_command(&pane, &ctx, &name, &args, count).await?;
        Ok(Output::none())
    })
}

/// Runs one copy-mode command on `pane`; copied text goes to a paste buffer and the clipboard.
pub async fn run_copy_command(
    pane: &PaneHandle,
    ctx: &ServerContext,
    name: &str,
    args: &[String],
    count: usize,
) -> Result<(), CommandError> {
    match pane.copy_command(name, args, count) {
        Err(message) => Err(CommandError::Invalid(format!("send-keys -X: {message}"))),
        Ok(CopyResult::NotInMode) => Err(CommandError::Invalid(format!(
            "send-keys -X: pane {} is not in copy mode (enter it with copy-mode)",
            pane.id()
        ))),
        Ok(CopyResult::Ran(Outcome::Copy {
            text,
            append,
            pipe,
            to_buffer,
            ..
        })) => {
            if to_buffer {
                copied_piped(ctx, text, append, pipe).await;
            } else if !text.is_empty() {
                super::buffers::pipe_text(ctx, text, pipe);
            }
            Ok(())
        }
        Ok(CopyResult::Ran(_)) => Ok(()),
    }
}

/// Text copied in copy mode (or with the mouse): to a paste buffer and the clipboard.
pub async fn copied(ctx: &ServerContext, text: String, append: bool) {
    copied_piped(ctx, text, append, None).await;
}

/// [`copied`], piped to `pipe` (`copy-pipe CMD`) instead of `copy-command`.
async fn copied_piped(ctx: &ServerContext, text: String, append: bool, pipe: Option<String>) {
    if text.is_empty() {
        return;
    }
    super::buffers::copy_text_piped(ctx, text, append, pipe).await;
}
