//! Window commands: new-window, select-window (and next, previous, last), kill-window,
//! rename-window, resize-window, list-windows.

use super::{on_session, Action, Args, Entry, Long};
use crate::outcome::{not_found, CommandError, Output, TargetKind};
use crate::session::{Scope, SessionState};

/// `new-window`.
pub static NEW_WINDOW: Entry = Entry {
    name: "new-window",
    aliases: &["neww"],
    usage: "[-abdkPS] [-c start-directory] [-e name=value] [-F format] [-n window-name] \
            [-t target-window] [-- command ...]",
    about: "Create a window (at the target's index when it names a free one, -k: replacing \
            the window there; -a/-b: after or before the current window, moving the windows \
            after it up); -c is a format (`-c \"#{pane_current_path}\"`); -e sets a variable \
            for its program; -P prints the new window (-F a format, `#{pane_id}` for its \
            pane); -S with -n selects a window of that name if there is one.",
    flags: "abdkPSc:e:F:n:t:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Window),
    build: |args| {
        let name = args.value('n').map(crate::names::clean_name);
        let detached = args.has('d');
        let command = args.positional.clone();
        let cwd = args.value('c').map(str::to_string);
        let print = super::pane::print_format(args, "#{session_name}:#{window_index}");
        let (after, before, replace) = (args.has('a'), args.has('b'), args.has('k'));
        let select_existing = args.has('S');
        let env = super::pane::env_values(args)?;
        Ok(on_session(move |s, scope| {
            // `-S -n NAME`: a window of that name is selected instead of making another.
            if let Some(wpos) = name
                .as_ref()
                .filter(|_| select_existing)
                .and_then(|n| s.windows.iter().position(|w| &w.name == n))
            {
                if !detached {
                    s.select_window_at(wpos);
                }
                return Ok(Output::none());
            }
            // `-k` on an index in use: the window there is replaced, once the new one exists.
            let mut replacing = None;
            let index = match scope.target() {
                _ if after => Some(index_after_current(s)),
                _ if before => Some(index_before_current(s)),
                None => None,
                Some(t) if replace => {
                    let index = window_index(t)?;
                    if s.windows.iter().any(|w| w.index == index) {
                        replacing = Some(index);
                        None
                    } else {
                        Some(index)
                    }
                }
                Some(t) => Some(free_index(s, t)?),
            };
            s.pending_env = env;
            let cwd = cwd.and_then(|c| {
                let w = s.windows.get(s.current)?;
                crate::format::start_directory(&c, &s.format_vars(s.current, w.active))
            });
            let id = s.new_window_at(index, name, command, cwd, detached)?;
            if let Some(index) = replacing {
                // Made first, so the session never loses its last window; the others keep
                // their indexes meanwhile.
                close_window_at_index(s, index);
                if let Some(from) = s.windows.iter().position(|w| w.id == id) {
                    s.move_window(from, index)?;
                }
            }
            let wpos = s.windows.iter().position(|w| w.id == id);
            Ok(match (print, wpos) {
                (Some(f), Some(w)) => {
                    let vars = s.format_context(w, s.windows[w].active);
                    Output::text(crate::format::expand(&f, &vars))
                }
                _ => Output::none(),
            })
        }))
    },
};

/// `-a`: the index after the current window's, made free by moving the windows from there
/// up to the first gap up by one, as tmux does.
pub(super) fn index_after_current(s: &mut SessionState) -> u32 {
    match s.windows.get(s.current).map(|w| w.index) {
        Some(current) => free_index_near(s, current, 1),
        None => s.base_index(),
    }
}

/// `-b`: the current window's index, made free the same way (it moves up too).
pub(super) fn index_before_current(s: &mut SessionState) -> u32 {
    match s.windows.get(s.current).map(|w| w.index) {
        Some(current) => free_index_near(s, current, 0),
        None => s.base_index(),
    }
}

/// Index `index` plus `offset`, made free by moving the windows from there up to the first
/// gap up by one.
pub(super) fn free_index_near(s: &mut SessionState, index: u32, offset: u32) -> u32 {
    let wanted = index.saturating_add(offset);
    let mut gap = wanted;
    while s.windows.iter().any(|w| w.index == gap) {
        gap = gap.saturating_add(1);
    }
    for w in s.windows.iter_mut() {
        if (wanted..gap).contains(&w.index) {
            w.index += 1;
        }
    }
    wanted
}

/// Closes the window at `index`, if there is one (`-k`), and its panes' programs, without
/// renumbering the others (`renumber-windows`) meanwhile: `-k` takes its index.
fn close_window_at_index(s: &mut SessionState, index: u32) {
    let doomed: Vec<_> = s
        .windows
        .iter()
        .filter(|w| w.index == index)
        .flat_map(|w| w.layout.panes())
        .collect();
    s.hold_renumbering = true;
    for id in doomed {
        s.close_pane(id);
    }
    s.hold_renumbering = false;
}

/// The window index a target names (`:N` or `N`).
pub(super) fn window_index(target: &str) -> Result<u32, CommandError> {
    let t = target.strip_prefix(':').unwrap_or(target);
    t.parse().map_err(|_| not_found(TargetKind::Window, target))
}

/// The free window index a `new-window` target names (`:N` or `N`).
pub(super) fn free_index(s: &SessionState, target: &str) -> Result<u32, CommandError> {
    let index = window_index(target)?;
    if s.windows.iter().any(|w| w.index == index) {
        return Err(CommandError::failed(format!(
            "window index {index} is in use: pick a free index or leave -t out"
        )));
    }
    Ok(index)
}

/// `select-window`.
pub static SELECT_WINDOW: Entry = Entry {
    name: "select-window",
    aliases: &["selectw"],
    usage: "[-lnpT] [-t target-window]",
    about: "Show a window: the target, or the next (-n), previous (-p) or last (-l) one; \
            -T: the last one when the target is shown already.",
    flags: "lnpTt:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Window),
    build: |args| {
        args.no_arguments()?;
        Ok(if args.has('n') {
            step(Step::Next)
        } else if args.has('p') {
            step(Step::Previous)
        } else if args.has('l') {
            step(Step::Last)
        } else {
            let toggle = args.has('T');
            on_session(move |s, scope| {
                let pos = s.scope_window(scope)?;
                let last = s
                    .last_window
                    .and_then(|id| s.windows.iter().position(|w| w.id == id));
                match last {
                    Some(last) if toggle && pos == s.current => s.select_window_at(last),
                    _ => s.select_window_at(pos),
                }
                Ok(Output::none())
            })
        })
    },
};

/// `next-window`.
pub static NEXT_WINDOW: Entry = Entry {
    name: "next-window",
    aliases: &["next"],
    usage: "[-a] [-t target-session]",
    about: "Show the next window; -a the next with an alert (a bell, activity or silence).",
    flags: "at:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Session),
    build: |args| step_command(args, Step::Next),
};

/// `previous-window`.
pub static PREVIOUS_WINDOW: Entry = Entry {
    name: "previous-window",
    aliases: &["prev"],
    usage: "[-a] [-t target-session]",
    about: "Show the previous window; -a the previous with an alert.",
    flags: "at:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Session),
    build: |args| step_command(args, Step::Previous),
};

/// `last-window`.
pub static LAST_WINDOW: Entry = Entry {
    name: "last-window",
    aliases: &["last"],
    usage: "[-t target-session]",
    about: "Show the window that was current before this one.",
    flags: "t:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Session),
    build: |args| step_command(args, Step::Last),
};

fn step_command(args: &Args, which: Step) -> Result<Action, CommandError> {
    args.no_arguments()?;
    if args.has('a') {
        return Ok(step_to_alert(which));
    }
    Ok(step(which))
}

/// The next (or previous) window with an alert, going round; an error when none has one.
fn step_to_alert(which: Step) -> Action {
    on_session(move |s, _| {
        let n = s.windows.len();
        let pos = (1..n)
            .map(|i| match which {
                Step::Previous => (s.current + n - i) % n,
                _ => (s.current + i) % n,
            })
            .find(|&p| {
                let w = &s.windows[p];
                w.bell || w.activity || w.silence
            })
            .ok_or_else(|| {
                CommandError::failed("no window with an alert (bell, activity, silence)")
            })?;
        s.select_window_at(pos);
        Ok(Output::none())
    })
}

/// Which way a window step goes.
#[derive(Clone, Copy)]
enum Step {
    Next,
    Previous,
    Last,
}

fn step(which: Step) -> Action {
    on_session(move |s, _| {
        let n = s.windows.len();
        let pos = match which {
            Step::Next => (s.current + 1) % n,
            Step::Previous => (s.current + n - 1) % n,
            Step::Last => s
                .last_window
                .and_then(|id| s.windows.iter().position(|w| w.id == id))
                .ok_or_else(|| CommandError::failed("no last window"))?,
        };
        s.select_window_at(pos);
        Ok(Output::none())
    })
}

/// `kill-window`.
pub static KILL_WINDOW: Entry = Entry {
    name: "kill-window",
    aliases: &["killw"],
    usage: "[-a] [-t target-window]",
    about: "End a window and the programs in its panes; -a: every other window of its \
            session instead.",
    flags: "at:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Window),
    build: |args| {
        args.no_arguments()?;
        let others = args.has('a');
        Ok(on_session(move |s, scope| {
            let wpos = s.scope_window(scope)?;
            let doomed: Vec<_> = s
                .windows
                .iter()
                .enumerate()
                .filter(|(i, _)| (*i == wpos) != others)
                .flat_map(|(_, w)| w.layout.panes())
                .collect();
            for id in doomed {
                s.close_pane(id);
            }
            Ok(Output::none())
        }))
    },
};

/// `rename-window`.
pub static RENAME_WINDOW: Entry = Entry {
    name: "rename-window",
    aliases: &["renamew"],
    usage: "[-t target-window] new-name",
    about: "Rename a window.",
    flags: "t:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Window),
    build: |args| {
        let name = crate::names::clean_name(&args.positional.join(" "));
        if name.is_empty() {
            return Err(args.usage("a new name is needed"));
        }
        Ok(on_session(move |s, scope| {
            let wpos = s.scope_window(scope)?;
            s.windows[wpos].name = name;
            // A name given by hand stays (tmux turns automatic-rename off for the window).
            s.windows[wpos].auto_name = false;
            Ok(Output::none())
        }))
    },
};

/// `resize-window`.
pub static RESIZE_WINDOW: Entry = Entry {
    name: "resize-window",
    aliases: &["resizew"],
    usage: "[-t target-window] [-x width] [-y height]",
    about: "Set the size of a session's windows (weft's windows take their session's size), \
            without the status line; a missing -x or -y keeps that side. An attached client's \
            next resize sets it again.",
    flags: "t:x:y:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Window),
    build: |args| {
        args.no_arguments()?;
        let side = |flag: char| -> Result<Option<u16>, CommandError> {
            args.value(flag)
                .map(|v| {
                    v.parse::<u32>()
                        .ok()
                        .filter(|n| *n > 0)
                        .map(|n| u16::try_from(n).unwrap_or(u16::MAX))
                        .ok_or_else(|| {
                            args.usage(format!("-{flag} takes a size from 1, not {v:?}"))
                        })
                })
                .transpose()
        };
        let (width, height) = (side('x')?, side('y')?);
        if width.is_none() && height.is_none() {
            return Err(args.usage("-x or -y is needed"));
        }
        Ok(on_session(move |s, scope| {
            // A pane (`%N`) names its window too.
            if s.scope_window(scope).is_err() {
                s.find_pane(scope)?;
            }
            let area = s.window_rect();
            s.resize_windows_to(width.unwrap_or(area.cols), height.unwrap_or(area.rows));
            Ok(Output::none())
        }))
    },
};

/// `list-windows`.
pub static LIST_WINDOWS: Entry = Entry {
    name: "list-windows",
    aliases: &["lsw"],
    usage: "[-a] [--json] [-F format] [-f filter] [-t target-session]",
    about: "List a session's windows (-a: every session's), with their ids; -F a format per \
            window; -f only the windows a format is true for (-f '#{window_bell_flag}').",
    flags: "aF:f:t:",
    long: &[Long::switch("json")],
    read_only: true,
    target: Some(TargetKind::Session),
    build: |args| {
        args.no_arguments()?;
        let listing = super::listing::Listing {
            json: args.json(),
            format: args.value('F').map(str::to_string),
            filter: args.value('f').map(str::to_string),
        };
        if args.has('a') {
            return Ok(super::listing::every_session(listing.json, move |s| {
                listing.windows(s, &format!("{}:", s.name))
            }));
        }
        Ok(on_session(move |s: &mut SessionState, _: &Scope| {
            Ok(listing.windows(s, ""))
        }))
    },
};

/// The window part of a `-s` target: `session:window` must name this session (windows move
/// only within their session).
fn local<'a>(s: &SessionState, target: Option<&'a str>) -> Result<Option<&'a str>, CommandError> {
    let Some(t) = target else {
        return Ok(None);
    };
    match t.split_once(':') {
        Some((session, rest)) => {
            if !session.is_empty() && session != s.name && session != s.id.to_string() {
                return Err(CommandError::failed(format!(
                    "{t}: windows move only within their session for now; name a window of \
                     session {}",
                    s.name
                )));
            }
            Ok(Some(rest).filter(|r| !r.is_empty()))
        }
        None => Ok(Some(t)),
    }
}

/// `move-window`.
pub static MOVE_WINDOW: Entry = Entry {
    name: "move-window",
    aliases: &["movew"],
    usage: "[-abdkr] [-s src-window] [-t :dst-index]",
    about: "Move a window (the current one, or -s) to a free index (-t :N; -k replaces the \
            window there; -a/-b: just after or before that window, moving the windows after \
            it up); -r renumbers the session's windows from base-index with no gaps.",
    flags: "abdkrs:t:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Window),
    build: |args| {
        args.no_arguments()?;
        let renumber = args.has('r');
        let source = args.value('s').map(str::to_string);
        if !renumber && args.target().is_none() {
            return Err(args.usage("-t :index (or -r) is needed"));
        }
        let (after, before, replace) = (args.has('a'), args.has('b'), args.has('k'));
        Ok(on_session(move |s, scope| {
            if let Some(t) = scope.target() {
                let from = s.find_window(local(s, source.as_deref())?)?;
                let t = t.strip_prefix(':').unwrap_or(t);
                let index: u32 = t.parse().map_err(|_| {
                    CommandError::failed(format!(
                        "move-window: {t:?} is not a window index; give -t :N"
                    ))
                })?;
                let from_id = s.windows[from].id;
                let index = if after || before {
                    free_index_near(s, index, u32::from(after))
                } else {
                    if replace && s.windows[from].index != index {
                        close_window_at_index(s, index);
                    }
                    index
                };
                // Closing or moving windows may have moved it in the list.
                let from = s
                    .windows
                    .iter()
                    .position(|w| w.id == from_id)
                    .ok_or_else(|| CommandError::failed("move-window: the window is gone"))?;
                s.move_window(from, index)?;
            }
            if renumber {
                s.renumber();
            }
            Ok(Output::none())
        }))
    },
};

/// `swap-window`.
pub static SWAP_WINDOW: Entry = Entry {
    name: "swap-window",
    aliases: &["swapw"],
    usage: "[-d] [-s src-window] [-t dst-window]",
    about: "Swap two windows' places: -s (else the marked pane's window, else the current \
            one) with -t (else the current one); the moved window stays current unless -d.",
    flags: "ds:t:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Window),
    build: |args| {
        args.no_arguments()?;
        let source = args.value('s').map(str::to_string);
        let follow = !args.has('d');
        Ok(on_session(move |s, scope| {
            let marked = s.marked.and_then(|m| s.window_of(m));
            let from = match (source.as_deref(), marked) {
                (None, Some(wpos)) => wpos,
                _ => s.find_window(local(s, source.as_deref())?)?,
            };
            let to = s.scope_window(scope)?;
            s.swap_windows(from, to, follow);
            Ok(Output::none())
        }))
    },
};
