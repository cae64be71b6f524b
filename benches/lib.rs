//! Inputs for weft's benchmarks (see `benches/`).
