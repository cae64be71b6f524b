//! The colours a pane is drawn in where its program or its host changed them, as a terminal
//! would draw them: palette entries a program set with OSC 4 (or the host set, tmux's
//! `pane-colours`) replace those indexed colours, and the default foreground and background a
//! program set with OSC 10 and 11 replace the terminal's defaults.

use crate::cell::{Attrs, Cell, Color, Rgb};

/// The changed colours of one pane; shared by the pane's snapshots and its renderers, and
/// made only while something is changed (most panes have none).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PaneColours {
    /// Palette entries drawn as another colour.
    entries: Box<[Option<Color>; 256]>,
    /// The default foreground drawn as this colour (OSC 10).
    pub foreground: Option<Rgb>,
    /// The default background drawn as this colour (OSC 11).
    pub background: Option<Rgb>,
}

impl PaneColours {
    /// No colour changed.
    pub fn new() -> Self {
        PaneColours {
            entries: Box::new([None; 256]),
            foreground: None,
            background: None,
        }
    }

    /// Palette entry `i` is drawn as `colour` (`None`: as the terminal has it).
    pub fn set_entry(&mut self, i: u8, colour: Option<Color>) {
        self.entries[usize::from(i)] = colour;
    }

    /// What palette entry `i` is drawn as, when changed.
    pub fn entry(&self, i: u8) -> Option<Color> {
        self.entries[usize::from(i)]
    }

    /// Whether nothing is changed.
    pub fn is_empty(&self) -> bool {
        self.foreground.is_none()
            && self.background.is_none()
            && self.entries.iter().all(Option::is_none)
    }

    /// `cell` in these colours. A bold cell in one of the eight ANSI colours looks up the
    /// bright entry instead, as tmux does (a terminal that brightens bold text shows the bright
    /// colour); unchanged, it is left to the terminal.
    pub fn recolour(&self, cell: &mut Cell) {
        let bold = cell.attrs().contains(Attrs::BOLD);
        let fg = match cell.fg() {
            Color::Default => self.foreground.map_or(Color::Default, Color::Rgb),
            Color::Indexed(i) if bold && i < 8 => self.entry(i + 8).unwrap_or(Color::Indexed(i)),
            other => self.mapped(other),
        };
        let bg = match cell.bg() {
            Color::Default => self.background.map_or(Color::Default, Color::Rgb),
            other => self.mapped(other),
        };
        if (fg, bg) != (cell.fg(), cell.bg()) {
            cell.set_colors(fg, bg);
        }
    }

    /// An indexed colour as drawn here; other colours as they are.
    fn mapped(&self, colour: Color) -> Color {
        match colour {
            Color::Indexed(i) => self.entry(i).unwrap_or(colour),
            other => other,
        }
    }
}

impl Default for PaneColours {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::Pen;

    fn cell(fg: Color, bg: Color, attrs: Attrs) -> Cell {
        let pen = Pen {
            fg,
            bg,
            attrs,
            ..Pen::default()
        };
        Cell::new('x', &pen, Default::default())
    }

    #[test]
    fn changed_entries_and_defaults_replace_colours_and_others_stay() {
        let red = Rgb::new(0xff, 0x10, 0x10);
        let mut colours = PaneColours::new();
        assert!(colours.is_empty());
        colours.set_entry(1, Some(Color::Rgb(red)));
        colours.set_entry(12, Some(Color::Indexed(200)));
        colours.background = Some(Rgb::new(1, 2, 3));
        assert!(!colours.is_empty());

        let mut c = cell(Color::Indexed(1), Color::Default, Attrs::empty());
        colours.recolour(&mut c);
        assert_eq!(
            (c.fg(), c.bg()),
            (Color::Rgb(red), Color::Rgb(Rgb::new(1, 2, 3)))
        );

        let mut c = cell(Color::Indexed(2), Color::Indexed(12), Attrs::empty());
        colours.recolour(&mut c);
        assert_eq!((c.fg(), c.bg()), (Color::Indexed(2), Color::Indexed(200)));

        let mut c = cell(Color::Rgb(red), Color::Indexed(3), Attrs::empty());
        colours.recolour(&mut c);
        assert_eq!((c.fg(), c.bg()), (Color::Rgb(red), Color::Indexed(3)));
    }

    #[test]
    fn bold_ansi_text_takes_the_bright_entry_when_it_is_changed() {
        let mut colours = PaneColours::new();
        colours.set_entry(4, Some(Color::Indexed(17)));
        let mut c = cell(Color::Indexed(4), Color::Default, Attrs::BOLD);
        colours.recolour(&mut c);
        assert_eq!(c.fg(), Color::Indexed(4), "the bright entry is not changed");
        colours.set_entry(12, Some(Color::Indexed(21)));
        let mut c = cell(Color::Indexed(4), Color::Default, Attrs::BOLD);
        colours.recolour(&mut c);
        assert_eq!(c.fg(), Color::Indexed(21));
    }
}
