//! Decoding sequence parameters: numbers and counts, erase scopes, OSC parameters.

use crate::handler::EraseScope;
use vte::Params;

/// The first value of parameter `i`, 0 when absent.
pub(super) fn param(params: &Params, i: usize) -> u16 {
    params
        .iter()
        .nth(i)
        .and_then(|p| p.first().copied())
        .unwrap_or(0)
}

/// Parameter `i` as a count: absent or 0 mean 1.
pub(super) fn count(params: &Params, i: usize) -> usize {
    usize::from(param(params, i).max(1))
}

/// ED/EL parameter to a scope; `allow_scrollback` for ED 3.
pub(super) fn erase_scope(p: u16, allow_scrollback: bool) -> Option<EraseScope> {
    match p {
        0 => Some(EraseScope::ToEnd),
        1 => Some(EraseScope::ToStart),
        2 => Some(EraseScope::All),
        3 if allow_scrollback => Some(EraseScope::Scrollback),
        _ => None,
    }
}

/// OSC parameters after the command were split at `;` by vte; titles and URIs may contain `;`.
pub(super) fn join_osc_params(params: &[&[u8]]) -> Vec<u8> {
    params.join(&b';')
}

pub(super) fn parse_decimal(bytes: &[u8]) -> Option<u32> {
    if bytes.is_empty() || bytes.len() > 9 {
        return None;
    }
    bytes.iter().try_fold(0u32, |acc, &b| {
        b.is_ascii_digit().then(|| acc * 10 + u32::from(b - b'0'))
    })
}
