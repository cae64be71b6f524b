//! What weft draws around and over the panes: borders, the status line and the client's
//! overlays (prompt, messages, listings).
//!
//! Text from outside the renderer (messages, typed input, session and window names) goes into
//! cells only through [`write_line`], which shows terminal controls as plain characters: a
//! cell's character is sent to the terminal as it is, so a line feed or an escape sequence in
//! a cell would act on the user's terminal (scroll it, clear it) instead of showing.

use super::compose::mouse_modes;
use super::status::{compose, compose_format, option_pen, yellow};
use super::Overlay;
use crate::config::Config;
use crate::session::{StatusLine, View};
use crate::theme::Theme;
use weft_renderer::Frame;
use weft_screen_model::{Cell, CellFlags, Color, Pen};

/// A pen of two colours and no attributes.
pub(super) fn pen(fg: Color, bg: Color) -> Pen {
    Pen {
        fg,
        bg,
        ..Pen::default()
    }
}

/// Borders, status line and overlays. Borders and the status line only with `full` (they
/// changed); the overlay and the mouse modes always (pane updates set the cursor and modes, and
/// may cover the overlay's lines).
pub(super) fn draw_chrome(
    view: &View,
    frame: &mut Frame,
    overlay: Option<&Overlay>,
    config: &Config,
    theme: Theme,
    full: bool,
) {
    if config.mouse {
        mouse_modes(frame);
    }
    if full {
        draw_unused(view, frame, fill_character(config));
        draw_borders(view, frame, config, theme);
        draw_titles(view, frame, config.pane_border_status);
        if let Some(status) = &view.status {
            draw_status(status, frame, config, theme);
        }
    }
    match overlay {
        Some(Overlay::Prompt {
            label,
            input,
            cursor,
            vi_command,
        }) => {
            let row = status_row(view, frame);
            let cols = frame.cols().max(1);
            // Long input scrolls: the part that holds the cursor is shown.
            let before: String = input.chars().take(*cursor).collect();
            let label_width = write_width(label);
            let room = cols.saturating_sub(label_width + 1).max(1);
            let skip = before.chars().count().saturating_sub(room);
            let shown: String = input.chars().skip(skip).collect();
            let text = format!("{label}{shown}");
            let style = if *vi_command {
                option_pen(
                    config
                        .themed_option("message-command-style", theme)
                        .as_deref(),
                    pen(Color::Indexed(3), Color::Indexed(0)),
                )
            } else {
                option_pen(
                    config.themed_option("message-style", theme).as_deref(),
                    yellow(),
                )
            };
            write_line(frame, row, &text, &style);
            let at = label_width + write_width(&before.chars().skip(skip).collect::<String>());
            frame.cursor = Some((row, at.min(cols - 1)));
        }
        Some(Overlay::Message(text)) => {
            let row = status_row(view, frame);
            let style = option_pen(
                config.themed_option("message-style", theme).as_deref(),
                yellow(),
            );
            write_line(frame, row, text, &style);
        }
        Some(Overlay::Lines(lines)) => {
            let top = usize::from(view.window.row);
            let rows = usize::from(view.window.rows);
            let style = pen(Color::Default, Color::Default);
            for (i, line) in lines.iter().take(rows).enumerate() {
                write_line(frame, top + i, line, &style);
            }
            for r in top + lines.len().min(rows)..top + rows {
                if r < frame.rows() {
                    frame.blank(r, 0, frame.cols());
                }
            }
            frame.cursor = None;
        }
        Some(Overlay::PaneNumbers {
            panes,
            style,
            active_style,
        }) => {
            let base = Pen::default();
            let (others, active) = (
                crate::style::pen_or(style, &base),
                crate::style::pen_or(active_style, &base),
            );
            for (rect, index, is_active) in panes {
                let pen = if *is_active { &active } else { &others };
                super::clock::draw(frame, *rect, index, pen);
            }
            frame.cursor = None;
        }
        Some(Overlay::Menu(menu)) => {
            super::menu::draw(frame, menu);
            frame.cursor = None;
        }
        Some(Overlay::Clock { time, style }) => {
            let rect = view
                .panes
                .iter()
                .find(|(p, _)| Some(p.id()) == view.active)
                .map_or(view.window, |(_, r)| *r);
            super::clock::draw(
                frame,
                rect,
                time,
                &crate::style::pen_or(style, &Pen::default()),
            );
            frame.cursor = None;
        }
        None => {}
    }
}

/// `fill-character`: one character of width one, else `None` (tmux ignores any other).
fn fill_character(config: &Config) -> Option<char> {
    let value = config.option_value("fill-character")?;
    let mut chars = value.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if !c.is_control() && weft_screen_model::width::char_width(c) == 1 => {
            Some(c)
        }
        _ => None,
    }
}

/// Fills what the client's terminal has beyond the session's size (the session follows a
/// smaller client that typed last) with a dim dotted pattern, as tmux does, so that it is not
/// taken for a blank part of a pane; with `fill`'s character instead when the window's
/// `fill-character` gives one.
fn draw_unused(view: &View, frame: &mut Frame, fill: Option<char>) {
    let (cols, rows) = (usize::from(view.cols), usize::from(view.rows));
    if frame.cols() <= cols && frame.rows() <= rows {
        return;
    }
    let style = pen(Color::Indexed(8), Color::Default);
    let dot = Cell::new(fill.unwrap_or('·'), &style, CellFlags::empty());
    for r in 0..frame.rows() {
        let from = if r < rows { cols } else { 0 };
        if from < frame.cols() {
            let cells = vec![dot.clone(); frame.cols() - from];
            frame.put(r, from, &cells);
        }
    }
}

/// Each pane's index and title in the border above or below it (`pane-border-status`),
/// sanitised and cut to the pane's width; the active pane's in the border highlight.
fn draw_titles(view: &View, frame: &mut Frame, place: crate::config::BorderStatus) {
    use crate::config::BorderStatus;
    if place == BorderStatus::Off || view.zoomed {
        return;
    }
    for (i, (pane, rect)) in view.panes.iter().enumerate() {
        let row = match place {
            BorderStatus::Top => usize::from(rect.row).checked_sub(1),
            _ => Some(usize::from(rect.row) + usize::from(rect.rows)),
        };
        let Some(row) = row.filter(|r| *r < frame.rows()) else {
            continue;
        };
        let style = if view.active == Some(pane.id()) {
            pen(Color::Indexed(2), Color::Default)
        } else {
            Pen::default()
        };
        // tmux's `pane-border-format`, expanded by the session, between a blank each side.
        let text = view.border_titles.get(i).map_or("", String::as_str);
        let mut cells = vec![Cell::new(' ', &style, CellFlags::empty())];
        cells.extend(super::status::styled_cells(text, &style));
        cells.push(Cell::new(' ', &style, CellFlags::empty()));
        let room = usize::from(rect.cols);
        if cells.len() > room {
            cells.truncate(room);
            // A wide character cut in half leaves no half behind.
            if cells
                .last()
                .is_some_and(|c| c.flags().contains(CellFlags::WIDE))
            {
                cells.pop();
            }
        }
        frame.put(row, usize::from(rect.col), &cells);
    }
}

/// The row prompts and messages use: the last status line's (as tmux 3.3), else the last.
fn status_row(view: &View, frame: &Frame) -> usize {
    view.status
        .as_ref()
        .map_or(frame.rows().saturating_sub(1), |s| {
            usize::from(s.row) + s.more.len()
        })
        .min(frame.rows().saturating_sub(1))
}

/// How `c` shows in weft's own text. A terminal control (C0, DEL or C1) would act on the
/// user's terminal rather than show: a tab shows as a space, any other as `_`.
#[inline]
fn shown(c: char) -> char {
    match c {
        '\t' => ' ',
        c if c.is_control() => '_',
        c => c,
    }
}

/// Writes `text` from column 0 of `row`, padding the row with the style; returns the column
/// after the text. Terminal controls show as plain characters (see [`shown`]); characters that
/// take no column are left out.
pub(super) fn write_line(frame: &mut Frame, row: usize, text: &str, style: &Pen) -> usize {
    if row >= frame.rows() {
        return 0;
    }
    let cols = frame.cols();
    let mut cells = text_cells(text, style, cols);
    let end = cells.len();
    cells.resize(cols, Cell::erased(style));
    frame.put(row, 0, &cells);
    end
}

/// The cells of `text` in `style`, at most `room` columns (a wide character that would not fit
/// is left out); controls show as text (see `shown`).
pub(super) fn text_cells(text: &str, style: &Pen, room: usize) -> Vec<Cell> {
    let mut cells = Vec::with_capacity(room.min(text.len()));
    for c in text.chars().map(shown) {
        let w = weft_screen_model::width::char_width(c);
        if w == 0 {
            continue;
        }
        if cells.len() + w > room {
            break;
        }
        if w == 2 {
            cells.push(Cell::new(c, style, CellFlags::WIDE));
            cells.push(Cell::spacer(style));
        } else {
            cells.push(Cell::new(c, style, CellFlags::empty()));
        }
    }
    cells
}

/// The columns `text` takes as [`write_line`] writes it.
fn write_width(text: &str) -> usize {
    text.chars()
        .map(|c| weft_screen_model::width::char_width(shown(c)))
        .sum()
}

/// Lines between panes, highlighted next to the focused pane.
fn draw_borders(view: &View, frame: &mut Frame, config: &Config, theme: Theme) {
    if view.panes.len() < 2 {
        return;
    }
    let w = view.window;
    let covered = |c: u16, r: u16| {
        view.panes
            .iter()
            .any(|(_, p)| c >= p.col && c < p.col + p.cols && r >= p.row && r < p.row + p.rows)
    };
    let in_window = |c: i32, r: i32| {
        c >= i32::from(w.col)
            && c < i32::from(w.col + w.cols)
            && r >= i32::from(w.row)
            && r < i32::from(w.row + w.rows)
    };
    let border = |c: i32, r: i32| in_window(c, r) && !covered(c as u16, r as u16);
    let active = view
        .panes
        .iter()
        .find(|(p, _)| view.active == Some(p.id()))
        .map(|(_, r)| *r);
    let normal = option_pen(
        config.option_value("pane-border-style").as_deref(),
        Pen::default(),
    );
    let highlight = option_pen(
        config
            .themed_option("pane-active-border-style", theme)
            .as_deref(),
        pen(Color::Indexed(2), Color::Default),
    );
    let g = border_glyphs(config.option_value("pane-border-lines").as_deref());
    let arrows = matches!(
        config.option_value("pane-border-indicators").as_deref(),
        Some("arrows" | "both")
    ) && config.pane_border_status == crate::config::BorderStatus::Off;
    let arrow_at = |c: i32, r: i32| active.filter(|_| arrows).and_then(|a| arrow(a, c, r));
    for r in w.row..w.row + w.rows {
        for c in w.col..w.col + w.cols {
            if covered(c, r) {
                continue;
            }
            let (ci, ri) = (i32::from(c), i32::from(r));
            let up = border(ci, ri - 1);
            let down = border(ci, ri + 1);
            let left = border(ci - 1, ri);
            let right = border(ci + 1, ri);
            let glyph = match (up, down, left, right) {
                (true, true, true, true) => g[0],
                (true, true, false, true) => g[1],
                (true, true, true, false) => g[2],
                (false, true, true, true) => g[3],
                (true, false, true, true) => g[4],
                (false, true, false, true) => g[5],
                (false, true, true, false) => g[6],
                (true, false, false, true) => g[7],
                (true, false, true, false) => g[8],
                (_, _, true, _) | (_, _, _, true) => g[9],
                _ => g[10],
            };
            let next_to_active = active.is_some_and(|a| {
                ci >= i32::from(a.col) - 1
                    && ci <= i32::from(a.col + a.cols)
                    && ri >= i32::from(a.row) - 1
                    && ri <= i32::from(a.row + a.rows)
            });
            let style = if next_to_active { &highlight } else { &normal };
            let glyph = arrow_at(ci, ri).unwrap_or(glyph);
            let cell = Cell::new(glyph, style, CellFlags::empty());
            frame.put(usize::from(r), usize::from(c), std::slice::from_ref(&cell));
        }
    }
}

/// The arrow `pane-border-indicators arrows` draws at (`c`, `r`) on the border of the active
/// pane at `a`, pointing at it, as tmux places them: on the top and bottom borders above and
/// below its second column, on the side borders beside its second row.
fn arrow(a: crate::layout::Rect, c: i32, r: i32) -> Option<char> {
    let (left, top) = (i32::from(a.col), i32::from(a.row));
    let (right, bottom) = (left + i32::from(a.cols), top + i32::from(a.rows));
    if c == left + 1 && r == top - 1 {
        Some('↓')
    } else if c == left + 1 && r == bottom {
        Some('↑')
    } else if r == top + 1 && c == left - 1 {
        Some('→')
    } else if r == top + 1 && c == right {
        Some('←')
    } else {
        None
    }
}

/// The border characters `pane-border-lines` asks for: a cross, tees right, left, down and
/// up, corners top-left, top-right, bottom-left and bottom-right, then horizontal and vertical.
pub(super) fn border_glyphs(lines: Option<&str>) -> [char; 11] {
    let set = match lines {
        Some("double") => "╬╠╣╦╩╔╗╚╝═║",
        Some("rounded") => "┼├┤┬┴╭╮╰╯─│",
        Some("padded") => "           ",
        Some("heavy") => "╋┣┫┳┻┏┓┗┛━┃",
        Some("simple") => "+++++++++-|",
        // `single` (tmux's default); `number` draws single lines here.
        _ => "┼├┤┬┴┌┐└┘─│",
    };
    let mut glyphs = ['│'; 11];
    for (slot, c) in glyphs.iter_mut().zip(set.chars()) {
        *slot = c;
    }
    glyphs
}

/// The status line, laid out for the frame's width (see [`super::status::compose`]). The
/// session expands it with tmux's default `status-style`; a client whose theme has another
/// default (and the user set none) draws it with the theme's.
fn draw_status(status: &StatusLine, frame: &mut Frame, config: &Config, theme: Theme) {
    let row = usize::from(status.row);
    if row >= frame.rows() {
        return;
    }
    let themed = match theme.default_of("status-style") {
        Some(style) if !config.options.contains_key("status-style") => {
            // The session's style is `status-style` with `status-fg`/`status-bg` after it.
            let usual = config.option_value("status-style").unwrap_or_default();
            let after = status.style.strip_prefix(usual.as_str()).unwrap_or("");
            let mut themed = status.clone();
            themed.style = format!("{style}{after}");
            Some(themed)
        }
        _ => None,
    };
    let status = themed.as_ref().unwrap_or(status);
    match &status.first {
        Some(format) => frame.put(row, 0, &compose_format(format, status, frame.cols())),
        None => frame.put(row, 0, &compose(status, frame.cols()).cells),
    }
    for (i, format) in status.more.iter().enumerate() {
        let row = row + 1 + i;
        if row < frame.rows() {
            frame.put(row, 0, &compose_format(format, status, frame.cols()));
        }
    }
}

/// The index of the window whose tab is at column `col` of a status line `cols` wide.
pub fn status_window_at(status: &StatusLine, cols: usize, col: usize) -> Option<u32> {
    // A user's own first line has no tabs weft knows the places of.
    if status.first.is_some() {
        return None;
    }
    compose(status, cols)
        .places
        .into_iter()
        .find(|(at, width, _)| col >= *at && col < at + width)
        .map(|(_, _, index)| index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Rect;

    use crate::session::WindowTab;
    use weft_renderer::Renderer;
    use weft_screen_model::Screen;

    const COLS: u16 = 30;
    const ROWS: u16 = 6;

    /// A view of one window over the whole client but the status line at the bottom, with
    /// `session` and `window` as the names it shows.
    fn view(session: &str, window: &str) -> View {
        View {
            cols: COLS,
            rows: ROWS,
            window: Rect {
                col: 0,
                row: 0,
                cols: COLS,
                rows: ROWS - 1,
            },
            panes: Vec::new(),
            active: None,
            zoomed: false,
            sync_panes: false,
            config: std::sync::Arc::default(),
            border_titles: Vec::new(),
            status: Some(StatusLine {
                row: ROWS - 1,
                left: format!("[{session}] "),
                right: String::new(),
                windows: vec![WindowTab {
                    index: 0,
                    text: format!("0:{window}*"),
                    style: "default".into(),
                    current: true,
                }],
                separator: " ".into(),
                style: "bg=green,fg=black".into(),
                left_style: "default".into(),
                right_style: "default".into(),
                justify: crate::style::Align::Left,
                left_length: 40,
                right_length: 40,
                first: None,
                more: Vec::new(),
            }),
            window_name: window.into(),
            generation: 0,
            repaint: 0,
            bells: 0,
            title: None,
            notification: None,
            progress: None,
            pane_styles: (None, None),
        }
    }

    /// The text of each row of `screen`.
    fn text_rows(screen: &Screen) -> Vec<String> {
        (0..screen.rows())
            .map(|r| screen.row(r).map(|row| row.text()).unwrap_or_default())
            .collect()
    }

    /// Renders `overlay` over a frame whose top row says `top row`, as the terminal shows it
    /// after the first frame and then the one with the overlay: the terminal's rows, and the
    /// second frame's bytes.
    fn shown_with(view: &View, overlay: &Overlay) -> (Vec<String>, Vec<u8>) {
        let (cols, rows) = (usize::from(COLS), usize::from(ROWS));
        let config = Config::default();
        let mut frame = Frame::new(cols, rows);
        let mut renderer = Renderer::new();
        let mut terminal = Screen::new(cols, rows);
        write_line(&mut frame, 0, "top row", &Pen::default());
        draw_chrome(view, &mut frame, None, &config, Theme::Dark, true);
        terminal.feed(&renderer.render(&mut frame));
        assert_eq!(text_rows(&terminal)[0], "top row");
        draw_chrome(view, &mut frame, Some(overlay), &config, Theme::Dark, true);
        let bytes = renderer.render(&mut frame);
        terminal.feed(&bytes);
        (text_rows(&terminal), bytes)
    }

    /// The bytes of a frame hold no control but the escape sequences the renderer makes: no
    /// line feed, carriage return, DEL, C1 control, and no clearing of the screen.
    fn assert_no_stray_controls(bytes: &[u8]) {
        let text = String::from_utf8_lossy(bytes);
        assert!(
            !bytes.iter().any(|&b| b != 0x1b && (b < 0x20 || b == 0x7f)),
            "{text:?}"
        );
        assert!(
            !text.chars().any(|c| ('\u{80}'..='\u{9f}').contains(&c)),
            "{text:?}"
        );
        assert!(!text.contains("\x1b[2J"), "{text:?}");
    }

    #[test]
    fn border_arrows_point_at_the_active_pane_from_each_side() {
        // A pane at columns 10-29, rows 5-14.
        let a = Rect::new(10, 5, 20, 10);
        assert_eq!(arrow(a, 11, 4), Some('↓'));
        assert_eq!(arrow(a, 11, 15), Some('↑'));
        assert_eq!(arrow(a, 9, 6), Some('→'));
        assert_eq!(arrow(a, 30, 6), Some('←'));
        assert_eq!(arrow(a, 12, 4), None);
        assert_eq!(arrow(a, 9, 7), None);
    }

    #[test]
    fn a_message_with_controls_stays_on_its_row_and_shows_them_as_text() {
        let view = view("s", "bash");
        let message = Overlay::Message("one\ntwo\x1b[2J\rthree\u{85}\x7f\tend".into());
        let (shown, bytes) = shown_with(&view, &message);
        assert_no_stray_controls(&bytes);
        assert_eq!(shown[0], "top row", "nothing scrolled or cleared");
        assert_eq!(shown[5], "one_two_[2J_three__ end");
        assert!(shown[1..5].iter().all(String::is_empty), "{shown:#?}");
    }

    #[test]
    fn names_prompts_and_listings_with_controls_show_them_as_text() {
        let view = view("se\x1b[Hss", "win\ndow");
        let lines = Overlay::Lines(vec![
            "first\r\x1b[5;1H".into(),
            "second\x1b]0;title\x07".into(),
        ]);
        let (shown, bytes) = shown_with(&view, &lines);
        assert_no_stray_controls(&bytes);
        assert_eq!(shown[0], "first__[5;1H");
        assert_eq!(shown[1], "second_]0;title_");
        // Controls in the status line's text show as text.
        assert!(shown[5].starts_with("[se_[Hss] 0:win_dow*"), "{shown:#?}");

        let prompt = Overlay::Prompt {
            label: ":".into(),
            input: "rename\x1b[2J\u{9b}".into(),
            cursor: 11,
            vi_command: false,
        };
        let (cols, rows) = (usize::from(COLS), usize::from(ROWS));
        let mut frame = Frame::new(cols, rows);
        draw_chrome(
            &view,
            &mut frame,
            Some(&prompt),
            &Config::default(),
            Theme::Dark,
            true,
        );
        let bytes = Renderer::new().render(&mut frame);
        let mut terminal = Screen::new(cols, rows);
        terminal.feed(&bytes);
        assert_eq!(text_rows(&terminal)[5], ":rename_[2J_");
        assert_eq!(frame.cursor, Some((5, 12)), "the cursor is after the text");
    }

    #[test]
    fn the_prompt_cursor_counts_columns_not_characters() {
        let (cols, rows) = (usize::from(COLS), usize::from(ROWS));
        let mut frame = Frame::new(cols, rows);
        let prompt = Overlay::Prompt {
            label: ":".into(),
            input: "\u{5b57}e\u{301}".into(),
            cursor: 3,
            vi_command: false,
        };
        draw_chrome(
            &view("s", "w"),
            &mut frame,
            Some(&prompt),
            &Config::default(),
            Theme::Dark,
            true,
        );
        assert_eq!(
            frame.cursor,
            Some((5, 4)),
            "a wide character is two columns"
        );
    }
}
