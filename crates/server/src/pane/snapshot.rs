//! What a renderer takes from a pane's screen: the rows changed since a revision, the cursor
//! and the modes the client's terminal mirrors.

use std::sync::Arc;
use weft_renderer::OuterModes;
use weft_screen_model::pane_colours::PaneColours;
use weft_screen_model::{Cell, CursorState, Screen};

/// What a renderer needs of a pane.
#[derive(Debug)]
pub struct PaneSnapshot {
    /// Screen revision this reflects.
    pub seq: u64,
    /// Columns.
    pub cols: usize,
    /// Rows.
    pub rows: usize,
    /// Rows changed after the `since` asked for: index and cells, up to the last cell that is
    /// not a default blank; the rest of the row is blank. A flood's short lines in a wide pane
    /// copy their text, not the whole width, at every frame.
    pub changed: Vec<(usize, Vec<Cell>)>,
    /// Cursor.
    pub cursor: CursorState,
    /// Modes to mirror to the client's terminal when this pane has focus.
    pub modes: OuterModes,
    /// The colours the pane is drawn in where they are not the terminal's.
    pub colours: Option<Arc<PaneColours>>,
}

/// The rows of `screen` changed after revision `since` (all of them for 0), cursor and modes.
pub(crate) fn snapshot_of(screen: &Screen, since: u64) -> PaneSnapshot {
    let changed = screen
        .visible_rows()
        .enumerate()
        .filter(|(i, _)| since == 0 || screen.row_seq(*i) > since)
        .map(|(i, row)| (i, row.cells()[..row.used_len()].to_vec()))
        .collect();
    PaneSnapshot {
        seq: screen.seqno(),
        cols: screen.cols(),
        rows: screen.rows(),
        changed,
        cursor: screen.cursor_state(),
        modes: outer_modes(screen.modes()),
        colours: screen.pane_colours().cloned(),
    }
}

/// The modes of a pane that the client's terminal mirrors when the pane has the focus.
pub(crate) fn outer_modes(m: &weft_screen_model::Modes) -> OuterModes {
    OuterModes {
        application_cursor: m.application_cursor,
        application_keypad: m.application_keypad,
        bracketed_paste: m.bracketed_paste,
        focus_events: m.focus_events,
        mouse_tracking: m.mouse_tracking,
        mouse_encoding: m.mouse_encoding,
    }
}
