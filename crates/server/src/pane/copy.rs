//! A pane in copy mode: the [`CopyMode`] state kept beside the screen, the commands that change
//! it, and the view renderers draw instead of the live screen while it is on.
//!
//! The state is behind its own lock, always taken after the screen's: copy-mode commands run on
//! the task of whoever sends them (a client's key, `send-keys -X`) under the screen's lock, as
//! a renderer reads it, so output parsing, commands and drawing never see half a change. Every
//! change stamps the whole screen changed, so every renderer draws the view (or, on leaving,
//! the live screen) whole.

use super::snapshot::{snapshot_of, PaneSnapshot};
use super::{PaneHandle, PaneShared};
use crate::copy::{self, CopyMode, Lines, Outcome, Pos};
use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use weft_screen_model::{CursorState, Screen};

/// The most prompt marks kept per pane (OSC 133), oldest dropped first.
pub(super) const MAX_PROMPT_MARKS: usize = 10_000;

/// What happened to a pane's copy mode.
#[derive(Debug, PartialEq, Eq)]
pub enum CopyResult {
    /// The pane is not in copy mode.
    NotInMode,
    /// The command ran; this is what it asks for.
    Ran(Outcome),
}

impl PaneShared {
    /// What a renderer draws of the pane: the copy-mode view while it is on, else the rows of
    /// `screen` changed after `since`.
    pub(super) fn snapshot_from(&self, screen: &Screen, since: u64) -> PaneSnapshot {
        if !self.in_copy_mode.load(Ordering::Acquire) {
            return snapshot_of(screen, since);
        }
        let Ok(mode) = self.copy.lock() else {
            return snapshot_of(screen, since);
        };
        let Some(mode) = mode.as_ref() else {
            return snapshot_of(screen, since);
        };
        let mut snapshot = snapshot_of(screen, u64::MAX);
        let mut mode = mode.clone();
        let lines = Lines::new(screen);
        mode.clamp(&lines);
        // The program's colours are put on its cells here, under copy mode's highlights.
        let view = copy::view::render(&mode, &lines, snapshot.colours.take().as_deref());
        // Rows only when something changed; the cursor always (a frame drawn for another
        // reason, an overlay closing, must put the copy cursor back, not the program's).
        if since < screen.seqno() {
            snapshot.changed = view.rows.into_iter().enumerate().collect();
        }
        snapshot.cursor = match view.cursor {
            Some((row, col)) => CursorState {
                row,
                col,
                visible: true,
                style: snapshot.cursor.style,
                pending_wrap: false,
                colour: snapshot.cursor.colour,
            },
            None => CursorState {
                visible: false,
                ..snapshot.cursor
            },
        };
        snapshot
    }

    /// Notes an OSC 133 prompt mark at screen row `row` (for `next-prompt`).
    /// The shell said a command finished, in screen revision `revision`, with its status
    /// if it gave one.
    pub(super) fn command_finished(&self, status: Option<i32>, revision: u64) {
        let status = status.map_or(super::shared::NO_STATUS, i64::from);
        self.last_command_status.store(status, Ordering::Release);
        self.commands_finished.fetch_add(1, Ordering::AcqRel);
        self.last_command_end.store(revision, Ordering::Release);
    }

    pub(super) fn note_prompt(&self, screen: &Screen, row: usize) {
        let line = screen.scrollback().pushed() + row as u64;
        if let Ok(mut marks) = self.prompts.lock() {
            if marks.back().is_some_and(|&last| last >= line) {
                // A prompt redrawn on its own line, or the screen cleared: keep them in order.
                while marks.back().is_some_and(|&last| last >= line) {
                    marks.pop_back();
                }
            }
            marks.push_back(line);
            if marks.len() > MAX_PROMPT_MARKS {
                marks.pop_front();
            }
        }
    }

    /// Shows a change of copy mode: every renderer draws the pane whole.
    fn copy_changed(&self, screen: &mut Screen) {
        screen.redraw_all();
        self.publish_from(screen);
    }
}

impl PaneHandle {
    /// Whether the pane is in copy mode.
    pub fn in_copy_mode(&self) -> bool {
        self.shared.in_copy_mode.load(Ordering::Acquire)
    }

    /// Puts the pane in copy mode (nothing when it is already) with `settings` (vi keys select
    /// the cursor's cell too); `exit_at_bottom` leaves when scrolled back to the bottom.
    pub fn enter_copy_mode(&self, settings: &crate::copy::Settings, exit_at_bottom: bool) {
        let shared = &self.shared;
        let mut screen = shared.screen();
        if let Ok(mut mode) = shared.copy.lock() {
            match mode.as_mut() {
                Some(m) => m.exit_at_bottom &= exit_at_bottom,
                None => {
                    let mut m = CopyMode::enter(&screen, settings.vi, exit_at_bottom);
                    m.separators.clone_from(&settings.separators);
                    m.styles = settings.styles;
                    m.wrap_search = settings.wrap_search;
                    m.hide_position = settings.hide_position;
                    *mode = Some(Box::new(m));
                }
            }
        }
        shared.in_copy_mode.store(true, Ordering::Release);
        shared.copy_changed(&mut screen);
        drop(screen);
        shared.notify_watchers();
    }

    /// The word and the line under the copy-mode cursor, while the pane is in copy mode.
    pub fn copy_cursor_text(&self) -> Option<(String, String)> {
        if !self.in_copy_mode() {
            return None;
        }
        let screen = self.shared.screen();
        let mode = self.shared.copy.lock().ok()?;
        mode.as_ref().map(|m| m.cursor_text(&screen))
    }

    /// The word and the line at `row`, `col` of the pane's screen (`mouse_word`,
    /// `mouse_line`), words ended by `separators`.
    pub fn word_and_line_at(&self, row: u16, col: u16, separators: &str) -> (String, String) {
        let screen = self.shared.screen();
        let line = copy::Lines::new(&screen).history_end() + u64::from(row);
        copy::word_and_line(&screen, separators, Pos::new(line, usize::from(col)))
    }

    /// Leaves copy mode (nothing when the pane is not in it).
    pub fn leave_copy_mode(&self) {
        let shared = &self.shared;
        let mut screen = shared.screen();
        let was = shared
            .copy
            .lock()
            .map(|mut m| m.take().is_some())
            .unwrap_or(false);
        shared.in_copy_mode.store(false, Ordering::Release);
        if was {
            shared.copy_changed(&mut screen);
            drop(screen);
            shared.notify_watchers();
        }
    }

    /// Runs copy-mode command `name` `count` times; leaves copy mode when it says so. An
    /// unknown command is an error sentence.
    pub fn copy_command(
        &self,
        name: &str,
        args: &[String],
        count: usize,
    ) -> Result<CopyResult, String> {
        let shared = &self.shared;
        let mut screen = shared.screen();
        let prompts: Vec<u64> = shared
            .prompts
            .lock()
            .map(|p| p.iter().copied().collect())
            .unwrap_or_default();
        let outcome = {
            let Ok(mut guard) = shared.copy.lock() else {
                return Ok(CopyResult::NotInMode);
            };
            let Some(mode) = guard.as_mut() else {
                return Ok(CopyResult::NotInMode);
            };
            let outcome = copy::run(mode, &screen, &prompts, name, args, count)?;
            let leave = matches!(outcome, Outcome::Leave | Outcome::Copy { leave: true, .. });
            if leave {
                *guard = None;
                shared.in_copy_mode.store(false, Ordering::Release);
            }
            outcome
        };
        shared.copy_changed(&mut screen);
        drop(screen);
        shared.notify_watchers();
        Ok(CopyResult::Ran(outcome))
    }

    /// The pane's screen row and column `(row, col)` as a copy-mode position, and the word
    /// around it: for mouse selection. `None` when not in copy mode.
    pub fn copy_select_at(&self, row: usize, col: usize, how: MouseSelect) -> Option<Outcome> {
        let shared = &self.shared;
        let mut screen = shared.screen();
        let outcome = {
            let mut guard = shared.copy.lock().ok()?;
            let mode = guard.as_mut()?;
            let separators = mode.separators.clone();
            let lines = Lines::new(&screen).with_separators(&separators);
            mode.clamp(&lines);
            let at = copy::view::position_at(mode, &lines, row, col);
            let sel = |anchor, kind| copy::select::Selection { anchor, kind };
            match how {
                MouseSelect::Start => {
                    mode.cursor = at;
                    mode.selection = Some(sel(at, copy::select::Kind::Char));
                    None
                }
                MouseSelect::Extend => {
                    mode.cursor = at;
                    None
                }
                MouseSelect::Word => {
                    let (start, end) = copy::motion::word_around(&lines, at);
                    mode.selection = Some(sel(start, copy::select::Kind::Char));
                    mode.cursor = end;
                    None
                }
                MouseSelect::Line => {
                    mode.cursor = at;
                    mode.selection = Some(sel(at, copy::select::Kind::Line));
                    None
                }
                MouseSelect::Copy => {
                    let selection = mode.selection.take()?;
                    let text = copy::select::Span::new(&selection, mode.cursor, true).text(&lines);
                    Some(Outcome::Copy {
                        text,
                        append: false,
                        leave: false,
                        pipe: None,
                        to_buffer: true,
                    })
                }
            }
        };
        shared.copy_changed(&mut screen);
        drop(screen);
        shared.notify_watchers();
        outcome
    }
}

/// What a mouse action does to a copy-mode selection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MouseSelect {
    /// A press: the selection starts here.
    Start,
    /// A drag: its other end moves here.
    Extend,
    /// A double click: the word here.
    Word,
    /// A triple click: the line here.
    Line,
    /// A release: the selection's text, to copy.
    Copy,
}

/// Prompt marks, oldest first.
pub(super) type PromptMarks = std::sync::Mutex<VecDeque<u64>>;
