//! Mouse events as tmux's mouse keys (`MouseDown1Pane`, `WheelUpPane`, `MouseDragEnd1Pane`,
//! ...), for bindings. An event whose key is bound in the table in force (the root table, or
//! the copy-mode table when the pane under the mouse is in copy mode) runs that binding instead
//! of weft's own handling, with the pane under the mouse as the commands' pane (`-t =` names
//! it too); `send-keys -M` in it hands the event to weft's own handling. Keys left unbound keep
//! weft's own handling, so `unbind` of a mouse key changes nothing.

use super::ui::{After, ClientLoop};
use crate::keys::MouseEvent;
use crate::layout::Rect;
use crate::pane::PaneHandle;
use weft_screen_model::keyboard::KeyMods;

/// What the mouse keys need from one event to the next.
#[derive(Default)]
pub(super) struct MouseKeys {
    /// The button being dragged (its drag's end is `MouseDragEnd`).
    dragging: Option<u16>,
    /// The event a binding is running for, and the pane under it: `send-keys -M` hands it on,
    /// and the binding's commands act on that pane.
    running: Option<(MouseEvent, PaneHandle)>,
    /// The window whose tab in the status line the event is on: `=` names that window.
    window: Option<u32>,
}

impl MouseKeys {
    /// The pane under the mouse while a mouse binding runs.
    pub(super) fn pane(&self) -> Option<&PaneHandle> {
        self.running.as_ref().map(|(_, p)| p)
    }

    /// The event a binding is running for, and the pane under it.
    pub(super) fn event(&self) -> Option<(MouseEvent, PaneHandle)> {
        self.running.clone()
    }

    /// The window whose tab the event a binding runs for is on.
    pub(super) fn window(&self) -> Option<u32> {
        self.running.as_ref().and(self.window)
    }
}

/// Where on the screen an event is, as tmux names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    Pane,
    Border,
    Status,
    /// What `status-left` shows.
    StatusLeft,
    /// What `status-right` shows.
    StatusRight,
}

impl Place {
    fn name(self) -> &'static str {
        match self {
            Place::Pane => "Pane",
            Place::Border => "Border",
            Place::Status => "Status",
            Place::StatusLeft => "StatusLeft",
            Place::StatusRight => "StatusRight",
        }
    }
}

/// Where on the status line `col` is, and the window whose tab is there.
fn status_place(status: &crate::session::StatusLine, cols: u16, col: u16) -> (Place, Option<u32>) {
    let (cols, col) = (usize::from(cols), usize::from(col));
    let line = crate::render::status::compose(status, cols);
    if let Some((_, _, index)) = line
        .places
        .iter()
        .find(|(at, width, _)| col >= *at && col < at + width)
    {
        return (Place::Status, Some(*index));
    }
    if col < line.left_cols {
        (Place::StatusLeft, None)
    } else if col >= cols - line.right_cols {
        (Place::StatusRight, None)
    } else {
        (Place::Status, None)
    }
}

/// The mouse key of `event` at `place` (`C-`, `M-`, `S-` before it as held), and the button
/// being dragged after it.
fn key_name(event: &MouseEvent, place: Place, dragging: Option<u16>) -> (String, Option<u16>) {
    let button = event.code & 3;
    let (what, dragging) = if let Some(up) = event.wheel() {
        (
            if up { "WheelUp" } else { "WheelDown" }.to_string(),
            dragging,
        )
    } else if event.code & 32 != 0 {
        if button == 3 {
            ("MouseMove".to_string(), dragging)
        } else {
            (format!("MouseDrag{}", button + 1), Some(button))
        }
    } else if event.press {
        (format!("MouseDown{}", button + 1), None)
    } else {
        match dragging {
            Some(b) => (format!("MouseDragEnd{}", b + 1), None),
            None => (format!("MouseUp{}", button + 1), None),
        }
    };
    let mut mods = 0;
    for (bit, flag) in [(4, KeyMods::SHIFT), (8, KeyMods::ALT), (16, KeyMods::CTRL)] {
        if event.code & bit != 0 {
            mods |= flag;
        }
    }
    let name = crate::pane_keys::name_with_modifiers(&format!("{what}{}", place.name()), mods);
    (name, dragging)
}

impl ClientLoop {
    /// Runs the binding of `event`'s mouse key, if it has one; false: weft handles the event
    /// itself.
    pub(super) async fn mouse_binding(&mut self, event: &MouseEvent) -> (bool, After) {
        let view = self.view.borrow().clone();
        let on_status = view.status.as_ref().filter(|s| s.covers(event.row));
        let under = view.pane_at(event.col, event.row);
        let (place, window) = match (&under, on_status) {
            // A further status line (`status 2`) has no tabs or parts weft places.
            (_, Some(status)) if status.row != event.row => (Place::Status, None),
            (_, Some(status)) => status_place(status, view.cols, event.col),
            (Some(_), None) => (Place::Pane, None),
            (None, None) => (Place::Border, None),
        };
        let (name, dragging) = key_name(event, place, self.mouse_keys.dragging);
        self.mouse_keys.dragging = dragging;
        if self.read_only {
            return (false, After::Continue);
        }
        let pane: Option<(PaneHandle, Rect)> = under
            .map(|(p, r)| (p.clone(), r))
            .or_else(|| view.active_pane().cloned().map(|p| (p, view.window)));
        let Some((pane, _)) = pane else {
            return (false, After::Continue);
        };
        let options = self.options();
        let keys = &options.keys;
        let line = if pane.in_copy_mode() {
            let table = if options.mode_keys_vi {
                &keys.copy_mode_vi
            } else {
                &keys.copy_mode
            };
            table.get(&name).cloned()
        } else {
            keys.root_table.get(&name).cloned()
        };
        let Some(line) = line else {
            return (false, After::Continue);
        };
        self.mouse_keys.running = Some((*event, pane));
        self.mouse_keys.window = window;
        let after = self.run_line(&line).await;
        self.mouse_keys.running = None;
        self.mouse_keys.window = None;
        (true, after)
    }

    /// `send-keys -M`: the mouse event the binding runs for, handled as weft would without it.
    pub(super) async fn send_mouse(&mut self) {
        let Some((event, _)) = self.mouse_keys.running.take() else {
            self.message(
                "-M: there is no mouse event here; use it in a mouse key's binding".to_string(),
            )
            .await;
            return;
        };
        self.mouse_builtin(event).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(code: u16, press: bool) -> MouseEvent {
        MouseEvent {
            code,
            col: 3,
            row: 4,
            press,
        }
    }

    #[test]
    fn events_are_named_as_tmux_names_its_mouse_keys() {
        assert_eq!(
            key_name(&event(0, true), Place::Pane, None).0,
            "MouseDown1Pane"
        );
        assert_eq!(
            key_name(&event(2, true), Place::Status, None).0,
            "MouseDown3Status"
        );
        assert_eq!(
            key_name(&event(64, true), Place::Pane, None).0,
            "WheelUpPane"
        );
        assert_eq!(
            key_name(&event(65, true), Place::Border, None).0,
            "WheelDownBorder"
        );
        // A drag, then its release: the drag's end.
        let (drag, dragging) = key_name(&event(32, true), Place::Pane, None);
        assert_eq!((drag.as_str(), dragging), ("MouseDrag1Pane", Some(0)));
        assert_eq!(
            key_name(&event(0, false), Place::Pane, dragging).0,
            "MouseDragEnd1Pane"
        );
        assert_eq!(
            key_name(&event(0, false), Place::Pane, None).0,
            "MouseUp1Pane"
        );
        // Held modifiers come first.
        assert_eq!(
            key_name(&event(8, true), Place::Pane, None).0,
            "M-MouseDown1Pane"
        );
        assert_eq!(
            key_name(&event(16 | 64, true), Place::Pane, None).0,
            "C-WheelUpPane"
        );
    }
}
