//! The diff emitter: previous frame + new frame -> the bytes that turn one into the other.

use crate::depth::TerminalCaps;
use crate::frame::{Frame, OuterModes};
use crate::scroll::Scroll;
use std::fmt::Write as _;
use std::sync::Arc;
use weft_screen_model::style::push_color;
use weft_screen_model::{Attrs, Cell, Color, Hyperlink, MouseEncoding, MouseTracking, Pen, Rgb};

/// The emitting buffer is kept between frames up to this size (every echo and small update
/// fits); a full repaint's larger buffer is freed with it.
pub const KEPT_SCRATCH_BYTES: usize = 64 * 1024;

/// Gives the cursor its colour back from the terminal's settings (OSC 112).
const CURSOR_COLOUR_RESET: &str = "\x1b]112\x07";

/// Frames up to this size that write only where the cursor is (a keystroke's echo, a log's
/// line and its line feed) go out without the synchronized output wrapper (16 bytes, most of
/// such a frame): even shown half-written, they look as the program's own output would.
const UNWRAPPED_FRAME_BYTES: usize = 256;

/// Gaps of unchanged cells up to this wide are skipped with CUF rather than a full CUP.
const SHORT_SKIP: usize = 8;

/// Renders frames for one client's terminal, remembering what that terminal shows.
#[derive(Debug, Default)]
pub struct Renderer {
    /// What the terminal shows; `None` forces a full repaint.
    shown: Option<Frame>,
    /// The terminal's SGR state while emitting (default between frames).
    pen: Pen,
    /// The open OSC 8 link while emitting.
    link: Option<Arc<Hyperlink>>,
    /// Where the terminal's cursor is while emitting, when known.
    at: Option<(usize, usize)>,
    /// The terminal's cursor is hidden while emitting. A frame hides it only before it moves
    /// it elsewhere: an echo printed where the cursor already is needs neither.
    cursor_hidden: bool,
    /// The frame being emitted moved the cursor from where it was writing (or scrolled in a
    /// region, or repaints everything): shown half-drawn it would look wrong, so it goes out
    /// synchronized whatever its size.
    jumped: bool,
    /// Cursor style last sent.
    cursor_style: u16,
    /// Cursor colour last sent (`None`: never set, or reset to the terminal's).
    cursor_colour: Option<Rgb>,
    /// Modes last sent; `None` forces sending all.
    modes: Option<OuterModes>,
    /// Frames rendered since creation (for diagnostics).
    frames: u64,
    /// The frame's text while emitting, kept between frames so an echo's frame allocates
    /// nothing.
    scratch: String,
    /// What the terminal understands: colour depth, synchronized output.
    caps: TerminalCaps,
    /// Something shown since the last full repaint was sent as less than it is (a colour
    /// mapped to the terminal's depth, a plain underline, a link's text without the link):
    /// more capabilities then call for drawing it again.
    degraded: bool,
}

impl Renderer {
    /// A renderer whose first frame is a full repaint.
    pub fn new() -> Self {
        Self::default()
    }

    /// A renderer for a terminal that understands `caps`.
    pub fn with_caps(caps: TerminalCaps) -> Self {
        Renderer {
            caps,
            ..Self::default()
        }
    }

    /// The terminal turned out to understand `caps`: the next frame repaints everything with
    /// them when what is shown would now be sent otherwise (something was degraded, or a
    /// capability was lost); more capabilities over nothing degraded repaint nothing. An
    /// attach's first frame is drawn before the terminal answers, so this is the common case.
    pub fn set_caps(&mut self, caps: TerminalCaps) {
        if self.caps == caps {
            return;
        }
        let lost = caps.depth < self.caps.depth
            || (self.caps.underline_styles && !caps.underline_styles)
            || (self.caps.hyperlinks && !caps.hyperlinks);
        self.caps = caps;
        if lost || self.degraded {
            self.invalidate();
        }
    }

    /// What the terminal is taken to understand.
    pub fn caps(&self) -> TerminalCaps {
        self.caps
    }

    /// What to send when the client leaves, to give back what frames changed beyond the
    /// modes the client resets itself: the cursor's colour (empty when nothing is to undo).
    pub fn farewell(&mut self) -> &'static [u8] {
        match self.cursor_colour.take() {
            Some(_) => CURSOR_COLOUR_RESET.as_bytes(),
            None => b"",
        }
    }

    /// The next frame repaints everything (attach, resize, `C-b r`).
    pub fn invalidate(&mut self) {
        self.shown = None;
        self.modes = None;
        self.degraded = false;
    }

    /// Bytes of heap the remembered frame's cells use (for memory reports and tests).
    pub fn shown_heap_bytes(&self) -> usize {
        self.shown.as_ref().map_or(0, Frame::heap_bytes)
    }

    /// Frames rendered so far.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// Bytes that make the terminal show `frame`, or nothing when it already does. Clears the
    /// frame's dirty marks.
    pub fn render(&mut self, frame: &mut Frame) -> Vec<u8> {
        let mut bytes = Vec::new();
        self.render_into(frame, &mut bytes);
        bytes
    }

    /// [`Renderer::render`] into `bytes` (cleared first), so a caller that keeps the buffer
    /// renders small frames without allocating.
    pub fn render_into(&mut self, frame: &mut Frame, bytes: &mut Vec<u8>) {
        bytes.clear();
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        let full = self
            .shown
            .as_ref()
            .is_none_or(|s| s.cols() != frame.cols() || s.rows() != frame.rows());
        self.jumped = full;
        let prev_cursor = if full {
            None
        } else {
            self.shown.as_ref().and_then(|s| s.cursor)
        };
        if full {
            self.shown = Some(Frame::new(frame.cols(), frame.rows()));
            frame.mark_all_dirty();
            out.push_str("\x1b[?25l\x1b[0m\x1b]8;;\x1b\\\x1b[H\x1b[2J");
            self.pen = Pen::default();
            self.link = None;
            self.at = Some((0, 0));
            self.cursor_hidden = true;
        } else {
            // The last frame left the cursor where it showed it (nothing else writes to the
            // terminal between frames), or hidden at an unknown place.
            self.at = prev_cursor;
            self.cursor_hidden = prev_cursor.is_none();
        }
        let mut shown = self.shown.take().unwrap_or_else(|| Frame::new(1, 1));
        if !full {
            if let Some(scroll) = crate::scroll::find(frame, &shown) {
                self.scroll(&mut out, scroll, frame, &mut shown);
                // What the terminal shows there moved: every row of the region is compared.
                frame.mark_dirty(scroll.top, scroll.bottom);
            }
        }
        for r in 0..frame.rows() {
            if !frame.is_dirty(r) || frame.row(r) == shown.row(r) {
                continue;
            }
            self.render_row(&mut out, r, frame.row(r), shown.row(r));
            shown.copy_row_from(frame, r);
        }
        self.finish(&mut out, frame, full);
        shown.cursor = frame.cursor;
        shown.clear_dirty();
        self.shown = Some(shown);
        frame.clear_dirty();
        if !out.is_empty() {
            self.frames += 1;
            bytes.reserve(out.len() + 16);
            if self.caps.synchronized_output && (self.jumped || out.len() > UNWRAPPED_FRAME_BYTES) {
                bytes.extend_from_slice(b"\x1b[?2026h");
                bytes.extend_from_slice(out.as_bytes());
                bytes.extend_from_slice(b"\x1b[?2026l");
            } else {
                bytes.extend_from_slice(out.as_bytes());
            }
        }
        if out.capacity() <= KEPT_SCRATCH_BYTES {
            self.scratch = out;
        }
    }

    /// Has the terminal scroll `scroll`'s rows up with line feeds at their bottom row
    /// (understood by every terminal, unlike `CSI S`), and makes `shown` say so: for the whole
    /// screen from the last row, else in a scroll region, reset after.
    fn scroll(&mut self, out: &mut String, scroll: Scroll, frame: &Frame, shown: &mut Frame) {
        let Scroll { top, bottom, by } = scroll;
        // The rows scrolled in take the current background: the default one, as the frame's
        // blanks are.
        self.set_pen(out, &Pen::default(), None);
        if top == 0 && bottom + 1 == frame.rows() {
            let blank = shown.is_blank_row(bottom) && frame.is_blank_row(bottom);
            if self.at == Some((bottom, 0)) && blank && by <= bottom {
                // A log's new lines, with the cursor under them on a blank last row: each is
                // written where the cursor is and carried up by a line feed, as the program
                // wrote them, with no move at all.
                shown.scroll_up(top, bottom, by);
                for from in bottom - by..bottom {
                    self.render_row(out, bottom, frame.row(from), shown.row(bottom));
                    self.set_pen(out, &Pen::default(), None);
                    out.push_str("\r\n");
                    self.at = Some((bottom, 0));
                    shown.copy_row_from(frame, from);
                }
                return;
            }
            let col = match self.at {
                Some((r, c)) if r == bottom => c,
                _ => 0,
            };
            self.move_to(out, bottom, col);
            out.extend(std::iter::repeat_n('\n', by));
        } else {
            self.leave_cursor(out);
            let _ = write!(out, "\x1b[{};{}r\x1b[{}H", top + 1, bottom + 1, bottom + 1);
            out.extend(std::iter::repeat_n('\n', by));
            // Setting the margins and resetting them home the cursor in most terminals, but
            // not all (as tmux assumes): where it is stays unknown until the next move.
            out.push_str("\x1b[r");
            self.at = None;
        }
        shown.scroll_up(top, bottom, by);
    }

    fn render_row(&mut self, out: &mut String, r: usize, new: &[Cell], old: &[Cell]) {
        let cols = new.len();
        let new_end = new.iter().rposition(|c| !c.is_blank()).map_or(0, |i| i + 1);
        let differs = |c: usize| {
            let cell = &new[c];
            !(cell == &old[c] && (cell.width() < 2 || new.get(c + 1) == old.get(c + 1)))
        };
        let mut c = 0;
        while c < cols {
            if c >= new_end {
                if old[c..].iter().any(|o| !o.is_blank()) {
                    self.move_to(out, r, c);
                    self.set_pen(out, &Pen::default(), None);
                    out.push_str("\x1b[K");
                }
                return;
            }
            if new[c].is_spacer() {
                c += 1;
                continue;
            }
            if !differs(c) {
                // A short run of unchanged cells right where the cursor is gets rewritten:
                // cheaper than a cursor move, and the row's text stays contiguous.
                // Looked ahead only there: for every other unchanged cell the scan would cost
                // up to SHORT_SKIP comparisons each (most of an echo's frame, measured).
                let rewrite =
                    self.at == Some((r, c)) && (c..new_end.min(c + SHORT_SKIP + 1)).any(&differs);
                if !rewrite {
                    c += 1;
                    continue;
                }
            }
            let cell = &new[c];
            let width = cell.width().max(1);
            if width == 2 && c + 1 >= cols {
                // Cannot happen in a well-formed frame; draw a blank rather than wrap.
                self.move_to(out, r, c);
                self.set_pen(out, &Pen::default(), None);
                out.push(' ');
                self.advance(r, c, 1, cols);
                c += 1;
                continue;
            }
            self.move_to(out, r, c);
            self.set_pen(out, &cell.pen(), cell.hyperlink());
            cell.push_text(out);
            self.advance(r, c, width, cols);
            c += width;
        }
    }

    /// After writing `width` cells at (r, c): the cursor moved, unless it reached the last
    /// column (pending wrap: position unknown until the next move).
    fn advance(&mut self, r: usize, c: usize, width: usize, cols: usize) {
        self.at = (c + width < cols).then_some((r, c + width));
    }

    /// The cursor leaves where it is writing: the frame goes out synchronized on a terminal
    /// that has it, which shows it only once whole; elsewhere the cursor is hidden until the
    /// frame puts it back.
    fn leave_cursor(&mut self, out: &mut String) {
        self.jumped = true;
        if !self.cursor_hidden && !self.caps.synchronized_output {
            out.push_str("\x1b[?25l");
            self.cursor_hidden = true;
        }
    }

    fn move_to(&mut self, out: &mut String, r: usize, c: usize) {
        if self.at == Some((r, c)) {
            return;
        }
        self.leave_cursor(out);
        self.cursor_to(out, r, c);
    }

    /// Moves the cursor to (r, c) by the shortest sequence from where it is.
    fn cursor_to(&mut self, out: &mut String, r: usize, c: usize) {
        match self.at {
            Some((ar, ac)) if ar == r && c > ac && c - ac <= SHORT_SKIP => {
                let _ = write!(out, "\x1b[{}C", c - ac);
            }
            _ if c == 0 => {
                let _ = write!(out, "\x1b[{}H", r + 1);
            }
            _ => {
                let _ = write!(out, "\x1b[{};{}H", r + 1, c + 1);
            }
        }
        self.at = Some((r, c));
    }

    fn set_pen(&mut self, out: &mut String, pen: &Pen, link: Option<&Arc<Hyperlink>>) {
        // What the terminal cannot show is sent as the nearest it can: colours of its depth,
        // plain underlines, plain text for links.
        let mapped = self.caps.pen(pen);
        self.degraded |= mapped.is_some() || (link.is_some() && !self.caps.hyperlinks);
        let pen = mapped.as_ref().unwrap_or(pen);
        let link = link.filter(|_| self.caps.hyperlinks);
        let visible = |p: &Pen| -> (Color, Color, Attrs, Color) {
            (
                p.fg,
                p.bg,
                p.attrs.without_protection(),
                p.underline_color(),
            )
        };
        if visible(&self.pen) != visible(pen) {
            sgr_transition(out, &self.pen, pen);
            self.pen = Pen {
                fg: pen.fg,
                bg: pen.bg,
                attrs: pen.attrs.without_protection(),
                extra: None,
            };
            let ul = pen.underline_color();
            if ul != Color::Default {
                self.pen.update_extra(|e| e.underline_color = ul);
            }
        }
        if self.link.as_ref() != link {
            match link {
                Some(l) => {
                    let _ = write!(
                        out,
                        "\x1b]8;id={};{}\x1b\\",
                        osc_safe(&l.id),
                        osc_safe(&l.uri)
                    );
                }
                None => out.push_str("\x1b]8;;\x1b\\"),
            }
            self.link = link.cloned();
        }
    }

    fn finish(&mut self, out: &mut String, frame: &Frame, full: bool) {
        if self.pen != Pen::default() {
            out.push_str("\x1b[0m");
            self.pen = Pen::default();
        }
        if self.link.take().is_some() {
            out.push_str("\x1b]8;;\x1b\\");
        }
        if full || frame.cursor_style != self.cursor_style {
            let _ = write!(out, "\x1b[{} q", frame.cursor_style);
            self.cursor_style = frame.cursor_style;
        }
        let colour = frame.cursor_colour.filter(|_| self.caps.cursor_colour);
        if colour != self.cursor_colour || (full && colour.is_some()) {
            push_cursor_colour(out, colour);
            self.cursor_colour = colour;
        }
        let modes_changed = self.modes != Some(frame.modes);
        if modes_changed {
            push_mode_changes(out, self.modes, frame.modes);
            self.modes = Some(frame.modes);
        }
        // The cursor goes where the frame wants it, shown again if the frame hid it.
        match frame.cursor {
            Some((r, c)) => {
                if full {
                    let _ = write!(out, "\x1b[{};{}H", r + 1, c + 1);
                    self.at = Some((r, c));
                } else if self.at != Some((r, c)) {
                    self.cursor_to(out, r, c);
                }
                if self.cursor_hidden {
                    out.push_str("\x1b[?25h");
                    self.cursor_hidden = false;
                }
            }
            None => {
                if !self.cursor_hidden {
                    out.push_str("\x1b[?25l");
                    self.cursor_hidden = true;
                }
            }
        }
    }
}

/// Mode changes between what the terminal has and what the frame wants.
fn push_mode_changes(out: &mut String, old: Option<OuterModes>, new: OuterModes) {
    let set = |out: &mut String, mode: u16, on: bool| {
        let _ = write!(out, "\x1b[?{mode}{}", if on { 'h' } else { 'l' });
    };
    let changed = |f: fn(&OuterModes) -> bool| old.is_none_or(|o| f(&o) != f(&new));
    if changed(|m| m.application_cursor) {
        set(out, 1, new.application_cursor);
    }
    if changed(|m| m.application_keypad) {
        out.push_str(if new.application_keypad {
            "\x1b="
        } else {
            "\x1b>"
        });
    }
    if changed(|m| m.bracketed_paste) {
        set(out, 2004, new.bracketed_paste);
    }
    if changed(|m| m.focus_events) {
        set(out, 1004, new.focus_events);
    }
    if old.is_none_or(|o| o.mouse_tracking != new.mouse_tracking) {
        for mode in [1000, 1002, 1003] {
            set(out, mode, false);
        }
        match new.mouse_tracking {
            MouseTracking::Off => {}
            MouseTracking::Press => set(out, 1000, true),
            MouseTracking::Drag => set(out, 1002, true),
            MouseTracking::Motion => set(out, 1003, true),
        }
    }
    if old.is_none_or(|o| o.mouse_encoding != new.mouse_encoding) {
        for mode in [1005, 1006, 1015] {
            set(out, mode, false);
        }
        match new.mouse_encoding {
            MouseEncoding::Default => {}
            MouseEncoding::Utf8 => set(out, 1005, true),
            MouseEncoding::Sgr => set(out, 1006, true),
            MouseEncoding::Urxvt => set(out, 1015, true),
        }
    }
}

/// OSC payloads never carry control characters (they would end or break the string).
fn osc_safe(s: &str) -> String {
    s.chars().filter(|c| !c.is_control()).collect()
}

/// Emits the SGR that changes the terminal from `from` to `to` (visible attributes only).
fn sgr_transition(out: &mut String, from: &Pen, to: &Pen) {
    let mut params = String::new();
    let (fa, ta) = (
        from.attrs.without_protection(),
        to.attrs.without_protection(),
    );
    if to.fg == Color::Default
        && to.bg == Color::Default
        && ta == Attrs::empty()
        && to.underline_color() == Color::Default
    {
        out.push_str("\x1b[0m");
        return;
    }
    let lost = |a: Attrs| fa.contains(a) && !ta.contains(a);
    let gained = |a: Attrs| !fa.contains(a) && ta.contains(a);
    if lost(Attrs::BOLD) || lost(Attrs::DIM) {
        params.push_str(";22");
        if ta.contains(Attrs::BOLD) {
            params.push_str(";1");
        }
        if ta.contains(Attrs::DIM) {
            params.push_str(";2");
        }
    } else {
        if gained(Attrs::BOLD) {
            params.push_str(";1");
        }
        if gained(Attrs::DIM) {
            params.push_str(";2");
        }
    }
    for (attr, on, off) in [
        (Attrs::ITALIC, "3", "23"),
        (Attrs::BLINK, "5", "25"),
        (Attrs::INVERSE, "7", "27"),
        (Attrs::HIDDEN, "8", "28"),
        (Attrs::STRIKE, "9", "29"),
        (Attrs::OVERLINE, "53", "55"),
    ] {
        if gained(attr) {
            params.push(';');
            params.push_str(on);
        } else if lost(attr) {
            params.push(';');
            params.push_str(off);
        }
    }
    if fa.underline() != ta.underline() {
        match ta.underline() as u8 {
            0 => params.push_str(";24"),
            1 => params.push_str(";4"),
            n => {
                let _ = write!(params, ";4:{n}");
            }
        }
    }
    if from.fg != to.fg {
        if to.fg == Color::Default {
            params.push_str(";39");
        } else {
            push_color(&mut params, to.fg, 30, 90, 38);
        }
    }
    if from.bg != to.bg {
        if to.bg == Color::Default {
            params.push_str(";49");
        } else {
            push_color(&mut params, to.bg, 40, 100, 48);
        }
    }
    let (fu, tu) = (from.underline_color(), to.underline_color());
    if fu != tu {
        match tu {
            Color::Default => params.push_str(";59"),
            Color::Indexed(i) => {
                let _ = write!(params, ";58:5:{i}");
            }
            Color::Rgb(c) => {
                let _ = write!(params, ";58:2::{}:{}:{}", c.r, c.g, c.b);
            }
        }
    }
    if !params.is_empty() {
        let _ = write!(out, "\x1b[{}m", &params[1..]);
    }
}

/// Sets the terminal's cursor colour (OSC 12), or gives it back its own (OSC 112).
fn push_cursor_colour(out: &mut String, colour: Option<Rgb>) {
    match colour {
        Some(c) => {
            let _ = write!(out, "\x1b]12;#{:02x}{:02x}{:02x}\x07", c.r, c.g, c.b);
        }
        None => out.push_str(CURSOR_COLOUR_RESET),
    }
}
