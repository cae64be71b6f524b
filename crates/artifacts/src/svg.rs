//! A screen as an SVG picture: its cells' text in their colours (16, 256 and truecolour
//! resolved to hex), bold, italic, underline, strike-through, inverse, dim and hidden, wide
//! characters over two cells, and the cursor as a block when it is visible.
//!
//! Text is drawn in runs: one `<text>` per run of cells of the same style and width (a run of
//! wide characters is its own, so every run can be stretched to its cells exactly), and one
//! `<rect>` per run of the same background. Colours a program set (OSC 4/10/11/12) win, then
//! those weft learned from the user's terminal, then a fixed dark theme ([`Theme::dark`]).

use weft_screen_model::palette::xterm_color;
use weft_screen_model::{Attrs, Cell, Color, Rgb, Screen, UnderlineStyle};

/// Width of a cell, in SVG units (the font size is [`FONT_SIZE`]; monospace glyphs are about
/// 0.6 em wide).
pub const CELL_WIDTH: f64 = 8.4;
/// Height of a row, in SVG units.
pub const CELL_HEIGHT: f64 = 17.0;
/// The font size, in SVG units.
pub const FONT_SIZE: f64 = 14.0;
/// Where the baseline sits in a row, from its top.
const BASELINE: f64 = 13.0;

/// The colours of a picture where the screen leaves them to the terminal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Theme {
    /// Default foreground.
    pub foreground: Rgb,
    /// Default background.
    pub background: Rgb,
    /// The cursor block.
    pub cursor: Rgb,
    /// The 16 ANSI colours.
    pub ansi: [Rgb; 16],
}

impl Theme {
    /// A fixed dark theme (xterm's colours on near-black).
    pub fn dark() -> Self {
        Theme {
            foreground: Rgb::new(0xe5, 0xe5, 0xe5),
            background: Rgb::new(0x1e, 0x1e, 0x1e),
            cursor: Rgb::new(0xe5, 0xe5, 0xe5),
            ansi: std::array::from_fn(|i| xterm_color(i as u8)),
        }
    }

    /// The dark theme with what `screen` knows of the user's terminal's colours (learned by
    /// the server) and what its program set put over it.
    pub fn for_screen(screen: &Screen) -> Self {
        let mut theme = Theme::dark();
        let host = screen.host_colors();
        let palette = screen.palette();
        theme.foreground = host.foreground.unwrap_or(theme.foreground);
        theme.background = host.background.unwrap_or(theme.background);
        theme.cursor = host.cursor.unwrap_or(theme.foreground);
        for (i, slot) in theme.ansi.iter_mut().enumerate() {
            *slot = host.ansi[i].unwrap_or(*slot);
        }
        if palette.dynamic_is_set(0) {
            theme.foreground = palette.foreground;
        }
        if palette.dynamic_is_set(1) {
            theme.background = palette.background;
        }
        if palette.dynamic_is_set(2) {
            theme.cursor = palette.cursor;
        }
        for i in 0..16u8 {
            if let Some(rgb) = palette.program_entry(i) {
                theme.ansi[usize::from(i)] = rgb;
            }
        }
        theme
    }
}

/// How one cell looks, with its colours resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Look {
    fg: Rgb,
    bg: Rgb,
    bold: bool,
    italic: bool,
    underline: bool,
    strike: bool,
}

/// The visible screen of `screen` as an SVG document, in the colours [`Theme::for_screen`]
/// gives it.
pub fn screen_svg(screen: &Screen) -> String {
    screen_svg_with(screen, &Theme::for_screen(screen))
}

/// The visible screen of `screen` as an SVG document, in `theme`'s colours where the cells
/// leave them to the terminal.
pub fn screen_svg_with(screen: &Screen, theme: &Theme) -> String {
    let cols = screen.cols();
    let rows = screen.rows();
    let width = cols as f64 * CELL_WIDTH;
    let height = rows as f64 * CELL_HEIGHT;
    let mut out = String::new();
    out.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.1}\" height=\"{height:.1}\" \
         viewBox=\"0 0 {width:.1} {height:.1}\" font-family=\"ui-monospace, Menlo, Consolas, \
         'DejaVu Sans Mono', monospace\" font-size=\"{FONT_SIZE}\" xml:space=\"preserve\">\n"
    ));
    out.push_str(&format!(
        "<rect width=\"100%\" height=\"100%\" fill=\"{}\"/>\n",
        hex(theme.background)
    ));
    let cursor = screen.cursor_state();
    let cursor_at = cursor
        .visible
        .then(|| (cursor.row, cursor.col.min(cols.saturating_sub(1))));
    let mut texts = String::new();
    for (r, row) in screen.visible_rows().enumerate() {
        let y = r as f64 * CELL_HEIGHT;
        let mut runs: Vec<Run> = Vec::new();
        let mut col = 0;
        for cell in row.cells() {
            if cell.is_spacer() {
                continue;
            }
            let wide = cell.width() == 2;
            let mut look = look_of(cell, screen, theme);
            if cursor_at == Some((r, col)) {
                look.bg = theme.cursor;
                look.fg = theme.background;
            }
            let mut text = String::new();
            cell.push_text(&mut text);
            if text.is_empty() {
                text.push(' ');
            }
            match runs.last_mut() {
                Some(run) if run.look == look && run.wide == wide => {
                    run.text.push_str(&text);
                    run.cells += cell.width().max(1);
                }
                _ => runs.push(Run {
                    col,
                    cells: cell.width().max(1),
                    look,
                    wide,
                    text,
                }),
            }
            col += cell.width().max(1);
        }
        draw_backgrounds(&mut out, &runs, theme, y);
        for run in &runs {
            draw_text(&mut texts, run, y);
        }
    }
    out.push_str(&texts);
    out.push_str("</svg>\n");
    out
}

/// Cells of one look side by side.
struct Run {
    col: usize,
    cells: usize,
    look: Look,
    wide: bool,
    text: String,
}

/// One rectangle per stretch of the same background that is not the default.
fn draw_backgrounds(out: &mut String, runs: &[Run], theme: &Theme, y: f64) {
    let mut i = 0;
    while i < runs.len() {
        let bg = runs[i].look.bg;
        let start = runs[i].col;
        let mut end = start + runs[i].cells;
        i += 1;
        while i < runs.len() && runs[i].look.bg == bg {
            end = runs[i].col + runs[i].cells;
            i += 1;
        }
        if bg != theme.background {
            out.push_str(&format!(
                "<rect x=\"{:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{CELL_HEIGHT:.1}\" fill=\"{}\"/>\n",
                start as f64 * CELL_WIDTH,
                (end - start) as f64 * CELL_WIDTH,
                hex(bg)
            ));
        }
    }
}

fn draw_text(out: &mut String, run: &Run, y: f64) {
    let shown = run.text.trim_end_matches(' ');
    if shown.trim_start_matches(' ').is_empty() && !run.look.underline && !run.look.strike {
        return;
    }
    // Trailing blanks carry nothing to see but a line through or under them.
    let (text, cells) = if run.look.underline || run.look.strike || run.wide {
        (run.text.as_str(), run.cells)
    } else {
        (shown, run.cells - (run.text.len() - shown.len()))
    };
    let look = &run.look;
    out.push_str(&format!(
        "<text x=\"{:.1}\" y=\"{:.1}\" textLength=\"{:.1}\" lengthAdjust=\"spacingAndGlyphs\" fill=\"{}\"",
        run.col as f64 * CELL_WIDTH,
        y + BASELINE,
        cells as f64 * CELL_WIDTH,
        hex(look.fg)
    ));
    if look.bold {
        out.push_str(" font-weight=\"bold\"");
    }
    if look.italic {
        out.push_str(" font-style=\"italic\"");
    }
    match (look.underline, look.strike) {
        (true, true) => out.push_str(" text-decoration=\"underline line-through\""),
        (true, false) => out.push_str(" text-decoration=\"underline\""),
        (false, true) => out.push_str(" text-decoration=\"line-through\""),
        (false, false) => {}
    }
    out.push('>');
    push_xml_text(out, text);
    out.push_str("</text>\n");
}

fn look_of(cell: &Cell, screen: &Screen, theme: &Theme) -> Look {
    let attrs = cell.attrs();
    let mut fg = resolve(cell.fg(), theme.foreground, screen, theme);
    let mut bg = resolve(cell.bg(), theme.background, screen, theme);
    if attrs.contains(Attrs::INVERSE) != screen.modes().reverse_video {
        std::mem::swap(&mut fg, &mut bg);
    }
    if attrs.contains(Attrs::DIM) {
        fg = blend(fg, bg);
    }
    if attrs.contains(Attrs::HIDDEN) {
        fg = bg;
    }
    Look {
        fg,
        bg,
        bold: attrs.contains(Attrs::BOLD),
        italic: attrs.contains(Attrs::ITALIC),
        underline: attrs.underline() != UnderlineStyle::None,
        strike: attrs.contains(Attrs::STRIKE),
    }
}

/// A cell's colour as RGB: the default as `default`, palette entries as the program set them,
/// else the theme's (0..15) or xterm's (16..255).
fn resolve(color: Color, default: Rgb, screen: &Screen, theme: &Theme) -> Rgb {
    match color {
        Color::Default => default,
        Color::Indexed(i) => match screen.palette().program_entry(i) {
            Some(rgb) => rgb,
            None if i < 16 => theme.ansi[usize::from(i)],
            None => xterm_color(i),
        },
        Color::Rgb(rgb) => rgb,
    }
}

/// Half way from `fg` to `bg`: dim text.
fn blend(fg: Rgb, bg: Rgb) -> Rgb {
    let mid = |a: u8, b: u8| ((u16::from(a) + u16::from(b)) / 2) as u8;
    Rgb::new(mid(fg.r, bg.r), mid(fg.g, bg.g), mid(fg.b, bg.b))
}

/// `#rrggbb`.
pub fn hex(rgb: Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", rgb.r, rgb.g, rgb.b)
}

/// Appends `text` escaped for XML; characters XML 1.0 does not allow become U+FFFD.
fn push_xml_text(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(' '),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_colours_wide_characters_and_escapes() {
        let mut screen = Screen::new(20, 3);
        screen.feed(b"\x1b[31mred\x1b[0m <&> \x1b[1;38;2;1;2;3mrgb\x1b[0m\r\n");
        screen.feed("\x1b[38;5;196m世界\x1b[0mx\x1b[7minv\x1b[0m".as_bytes());
        let svg = screen_svg_with(&screen, &Theme::dark());
        // Red from the theme's ANSI colours, one run for three cells.
        assert!(
            svg.contains(&format!("fill=\"{}\">red</text>", hex(xterm_color(1)))),
            "{svg}"
        );
        assert!(svg.contains("> &lt;&amp;&gt;</text>"), "{svg}");
        assert!(
            svg.contains("fill=\"#010203\" font-weight=\"bold\">rgb</text>"),
            "{svg}"
        );
        // The wide run spans four cells, starting at column 0; x follows it at column 4.
        assert!(svg.contains("textLength=\"33.6\" lengthAdjust=\"spacingAndGlyphs\" fill=\"#ff0000\">世界</text>"), "{svg}");
        assert!(
            svg.contains(&format!("x=\"{:.1}\"", 4.0 * CELL_WIDTH)),
            "{svg}"
        );
        // Inverse: a rectangle in the foreground colour behind text in the background one.
        let dark = Theme::dark();
        assert!(
            svg.contains(&format!("fill=\"{}\">inv</text>", hex(dark.background))),
            "{svg}"
        );
        // The inverse cells and the cursor block after them (both in the foreground colour)
        // are one rectangle of four cells.
        assert!(
            svg.contains(&format!(
                "<rect x=\"{:.1}\" y=\"{CELL_HEIGHT:.1}\" width=\"{:.1}\"",
                5.0 * CELL_WIDTH,
                4.0 * CELL_WIDTH
            )),
            "{svg}"
        );
    }

    #[test]
    fn program_colours_win_over_the_theme() {
        let mut screen = Screen::new(10, 2);
        screen.feed(b"\x1b]4;1;rgb:12/34/56\x07\x1b[31mX\x1b[?25l");
        let svg = screen_svg(&screen);
        assert!(svg.contains("fill=\"#123456\">X</text>"), "{svg}");
        // Hidden cursor: no block.
        assert_eq!(svg.matches("<rect").count(), 1, "{svg}");
    }
}
