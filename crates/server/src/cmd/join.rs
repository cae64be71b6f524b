//! join-pane and move-pane: a pane moved next to another, in the same window or another one
//! of the session.

use super::{on_session, Action, Args, Entry};
use crate::ids::PaneId;
use crate::layout::{Dir, SplitSize};
use crate::outcome::{CommandError, Output, TargetKind};
use crate::session::{Scope, SessionState};

/// Reads join-pane's flags into what it does.
fn build(args: &Args) -> Result<Action, CommandError> {
    args.no_arguments()?;
    // Without -s: the marked pane (`select-pane -m`), as in tmux.
    let source = args.value('s').map(str::to_string);
    let dir = if args.has('h') {
        Dir::Horizontal
    } else {
        Dir::Vertical
    };
    let size = match args.value('l') {
        Some(v) => super::pane::size_value(args, 'l', v)?,
        None => SplitSize::Percent(args.number('p', 1u16..=100)?.unwrap_or(50)),
    };
    let (before, full, detached) = (args.has('b'), args.has('f'), args.has('d'));
    Ok(on_session(move |s, scope| {
        let (dst_w, dst) = s.find_pane(scope)?;
        let source = match &source {
            Some(source) => source.clone(),
            None => s.marked.map(|m| m.to_string()).ok_or_else(|| {
                CommandError::failed(
                    "no pane is marked: name one with -s, or mark it first (select-pane -m, \
                     prefix m)",
                )
            })?,
        };
        let (_, src) = local_pane(s, &source)?;
        if src == dst {
            return Err(CommandError::failed(
                "the source and target are the same pane; name two panes",
            ));
        }
        let place = |layout: &mut crate::layout::Layout| {
            if full {
                layout.split_full(src, dir, size, before)
            } else {
                layout.split_sized(dst, src, dir, size, before)
            }
            .map_err(|e| CommandError::failed(e.0))
        };
        // Tried first on a copy, so that a pane too small to split changes nothing.
        let mut probe = s.windows[dst_w].layout.clone();
        if probe.panes().contains(&src) {
            probe.remove(src);
        }
        place(&mut probe)?;
        let dst_id = s.windows[dst_w].id;
        s.leave_layout(src);
        let dst_w = s
            .windows
            .iter()
            .position(|w| w.id == dst_id)
            .ok_or_else(|| CommandError::failed("the target window closed"))?;
        let w = &mut s.windows[dst_w];
        w.zoomed = false;
        place(&mut w.layout)?;
        s.resize_panes_of(dst_w);
        // Its own options came with it; the rest are its new window's.
        s.hand_options(src);
        if !detached {
            s.focus(dst_w, src);
        }
        s.generation += 1;
        Ok(Output::none())
    }))
}

/// `join-pane`.
pub static JOIN_PANE: Entry = Entry {
    name: "join-pane",
    aliases: &["joinp"],
    usage: "[-bdfhv] [-l size[%]] [-p percentage] [-s src-pane] [-t dst-pane]",
    about: "Move a pane (-s, else the marked one: select-pane -m) next to another (-t, else \
            the current one): below it (-v) or beside it (-h), before it with -b, across the \
            window with -f; its old window closes if it was its only pane.",
    flags: "bdfhvl:p:s:t:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Pane),
    build,
};

/// `move-pane`.
pub static MOVE_PANE: Entry = Entry {
    name: "move-pane",
    aliases: &["movep"],
    usage: "[-bdfhv] [-l size[%]] [-p percentage] [-s src-pane] [-t dst-pane]",
    about: "Same as join-pane.",
    flags: "bdfhvl:p:s:t:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Pane),
    build,
};

/// The pane `source` names in session `s` (`session:window.pane` must be in this session;
/// `%N` is found by id): its window's position and id.
pub(super) fn local_pane(s: &SessionState, source: &str) -> Result<(usize, PaneId), CommandError> {
    let local = match source.split_once(':') {
        Some((session, rest))
            if session.is_empty() || session == s.name || session == s.id.to_string() =>
        {
            rest.to_string()
        }
        Some(_) => {
            return Err(CommandError::failed(format!(
                "{source}: panes move only within their session for now; name a pane of \
                 session {}",
                s.name
            )))
        }
        None => source.to_string(),
    };
    s.find_pane(&Scope {
        target: Some(local),
        from: None,
    })
}
