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
//!
//! The parts: `perform` (vte's callbacks as handler calls), `params` and `sgr` (decoding
//! parameters), `osc_guard` (the cap on OSC strings).

mod osc_guard;
mod params;
mod perform;
mod sgr;

use crate::handler::Handler;
use osc_guard::OscGuard;
use perform::{Performer, RUN_CAPACITY};
use vte::Perform;

/// Longest OSC payload kept (clipboard writes are the big ones); longer ones are dropped whole.
pub const MAX_OSC_BYTES: usize = 1 << 20;

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
    /// Inside a DCS string (between its hook and its unhook).
    pub(super) in_dcs: bool,
    /// vte is in its ground state with no partial UTF-8 character, so text may bypass it.
    /// False means "not known": vte gets the bytes until a dispatch returns it to ground.
    vte_in_ground: bool,
    /// Inside screen's window-name string (`ESC k name ESC \`, which tmux reads too): the
    /// name so far. Its text is taken, never printed.
    pub(super) rename: Option<String>,
}

impl Default for PerformState {
    fn default() -> Self {
        PerformState {
            osc_overflowed: false,
            decrqss: None,
            in_dcs: false,
            // A new vte parser starts in the ground state.
            vte_in_ground: true,
            rename: None,
        }
    }
}

impl Parser {
    /// A parser in the ground state.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether nothing is half-parsed: vte in its ground state, no OSC or window-name string
    /// open, no ESC waiting at the end of the last chunk. Bytes fed next are read from a clean
    /// start (and printable text prints).
    pub(crate) fn at_rest(&self) -> bool {
        self.state.vte_in_ground
            && !self.osc_guard.in_osc
            && !self.osc_guard.esc_tail
            && self.state.rename.is_none()
    }

    /// Whether the stream stopped inside an OSC, DCS or window-name string: everything
    /// printed after it is swallowed until its terminator (ST, BEL, CAN or SUB) comes.
    pub fn in_string(&self) -> bool {
        self.osc_guard.in_osc || self.state.in_dcs || self.state.rename.is_some()
    }

    /// Gives up on an unterminated string and returns to the ground state, as if it had been
    /// cancelled: what comes next is read from a clean start.
    pub fn abandon_string(&mut self) {
        *self = Parser::new();
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
}
