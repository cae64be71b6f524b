//! Bytes to [`Handler`] calls: the one place that knows how sequences are spelled.
//!
//! `vte` does the state machine; [`Performer`] translates its callbacks into semantic calls.
//! Text between sequences skips vte: whenever vte is known to be in its ground state (after a
//! CSI or ESC dispatch or an OSC ended by BEL, which always return it there), printable ASCII
//! goes to the handler as whole runs and C0 controls straight to `execute`, exactly as vte
//! would report them, until the next ESC, DEL or non-ASCII byte hands the stream back to vte.
//! Unknown or malformed sequences are ignored, never errors. Two guards keep hostile input
//! bounded: OSC strings longer than [`MAX_OSC_BYTES`] are cut off before they reach vte's buffer
//! (and then ignored), and only DECRQSS requests of DCS strings are buffered at all.

use crate::cell::{Color, Hyperlink, Rgb, UnderlineStyle};
use crate::handler::{
    Charset, DeviceAttributes, DynamicColor, EraseScope, Handler, PromptMark, Sgr, Terminator,
};
use vte::{Params, Perform};

/// Longest OSC payload kept (clipboard writes are the big ones); longer ones are dropped whole.
pub const MAX_OSC_BYTES: usize = 1 << 20;
/// Longest DECRQSS request buffered; real requests are a few bytes.
const MAX_DECRQSS_BYTES: usize = 16;

/// The parser: vte's state machine plus weft's guards. One per screen.
#[derive(Default)]
pub struct Parser {
    vte: vte::Parser,
    osc_guard: OscGuard,
    state: PerformState,
}

impl std::fmt::Debug for Parser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Parser").finish_non_exhaustive()
    }
}

/// What the adapter remembers between callbacks.
struct PerformState {
    /// The OSC being dispatched overflowed [`MAX_OSC_BYTES`] or was cancelled: ignore it.
    osc_overflowed: bool,
    /// Inside a DECRQSS string: the request so far.
    decrqss: Option<Vec<u8>>,
    /// vte is in its ground state with no partial UTF-8 character, so text may bypass it.
    /// False means "not known": vte gets the bytes until a dispatch returns it to ground.
    vte_in_ground: bool,
}

impl Default for PerformState {
    fn default() -> Self {
        PerformState {
            osc_overflowed: false,
            decrqss: None,
            // A new vte parser starts in the ground state.
            vte_in_ground: true,
        }
    }
}

impl Parser {
    /// A parser in the ground state.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether nothing is half-parsed: vte in its ground state, no OSC string open, no ESC
    /// waiting at the end of the last chunk. Bytes fed next are read from a clean start.
    pub(crate) fn at_rest(&self) -> bool {
        self.state.vte_in_ground && !self.osc_guard.in_osc && !self.osc_guard.esc_tail
    }

    /// Feeds bytes, calling `handler` for everything they mean.
    pub fn advance<H: Handler>(&mut self, handler: &mut H, bytes: &[u8]) {
        self.advance_with(handler, bytes, feed_chunk);
    }

    /// Passes `bytes` through the OSC guard, handing each chunk to `feed`.
    fn advance_with<H: Handler>(
        &mut self,
        handler: &mut H,
        bytes: &[u8],
        mut feed: impl FnMut(&mut vte::Parser, &mut Performer<'_, H>, &[u8]),
    ) {
        let mut performer = Performer {
            handler,
            state: &mut self.state,
            run: [0; RUN_CAPACITY],
            run_len: 0,
            dispatched: false,
        };
        let vte = &mut self.vte;
        self.osc_guard.feed(bytes, |chunk, overflowed| {
            if overflowed {
                performer.flush();
                performer.state.osc_overflowed = true;
            }
            feed(vte, &mut performer, chunk);
        });
        performer.flush();
    }
}

/// Feeds one chunk: text in the ground state directly to the handler, everything else to vte.
fn feed_chunk<H: Handler>(vte: &mut vte::Parser, performer: &mut Performer<'_, H>, bytes: &[u8]) {
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        if !performer.state.vte_in_ground {
            // vte stops right after a dispatch that leaves it in ground.
            performer.dispatched = false;
            i += vte.advance_until_terminated(performer, rest);
            performer.state.vte_in_ground = performer.dispatched;
            continue;
        }
        let printable = printable_ascii_prefix(rest);
        if printable > 0 {
            performer.print_ascii(&rest[..printable]);
            i += printable;
        } else if rest[0] < 0x20 && rest[0] != 0x1b {
            // vte's ground state executes C0 controls in place.
            performer.execute(rest[0]);
            i += 1;
        } else {
            // ESC, DEL or the start of a UTF-8 character: vte's business.
            performer.state.vte_in_ground = false;
        }
    }
}

/// Length of the run of printable ASCII (0x20..=0x7e) that `bytes` starts with.
#[inline(always)]
pub(crate) fn printable_ascii_prefix(bytes: &[u8]) -> usize {
    /// Bytes checked at once: a block the compiler turns into a few vector compares.
    const BLOCK: usize = 16;
    let is_printable = |b: u8| b.wrapping_sub(0x20) < 0x5f;
    let mut blocks = bytes.chunks_exact(BLOCK);
    let mut len = 0;
    for block in &mut blocks {
        // `fold` with `&`, not `all`: no early exit, so the block is checked branch-free.
        if !block.iter().fold(true, |ok, &b| ok & is_printable(b)) {
            break;
        }
        len += BLOCK;
    }
    len + bytes[len..]
        .iter()
        .position(|&b| !is_printable(b))
        .unwrap_or(bytes.len() - len)
}

/// Tracks whether the byte stream is inside an OSC string, and how long it has run, so that a
/// never-ending OSC cannot grow vte's buffer without bound.
///
/// vte enters an OSC on `]` right after an ESC, with only C0 controls it executes in between.
/// Outside an OSC the guard searches for `]` (rare in text, absent from most escape sequences)
/// and looks back for that ESC, so ordinary output costs one SIMD scan.
#[derive(Default)]
struct OscGuard {
    in_osc: bool,
    len: usize,
    /// The previous chunk ended with an ESC followed only by C0 controls vte executes.
    esc_tail: bool,
}

/// Bytes vte executes without leaving the escape state.
#[inline]
fn keeps_escape(b: u8) -> bool {
    matches!(b, 0x00..=0x17 | 0x19 | 0x1c..=0x1f | 0x7f)
}

impl OscGuard {
    /// Whether the byte before `pos` (skipping C0 controls) is an ESC, looking into the
    /// previous chunk's tail when the walk reaches the start.
    fn escape_before(&self, bytes: &[u8], pos: usize) -> bool {
        for &b in bytes[..pos].iter().rev() {
            if b == 0x1b {
                return true;
            }
            if !keeps_escape(b) {
                return false;
            }
        }
        self.esc_tail
    }

    /// Splits `bytes` into the chunks to pass on, leaving out OSC bytes past the cap. `pass` gets
    /// each chunk and whether the OSC dispatched next must be ignored.
    fn feed(&mut self, bytes: &[u8], mut pass: impl FnMut(&[u8], bool)) {
        let mut i = 0;
        let mut pass_from = 0;
        let mut overflowed = false;
        while i < bytes.len() {
            if !self.in_osc {
                match memchr::memchr(b']', &bytes[i..]) {
                    None => break,
                    Some(p) => {
                        let pos = i + p;
                        if self.escape_before(bytes, pos) {
                            self.in_osc = true;
                            self.len = 0;
                        }
                        i = pos + 1;
                    }
                }
                continue;
            }
            let rest = &bytes[i..];
            let end = rest
                .iter()
                .position(|&b| matches!(b, 0x07 | 0x18 | 0x1a | 0x1b))
                .unwrap_or(rest.len());
            let room = MAX_OSC_BYTES.saturating_sub(self.len);
            if end > room {
                // Pass what fits, drop the rest of this run.
                pass(&bytes[pass_from..i + room], overflowed);
                overflowed = true;
                pass_from = i + end;
                self.len = MAX_OSC_BYTES;
            } else {
                self.len += end;
            }
            i += end;
            if i < bytes.len() {
                if matches!(bytes[i], 0x18 | 0x1a) {
                    // CAN and SUB cancel the string: vte would dispatch it, so flag it.
                    pass(&bytes[pass_from..i], overflowed);
                    overflowed = true;
                    pass_from = i;
                }
                // The terminator ends the OSC; an ESC may start another sequence, which the
                // search for `]` handles.
                self.in_osc = false;
                i += 1;
            }
        }
        // Remember whether the stream ends in "ESC, then only controls" for the next chunk.
        let mut tail = None;
        for &b in bytes.iter().rev() {
            if b == 0x1b {
                tail = Some(true);
                break;
            }
            if !keeps_escape(b) {
                tail = Some(false);
                break;
            }
        }
        if let Some(t) = tail {
            self.esc_tail = t;
        }
        if pass_from < bytes.len() || overflowed {
            pass(&bytes[pass_from..], overflowed);
        }
    }
}

/// Printable ASCII collected before it goes to the handler as one run.
const RUN_CAPACITY: usize = 256;

/// vte's callbacks translated into [`Handler`] calls. Printable ASCII is collected into runs
/// (vte reports characters one at a time); every other callback first hands the run over, so
/// the order of effects is unchanged.
struct Performer<'a, H: Handler> {
    handler: &'a mut H,
    state: &'a mut PerformState,
    run: [u8; RUN_CAPACITY],
    run_len: usize,
    /// A CSI or ESC sequence, or an OSC ended by BEL, was dispatched: vte is back in ground,
    /// so it may stop there.
    dispatched: bool,
}

impl<H: Handler> Performer<'_, H> {
    /// Hands the collected run to the handler.
    #[inline]
    fn flush(&mut self) {
        if self.run_len > 0 {
            self.handler.print_ascii(&self.run[..self.run_len]);
            self.run_len = 0;
        }
    }

    /// Prints a run of printable ASCII found without vte, after what vte reported before it.
    #[inline]
    fn print_ascii(&mut self, text: &[u8]) {
        self.flush();
        self.handler.print_ascii(text);
    }
}

/// The first value of parameter `i`, 0 when absent.
fn param(params: &Params, i: usize) -> u16 {
    params
        .iter()
        .nth(i)
        .and_then(|p| p.first().copied())
        .unwrap_or(0)
}

/// Parameter `i` as a count: absent or 0 mean 1.
fn count(params: &Params, i: usize) -> usize {
    usize::from(param(params, i).max(1))
}

impl<H: Handler> Perform for Performer<'_, H> {
    #[inline(always)]
    fn print(&mut self, c: char) {
        if (c as u32).wrapping_sub(0x20) < 0x5f {
            self.run[self.run_len] = c as u8;
            self.run_len += 1;
            if self.run_len == RUN_CAPACITY {
                self.flush();
            }
        } else {
            self.flush();
            self.handler.print(c);
        }
    }

    fn execute(&mut self, byte: u8) {
        self.flush();
        self.handler.forget_last_char();
        match byte {
            0x07 => self.handler.bell(),
            0x08 => self.handler.backspace(),
            0x09 => self.handler.tab_forward(1),
            0x0a..=0x0c => self.handler.linefeed(),
            0x0d => self.handler.carriage_return(),
            0x0e => self.handler.invoke_charset(1),
            0x0f => self.handler.invoke_charset(0),
            _ => self.handler.unhandled(),
        }
    }

    fn hook(&mut self, _params: &Params, intermediates: &[u8], ignore: bool, action: char) {
        self.flush();
        self.state.decrqss = (!ignore && intermediates == b"$" && action == 'q').then(Vec::new);
    }

    fn put(&mut self, byte: u8) {
        self.flush();
        if let Some(request) = &mut self.state.decrqss {
            if request.len() < MAX_DECRQSS_BYTES {
                request.push(byte);
            } else {
                // Too long to be a real request: answer nothing.
                self.state.decrqss = None;
            }
        }
    }

    fn unhook(&mut self) {
        self.flush();
        if let Some(request) = self.state.decrqss.take() {
            self.handler.request_status_string(&request);
        }
    }

    fn osc_dispatch(&mut self, params: &[&[u8]], bell_terminated: bool) {
        // After BEL vte is back in ground (after ESC it waits for the `\` of ST).
        self.dispatched |= bell_terminated;
        self.flush();
        if std::mem::take(&mut self.state.osc_overflowed) {
            return;
        }
        let terminator = if bell_terminated {
            Terminator::Bel
        } else {
            Terminator::St
        };
        let Some(&command) = params.first() else {
            return;
        };
        let rest = &params[1..];
        match command {
            b"0" | b"1" | b"2" => {
                let title = join_osc_params(rest);
                self.handler
                    .set_title(&title, command != b"2", command != b"1");
            }
            b"4" => {
                for pair in rest.chunks(2) {
                    let Some(index) = parse_decimal(pair[0]).and_then(|n| u8::try_from(n).ok())
                    else {
                        continue;
                    };
                    let spec = pair.get(1).copied().filter(|s| *s != b"?");
                    if pair.len() == 2 {
                        self.handler.palette_color(index, spec, terminator);
                    }
                }
            }
            b"104" => {
                let indices: Vec<u8> = rest
                    .iter()
                    .filter_map(|p| parse_decimal(p).and_then(|n| u8::try_from(n).ok()))
                    .collect();
                self.handler.reset_palette(&indices);
            }
            b"10" | b"11" | b"12" => {
                let first = match command {
                    b"10" => 0,
                    b"11" => 1,
                    _ => 2,
                };
                // OSC 10;a;b sets/queries 10 then 11, xterm style.
                for (offset, spec) in rest.iter().enumerate() {
                    let which = match first + offset {
                        0 => DynamicColor::Foreground,
                        1 => DynamicColor::Background,
                        2 => DynamicColor::Cursor,
                        _ => break,
                    };
                    let spec = (*spec != b"?").then_some(*spec);
                    self.handler.dynamic_color(which, spec, terminator);
                }
            }
            b"7" => self.handler.set_cwd(&join_osc_params(rest)),
            b"8" => {
                let link_params = rest.first().copied().unwrap_or_default();
                let uri = join_osc_params(rest.get(1..).unwrap_or_default());
                if uri.is_empty() {
                    self.handler.set_hyperlink(None);
                } else {
                    let id = link_params
                        .split(|&b| b == b':')
                        .find_map(|kv| kv.strip_prefix(b"id="))
                        .unwrap_or_default();
                    self.handler.set_hyperlink(Some(Hyperlink {
                        id: String::from_utf8_lossy(id).into(),
                        uri: String::from_utf8_lossy(&uri).into(),
                    }));
                }
            }
            b"52" => {
                if let [selection, data, ..] = rest {
                    self.handler.clipboard(selection, data, terminator);
                }
            }
            b"133" => {
                let mark = match rest.first().and_then(|p| p.first()) {
                    Some(b'A') => Some(PromptMark::PromptStart),
                    Some(b'B') => Some(PromptMark::CommandStart),
                    Some(b'C') => Some(PromptMark::OutputStart),
                    Some(b'D') => Some(PromptMark::CommandEnd),
                    _ => None,
                };
                if let Some(mark) = mark {
                    self.handler.prompt_mark(mark);
                }
            }
            _ => self.handler.unhandled(),
        }
    }

    fn terminated(&self) -> bool {
        self.dispatched
    }

    fn csi_dispatch(&mut self, params: &Params, intermediates: &[u8], ignore: bool, action: char) {
        self.dispatched = true;
        self.flush();
        if ignore {
            return;
        }
        let h = &mut *self.handler;
        if action != 'b' {
            h.forget_last_char();
        }
        match (intermediates, action) {
            ([], '@') => h.insert_blanks(count(params, 0)),
            ([], 'A') => h.move_up(count(params, 0), false),
            ([], 'B') => h.move_down(count(params, 0), false),
            ([], 'e') => h.move_down_unbounded(count(params, 0)),
            ([b' '], '@') => h.scroll_left(count(params, 0)),
            ([b' '], 'A') => h.scroll_right(count(params, 0)),
            ([b'\''], '}') => h.insert_columns(count(params, 0)),
            ([b'\''], '~') => h.delete_columns(count(params, 0)),
            ([], 'C') | ([], 'a') => h.move_forward(count(params, 0)),
            ([], 'D') => h.move_backward(count(params, 0)),
            ([], 'E') => h.move_down(count(params, 0), true),
            ([], 'F') => h.move_up(count(params, 0), true),
            ([], 'G') | ([], '`') => h.goto_col(count(params, 0) - 1),
            ([], 'H') | ([], 'f') => h.goto(count(params, 0) - 1, count(params, 1) - 1),
            ([], 'I') => h.tab_forward(count(params, 0)),
            ([], 'J') => {
                if let Some(scope) = erase_scope(param(params, 0), true) {
                    h.erase_in_display(scope, false);
                }
            }
            ([b'?'], 'J') => {
                if let Some(scope) = erase_scope(param(params, 0), false) {
                    h.erase_in_display(scope, true);
                }
            }
            ([], 'K') => {
                if let Some(scope) = erase_scope(param(params, 0), false) {
                    h.erase_in_line(scope, false);
                }
            }
            ([b'?'], 'K') => {
                if let Some(scope) = erase_scope(param(params, 0), false) {
                    h.erase_in_line(scope, true);
                }
            }
            ([], 'L') => h.insert_lines(count(params, 0)),
            ([], 'M') => h.delete_lines(count(params, 0)),
            ([], 'P') => h.delete_chars(count(params, 0)),
            ([], 'S') => h.scroll_up(count(params, 0)),
            ([], 'T') => h.scroll_down(count(params, 0)),
            ([], 'X') => h.erase_chars(count(params, 0)),
            ([], 'Z') => h.tab_backward(count(params, 0)),
            ([], 'b') => h.repeat_last(count(params, 0)),
            ([], 'c') if param(params, 0) == 0 => h.device_attributes(DeviceAttributes::Primary),
            ([b'>'], 'c') if param(params, 0) == 0 => {
                h.device_attributes(DeviceAttributes::Secondary)
            }
            ([], 'd') => h.goto_row(count(params, 0) - 1),
            ([], 'g') => match param(params, 0) {
                0 => h.clear_tab_stops(false),
                3 => h.clear_tab_stops(true),
                _ => {}
            },
            ([], 'h') | ([], 'l') | ([b'?'], 'h') | ([b'?'], 'l') => {
                let private = intermediates == b"?";
                for p in params.iter() {
                    h.set_mode(p[0], private, action == 'h');
                }
            }
            ([], 'm') => sgr(h, params),
            ([], 'n') => h.device_status(param(params, 0), false),
            ([b'?'], 'n') => h.device_status(param(params, 0), true),
            ([], 'r') => {
                h.set_scroll_region(usize::from(param(params, 0)), usize::from(param(params, 1)))
            }
            ([], 's') => h.save_cursor_or_margins(
                usize::from(param(params, 0)),
                usize::from(param(params, 1)),
            ),
            ([], 'u') => h.restore_cursor(),
            ([], 't') => h.window_op(param(params, 0)),
            ([b' '], 'q') => h.set_cursor_style(param(params, 0)),
            ([b'!'], 'p') => h.soft_reset(),
            ([b'"'], 'q') => h.set_protection(param(params, 0) == 1),
            ([b'$'], 'p') => h.request_mode(param(params, 0), false),
            ([b'?', b'$'], 'p') => h.request_mode(param(params, 0), true),
            _ => h.unhandled(),
        }
    }

    fn esc_dispatch(&mut self, intermediates: &[u8], ignore: bool, byte: u8) {
        self.dispatched = true;
        self.flush();
        if ignore {
            return;
        }
        let h = &mut *self.handler;
        h.forget_last_char();
        match (intermediates, byte) {
            ([], b'D') => h.index(),
            ([], b'E') => h.next_line(),
            ([], b'H') => h.set_tab_stop(),
            ([], b'M') => h.reverse_index(),
            ([], b'N') => h.single_shift(2),
            ([], b'O') => h.single_shift(3),
            ([], b'n') => h.invoke_charset(2),
            ([], b'o') => h.invoke_charset(3),
            ([], b'7') => h.save_cursor(),
            ([], b'8') => h.restore_cursor(),
            ([], b'c') => h.reset(),
            ([], b'=') => h.set_keypad_application(true),
            ([], b'>') => h.set_keypad_application(false),
            ([b'#'], b'8') => h.alignment_test(),
            ([slot @ (b'(' | b')' | b'*' | b'+')], set) => {
                let slot = usize::from(slot - b'(');
                let charset = match set {
                    b'0' => Charset::DecSpecialGraphics,
                    b'A' => Charset::Uk,
                    _ => Charset::Ascii,
                };
                h.designate_charset(slot, charset);
            }
            _ => h.unhandled(),
        }
    }
}

/// ED/EL parameter to a scope; `allow_scrollback` for ED 3.
fn erase_scope(p: u16, allow_scrollback: bool) -> Option<EraseScope> {
    match p {
        0 => Some(EraseScope::ToEnd),
        1 => Some(EraseScope::ToStart),
        2 => Some(EraseScope::All),
        3 if allow_scrollback => Some(EraseScope::Scrollback),
        _ => None,
    }
}

/// OSC parameters after the command were split at `;` by vte; titles and URIs may contain `;`.
fn join_osc_params(params: &[&[u8]]) -> Vec<u8> {
    params.join(&b';')
}

fn parse_decimal(bytes: &[u8]) -> Option<u32> {
    if bytes.is_empty() || bytes.len() > 9 {
        return None;
    }
    bytes.iter().try_fold(0u32, |acc, &b| {
        b.is_ascii_digit().then(|| acc * 10 + u32::from(b - b'0'))
    })
}

/// Decodes SGR parameters, both `;` and `:` forms of extended colours.
fn sgr<H: Handler>(h: &mut H, params: &Params) {
    if params.is_empty() {
        h.sgr(Sgr::Reset);
        return;
    }
    let mut iter = params.iter();
    while let Some(group) = iter.next() {
        let op = match group[0] {
            0 => Sgr::Reset,
            1 => Sgr::Bold,
            2 => Sgr::Dim,
            3 => Sgr::Italic,
            4 => Sgr::Underline(
                group
                    .get(1)
                    .map_or(UnderlineStyle::Single, |&n| UnderlineStyle::from_param(n)),
            ),
            5 | 6 => Sgr::Blink,
            7 => Sgr::Inverse,
            8 => Sgr::Hidden,
            9 => Sgr::Strike,
            21 => Sgr::Underline(UnderlineStyle::Double),
            22 => Sgr::NormalIntensity,
            23 => Sgr::NoItalic,
            24 => Sgr::NoUnderline,
            25 => Sgr::NoBlink,
            27 => Sgr::NoInverse,
            28 => Sgr::NoHidden,
            29 => Sgr::NoStrike,
            n @ 30..=37 => Sgr::Foreground(Color::Indexed((n - 30) as u8)),
            39 => Sgr::Foreground(Color::Default),
            n @ 40..=47 => Sgr::Background(Color::Indexed((n - 40) as u8)),
            49 => Sgr::Background(Color::Default),
            53 => Sgr::Overline,
            55 => Sgr::NoOverline,
            59 => Sgr::UnderlineColor(Color::Default),
            n @ 90..=97 => Sgr::Foreground(Color::Indexed((n - 90 + 8) as u8)),
            n @ 100..=107 => Sgr::Background(Color::Indexed((n - 100 + 8) as u8)),
            n @ (38 | 48 | 58) => {
                let color = if group.len() > 1 {
                    extended_color_colon(&group[1..])
                } else {
                    extended_color_semicolon(&mut iter)
                };
                match (n, color) {
                    (_, None) => continue,
                    (38, Some(c)) => Sgr::Foreground(c),
                    (48, Some(c)) => Sgr::Background(c),
                    (_, Some(c)) => Sgr::UnderlineColor(c),
                }
            }
            _ => continue,
        };
        h.sgr(op);
    }
}

/// `38:5:n`, `38:2:r:g:b` and `38:2:cs:r:g:b` (the part after 38).
fn extended_color_colon(sub: &[u16]) -> Option<Color> {
    match sub {
        [5, n, ..] => Some(Color::Indexed(clamp_u8(*n))),
        [2, _, r, g, b, ..] => Some(rgb(*r, *g, *b)),
        [2, r, g, b] => Some(rgb(*r, *g, *b)),
        _ => None,
    }
}

/// `38;5;n` and `38;2;r;g;b`: takes the following parameters from `iter`.
fn extended_color_semicolon<'p>(iter: &mut impl Iterator<Item = &'p [u16]>) -> Option<Color> {
    match iter.next()?.first()? {
        5 => Some(Color::Indexed(clamp_u8(*iter.next()?.first()?))),
        2 => {
            let r = *iter.next()?.first()?;
            let g = *iter.next()?.first()?;
            let b = *iter.next()?.first()?;
            Some(rgb(r, g, b))
        }
        _ => None,
    }
}

fn clamp_u8(n: u16) -> u8 {
    u8::try_from(n).unwrap_or(u8::MAX)
}

fn rgb(r: u16, g: u16, b: u16) -> Color {
    Color::Rgb(Rgb::new(clamp_u8(r), clamp_u8(g), clamp_u8(b)))
}

#[cfg(test)]
impl Parser {
    /// Every byte through vte, as before text bypassed it: the reference the bypass must match.
    fn advance_all_through_vte<H: Handler>(&mut self, handler: &mut H, bytes: &[u8]) {
        self.advance_with(handler, bytes, |vte, performer, chunk| {
            vte.advance(performer, chunk)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Pieces of output that exercise every way in and out of vte's ground state.
    const PIECES: &[&[u8]] = &[
        b"plain text ",
        b"x",
        b"\r",
        b"\n",
        b"\t",
        b"\x08",
        b"\x07",
        b"\x7f",
        b"\x18",
        b"\x1b",
        b"\x1b[",
        b"1;31m",
        b"0m",
        b"\x1b[2K",
        b"\x1b[?1049h",
        b"\x1b[?1049l",
        b"\x1b[5;3H",
        b"\x1b[3@",
        b"\x1b[99999999999;1H",
        b"\x1bM",
        b"\x1b7",
        b"\x1b8",
        b"\x1b(0lqk\x1b(B",
        b"\x1b]0;title\x07",
        b"\x1b]2;st\x1b\\",
        b"\x1bP$qm\x1b\\",
        b"\x1b_apc\x1b\\",
        b"\xc3",
        b"\xa9",
        "\u{4e2d}".as_bytes(),
        "e\u{301}".as_bytes(),
        b"\xc2\x9b",
        b"\xff",
        b"\x1b[4h",
        b"\x1b[4l",
        b"\x1b[3b",
        // Cells with extras: hyperlinks and underline colours.
        b"\x1b]8;;http://x\x1b\\",
        b"\x1b]8;;\x1b\\",
        b"\x1b[58;5;3m",
        b"\x1b[4:3m",
        b"\x1b[41m",
    ];

    fn screen_state(s: &crate::Screen) -> (String, (usize, usize), Vec<Vec<crate::Cell>>) {
        let c = s.cursor_state();
        (
            s.text_with_scrollback(),
            (c.row, c.col),
            s.visible_rows().map(|r| r.cells().to_vec()).collect(),
        )
    }

    /// Feeds `stream`, cut at `splits`, through the parser and through vte alone, into two
    /// screens that must end up the same.
    fn check_against_vte(stream: &[u8], splits: Vec<usize>) -> Result<(), TestCaseError> {
        let mut cuts: Vec<usize> = splits.into_iter().map(|c| c % (stream.len() + 1)).collect();
        cuts.sort_unstable();
        cuts.push(stream.len());
        let (mut fast, mut reference) = (Parser::new(), Parser::new());
        let mut a = crate::Screen::with_scrollback(12, 4, 20);
        let mut b = crate::Screen::with_scrollback(12, 4, 20);
        let mut start = 0;
        for cut in cuts {
            fast.advance(&mut a, &stream[start..cut]);
            reference.advance_all_through_vte(&mut b, &stream[start..cut]);
            start = cut;
        }
        prop_assert_eq!(screen_state(&a), screen_state(&b));
        prop_assert_eq!(a.take_replies(), b.take_replies());
        Ok(())
    }

    proptest! {
        #[test]
        fn text_bypassing_vte_gives_what_vte_alone_gives(
            pieces in prop::collection::vec(0..PIECES.len(), 0..60),
            splits in prop::collection::vec(0usize..400, 0..6),
        ) {
            let stream: Vec<u8> = pieces.iter().flat_map(|&i| PIECES[i].iter().copied()).collect();
            check_against_vte(&stream, splits)?;
        }

        #[test]
        fn arbitrary_bytes_give_what_vte_alone_gives(
            stream in prop::collection::vec(any::<u8>(), 0..300),
            splits in prop::collection::vec(0usize..300, 0..6),
        ) {
            check_against_vte(&stream, splits)?;
        }
    }

    #[test]
    fn printable_prefix_stops_at_the_first_control_or_non_ascii_byte() {
        let mut text = vec![b'x'; 40];
        assert_eq!(printable_ascii_prefix(&text), 40);
        for (at, byte) in [(0, 0x1b), (5, b'\r'), (16, 0x7f), (17, 0xc3), (39, 0x1f)] {
            let saved = text[at];
            text[at] = byte;
            assert_eq!(printable_ascii_prefix(&text), at, "byte {byte:#x} at {at}");
            text[at] = saved;
        }
        assert_eq!(printable_ascii_prefix(b""), 0);
        assert_eq!(printable_ascii_prefix(b" ~"), 2);
    }

    #[test]
    fn osc_guard_passes_short_strings_untouched() {
        let mut guard = OscGuard::default();
        let mut out = Vec::new();
        guard.feed(b"a\x1b]0;hi\x07b", |c, o| {
            assert!(!o);
            out.extend_from_slice(c);
        });
        assert_eq!(out, b"a\x1b]0;hi\x07b");
    }

    #[test]
    fn osc_guard_cuts_long_strings_across_chunks() {
        let mut guard = OscGuard::default();
        let mut passed = 0usize;
        let mut overflowed = false;
        let chunk = vec![b'x'; 300_000];
        guard.feed(b"\x1b]2;", |c, _| passed += c.len());
        for _ in 0..10 {
            guard.feed(&chunk, |c, o| {
                passed += c.len();
                overflowed |= o;
            });
        }
        guard.feed(b"\x07ok", |c, o| {
            passed += c.len();
            overflowed |= o;
        });
        assert!(overflowed);
        assert!(passed <= MAX_OSC_BYTES + 16, "passed {passed}");
    }
}
