//! Pane commands: split-window, select-pane, resize-pane, kill-pane, swap-pane, break-pane,
//! list-panes.

use super::{on_session, Args, Entry, Long};
use crate::ids::PaneId;
use crate::layout::{Dir, Side};
use crate::outcome::{CommandError, Output, TargetKind};

/// Stands for the new pane in the trial split that sizes it before it exists: no real pane has
/// this id (ids count up from 0).
const TRIAL_PANE: PaneId = PaneId(u64::MAX);

/// The side `-L`, `-R`, `-U` or `-D` names.
fn side_flag(args: &Args) -> Option<Side> {
    [
        ('L', Side::Left),
        ('R', Side::Right),
        ('U', Side::Up),
        ('D', Side::Down),
    ]
    .into_iter()
    .find(|(f, _)| args.has(*f))
    .map(|(_, side)| side)
}

/// A `-c` start directory: the format expanded for the pane, `~` the home directory; `None`
/// when it comes to nothing (the default directory then).
pub(super) fn start_directory(
    format: &str,
    vars: &std::collections::HashMap<String, String>,
) -> Option<String> {
    let dir = crate::format::expand(format, vars);
    let dir = match dir.strip_prefix('~') {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => {
            std::env::var("HOME").unwrap_or_default() + rest
        }
        _ => dir,
    };
    (!dir.is_empty()).then_some(dir)
}

/// `split-window`.
pub static SPLIT_WINDOW: Entry = Entry {
    name: "split-window",
    aliases: &["splitw"],
    usage: "[-dhv] [-c start-directory] [-p percentage] [-t target-pane] [-- command ...]",
    about: "Split a pane in two: side by side (-h) or stacked (-v, the default); -c is a \
            format (`-c \"#{pane_current_path}\"`).",
    flags: "dhvc:p:t:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Pane),
    build: |args| {
        let percent = args.number('p', 1u16..=99)?.unwrap_or(50);
        let dir = if args.has('h') {
            Dir::Horizontal
        } else {
            Dir::Vertical
        };
        let detached = args.has('d');
        let cwd = args.value('c').map(str::to_string);
        let command = args.positional.clone();
        Ok(on_session(move |s, scope| {
            let (wpos, pane) = s.find_pane(scope)?;
            let layout = &s.windows[wpos].layout;
            let rect = layout
                .rect_of(pane)
                .ok_or_else(|| CommandError::failed("the pane is not in its window's layout"))?;
            // The new pane's size, from a trial split, so its program starts at its size.
            let mut probe = layout.clone();
            probe
                .split(pane, TRIAL_PANE, dir, percent)
                .map_err(|e| CommandError::failed(e.0))?;
            let (cols, rows) = probe
                .rect_of(TRIAL_PANE)
                .map_or((rect.cols, rect.rows), |r| (r.cols, r.rows));
            let cwd = cwd.and_then(|c| start_directory(&c, &s.format_vars(wpos, pane)));
            let new = s.spawn(command, cwd, cols, rows)?;
            let w = &mut s.windows[wpos];
            w.zoomed = false;
            w.layout
                .split(pane, new.id(), dir, percent)
                .map_err(|e| CommandError::failed(e.0))?;
            s.resize_panes_of(wpos);
            if !detached {
                s.focus(wpos, new.id());
            }
            s.generation += 1;
            Ok(Output::none())
        }))
    },
};

/// `select-pane`.
pub static SELECT_PANE: Entry = Entry {
    name: "select-pane",
    aliases: &["selectp"],
    usage: "[-DLRU] [-t target-pane]",
    about: "Focus a pane, or the one beside it in a direction.",
    flags: "DLRUt:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Pane),
    build: |args| {
        args.no_arguments()?;
        let side = side_flag(args);
        Ok(on_session(move |s, scope| {
            let (wpos, pane) = s.find_pane(scope)?;
            let pane = match side {
                Some(side) => match s.windows[wpos].layout.neighbour(pane, side) {
                    Some(p) => p,
                    None => return Ok(Output::none()),
                },
                None => pane,
            };
            s.focus(wpos, pane);
            Ok(Output::none())
        }))
    },
};

/// `resize-pane`.
pub static RESIZE_PANE: Entry = Entry {
    name: "resize-pane",
    aliases: &["resizep"],
    usage: "[-DLRUZ] [-t target-pane] [adjustment]",
    about: "Move a pane's border by some cells, or zoom it to fill its window (-Z).",
    flags: "DLRUZt:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Pane),
    build: |args| {
        let range = 1u16..=10_000;
        let cells = match args.positional.first() {
            Some(n) => super::args::parse_number(n, &range)
                .ok_or_else(|| args.usage(super::args::bad_number("adjustment", n, &range)))?,
            None => 1,
        };
        let side = side_flag(args);
        let zoom = args.has('Z');
        if side.is_none() && !zoom {
            return Err(args.usage("one of -L -R -U -D -Z is needed"));
        }
        Ok(on_session(move |s, scope| {
            let (wpos, pane) = s.find_pane(scope)?;
            let w = &mut s.windows[wpos];
            if zoom {
                if w.layout.panes().len() > 1 || w.zoomed {
                    w.active = pane;
                    w.zoomed = !w.zoomed;
                }
            } else if let Some(side) = side {
                w.zoomed = false;
                w.layout
                    .resize_pane(pane, side, cells)
                    .map_err(|e| CommandError::failed(e.0))?;
            }
            s.resize_panes_of(wpos);
            s.generation += 1;
            Ok(Output::none())
        }))
    },
};

/// `kill-pane`.
pub static KILL_PANE: Entry = Entry {
    name: "kill-pane",
    aliases: &["killp"],
    usage: "[-t target-pane]",
    about: "End a pane's program; the pane closes.",
    flags: "t:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Pane),
    build: |args| {
        args.no_arguments()?;
        Ok(on_session(|s, scope| {
            let (_, pane) = s.find_pane(scope)?;
            if let Some(p) = s.panes.get(&pane) {
                p.kill();
            }
            Ok(Output::none())
        }))
    },
};

/// `swap-pane`.
pub static SWAP_PANE: Entry = Entry {
    name: "swap-pane",
    aliases: &["swapp"],
    usage: "[-DU] [-t target-pane]",
    about: "Swap a pane with the previous (-U) or next (-D, the default) pane.",
    flags: "DUt:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Pane),
    build: |args| {
        args.no_arguments()?;
        let up = args.has('U');
        Ok(on_session(move |s, scope| {
            let (wpos, pane) = s.find_pane(scope)?;
            let w = &mut s.windows[wpos];
            let order = w.layout.panes();
            let i = order.iter().position(|p| *p == pane).unwrap_or(0);
            let j = if up {
                (i + order.len() - 1) % order.len()
            } else {
                (i + 1) % order.len()
            };
            if i != j {
                w.layout.swap(order[i], order[j]);
                s.resize_panes_of(wpos);
            }
            s.generation += 1;
            Ok(Output::none())
        }))
    },
};

/// `break-pane`.
pub static BREAK_PANE: Entry = Entry {
    name: "break-pane",
    aliases: &["breakp"],
    usage: "[-d] [-t target-pane]",
    about: "Move a pane into a window of its own.",
    flags: "dt:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Pane),
    build: |args| {
        args.no_arguments()?;
        let detached = args.has('d');
        Ok(on_session(move |s, scope| {
            let (wpos, pane) = s.find_pane(scope)?;
            if s.windows[wpos].layout.panes().len() < 2 {
                return Err(CommandError::failed(
                    "can't break a window's only pane into a window of its own",
                ));
            }
            let w = &mut s.windows[wpos];
            w.layout.remove(pane);
            w.zoomed = false;
            if w.active == pane {
                w.active = w.layout.panes()[0];
            }
            s.resize_panes_of(wpos);
            let name = s
                .panes
                .get(&pane)
                .map(|p| crate::names::clean_name(&p.shared.title()))
                .filter(|t| !t.is_empty())
                .unwrap_or_else(|| s.default_window_name(&[]));
            let (_, pos) = s.insert_window(pane, name);
            s.resize_panes_of(pos);
            if !detached {
                s.select_window_at(pos);
            }
            s.generation += 1;
            Ok(Output::none())
        }))
    },
};

/// `list-panes`.
pub static LIST_PANES: Entry = Entry {
    name: "list-panes",
    aliases: &["lsp"],
    usage: "[--json] [-F format] [-t target-window]",
    about: "List a window's panes, with their ids, sizes and programs; -F a format per pane.",
    flags: "F:t:",
    long: &[Long::switch("json")],
    read_only: true,
    target: Some(TargetKind::Window),
    build: |args| {
        args.no_arguments()?;
        let json = args.json();
        let format = args.value('F').map(str::to_string);
        Ok(on_session(move |s, scope| {
            let wpos = s.find_window(scope.target())?;
            if let Some(f) = &format {
                let panes = s.windows[wpos].layout.panes();
                let lines: Vec<String> = panes
                    .iter()
                    .map(|p| crate::format::expand(f, &s.format_vars(wpos, *p)))
                    .collect();
                return Ok(Output::text(lines.join("\n")));
            }
            Ok(Output::text(s.list_panes(wpos, json)))
        }))
    },
};
