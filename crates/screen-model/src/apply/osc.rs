//! Operating system commands: titles, palette and dynamic colours, the working directory,
//! hyperlinks and the clipboard.

use crate::cell::Hyperlink;
use crate::handler::{DynamicColor, Terminator};
use crate::palette::{format_color_spec, parse_color_spec};
use crate::screen::{Event, Screen, MAX_TITLE_BYTES};
use std::sync::Arc;

/// Longest hyperlink URI kept; longer links are ignored.
const MAX_URI_BYTES: usize = 4096;

impl Screen {
    pub(super) fn apply_set_title(&mut self, title: &[u8], icon: bool, window: bool) {
        let clean = clean_title(title);
        if icon {
            self.icon_title = clean.clone();
        }
        if window && self.title != clean {
            self.title = clean.clone();
            self.event(Event::TitleChanged(clean));
        }
    }

    pub(super) fn apply_palette_color(
        &mut self,
        index: u8,
        spec: Option<&[u8]>,
        terminator: Terminator,
    ) {
        match spec {
            None => {
                // What the program set, else the host's entry (`pane-colours`), else what
                // the user's terminal said; else no answer.
                let host = self.host.ansi.get(usize::from(index)).copied().flatten();
                let answer = self.palette.program_entry(index);
                if let Some(rgb) = answer.or(self.palette.host_entry(index)).or(host) {
                    let reply = format!("\x1b]4;{index};{}", format_color_spec(rgb));
                    self.reply_with(reply, terminator);
                }
            }
            Some(spec) => {
                if let Some(rgb) = parse_color_spec(spec) {
                    self.palette.set(index, rgb);
                    self.palette_changed();
                }
            }
        }
    }

    pub(super) fn apply_reset_palette(&mut self, indices: &[u8]) {
        if indices.is_empty() {
            (0..=255).for_each(|i| self.palette.reset(i));
        } else {
            indices.iter().for_each(|&i| self.palette.reset(i));
        }
        self.palette_changed();
    }

    pub(super) fn apply_reset_dynamic_color(&mut self, which: DynamicColor) {
        self.palette.reset_dynamic(dynamic_bit(which));
        self.palette_changed();
    }

    /// The palette changed: when that changes the colours the pane is drawn in, every row is
    /// drawn again.
    fn palette_changed(&mut self) {
        if self.palette.rebuild_drawn() {
            self.touch_all();
        }
    }

    pub(super) fn apply_dynamic_color(
        &mut self,
        which: DynamicColor,
        spec: Option<&[u8]>,
        terminator: Terminator,
    ) {
        let bit = dynamic_bit(which);
        let (code, host) = match which {
            DynamicColor::Foreground => (10, self.host.foreground),
            DynamicColor::Background => (11, self.host.background),
            // The host's `cursor-colour` before the terminal's own.
            DynamicColor::Cursor => (12, self.palette.host_cursor().or(self.host.cursor)),
        };
        let palette = &mut self.palette;
        let set = palette.dynamic_is_set(bit);
        let slot = match which {
            DynamicColor::Foreground => &mut palette.foreground,
            DynamicColor::Background => &mut palette.background,
            DynamicColor::Cursor => &mut palette.cursor,
        };
        match spec {
            None => {
                // What the program set, else what the user's terminal said; else no answer.
                if let Some(rgb) = set.then_some(*slot).or(host) {
                    let reply = format!("\x1b]{code};{}", format_color_spec(rgb));
                    self.reply_with(reply, terminator);
                }
            }
            Some(spec) => {
                if let Some(rgb) = parse_color_spec(spec) {
                    *slot = rgb;
                    palette.mark_dynamic(bit);
                    self.palette_changed();
                }
            }
        }
    }

    pub(super) fn apply_set_cwd(&mut self, url: &[u8]) {
        if url.len() > MAX_URI_BYTES {
            return;
        }
        let url = String::from_utf8_lossy(url).into_owned();
        if self.cwd.as_deref() != Some(url.as_str()) {
            self.cwd = Some(url.clone());
            self.event(Event::CwdChanged(url));
        }
    }

    pub(super) fn apply_set_hyperlink(&mut self, link: Option<Hyperlink>) {
        let link = link.filter(|l| l.uri.len() <= MAX_URI_BYTES && l.id.len() <= MAX_URI_BYTES);
        self.cursor
            .pen
            .update_extra(|e| e.hyperlink = link.map(Arc::new));
        self.update_plain_print();
    }

    pub(super) fn apply_clipboard(&mut self, selection: &[u8], data: &[u8]) {
        let selection: String = selection
            .iter()
            .filter(|b| b"cpqs01234567".contains(b))
            .map(|&b| char::from(b))
            .collect();
        let selection = if selection.is_empty() {
            "s0".to_string()
        } else {
            selection
        };
        if data == b"?" {
            self.event(Event::ClipboardRead { selection });
        } else if data
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(b))
        {
            self.event(Event::ClipboardWrite {
                selection,
                base64: data.to_vec(),
            });
        }
    }

    fn reply_with(&mut self, mut reply: String, terminator: Terminator) {
        reply.push_str(match terminator {
            Terminator::Bel => "\x07",
            Terminator::St => "\x1b\\",
        });
        self.reply(reply.as_bytes());
    }
}

/// A title as shown: lossy UTF-8, control characters removed, capped at [`MAX_TITLE_BYTES`].
fn clean_title(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw);
    let mut out = String::new();
    for c in text.chars().filter(|c| !c.is_control()) {
        if out.len() + c.len_utf8() > MAX_TITLE_BYTES {
            break;
        }
        out.push(c);
    }
    out
}

/// The bit a dynamic colour is marked by in the palette (see `Palette::mark_dynamic`).
fn dynamic_bit(which: DynamicColor) -> u8 {
    match which {
        DynamicColor::Foreground => 0,
        DynamicColor::Background => 1,
        DynamicColor::Cursor => 2,
    }
}

#[cfg(test)]
mod tests {
    use crate::cell::{Color, Rgb};
    use crate::Screen;

    /// Queries are answered with the program's colour, else the host's (`pane-colours`,
    /// `cursor-colour`), as tmux answers them.
    #[test]
    fn queries_fall_back_on_the_hosts_colours() {
        let mut s = Screen::new(10, 2);
        s.set_host_colours(
            vec![(5, Color::Rgb(Rgb::new(0x11, 0x22, 0x33)))],
            Some(Rgb::new(0xff, 0x80, 0)),
        );
        s.feed(b"\x1b]4;5;?\x07\x1b]12;?\x07");
        assert_eq!(
            s.take_replies(),
            b"\x1b]4;5;rgb:1111/2222/3333\x07\x1b]12;rgb:ffff/8080/0000\x07"
        );
        s.feed(b"\x1b]4;5;#000000\x07\x1b]4;5;?\x07\x1b]4;6;?\x07");
        assert_eq!(s.take_replies(), b"\x1b]4;5;rgb:0000/0000/0000\x07");
    }
}
