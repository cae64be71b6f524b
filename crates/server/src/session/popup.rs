//! Starting a popup's program (`display-popup`): where the popup goes over the session, and
//! its program on a pty of its own, started with the session's environment. The popup belongs
//! to the client that opened it (`connection/popup.rs`), not to a window: the session keeps no
//! handle on it, and its exit and events go to the client.

use super::{Scope, SessionState};
use crate::ids::PaneId;
use crate::layout::placement::{place, Around};
use crate::layout::Rect;
use crate::outcome::CommandError;
use crate::pane::{spawn_pane, PaneHandle};
use tokio::sync::mpsc;
use weft_pty_io::ExitStatus;
use weft_screen_model::Event;

/// What `display-popup` asks for, as typed (sizes, positions and formats are read in the
/// session, where the target pane and the session's size are known).
#[derive(Clone, Debug, Default)]
pub struct PopupRequest {
    /// The program: one shell line, several words run as they are, or nothing for the shell.
    pub command: Vec<String>,
    /// `-d`: the start directory, a format.
    pub cwd: Option<String>,
    /// `-e NAME=value`, each.
    pub env: Vec<String>,
    /// `-w`: columns or a percentage of the session's width (default half).
    pub width: Option<String>,
    /// `-h`: rows or a percentage of the session's height (default half).
    pub height: Option<String>,
    /// `-x`: a column, or `C` (centre), `R` (the pane's right), `P` (the pane's left).
    pub x: Option<String>,
    /// `-y`: the row the popup's bottom is on, or `C`, `P` (the pane's bottom), `S` (next to
    /// the status line).
    pub y: Option<String>,
    /// `-T`: the title, a format.
    pub title: Option<String>,
}

/// When a popup closes by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CloseWhen {
    /// Only on Escape or `C-c` once its program has exited (or `display-popup -C`).
    Asked,
    /// When its program exits (`-E`).
    Exited,
    /// When its program exits with status 0 (`-EE`); else as `Asked`.
    Succeeded,
}

/// What `display-popup` asks the client to do.
#[derive(Debug)]
pub enum PopupAction {
    /// Open a popup (unless one is open already).
    Open {
        /// Its program, size, place and title.
        request: Box<PopupRequest>,
        /// When it closes by itself.
        close: CloseWhen,
        /// `-k`: once its program has exited, any key closes it.
        any_key: bool,
        /// `popup-border-lines` for this popup (`-b`), or no border at all (`-B`: `none`).
        lines: Option<String>,
        /// `-s`: the style of its inside, over `popup-style`.
        style: Option<String>,
        /// `-S`: the style of its border, over `popup-border-style`.
        border_style: Option<String>,
        /// `-t`: the pane it is opened over.
        target: Option<String>,
        /// Told when the popup closes, with its program's exit code if it exited (a
        /// `display-popup` from the command line waits for it; an edit reads the code).
        closed: Option<tokio::sync::oneshot::Sender<Option<i64>>>,
    },
    /// Close the client's popup (`-C`).
    Close,
}

/// A popup's program, started.
#[derive(Debug)]
pub struct PopupStarted {
    /// Its pane (in no window).
    pub pane: PaneHandle,
    /// Its exit status, once.
    pub exited: mpsc::Receiver<(PaneId, ExitStatus)>,
    /// The whole popup, border included, in session cells.
    pub rect: Rect,
    /// The title, expanded.
    pub title: String,
}

/// Events of a popup's program waiting for the task that takes its clipboard writes (OSC 52)
/// and drops the rest: a few, since that task only decodes; a program that floods them loses
/// the excess, counted, as a pane does.
const POPUP_EVENT_CAPACITY: usize = 4;

impl SessionState {
    /// Starts the program of a popup over the pane `scope` names, `bordered` (one cell of
    /// border each side) or not.
    pub fn start_popup(
        &mut self,
        request: Box<PopupRequest>,
        scope: &Scope,
        bordered: bool,
    ) -> Result<PopupStarted, CommandError> {
        let (wpos, target) = self.find_pane(scope)?;
        let vars = self.format_vars(wpos, target);
        let cwd = request
            .cwd
            .as_deref()
            .and_then(|c| crate::format::start_directory(c, &vars));
        let title = request
            .title
            .as_deref()
            .map(|t| crate::format::expand(t, &self.format_context(wpos, target)))
            .unwrap_or_default();
        let area = self.window_rect_of(wpos);
        let pane_rect = self.windows[wpos]
            .layout
            .rect_of(target)
            .map_or(area, |r| Rect {
                col: r.col + area.col,
                row: r.row + area.row,
                ..r
            });
        let status_row = self.status_row();
        let place = Placement {
            cols: self.cols,
            rows: self.rows,
            pane: pane_rect,
            status_row,
        };
        let rect = place.rect(&request, if bordered { 3 } else { 1 })?;
        let inner = if bordered { rect.inset() } else { rect };
        let config = self.window_config(wpos);
        let id = self.ids.pane();
        let mut spawn = self.spawn_options(
            request.command,
            cwd,
            (inner.cols, inner.rows),
            &config,
            target,
        );
        for pair in &request.env {
            let (name, value) = pair.split_once('=').ok_or_else(|| {
                CommandError::failed(format!("display-popup -e takes NAME=value, not {pair:?}"))
            })?;
            super::spawn::set_env(&mut spawn, name, Some(std::ffi::OsStr::new(value)));
        }
        // `tmux` in a popup's command is weft, as in the other commands it runs.
        let base = spawn
            .env
            .iter()
            .rev()
            .find(|(k, _)| k == "PATH")
            .map(|(_, v)| v.clone());
        if let Some(path) = crate::tmux_shim::path_for(base.as_deref()) {
            super::spawn::set_env(&mut spawn, "PATH", Some(&path));
        }
        let (exits, exited) = mpsc::channel(1);
        let (events, mut program_events) = mpsc::channel(POPUP_EVENT_CAPACITY);
        // A copy in the popup's program (lazygit copying a hash) reaches the buffers and the
        // clipboard as a pane's does; its other events (bell, title) are not the window's.
        // The task ends with the program.
        let clipboard = self.clipboard.clone();
        tokio::spawn(async move {
            while let Some((pane, event)) = program_events.recv().await {
                if let crate::pane::PaneEvent::Screen(Event::ClipboardWrite { base64, .. }) = event
                {
                    clipboard.write(pane, &base64);
                }
            }
        });
        let mut spec = self.pane_spec(id, spawn, config);
        // A popup keeps no history, as in tmux, and closes when its program ends.
        spec.scrollback_lines = 0;
        spec.remain_on_exit = false;
        let pane = spawn_pane(spec, exits, events)
            .map_err(|e| CommandError::failed(format!("cannot start the popup's program: {e}")))?;
        Ok(PopupStarted {
            pane,
            exited,
            rect,
            title,
        })
    }
}

/// What a popup's place is worked out from: the session's size, the target pane's place and
/// the status line's row.
#[derive(Clone, Copy, Debug)]
struct Placement {
    cols: u16,
    rows: u16,
    pane: Rect,
    status_row: Option<u16>,
}

impl Placement {
    /// The popup's rectangle, at least `min` cells each way, as tmux places it (see
    /// [`crate::layout::placement`]): `-x` is its left column, `-y` the row its bottom is on;
    /// both kept inside the session.
    fn rect(&self, request: &PopupRequest, min: u16) -> Result<Rect, CommandError> {
        let w = size(request.width.as_deref(), self.cols, "-w")?;
        let h = size(request.height.as_deref(), self.rows, "-h")?;
        if w < min || h < min {
            return Err(CommandError::failed(format!(
                "display-popup: a popup {w}x{h} is too small; -w and -h need at least {min}"
            )));
        }
        // The session knows no mouse and no client's tabs: `M` and `W` are the centre.
        let around = Around {
            cols: self.cols,
            rows: self.rows,
            pane: self.pane,
            mouse: None,
            status_row: self.status_row,
            window_tab: None,
        };
        let (col, row) = place(
            "display-popup",
            request.x.as_deref(),
            request.y.as_deref(),
            (w, h),
            &around,
        )
        .map_err(CommandError::failed)?;
        Ok(Rect::new(col, row, w, h))
    }
}

/// `-w`/`-h`: a number of cells or a percentage of `whole`, at most `whole`; half when not
/// given.
fn size(value: Option<&str>, whole: u16, flag: &str) -> Result<u16, CommandError> {
    let Some(value) = value else {
        return Ok(whole / 2);
    };
    let bad = || {
        CommandError::failed(format!(
            "display-popup {flag} takes a size in cells or a percentage (80%), not {value:?}"
        ))
    };
    let cells = match value.strip_suffix('%') {
        Some(pct) => {
            let pct: u32 = pct.trim().parse().map_err(|_| bad())?;
            u32::from(whole) * pct.min(100) / 100
        }
        None => value.trim().parse::<u32>().map_err(|_| bad())?,
    };
    Ok(u16::try_from(cells).unwrap_or(u16::MAX).min(whole))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place() -> Placement {
        Placement {
            cols: 80,
            rows: 24,
            pane: Rect {
                col: 40,
                row: 0,
                cols: 40,
                rows: 23,
            },
            status_row: Some(23),
        }
    }

    fn rect_for(w: &str, h: &str, x: Option<&str>, y: Option<&str>) -> Rect {
        let request = PopupRequest {
            width: Some(w.into()),
            height: Some(h.into()),
            x: x.map(Into::into),
            y: y.map(Into::into),
            ..PopupRequest::default()
        };
        place().rect(&request, 3).expect("a popup that fits")
    }

    fn at(col: u16, row: u16, cols: u16, rows: u16) -> Rect {
        Rect::new(col, row, cols, rows)
    }

    #[test]
    fn a_popup_is_centred_at_half_size_unless_told() {
        let r = place().rect(&PopupRequest::default(), 3).unwrap();
        assert_eq!(r, at(19, 5, 40, 12));
        assert_eq!(rect_for("80%", "50%", None, None), at(7, 5, 64, 12));
        // Percentages and cells; never more than the session.
        assert_eq!(rect_for("100%", "100%", None, None), at(0, 0, 80, 24));
        assert_eq!(rect_for("500", "30", None, None), at(0, 0, 80, 24));
    }

    #[test]
    fn positions_follow_the_pane_and_stay_inside() {
        // The pane's right edge, its left edge, a column too far right.
        assert_eq!(rect_for("20", "10", Some("R"), None).col, 60);
        assert_eq!(rect_for("20", "10", Some("P"), None).col, 40);
        assert_eq!(rect_for("20", "10", Some("75"), None).col, 60);
        // -y is the bottom row: the top is the height above it, kept on screen.
        assert_eq!(rect_for("20", "10", None, Some("15")).row, 5);
        assert_eq!(rect_for("20", "10", None, Some("3")).row, 0);
        assert_eq!(rect_for("20", "10", None, Some("P")).row, 13);
        assert_eq!(rect_for("20", "10", None, Some("S")).row, 13);
    }

    #[test]
    fn bad_sizes_and_positions_are_sentences() {
        for (w, x) in [("ten", None), ("10", Some("Q")), ("2", None)] {
            let request = PopupRequest {
                width: Some(w.into()),
                x: x.map(Into::into),
                ..PopupRequest::default()
            };
            let e = place().rect(&request, 3).unwrap_err().to_string();
            assert!(e.starts_with("display-popup"), "{e}");
        }
    }
}
