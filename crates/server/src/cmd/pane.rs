//! Pane commands: split-window, select-pane, resize-pane, kill-pane, swap-pane, break-pane,
//! list-panes.

use super::{on_session, Args, Entry, Long};
use crate::ids::PaneId;
use crate::layout::{Dir, Side, SplitSize};
use crate::outcome::{CommandError, Output, TargetKind};
use std::sync::atomic::Ordering;

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

/// `split-window`.
pub static SPLIT_WINDOW: Entry = Entry {
    name: "split-window",
    aliases: &["splitw"],
    usage: "[-bdfhvPZ] [-c start-directory] [-e name=value] [-F format] [-l size[%]] \
            [-p percentage] [-t target-pane] [-- command ...]",
    about:
        "Split a pane in two: side by side (-h) or stacked (-v, the default); the new pane \
            takes -l cells (or N%) or -p percent, goes before the pane with -b, and spans the \
            whole window's height or width with -f; -c is a format (`-c \"#{pane_current_path}\"`); \
            -P prints the new pane (-F a format, `#{pane_id}`); -e sets a variable for its \
            program; -Z zooms it.",
    flags: "bdfhvPZc:e:F:l:p:t:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Pane),
    build: |args| {
        let size = match args.value('l') {
            Some(v) => size_value(args, 'l', v)?,
            None => SplitSize::Percent(args.number('p', 1u16..=100)?.unwrap_or(50)),
        };
        let before = args.has('b');
        let full = args.has('f');
        let dir = if args.has('h') {
            Dir::Horizontal
        } else {
            Dir::Vertical
        };
        let detached = args.has('d');
        let cwd = args.value('c').map(str::to_string);
        let command = args.positional.clone();
        let print = print_format(args, "#{session_name}:#{window_index}.#{pane_index}");
        let env = env_values(args)?;
        let zoom = args.has('Z');
        Ok(on_session(move |s, scope| {
            let (wpos, pane) = s.find_pane(scope)?;
            let layout = &s.windows[wpos].layout;
            let rect = layout
                .rect_of(pane)
                .ok_or_else(|| CommandError::failed("the pane is not in its window's layout"))?;
            // The new pane's size, from a trial split, so its program starts at its size.
            let split = |layout: &mut crate::layout::Layout, new: PaneId| {
                if full {
                    layout.split_full(new, dir, size, before)
                } else {
                    layout.split_sized(pane, new, dir, size, before)
                }
                .map_err(|e| CommandError::failed(e.0))
            };
            let mut probe = layout.clone();
            split(&mut probe, TRIAL_PANE)?;
            let (cols, rows) = probe
                .rect_of(TRIAL_PANE)
                .map_or((rect.cols, rect.rows), |r| (r.cols, r.rows));
            let cwd = cwd.and_then(|c| crate::format::start_directory(&c, &s.format_vars(wpos, pane)));
            let config = s.window_config(wpos);
            s.pending_env = env;
            let new = s.spawn(command, cwd, (cols, rows), &config)?;
            let w = &mut s.windows[wpos];
            w.zoomed = false;
            split(&mut w.layout, new.id())?;
            s.resize_panes_of(wpos);
            if !detached {
                s.focus(wpos, new.id());
            }
            if zoom {
                s.windows[wpos].zoomed = true;
                s.resize_panes_of(wpos);
            }
            s.generation += 1;
            Ok(match print {
                Some(f) => Output::text(crate::format::expand(&f, &s.format_context(wpos, new.id()))),
                None => Output::none(),
            })
        }))
    },
};

/// `select-pane`.
pub static SELECT_PANE: Entry = Entry {
    name: "select-pane",
    aliases: &["selectp"],
    usage: "[-DdeLlMmRUZ] [-T title] [-t target-pane]",
    about: "Focus a pane, the one beside it in a direction (the most recently used one; at \
            the edge, round to the other side), or the last one (-l); -T sets its title instead; \
            -d turns its input off (typed and sent keys are dropped), -e on again; -m marks \
            it (join-pane's source; again: unmarks), -M clears the mark; -Z keeps a zoomed \
            window zoomed.",
    flags: "DdeLlMmRUZT:t:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Pane),
    build: |args| {
        args.no_arguments()?;
        let side = side_flag(args);
        let title = args.value('T').map(str::to_string);
        let keep_zoom = args.has('Z');
        if args.has('l') {
            return Ok(last_pane(keep_zoom));
        }
        let (mark, unmark) = (args.has('m'), args.has('M'));
        // As in tmux, -e wins over -d.
        let input = match (args.has('d'), args.has('e')) {
            (_, true) => Some(true),
            (true, _) => Some(false),
            _ => None,
        };
        Ok(on_session(move |s, scope| {
            let (wpos, pane) = s.find_pane(scope)?;
            if mark || unmark {
                s.marked = (mark && s.marked != Some(pane)).then_some(pane);
                // Window flags (`M`) and borders show it.
                s.generation += 1;
                return Ok(Output::none());
            }
            if let Some(on) = input {
                set_input(s, pane, on);
                return Ok(Output::none());
            }
            if let Some(title) = &title {
                s.set_pane_title(pane, title);
                return Ok(Output::none());
            }
            let pane = match side {
                Some(side) => {
                    // The most recently used neighbour, then the one overlapping most; at the
                    // window's edge, round to the other side.
                    let w = &s.windows[wpos];
                    let recency = |p: &PaneId| w.recent.iter().position(|r| r == p);
                    match w
                        .layout
                        .neighbours(pane, side, true)
                        .into_iter()
                        .max_by_key(|(p, overlap)| (recency(p), *overlap))
                    {
                        Some((p, _)) => p,
                        None => return Ok(Output::none()),
                    }
                }
                None => pane,
            };
            if keep_zoom {
                s.focus_keeping_zoom(wpos, pane);
            } else {
                s.focus(wpos, pane);
            }
            Ok(Output::none())
        }))
    },
};

/// `resize-pane`.
pub static RESIZE_PANE: Entry = Entry {
    name: "resize-pane",
    aliases: &["resizep"],
    usage: "[-DLMRTUZ] [-x width[%]] [-y height[%]] [-t target-pane] [adjustment]",
    about: "Move a pane's border by some cells, give it a width (-x) or height (-y) in cells or \
            a percentage of the window, or zoom it to fill its window (-Z). -T trims the rows \
            below the cursor, bringing history back onto the screen. -M, in a mouse key's \
            binding (tmux's default MouseDrag1Border one), drags the border as weft does \
            unbound.",
    flags: "DLMRTUZx:y:t:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Pane),
    build: |args| {
        if args.has('M') {
            return Ok(super::Action::Client(super::ClientRequest::SendMouse));
        }
        if args.has('T') {
            return Ok(super::io::pane_action(|pane| async move {
                if !pane.in_copy_mode() {
                    pane.trim_below_cursor();
                }
                Ok(crate::outcome::Output::none())
            }));
        }
        let range = 1u16..=10_000;
        let cells = match args.positional.first() {
            Some(n) => super::args::parse_number(n, &range)
                .ok_or_else(|| args.usage(super::args::bad_number("adjustment", n, &range)))?,
            None => 1,
        };
        let side = side_flag(args);
        let zoom = args.has('Z');
        let width = args
            .value('x')
            .map(|v| size_value(args, 'x', v))
            .transpose()?;
        let height = args
            .value('y')
            .map(|v| size_value(args, 'y', v))
            .transpose()?;
        if side.is_none() && !zoom && width.is_none() && height.is_none() {
            return Err(args.usage("one of -L -R -U -D -Z -x -y is needed"));
        }
        Ok(on_session(move |s, scope| {
            let (wpos, pane) = s.find_pane(scope)?;
            let w = &mut s.windows[wpos];
            for (size, dir) in [(width, Dir::Horizontal), (height, Dir::Vertical)] {
                if let Some(size) = size {
                    w.zoomed = false;
                    resize_to(&mut w.layout, pane, dir, size)?;
                }
            }
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
    usage: "[-a] [-t target-pane]",
    about: "End a pane's program; the pane closes at once (a listing right after never shows \
            it). -a: every other pane of its window instead.",
    flags: "at:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Pane),
    build: |args| {
        args.no_arguments()?;
        let others = args.has('a');
        Ok(on_session(move |s, scope| {
            let (wpos, pane) = s.find_pane(scope)?;
            let doomed: Vec<_> = if others {
                let panes = s.windows[wpos].layout.panes();
                panes.into_iter().filter(|&id| id != pane).collect()
            } else {
                vec![pane]
            };
            for id in doomed {
                s.close_pane(id);
            }
            Ok(Output::none())
        }))
    },
};

/// `clear-history`.
pub static CLEAR_HISTORY: Entry = Entry {
    name: "clear-history",
    aliases: &["clearhist"],
    usage: "[-H] [-t target-pane]",
    about: "Remove and free a pane's history (the lines scrolled off the top). -H is accepted \
            for tmux's sake: the history's links go with it.",
    flags: "Ht:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Pane),
    build: |args| {
        args.no_arguments()?;
        Ok(super::io::pane_action(|pane| async move {
            pane.clear_history();
            Ok(Output::none())
        }))
    },
};

/// `swap-pane`.
pub static SWAP_PANE: Entry = Entry {
    name: "swap-pane",
    aliases: &["swapp"],
    usage: "[-dDUZ] [-s src-pane] [-t dst-pane]",
    about: "Swap two panes' places, in one window or two: -t (the current pane) with -s (else \
            the marked pane, else the current one), or with the previous (-U) or next (-D) pane \
            of its window. The pane named by -t keeps the focus unless -d; -Z keeps zoomed \
            windows zoomed.",
    flags: "dDUZs:t:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Pane),
    build: |args| {
        args.no_arguments()?;
        let (up, down, detached) = (args.has('U'), args.has('D'), args.has('d'));
        let keep_zoom = args.has('Z');
        let source = args.value('s').map(str::to_string);
        Ok(on_session(move |s, scope| {
            let (wpos, dst) = s.find_pane(scope)?;
            let src = if up || down {
                let order = s.windows[wpos].layout.panes();
                let i = order.iter().position(|p| *p == dst).unwrap_or(0);
                let n = order.len();
                order[if up { (i + n - 1) % n } else { (i + 1) % n }]
            } else if let Some(source) = &source {
                s.find_pane(&crate::session::Scope {
                    target: Some(source.clone()),
                    from: scope.from,
                })?
                .1
            } else {
                // As tmux: the marked pane, else the pane the command comes from (the
                // current one).
                match s.marked.filter(|m| s.window_of(*m).is_some()) {
                    Some(marked) => marked,
                    None => {
                        let here = crate::session::Scope {
                            target: None,
                            from: scope.from,
                        };
                        s.find_pane(&here)?.1
                    }
                }
            };
            let zoomed: Vec<crate::ids::WindowId> = if keep_zoom {
                s.windows
                    .iter()
                    .filter(|w| w.zoomed)
                    .map(|w| w.id)
                    .collect()
            } else {
                Vec::new()
            };
            s.swap_panes(src, dst, detached)?;
            for wpos in 0..s.windows.len() {
                if zoomed.contains(&s.windows[wpos].id) && !s.windows[wpos].zoomed {
                    s.windows[wpos].zoomed = true;
                    s.resize_panes_of(wpos);
                }
            }
            Ok(Output::none())
        }))
    },
};

/// `rotate-window`.
pub static ROTATE_WINDOW: Entry = Entry {
    name: "rotate-window",
    aliases: &["rotatew"],
    usage: "[-DU] [-t target-window]",
    about: "Move every pane of the window one place: up (-U, the default: the first goes \
            last) or down (-D). Focus stays in the same place, on the pane that moved there.",
    flags: "DUZt:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Window),
    build: |args| {
        args.no_arguments()?;
        let down = args.has('D');
        Ok(on_session(move |s, scope| {
            let (wpos, _) = s.find_pane(scope)?;
            let w = &mut s.windows[wpos];
            let order = w.layout.panes();
            let n = order.len();
            if n < 2 {
                return Ok(Output::none());
            }
            let place = order.iter().position(|p| *p == w.active).unwrap_or(0);
            // Each swap carries one pane a place along; n - 1 of them rotate the lot.
            if down {
                for k in (0..n - 1).rev() {
                    w.layout.swap(order[n - 1], order[k]);
                }
            } else {
                for &other in &order[1..] {
                    w.layout.swap(order[0], other);
                }
            }
            if let Some(&now) = w.layout.panes().get(place) {
                if wpos == s.current {
                    s.focus(wpos, now);
                } else {
                    w.active = now;
                }
            }
            s.resize_panes_of(wpos);
            s.generation += 1;
            Ok(Output::none())
        }))
    },
};

/// `break-pane`.
pub static BREAK_PANE: Entry = Entry {
    name: "break-pane",
    aliases: &["breakp"],
    usage: "[-abdP] [-F format] [-n window-name] [-s src-pane] [-t target]",
    about: "Move a pane into a window of its own: the -s pane (else the -t pane, else the \
            current one); with -s, -t is the new window's index (as tmux), -a/-b puts it \
            after or before the current window. -n names it, -d leaves the focus where it \
            is, -P prints the new window (-F a format).",
    flags: "abdPF:n:s:t:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Pane),
    build: |args| {
        args.no_arguments()?;
        let detached = args.has('d');
        let source = args.value('s').map(str::to_string);
        let name = args.value('n').map(crate::names::clean_name);
        let print = print_format(args, "#{session_name}:#{window_index}.#{pane_index}");
        let (after, before) = (args.has('a'), args.has('b'));
        Ok(on_session(move |s, scope| {
            // With -s, -t names where the window goes; else the pane to move.
            let (wpos, pane) = match &source {
                Some(src) => super::join::local_pane(s, src)?,
                None => s.find_pane(scope)?,
            };
            if s.windows[wpos].layout.panes().len() < 2 {
                return Err(CommandError::failed(
                    "can't break a window's only pane into a window of its own",
                ));
            }
            let dst = source.is_some().then(|| scope.target()).flatten();
            // -a/-b: beside the -t window (with -s), else beside the pane's own window.
            let beside = match dst {
                Some(t) => super::window::window_index(t)?,
                None => s.windows[wpos].index,
            };
            let index = match (dst, after, before) {
                (_, true, _) => Some(super::window::free_index_near(s, beside, 1)),
                (_, _, true) => Some(super::window::free_index_near(s, beside, 0)),
                (Some(t), _, _) => Some(super::window::free_index(s, t)?),
                _ => None,
            };
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
            let auto_name = s
                .panes
                .get(&pane)
                .map(|p| crate::names::clean_name(&p.shared.title()))
                .filter(|t| !t.is_empty())
                .unwrap_or_else(|| s.default_window_name(&[]));
            let (_, pos) = s.insert_window_at(pane, name.clone().unwrap_or(auto_name), index);
            if name.is_some() {
                s.windows[pos].auto_name = false;
            }
            s.resize_panes_of(pos);
            // Its own options came with it; the rest are its new window's.
            s.hand_options(pane);
            if !detached {
                s.select_window_at(pos);
            }
            s.generation += 1;
            Ok(match print {
                Some(f) => Output::text(crate::format::expand(&f, &s.format_context(pos, pane))),
                None => Output::none(),
            })
        }))
    },
};

/// `list-panes`.
pub static LIST_PANES: Entry = Entry {
    name: "list-panes",
    aliases: &["lsp"],
    usage: "[-as] [--json] [-F format] [-f filter] [-t target]",
    about: "List a window's panes (-s: the session's, -a: every session's), with their ids, \
            sizes and programs; -F a format per pane; -f only the panes a format is true for \
            (-f '#{pane_active}').",
    flags: "asF:f:t:",
    long: &[Long::switch("json")],
    read_only: true,
    target: Some(TargetKind::Window),
    build: |args| {
        args.no_arguments()?;
        let listing = super::listing::Listing {
            json: args.json(),
            format: args.value('F').map(str::to_string),
            filter: args.value('f').map(str::to_string),
        };
        if args.has('a') {
            return Ok(super::listing::every_session(listing.json, move |s| {
                let all: Vec<usize> = (0..s.windows.len()).collect();
                listing.panes(s, &all, &format!("{}:", s.name))
            }));
        }
        let session_wide = args.has('s');
        Ok(on_session(move |s, scope| {
            if session_wide {
                let all: Vec<usize> = (0..s.windows.len()).collect();
                return Ok(listing.panes(s, &all, ""));
            }
            let wpos = s.scope_window(scope)?;
            Ok(listing.panes(s, &[wpos], ""))
        }))
    },
};

/// What `-P` prints for a new window or pane: `-F`'s format, else `default`; `None` without
/// `-P`.
pub(super) fn print_format(args: &Args, default: &str) -> Option<String> {
    args.has('P')
        .then(|| args.value('F').unwrap_or(default).to_string())
}

/// The `-e NAME=VALUE` variables a new pane's program gets, over the session's environment.
pub(super) fn env_values(args: &Args) -> Result<Vec<(String, String)>, CommandError> {
    args.values('e')
        .into_iter()
        .map(|entry| match crate::words::assignment(&entry) {
            Some((name, value)) => Ok((name.to_string(), value.to_string())),
            None => Err(args.usage(format!("-e takes NAME=VALUE, not {entry:?}"))),
        })
        .collect()
}

/// A size as `-l`, `-x` and `-y` take it: cells (`30`) or a percentage (`30%`).
pub(super) fn size_value(args: &Args, flag: char, value: &str) -> Result<SplitSize, CommandError> {
    let bad = || {
        args.usage(format!(
            "-{flag} takes a number of cells or a percentage (30 or 30%), not {value:?}"
        ))
    };
    match value.strip_suffix('%') {
        Some(p) => match p.parse::<u16>() {
            Ok(p @ 1..=100) => Ok(SplitSize::Percent(p)),
            _ => Err(bad()),
        },
        None => match value.parse::<u16>() {
            Ok(n @ 1..) => Ok(SplitSize::Cells(n)),
            _ => Err(bad()),
        },
    }
}

/// Gives `pane` a width (`Horizontal`) or height (`Vertical`) by moving its borders: its own
/// when it grows, a neighbour's when it shrinks.
fn resize_to(
    layout: &mut crate::layout::Layout,
    pane: PaneId,
    dir: Dir,
    size: SplitSize,
) -> Result<(), CommandError> {
    let rect = layout
        .rect_of(pane)
        .ok_or_else(|| CommandError::failed("the pane is not in its window's layout"))?;
    let (now, whole, after, before) = match dir {
        Dir::Horizontal => (rect.cols, layout.cols(), Side::Right, Side::Left),
        Dir::Vertical => (rect.rows, layout.rows(), Side::Down, Side::Up),
    };
    let wanted = match size {
        SplitSize::Cells(n) => n,
        SplitSize::Percent(p) => (u32::from(whole) * u32::from(p) / 100) as u16,
    };
    let failed = |e: crate::layout::LayoutError| CommandError::failed(e.0);
    if wanted > now {
        let grow = wanted - now;
        let side = if layout.neighbour(pane, after).is_some() {
            after
        } else {
            before
        };
        // As far as the neighbours allow: a border that cannot move is not an error here.
        let _ = layout.resize_pane(pane, side, grow);
    } else if wanted < now {
        let shrink = now - wanted;
        if let Some(n) = layout.neighbour(pane, after) {
            layout.resize_pane(n, before, shrink).map_err(failed)?;
        } else if let Some(n) = layout.neighbour(pane, before) {
            layout.resize_pane(n, after, shrink).map_err(failed)?;
        }
    }
    Ok(())
}

/// Turns pane `pane`'s input on or off (`select-pane -e`/`-d`, `last-pane -e`/`-d`).
fn set_input(s: &mut crate::session::SessionState, pane: PaneId, on: bool) {
    if let Some(p) = s.panes.get(&pane) {
        p.shared.input_off.store(!on, Ordering::Relaxed);
    }
    // Formats shown (`#{pane_input_off}`) are drawn again.
    s.generation += 1;
}

/// The scope's window and the pane that had focus there before the current one.
fn last_pane_of(
    s: &crate::session::SessionState,
    scope: &crate::session::Scope,
) -> Result<(usize, PaneId), CommandError> {
    let wpos = s.scope_window(scope)?;
    let w = &s.windows[wpos];
    let last = w
        .last_pane
        .filter(|p| w.layout.panes().contains(p))
        .ok_or_else(|| CommandError::failed("no last pane: this window has used one pane"))?;
    Ok((wpos, last))
}

/// Focuses the window's last pane (`last-pane`, `select-pane -l`).
fn last_pane(keep_zoom: bool) -> super::Action {
    on_session(move |s, scope| {
        let (wpos, last) = last_pane_of(s, scope)?;
        if keep_zoom {
            s.focus_keeping_zoom(wpos, last);
        } else {
            s.focus(wpos, last);
        }
        Ok(Output::none())
    })
}

/// `last-pane`.
pub static LAST_PANE: Entry = Entry {
    name: "last-pane",
    aliases: &["lastp"],
    usage: "[-deZ] [-t target-window]",
    about: "Focus the pane that had focus before the current one; -Z keeps a zoomed window \
            zoomed; -d turns the pane's input off, -e on again.",
    flags: "deZt:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Window),
    build: |args| {
        args.no_arguments()?;
        // As in tmux, -d and -e act on the last pane's input instead of moving to it.
        if args.has('d') || args.has('e') {
            let on = args.has('e');
            return Ok(on_session(move |s, scope| {
                let (_, last) = last_pane_of(s, scope)?;
                set_input(s, last, on);
                Ok(Output::none())
            }));
        }
        Ok(last_pane(args.has('Z')))
    },
};
