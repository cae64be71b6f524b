//! Commands that drive a pane from scripts and tests: send-keys (and capture-pane in
//! `capture_pane.rs`, `wait` in `wait.rs`).

use super::{Action, Entry};
use crate::context::ServerContext;
use crate::outcome::{CommandError, Output, TargetKind};
use crate::pane::PaneHandle;
use bytes::Bytes;
use futures::FutureExt;
use weft_screen_model::keyboard::KeyboardMode;

/// `send-keys`.
pub static SEND_KEYS: Entry = Entry {
    name: "send-keys",
    aliases: &["send"],
    usage: "[-FlHMRX] [-N count] [-t target-pane] key ...",
    about: "Type keys into a pane: tmux key names (Enter, C-c, M-x, Up, F1), text with -l, \
            hex bytes with -H; -N repeats them. With -X, run a copy-mode command instead \
            (send-keys -X search-backward TEXT). -F expands the arguments as formats of the \
            pane (send -FX search-backward '#{copy_cursor_word}'). In a mouse key's binding, \
            -M hands the mouse event on as weft handles it unbound (to the program, or copy \
            mode). -R first resets the pane's terminal state and clears its screen \
            (bind C-k send-keys -R \\; clear-history).",
    flags: "FlHMRXN:t:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Pane),
    build: |args| {
        if args.has('M') {
            return Ok(super::Action::Client(super::ClientRequest::SendMouse));
        }
        let reset = args.has('R');
        if args.positional.is_empty() && (!reset || args.has('X')) {
            return Err(args.usage("keys are needed"));
        }
        let count = match args.value('N') {
            Some(n) => n
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=MAX_REPEAT).contains(n))
                .ok_or_else(|| args.usage(format!("-N takes a count from 1 to {MAX_REPEAT}")))?,
            None => 1,
        };
        if args.has('X') {
            let name = args.positional[0].clone();
            let rest = args.positional[1..].to_vec();
            return Ok(super::copy::send_keys_x(name, rest, count, args.has('F')));
        }
        let mut keys = Vec::with_capacity(args.positional.len() * count);
        for _ in 0..count {
            keys.extend(args.positional.iter().cloned());
        }
        let (literal, hex) = (args.has('l'), args.has('H'));
        // Checked now, so a bad key name fails before anything is typed.
        encode_send_keys(
            &keys,
            literal,
            hex,
            KeyboardMode::default(),
            crate::pane_keys::DEL,
        )?;
        Ok(pane_server_action(move |pane, ctx| async move {
            if reset {
                pane.reset_terminal();
                if keys.is_empty() {
                    return Ok(Output::none());
                }
            }
            let (mode, backspace) = {
                let config = ctx.config.borrow();
                let mode = config.keyboard_mode_for(pane.shared.keyboard_mode());
                (mode, config.backspace_for("BSpace"))
            };
            let bytes = encode_send_keys(&keys, literal, hex, mode, backspace)?;
            if pane
                .shared
                .input_off
                .load(std::sync::atomic::Ordering::Relaxed)
            {
                // `select-pane -d`: the pane takes no keys, as in tmux.
                return Ok(Output::none());
            }
            if !pane.send_input(Bytes::from(bytes)).await {
                return Err(CommandError::PaneGone);
            }
            Ok(Output::none())
        }))
    },
};

/// The most times `send-keys -N` repeats: enough for any key a user means to repeat, bounded
/// so a typo cannot queue gigabytes of input.
const MAX_REPEAT: usize = 100_000;

/// The bytes `send-keys` sends: key names encoded as the pane's program asked for keys (cursor
/// key mode, `modifyOtherKeys`, kitty flags), literal text with `-l`, hex bytes with `-H`;
/// Backspace as `backspace` (tmux's option).
fn encode_send_keys(
    keys: &[String],
    literal: bool,
    hex: bool,
    mode: KeyboardMode,
    backspace: u8,
) -> Result<Vec<u8>, CommandError> {
    if literal {
        return Ok(keys.concat().into_bytes());
    }
    if hex {
        return keys
            .iter()
            .map(|h| {
                u8::from_str_radix(h.trim_start_matches("0x"), 16).map_err(|_| {
                    CommandError::Invalid(format!(
                        "send-keys: {h:?} is not a hex byte (write 1b or 0x1b)"
                    ))
                })
            })
            .collect();
    }
    let mut out = Vec::new();
    for key in keys {
        if !mode.is_legacy() {
            if let Some(event) = crate::pane_keys::key_of_name(key) {
                out.extend_from_slice(&weft_screen_model::keyboard::encode(&event, &mode));
                continue;
            }
        }
        match weft_protocol::keynames::encode_key(key, mode.application_cursor) {
            Some(bytes) => out.extend_from_slice(&crate::pane_keys::with_backspace(
                key,
                bytes.into(),
                backspace,
            )),
            None if (key.starts_with("C-") || key.starts_with("M-")) && key.len() > 2 => {
                return Err(CommandError::Invalid(format!(
                    "send-keys: unknown key name {key:?} (use -l to send it as text)"
                )))
            }
            None => out.extend_from_slice(key.as_bytes()),
        }
    }
    Ok(out)
}

/// A pane action from an async closure, boxed.
pub(super) fn pane_action<F, Fut>(f: F) -> Action
where
    F: FnOnce(PaneHandle) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = Result<Output, CommandError>> + Send + 'static,
{
    Action::Pane(Box::new(move |pane, _| f(pane).boxed()))
}

/// A command's work on a pane that needs the server too (paste buffers, options).
pub(super) fn pane_server_action<F, Fut>(f: F) -> Action
where
    F: FnOnce(PaneHandle, ServerContext) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = Result<Output, CommandError>> + Send + 'static,
{
    Action::Pane(Box::new(move |pane, ctx| f(pane, ctx).boxed()))
}
