//! Layout commands: select-layout, next-layout and previous-layout.

use super::{on_session, Action, Entry};
use crate::layout::Preset;
use crate::outcome::{Output, TargetKind};

/// `select-layout`.
pub static SELECT_LAYOUT: Entry = Entry {
    name: "select-layout",
    aliases: &["selectl"],
    usage: "[-Eo] [-t target-window] \
            [even-horizontal|even-vertical|main-horizontal|main-vertical|tiled]",
    about: "Arrange a window's panes in a preset layout (in their order; the first pane is the \
            main one); -o puts back the layout before the last change; -E gives the pane and \
            those beside it in its row or column equal room.",
    flags: "Eot:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Window),
    build: |args| {
        if args.has('o') {
            args.no_arguments()?;
            return Ok(undo());
        }
        if args.has('E') {
            args.no_arguments()?;
            return Ok(spread());
        }
        let name = args
            .positional
            .first()
            .ok_or_else(|| args.usage("a layout name is needed"))?;
        let preset = Preset::from_name(name).ok_or_else(|| {
            args.usage(format!(
                "unknown layout {name:?} (even-horizontal, even-vertical, main-horizontal, \
                 main-vertical, tiled)"
            ))
        })?;
        Ok(apply(Some(preset), false))
    },
};

/// `select-layout -E`: the pane's row or column spread out evenly.
fn spread() -> Action {
    on_session(|s, scope| {
        let (wpos, pane) = s.find_pane(scope)?;
        let w = &mut s.windows[wpos];
        let before = w.layout.clone();
        if w.layout.spread_around(pane) {
            // `-o` puts back the layout from before a change, not before nothing.
            w.undo_layout = Some(before);
            w.zoomed = false;
            s.resize_panes_of(wpos);
            s.generation += 1;
        }
        Ok(Output::none())
    })
}

/// `next-layout`.
pub static NEXT_LAYOUT: Entry = Entry {
    name: "next-layout",
    aliases: &["nextl"],
    usage: "[-t target-window]",
    about: "Arrange a window's panes in the next preset layout.",
    flags: "t:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Window),
    build: |args| {
        args.no_arguments()?;
        Ok(apply(None, false))
    },
};

/// `previous-layout`.
pub static PREVIOUS_LAYOUT: Entry = Entry {
    name: "previous-layout",
    aliases: &["prevl"],
    usage: "[-t target-window]",
    about: "Arrange a window's panes in the previous preset layout.",
    flags: "t:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Window),
    build: |args| {
        args.no_arguments()?;
        Ok(apply(None, true))
    },
};

/// The main pane's size for a main-* preset: `main-pane-width` (main-vertical) or
/// `main-pane-height` (main-horizontal), in cells or a percentage of the window; made larger,
/// as tmux does, when `other-pane-width`/`other-pane-height` asks the others to be smaller.
fn main_pane_size(
    config: &crate::config::Config,
    preset: Preset,
    layout: &crate::layout::Layout,
) -> Option<u16> {
    let (option, other_option, extent) = match preset {
        Preset::MainVertical => ("main-pane-width", "other-pane-width", layout.cols()),
        Preset::MainHorizontal => ("main-pane-height", "other-pane-height", layout.rows()),
        _ => return None,
    };
    let cells = |name: &str| {
        let value = config.option_value(name)?;
        match value.strip_suffix('%') {
            Some(p) => {
                let p: u32 = p.parse().ok().filter(|p| (1..=100).contains(p))?;
                u16::try_from(u32::from(extent) * p / 100).ok()
            }
            None => value.parse().ok(),
        }
    };
    let main = cells(option);
    // The window less the border between the main pane and the others.
    let room = extent.saturating_sub(1);
    match cells(other_option).filter(|o| *o > 0 && *o <= room) {
        Some(other) if room - other >= main.unwrap_or(0) => Some(room - other),
        _ => main,
    }
}

/// Applies `preset`, or without one the next preset in the window's cycle (`back`: the
/// previous one).
fn apply(preset: Option<Preset>, back: bool) -> Action {
    on_session(move |s, scope| {
        let wpos = s.scope_window(scope)?;
        let config = s.config();
        let w = &mut s.windows[wpos];
        let preset = match preset {
            Some(p) => {
                w.preset = Preset::ALL.iter().position(|q| *q == p).unwrap_or(0);
                p
            }
            None => {
                let n = Preset::ALL.len();
                w.preset = if back {
                    (w.preset + n - 1) % n
                } else {
                    (w.preset + 1) % n
                };
                Preset::ALL[w.preset]
            }
        };
        w.zoomed = false;
        w.undo_layout = Some(w.layout.clone());
        let main = main_pane_size(&config, preset, &w.layout);
        w.layout.apply_preset_with_main(preset, main);
        s.resize_panes_of(wpos);
        s.generation += 1;
        Ok(Output::none())
    })
}

/// Puts back the window's layout from before its last layout change, sizes included (and
/// makes the current one the one to go back to).
fn undo() -> Action {
    on_session(|s, scope| {
        let wpos = s.scope_window(scope)?;
        let w = &mut s.windows[wpos];
        let Some(mut before) = w.undo_layout.take() else {
            return Err(crate::outcome::CommandError::failed(
                "no layout to go back to: change the layout first",
            ));
        };
        let mut now = w.layout.panes();
        let mut then = before.panes();
        now.sort_unstable();
        then.sort_unstable();
        if now != then {
            return Err(crate::outcome::CommandError::failed(
                "the window's panes changed since: its old layout no longer fits",
            ));
        }
        before.resize(w.layout.cols(), w.layout.rows());
        w.undo_layout = Some(std::mem::replace(&mut w.layout, before));
        w.zoomed = false;
        s.resize_panes_of(wpos);
        s.generation += 1;
        Ok(Output::none())
    })
}
