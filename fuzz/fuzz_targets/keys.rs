//! Fuzz the key decoder: a client's bytes in chunks of any size decode to keys, pastes and
//! mouse reports, never a panic, and once the escape time has passed (`flush`) nothing is
//! left waiting.
#![no_main]

use libfuzzer_sys::fuzz_target;
use weft_server::keys::KeyDecoder;

fuzz_target!(|data: &[u8]| {
    let mut decoder = KeyDecoder::default();
    let mut rest = data;
    while let Some((&len, tail)) = rest.split_first() {
        let len = usize::from(len % 32).min(tail.len());
        let _ = decoder.feed(&tail[..len]);
        rest = &tail[len..];
    }
    let _ = decoder.flush();
    assert!(decoder.pending_escape().is_none());
});
