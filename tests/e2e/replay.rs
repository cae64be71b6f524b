//! `weft replay` on real byte streams.
