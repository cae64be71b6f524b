//! Laying out the status line for one client's width, as tmux draws its default
//! `status-format`: `status-left` from the left edge (at most `status-left-length` columns),
//! `status-right` against the right edge (at most `status-right-length`), the window list
//! where `status-justify` puts it, scrolled around the current window between `<` and `>` when
//! it does not fit. `#[style]` runs change the pen (over each part's own base, which
//! `#[default]` returns to) and `#[align=...]` moves text to another part of the line. Pure.

use crate::session::StatusLine;
use crate::style::{self, Align, Style};
use weft_screen_model::{width::char_width, Cell, CellFlags, Color, Pen};

/// The status line's cells for `cols` columns, and where each window's tab is: its first
/// column, width and window index.
#[derive(Debug)]
pub struct StatusCells {
    /// Exactly `cols` cells.
    pub cells: Vec<Cell>,
    /// The tabs shown.
    pub places: Vec<(usize, usize, u32)>,
    /// The columns `status-left` takes from the left edge (tmux's `StatusLeft` for the mouse).
    pub left_cols: usize,
    /// The columns `status-right` takes at the right edge (`StatusRight`).
    pub right_cols: usize,
}

/// `text` (an expanded format with `#[style]` runs) as cells over `base`, every part of it in
/// order (`align=` is not a border's: it is ignored there).
pub fn styled_cells(text: &str, base: &Pen) -> Vec<Cell> {
    runs(text, base, Align::Left)
        .into_iter()
        .flat_map(|(_, cells)| cells)
        .collect()
}

/// The pen of the status line's base: tmux's default cell with `status-style` over it.
pub fn base_pen(status: &StatusLine) -> Pen {
    style::pen_or(&status.style, &Pen::default())
}

/// How `c` shows in the status line: a terminal control would act on the user's terminal, so
/// a tab shows as a space and any other as `_`.
fn shown(c: char) -> char {
    match c {
        '\t' => ' ',
        c if c.is_control() => '_',
        c => c,
    }
}

/// Cells of one character in `pen` (two for a wide one; none for one that takes no column).
fn push_char(out: &mut Vec<Cell>, c: char, pen: &Pen) {
    let c = shown(c);
    match char_width(c) {
        0 => {}
        2 => {
            out.push(Cell::new(c, pen, CellFlags::WIDE));
            out.push(Cell::spacer(pen));
        }
        _ => out.push(Cell::new(c, pen, CellFlags::empty())),
    }
}

/// `text` (an expanded format) as runs of cells, each with the part of the line it goes to:
/// `##` is a `#`, `#[...]` applies a style over the current one (its `default` is `base`), a
/// bad style is left out. Runs with no `align=` go to `part`.
fn runs(text: &str, base: &Pen, part: Align) -> Vec<(Align, Vec<Cell>)> {
    let mut out: Vec<(Align, Vec<Cell>)> = Vec::new();
    let (mut to, mut cells) = (part, Vec::new());
    let mut current = Style::of(base.clone());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("##") {
            push_char(&mut cells, '#', &current.pen);
            rest = after;
            continue;
        }
        if let Some((body, after)) = rest.strip_prefix("#[").and_then(|r| r.split_once(']')) {
            let before = current.align;
            // A bad style changes nothing, as tmux.
            let _ = style::apply(&mut current, base, body);
            if current.align != before {
                out.push((to, std::mem::take(&mut cells)));
                to = match current.align {
                    Align::Default => part,
                    align => align,
                };
            }
            rest = after;
            continue;
        }
        push_char(&mut cells, c, &current.pen);
        rest = &rest[c.len_utf8()..];
    }
    out.push((to, cells));
    out.retain(|(_, cells)| !cells.is_empty());
    out
}

/// Keeps at most `cols` columns of `runs`, in order; a wide character that would straddle the
/// limit is left out.
fn truncate(runs: &mut Vec<(Align, Vec<Cell>)>, cols: usize) {
    let mut left = cols;
    for (_, cells) in runs.iter_mut() {
        if cells.len() > left {
            let mut keep = left;
            if keep > 0 && cells[keep - 1].flags().contains(CellFlags::WIDE) {
                keep -= 1;
            }
            cells.truncate(keep);
        }
        left -= cells.len();
    }
    runs.retain(|(_, cells)| !cells.is_empty());
}

/// The window list's entries that fit in `room` columns, always with the current one: all of
/// them when they fit, else a run around the current one between `<` and `>` marking those
/// left out (tmux's scrolling window list). Returns the run's range and whether markers show.
fn visible(widths: &[usize], current: usize, room: usize) -> (std::ops::Range<usize>, bool) {
    let total: usize = widths.iter().sum();
    if total <= room || widths.is_empty() {
        return (0..widths.len(), false);
    }
    let current = current.min(widths.len() - 1);
    // Two columns for the markers.
    let room = room.saturating_sub(2);
    let (mut start, mut end) = (current, current + 1);
    let mut used = widths[current];
    loop {
        let mut grew = false;
        if end < widths.len() && used + widths[end] <= room {
            used += widths[end];
            end += 1;
            grew = true;
        }
        if start > 0 && used + widths[start - 1] <= room {
            start -= 1;
            used += widths[start];
            grew = true;
        }
        if !grew {
            break;
        }
    }
    (start..end, true)
}

/// The window list for `room` columns: its cells, and where each tab is within them.
fn window_list(
    status: &StatusLine,
    base: &Pen,
    room: usize,
) -> (Vec<Cell>, Vec<(usize, usize, u32)>) {
    let separator: Vec<Cell> = runs(&status.separator, base, Align::Default)
        .into_iter()
        .flat_map(|(_, cells)| cells)
        .collect();
    let count = status.windows.len();
    let tabs: Vec<Vec<Cell>> = status
        .windows
        .iter()
        .map(|w| {
            let pen = style::pen_or(&w.style, base);
            runs(&w.text, &pen, Align::Default)
                .into_iter()
                .flat_map(|(_, cells)| cells)
                .collect()
        })
        .collect();
    let widths: Vec<usize> = tabs
        .iter()
        .enumerate()
        .map(|(i, t)| t.len() + if i + 1 < count { separator.len() } else { 0 })
        .collect();
    let current = status.windows.iter().position(|w| w.current).unwrap_or(0);
    let (range, markers) = visible(&widths, current, room);
    let mut cells = Vec::new();
    let mut places = Vec::new();
    if markers {
        push_char(&mut cells, if range.start > 0 { '<' } else { ' ' }, base);
    }
    for i in range.clone() {
        places.push((cells.len(), tabs[i].len(), status.windows[i].index));
        cells.extend_from_slice(&tabs[i]);
        if i + 1 < count {
            cells.extend_from_slice(&separator);
        }
    }
    if markers && range.end < count {
        push_char(&mut cells, '>', base);
    }
    (cells, places)
}

/// Writes `cells` into `line` from column `at`, as far as the line goes (a wide character cut
/// by the edge is left out).
fn put(line: &mut [Cell], at: usize, cells: &[Cell], blank: &Cell) {
    for (i, cell) in cells.iter().enumerate() {
        let col = at + i;
        if col >= line.len() {
            break;
        }
        if cell.flags().contains(CellFlags::WIDE) && col + 1 >= line.len() {
            line[col] = blank.clone();
            break;
        }
        line[col] = cell.clone();
    }
}

/// The status line laid out for `cols` columns.
pub fn compose(status: &StatusLine, cols: usize) -> StatusCells {
    let base = base_pen(status);
    let left_pen = style::pen_or(&status.left_style, &base);
    let right_pen = style::pen_or(&status.right_style, &base);
    let mut left = runs(&status.left, &left_pen, Align::Left);
    truncate(&mut left, status.left_length.min(cols));
    let mut right = runs(&status.right, &right_pen, Align::Right);
    truncate(&mut right, status.right_length.min(cols));
    // Each part of the line: its cells, and where the window list goes in it.
    let mut parts: [Vec<Cell>; 4] = Default::default();
    let edge = |runs: &[(Align, Vec<Cell>)], at: Align| -> usize {
        runs.iter()
            .filter(|(a, _)| *a == at)
            .map(|(_, c)| c.len())
            .sum()
    };
    let (left_cols, right_cols) = (edge(&left, Align::Left), edge(&right, Align::Right));
    for (align, cells) in left.into_iter().chain(right) {
        parts[slot(align)].extend(cells);
    }
    let fixed: usize = parts.iter().map(Vec::len).sum();
    let (list, list_places) = window_list(status, &base, cols.saturating_sub(fixed));
    let list_part = slot(status.justify);
    // The list follows the left part's text and comes before the right part's.
    let list_at = if list_part == 2 {
        0
    } else {
        parts[list_part].len()
    };
    parts[list_part].splice(list_at..list_at, list.iter().cloned());
    let (line, starts) = lay_out(&parts, &base, cols);
    let places = list_places
        .into_iter()
        .map(|(at, width, index)| (starts[list_part] + list_at + at, width, index))
        .filter(|(at, _, _)| *at < cols)
        .collect();
    StatusCells {
        cells: line,
        places,
        left_cols,
        right_cols: right_cols.min(cols),
    }
}

/// Which of [`lay_out`]'s parts text aligned so goes to.
fn slot(align: Align) -> usize {
    match align {
        Align::Left | Align::Default => 0,
        Align::Centre => 1,
        Align::Right => 2,
        Align::AbsoluteCentre => 3,
    }
}

/// A line of `cols` cells from its parts (left, centre, right, absolute centre), and where
/// each part starts. The left part wins where parts meet, then the right.
fn lay_out(parts: &[Vec<Cell>; 4], base: &Pen, cols: usize) -> (Vec<Cell>, [usize; 4]) {
    let widths: Vec<usize> = parts.iter().map(Vec::len).collect();
    let starts = [
        0,
        widths[0]
            + cols
                .saturating_sub(widths[0] + widths[2])
                .saturating_sub(widths[1])
                / 2,
        cols.saturating_sub(widths[2]),
        cols.saturating_sub(widths[3]) / 2,
    ];
    let blank = Cell::erased(base);
    let mut line = vec![blank.clone(); cols];
    for i in [3, 1, 2, 0] {
        put(&mut line, starts[i], &parts[i], &blank);
    }
    (line, starts)
}

/// A status line drawn from a whole format (a user's `status-format[N]`), expanded, for
/// `cols` columns: its `#[align=...]` runs go left, centre or right over `status-style`.
pub fn compose_format(text: &str, status: &StatusLine, cols: usize) -> Vec<Cell> {
    let base = base_pen(status);
    let mut parts: [Vec<Cell>; 4] = Default::default();
    for (align, cells) in runs(text, &base, Align::Left) {
        parts[slot(align)].extend(cells);
    }
    for part in &mut parts {
        // Each part at most a line: a long format costs no more than that to lay out.
        part.truncate(cols);
    }
    lay_out(&parts, &base, cols).0
}

/// The pen a `*-style` option's text gives over tmux's default cell, or `fallback` when the
/// text is not a style.
pub fn option_pen(text: Option<&str>, fallback: Pen) -> Pen {
    match text.map(|t| style::parse(t, &Pen::default())) {
        Some(Ok(s)) => s.pen,
        _ => fallback,
    }
}

/// tmux's yellow-on-black default for messages, prompts and selections.
pub fn yellow() -> Pen {
    Pen {
        fg: Color::Indexed(0),
        bg: Color::Indexed(3),
        ..Pen::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::WindowTab;
    use weft_screen_model::Attrs;

    /// A status line of tmux's defaults, with windows `0`..`n` (the current one `current`),
    /// each tab's text as tmux's default format would expand it.
    fn line(left: &str, right: &str, n: u32, current: u32) -> StatusLine {
        StatusLine {
            row: 0,
            left: left.into(),
            right: right.into(),
            windows: (0..n)
                .map(|i| WindowTab {
                    index: i,
                    text: format!("{i}:bash{}", if i == current { "*" } else { " " }),
                    style: "default".into(),
                    current: i == current,
                })
                .collect(),
            separator: " ".into(),
            style: "bg=green,fg=black".into(),
            left_style: "default".into(),
            right_style: "default".into(),
            justify: Align::Left,
            left_length: 10,
            right_length: 40,
            first: None,
            more: Vec::new(),
        }
    }

    fn text(cells: &StatusCells) -> String {
        cells
            .cells
            .iter()
            .filter(|c| !c.flags().contains(CellFlags::SPACER))
            .map(|c| c.ch())
            .collect()
    }

    #[test]
    fn left_windows_and_right_as_tmux_default() {
        let s = line("[main] ", "\"host\" 09:05 24-Nov-26", 3, 1);
        let c = compose(&s, 60);
        let t = text(&c);
        assert_eq!(t.len(), 60);
        assert!(t.starts_with("[main] 0:bash  1:bash* 2:bash "), "{t:?}");
        assert!(t.ends_with("\"host\" 09:05 24-Nov-26"), "{t:?}");
        assert_eq!(c.places[1], (15, 7, 1));
        let pen = c.cells[0].pen();
        assert_eq!((pen.fg, pen.bg), (Color::Indexed(0), Color::Indexed(2)));
    }

    #[test]
    fn lengths_cut_the_left_and_right_parts() {
        let s = line("[a-very-long-session] ", "0123456789", 1, 0);
        let mut s2 = s.clone();
        s2.right_length = 4;
        let t = text(&compose(&s2, 40));
        assert!(t.starts_with("[a-very-lo0:bash*"), "{t:?}");
        assert!(t.ends_with(" 0123"), "{t:?}");
    }

    #[test]
    fn styles_apply_over_each_part_and_default_returns_to_it() {
        let s = line("#[fg=red,bold]R#[default]D##", "#[bg=colour123]X", 1, 0);
        let c = compose(&s, 30);
        assert_eq!(text(&c).chars().take(3).collect::<String>(), "RD#");
        let r = c.cells[0].pen();
        assert_eq!(r.fg, Color::Indexed(1));
        assert_eq!(r.bg, Color::Indexed(2), "over the status style");
        assert!(r.attrs.contains(Attrs::BOLD));
        let d = c.cells[1].pen();
        assert_eq!((d.fg, d.attrs), (Color::Indexed(0), Attrs::empty()));
        assert_eq!(c.cells[29].pen().bg, Color::Indexed(123));
        // A bad style is left out and changes nothing.
        let t = text(&compose(&line("#[sparkly]ok", "", 1, 0), 20));
        assert!(t.starts_with("ok0:bash*"), "{t:?}");
    }

    #[test]
    fn justify_places_the_window_list() {
        let mut s = line("", "", 1, 0);
        s.windows[0].text = "0:w*".into();
        s.justify = Align::Right;
        assert!(text(&compose(&s, 20)).ends_with("0:w*"));
        s.justify = Align::Centre;
        let c = compose(&s, 20);
        assert_eq!(c.places[0].0, 8, "{:?}", text(&c));
        s.justify = Align::AbsoluteCentre;
        s.left = "LEFT".into();
        let c = compose(&s, 20);
        assert_eq!(
            c.places[0].0,
            8,
            "centred on the whole line: {:?}",
            text(&c)
        );
        // align= inside a part moves its text.
        let mut s = line("#[align=right]R", "", 1, 0);
        s.windows[0].text = "0:w*".into();
        assert!(text(&compose(&s, 20)).ends_with('R'));
    }

    #[test]
    fn a_long_window_list_scrolls_around_the_current_window() {
        let s = line("[s] ", "", 30, 25);
        let c = compose(&s, 44);
        let t = text(&c);
        assert!(
            t.starts_with("[s] <") && t.trim_end().ends_with('>'),
            "{t:?}"
        );
        let at = c.places.iter().find(|p| p.2 == 25).unwrap();
        assert_eq!(&t[at.0..at.0 + at.1], "25:bash*");
        let first = text(&compose(&line("[s] ", "", 30, 0), 44));
        assert!(first.starts_with("[s]  0:bash*"), "{first:?}");
        let last = text(&compose(&line("[s] ", "", 30, 29), 44));
        assert!(
            last.starts_with("[s] <") && last.contains("29:bash*"),
            "{last:?}"
        );
    }

    #[test]
    fn controls_in_text_show_as_text_and_wide_characters_are_not_split() {
        let mut s = line("a\x1b[2J\tb", "", 1, 0);
        s.left_length = 10;
        let t = text(&compose(&s, 20));
        assert!(t.starts_with("a_[2J b"), "{t:?}");
        let mut s = line("\u{5b57}\u{5b57}", "", 0, 0);
        s.left_length = 3;
        let c = compose(&s, 10);
        assert_eq!(text(&c).chars().next(), Some('\u{5b57}'));
        assert_eq!(c.cells[2].ch(), ' ', "half a wide character is not drawn");
    }

    #[test]
    fn a_format_line_puts_its_aligned_runs_left_centre_and_right() {
        let status = line("", "", 1, 0);
        let cells = compose_format("L#[align=centre]C#[align=right]R", &status, 11);
        let text: String = cells.iter().map(|c| c.text().to_string()).collect();
        assert_eq!(text, "L    C    R");
        let red = compose_format("#[fg=red]x", &status, 3);
        assert_eq!(red[0].pen().fg, Color::Indexed(1));
        assert_eq!(
            red[1].pen().bg,
            base_pen(&status).bg,
            "blank over status-style"
        );
    }
}
