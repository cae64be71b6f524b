//! tmux's styles (`fg=red,bg=colour235,bold`, `#[align=right]`), as its `style.c` parses them:
//! the `*-style` options and the `#[...]` runs inside status formats. Pure.
//!
//! A style is applied on top of a current one: `fg=`/`bg=` set a colour (`default` takes the
//! base's), attribute names add an attribute, `noNAME` takes one away, `none` clears them all,
//! `default` goes back to the base entirely, `align=` and `list=` say where text goes in the
//! status line. A style with any word it does not know changes nothing (as tmux, which keeps the
//! style it had).

use weft_screen_model::{Attrs, Color, Pen, Rgb, UnderlineStyle};

/// Where a run of status-line text goes (`align=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Align {
    /// Wherever the text around it goes (tmux's "default").
    #[default]
    Default,
    /// From the left edge.
    Left,
    /// Centred in the room between the left and right parts.
    Centre,
    /// Against the right edge.
    Right,
    /// Centred on the whole line.
    AbsoluteCentre,
}

impl Align {
    /// `status-justify`'s words (`left`, `centre`, `right`, `absolute-centre`).
    pub fn from_word(word: &str) -> Option<Align> {
        Some(match word.to_ascii_lowercase().as_str() {
            "left" => Align::Left,
            "centre" | "center" => Align::Centre,
            "right" => Align::Right,
            "absolute-centre" | "absolute-center" => Align::AbsoluteCentre,
            _ => return None,
        })
    }
}

/// `list=`: which part of the window list a run is (tmux's status-format machinery).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum List {
    /// Not the list.
    #[default]
    Off,
    /// The list.
    On,
    /// The list's focused entry.
    Focus,
    /// The marker shown when entries are cut on the left.
    LeftMarker,
    /// The marker shown when entries are cut on the right.
    RightMarker,
}

/// A parsed style: the pen text is drawn with, and where it goes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// Colours and attributes.
    pub pen: Pen,
    /// `align=`.
    pub align: Align,
    /// `list=`.
    pub list: List,
    /// `fill=`: the colour the rest of the line is filled with, when set.
    pub fill: Option<Color>,
}

impl Style {
    /// A style of `pen`, aligned nowhere in particular.
    pub fn of(pen: Pen) -> Style {
        Style {
            pen,
            ..Style::default()
        }
    }
}

/// The longest word tmux takes in a style (its buffer is 256 bytes).
const MAX_WORD: usize = 255;

/// Applies `text` to `style`; `base` is what `default` (and `fg=default`, `bg=default`) go back
/// to. On an unknown word, `style` is left as it was and the error names the word.
pub fn apply(style: &mut Style, base: &Pen, text: &str) -> Result<(), String> {
    let mut next = style.clone();
    for word in text.split([' ', ',', '\n']).filter(|w| !w.is_empty()) {
        if word.len() > MAX_WORD {
            return Err(format!("bad style: a word of {} bytes", word.len()));
        }
        apply_word(&mut next, base, word).ok_or_else(|| format!("bad style: {word}"))?;
    }
    *style = next;
    Ok(())
}

/// `text` applied to `base` (tmux's `style_parse` of an option over the default cell).
pub fn parse(text: &str, base: &Pen) -> Result<Style, String> {
    let mut style = Style::of(base.clone());
    apply(&mut style, base, text)?;
    Ok(style)
}

/// `text` applied over `base`, or `base` itself when the text is not a style: for drawing,
/// where a bad style must not stop anything from showing.
pub fn pen_or(text: &str, base: &Pen) -> Pen {
    parse(text, base).map_or_else(|_| base.clone(), |s| s.pen)
}

fn apply_word(style: &mut Style, base: &Pen, word: &str) -> Option<()> {
    let lower = word.to_ascii_lowercase();
    let value = |prefix: &str| lower.strip_prefix(prefix).filter(|v| !v.is_empty());
    match lower.as_str() {
        "default" => {
            style.pen = base.clone();
            return Some(());
        }
        "none" => {
            style.pen.attrs = Attrs::empty();
            return Some(());
        }
        "nolist" => {
            style.list = List::Off;
            return Some(());
        }
        "noalign" => {
            style.align = Align::Default;
            return Some(());
        }
        // Accepted and without effect in weft: ranges are found from the window list itself,
        // and the default stack is each part's own base.
        "ignore" | "noignore" | "push-default" | "pop-default" | "set-default" | "norange"
        | "noattr" | "nolink" => return Some(()),
        _ => {}
    }
    if let Some(v) = value("align=") {
        style.align = Align::from_word(v)?;
    } else if let Some(v) = value("list=") {
        style.list = match v {
            "on" => List::On,
            "focus" => List::Focus,
            "left-marker" => List::LeftMarker,
            "right-marker" => List::RightMarker,
            _ => return None,
        };
    } else if let Some(v) = value("fill=") {
        style.fill = Some(colour(v)?.unwrap_or(Color::Default));
    } else if lower.starts_with("range=")
        || lower.starts_with("width=")
        || lower.starts_with("pad=")
        || lower.starts_with("link=")
        || lower.starts_with("dim=")
    {
        // tmux's status-format machinery; nothing for weft to draw.
    } else if let Some(v) = value("fg=") {
        style.pen.fg = colour(v)?.unwrap_or(base.fg);
    } else if let Some(v) = value("bg=") {
        style.pen.bg = colour(v)?.unwrap_or(base.bg);
    } else if let Some(v) = value("us=") {
        let c = colour(v)?.unwrap_or_else(|| base.underline_color());
        style.pen.update_extra(|e| e.underline_color = c);
    } else if let Some(name) = lower.strip_prefix("no").filter(|n| !n.is_empty()) {
        let (attrs, underline) = attribute(name)?;
        let mut a = style.pen.attrs;
        a.set(attrs, false);
        if underline.is_some() {
            a.set_underline(UnderlineStyle::None);
        }
        style.pen.attrs = a;
    } else {
        let (attrs, underline) = attribute(&lower)?;
        let mut a = style.pen.attrs;
        a.set(attrs, true);
        if let Some(u) = underline {
            a.set_underline(u);
        }
        style.pen.attrs = a;
    }
    Some(())
}

/// An attribute's name: its bits, and the underline style it sets, if any.
fn attribute(name: &str) -> Option<(Attrs, Option<UnderlineStyle>)> {
    Some(match name {
        "bright" | "bold" => (Attrs::BOLD, None),
        "dim" => (Attrs::DIM, None),
        "underscore" => (Attrs::empty(), Some(UnderlineStyle::Single)),
        "double-underscore" => (Attrs::empty(), Some(UnderlineStyle::Double)),
        "curly-underscore" => (Attrs::empty(), Some(UnderlineStyle::Curly)),
        "dotted-underscore" => (Attrs::empty(), Some(UnderlineStyle::Dotted)),
        "dashed-underscore" => (Attrs::empty(), Some(UnderlineStyle::Dashed)),
        "blink" => (Attrs::BLINK, None),
        "reverse" => (Attrs::INVERSE, None),
        "hidden" => (Attrs::HIDDEN, None),
        "italics" => (Attrs::ITALIC, None),
        "strikethrough" => (Attrs::STRIKE, None),
        "overline" => (Attrs::OVERLINE, None),
        // The line-drawing character set: nothing for a cell's style.
        "acs" => (Attrs::empty(), None),
        _ => return None,
    })
}

/// A colour as tmux names it (`red`, `brightred`, `colour123`, `#ff8000`, `0`-`7`, `90`-`97`,
/// and X11's names: `orange`, `DarkSlateGray`, `grey50`): `Some(None)` for `default` (the
/// base's colour), `None` for no colour at all.
pub fn colour(name: &str) -> Option<Option<Color>> {
    let lower = name.to_ascii_lowercase();
    if let Some(hex) = lower.strip_prefix('#') {
        if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
        return Some(Some(Color::Rgb(Rgb {
            r: byte(0)?,
            g: byte(2)?,
            b: byte(4)?,
        })));
    }
    for prefix in ["colour", "color"] {
        if let Some(n) = lower.strip_prefix(prefix) {
            return n.parse::<u8>().ok().map(|n| Some(Color::Indexed(n)));
        }
    }
    const NAMES: [&str; 8] = [
        "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
    ];
    if lower == "default" || lower == "terminal" {
        return Some(None);
    }
    if let Some(i) = NAMES.iter().position(|n| *n == lower) {
        return Some(Some(Color::Indexed(i as u8)));
    }
    if let Some(i) = lower
        .strip_prefix("bright")
        .and_then(|n| NAMES.iter().position(|x| *x == n))
    {
        return Some(Some(Color::Indexed(8 + i as u8)));
    }
    match lower.parse::<u8>() {
        Ok(n @ 0..=7) => Some(Some(Color::Indexed(n))),
        Ok(n @ 90..=97) => Some(Some(Color::Indexed(n - 90 + 8))),
        _ => weft_screen_model::x11_colours::x11_colour(&lower).map(|rgb| Some(Color::Rgb(rgb))),
    }
}

/// Whether `text` is a style tmux would take (for checking `*-style` options as they are set);
/// a style holding a format (`#{...}`) is taken as it is, since it is expanded where used.
pub fn check(text: &str) -> Result<(), String> {
    if text.contains("#{") {
        return Ok(());
    }
    parse(text, &Pen::default()).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pen(fg: Color, bg: Color, attrs: Attrs) -> Pen {
        Pen {
            fg,
            bg,
            attrs,
            ..Pen::default()
        }
    }

    #[test]
    fn colours_as_tmux_names_them() {
        let s = parse("fg=red,bg=colour235", &Pen::default()).unwrap();
        assert_eq!(s.pen.fg, Color::Indexed(1));
        assert_eq!(s.pen.bg, Color::Indexed(235));
        let s = parse("fg=#ff8000 bg=brightblue", &Pen::default()).unwrap();
        assert_eq!(
            s.pen.fg,
            Color::Rgb(Rgb {
                r: 255,
                g: 128,
                b: 0
            })
        );
        assert_eq!(s.pen.bg, Color::Indexed(12));
        assert_eq!(colour("color7"), Some(Some(Color::Indexed(7))));
        assert_eq!(colour("91"), Some(Some(Color::Indexed(9))));
        assert_eq!(colour("GREEN"), Some(Some(Color::Indexed(2))));
        assert_eq!(colour("colour256"), None);
        assert_eq!(colour("#12345"), None);
        assert_eq!(colour("8"), None);
        // X11's names, as tmux takes them.
        let orange = Rgb::new(0xff, 0xa5, 0x00);
        assert_eq!(colour("orange"), Some(Some(Color::Rgb(orange))));
        let s = parse("bg=DarkSlateGray,fg=grey50", &Pen::default()).unwrap();
        assert_eq!(s.pen.bg, Color::Rgb(Rgb::new(0x2f, 0x4f, 0x4f)));
        assert_eq!(s.pen.fg, Color::Rgb(Rgb::new(127, 127, 127)));
        assert_eq!(colour("notacolour"), None);
    }

    #[test]
    fn default_goes_back_to_the_base() {
        let base = pen(Color::Indexed(0), Color::Indexed(2), Attrs::empty());
        let mut s = parse("fg=red,bold", &base).unwrap();
        assert_eq!(s.pen.bg, Color::Indexed(2), "untouched parts keep the base");
        apply(&mut s, &base, "fg=default").unwrap();
        assert_eq!(
            s.pen.fg,
            Color::Indexed(0),
            "fg=default is the base's colour"
        );
        assert!(s.pen.attrs.contains(Attrs::BOLD));
        apply(&mut s, &base, "default").unwrap();
        assert_eq!(s.pen, base);
    }

    #[test]
    fn attributes_add_and_no_removes() {
        let s = parse("bold,italics,underscore,reverse,blink,dim", &Pen::default()).unwrap();
        let a = s.pen.attrs;
        for bit in [
            Attrs::BOLD,
            Attrs::ITALIC,
            Attrs::INVERSE,
            Attrs::BLINK,
            Attrs::DIM,
        ] {
            assert!(a.contains(bit), "{bit:?}");
        }
        assert_eq!(a.underline(), UnderlineStyle::Single);
        let mut s2 = s.clone();
        apply(&mut s2, &Pen::default(), "nobold,nounderscore").unwrap();
        assert!(!s2.pen.attrs.contains(Attrs::BOLD));
        assert!(s2.pen.attrs.contains(Attrs::ITALIC));
        assert_eq!(s2.pen.attrs.underline(), UnderlineStyle::None);
        apply(&mut s2, &Pen::default(), "none").unwrap();
        assert_eq!(s2.pen.attrs, Attrs::empty());
        assert_eq!(
            parse("bright", &Pen::default()).unwrap().pen.attrs,
            Attrs::BOLD
        );
    }

    #[test]
    fn align_and_list() {
        let s = parse("align=right", &Pen::default()).unwrap();
        assert_eq!(s.align, Align::Right);
        let s = parse("align=absolute-centre,list=focus", &Pen::default()).unwrap();
        assert_eq!((s.align, s.list), (Align::AbsoluteCentre, List::Focus));
        assert!(parse("align=middle", &Pen::default()).is_err());
    }

    #[test]
    fn a_bad_word_changes_nothing() {
        let mut s = parse("fg=blue", &Pen::default()).unwrap();
        let before = s.clone();
        let e = apply(&mut s, &Pen::default(), "bg=red,sparkly").unwrap_err();
        assert!(e.contains("sparkly"), "{e}");
        assert_eq!(s, before, "nothing applied, not even bg=red");
        assert!(parse("fg=nocolour", &Pen::default()).is_err());
        assert!(parse(&"x".repeat(300), &Pen::default()).is_err());
        assert!(check("fg=#{@accent}").is_ok());
        assert!(check("fg=red,bg=default").is_ok());
        // Empty words and separators are nothing.
        assert_eq!(parse(" ,, ", &Pen::default()).unwrap(), Style::default());
    }
}
