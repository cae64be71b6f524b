//! End-to-end tests: one test binary, one module per capability.

mod replay;
