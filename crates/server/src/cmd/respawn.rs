//! respawn-pane and respawn-window: start a pane's program again, in the same place.

use super::{on_session, Entry};
use crate::ids::PaneId;
use crate::outcome::{CommandError, Output, TargetKind};
use crate::session::SessionState;

/// Starts `command` (the shell when empty) in pane `old` of window `wpos`: a new pane takes
/// its id (so its place, focus and options stay), and the old one's program, if still
/// running, is killed when `kill`, else the respawn is refused.
fn respawn(
    s: &mut SessionState,
    wpos: usize,
    old: PaneId,
    kill: bool,
    command: Vec<String>,
    cwd: Option<String>,
    env: Vec<(String, String)>,
) -> Result<(), CommandError> {
    let running = s.panes.get(&old).is_some_and(|p| p.exit_code().is_none());
    if running && !kill {
        return Err(CommandError::failed(format!(
            "pane {old} is still running its program; add -k to kill it and start again"
        )));
    }
    let rect = s.windows[wpos]
        .layout
        .rect_of(old)
        .ok_or_else(|| CommandError::failed("the pane is not in its window's layout"))?;
    let config = s.pane_config(wpos, old);
    s.pending_env = env;
    // The new program keeps the pane's id, place and options, as tmux's respawn does.
    let before = s.panes.get(&old).cloned();
    s.spawn_as(old, command, cwd, (rect.cols, rect.rows), &config)?;
    // The old program's end is not reported: the id is the new one's now.
    if let Some(p) = before {
        p.shared
            .replaced
            .store(true, std::sync::atomic::Ordering::Release);
        p.kill();
    }
    s.pane_meta.remove(&old);
    s.resize_panes_of(wpos);
    s.generation += 1;
    Ok(())
}

/// `respawn-pane`.
pub static RESPAWN_PANE: Entry = Entry {
    name: "respawn-pane",
    aliases: &["respawnp"],
    usage: "[-k] [-c start-directory] [-e name=value] [-t target-pane] [-- command ...]",
    about: "Start a pane's program again (the command given, else the shell), the pane \
            keeping its place and id; -k kills the program first if it is still running; -e \
            sets a variable for it.",
    flags: "kc:e:t:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Pane),
    build: |args| {
        let kill = args.has('k');
        let command = args.positional.clone();
        let cwd = args.value('c').map(str::to_string);
        let env = super::pane::env_values(args)?;
        Ok(on_session(move |s, scope| {
            let (wpos, pane) = s.find_pane(scope)?;
            respawn(s, wpos, pane, kill, command, cwd, env)?;
            Ok(Output::none())
        }))
    },
};

/// `respawn-window`.
pub static RESPAWN_WINDOW: Entry = Entry {
    name: "respawn-window",
    aliases: &["respawnw"],
    usage: "[-k] [-c start-directory] [-e name=value] [-t target-window] [-- command ...]",
    about: "Start a window again as one pane running the command given (else the shell); -k \
            kills the programs still running first; -e sets a variable for it.",
    flags: "kc:e:t:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Window),
    build: |args| {
        let kill = args.has('k');
        let command = args.positional.clone();
        let cwd = args.value('c').map(str::to_string);
        let env = super::pane::env_values(args)?;
        Ok(on_session(move |s, scope| {
            let wpos = s.scope_window(scope)?;
            let panes = s.windows[wpos].layout.panes();
            let running = panes
                .iter()
                .filter(|p| s.panes.get(p).is_some_and(|h| h.exit_code().is_none()))
                .count();
            if running > 0 && !kill {
                return Err(CommandError::failed(format!(
                    "{running} pane(s) of this window still run their programs; add -k to kill \
                     them and start again"
                )));
            }
            let keep = s.windows[wpos].active;
            for other in panes.into_iter().filter(|p| *p != keep) {
                s.windows[wpos].layout.remove(other);
                if let Some(p) = s.panes.remove(&other) {
                    p.kill();
                }
                s.pane_meta.remove(&other);
            }
            s.windows[wpos].last_pane = None;
            s.windows[wpos].zoomed = false;
            respawn(s, wpos, keep, true, command, cwd, env)?;
            Ok(Output::none())
        }))
    },
};
