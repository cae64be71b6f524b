//! `cargo xtask`: the project's automation, so CI and developers run the same thing.
//!
//! - `cargo xtask ci`: exactly what `.ci/run` runs after installing system packages:
//!   `cargo fmt --all --check`, `cargo clippy --workspace --all-targets -- -D warnings`, the
//!   test command README.md gives (`cargo test --workspace`), a one-minute soak, every fuzz
//!   target for 20 s, `cargo package` of each published crate, and clippy on the build
//!   without `tokio_unstable` (what `cargo install` from a registry builds).
//! - `cargo xtask fuzz [--seconds N] [TARGET...]`: the fuzz targets, coverage-guided, on stable
//!   Rust (see [`fuzz`]).
//! - `cargo xtask soak [--minutes N] [--weft PATH]`: a long mixed load on a real server,
//!   failing on growth or a lost key (see [`soak`]).
//! - `cargo xtask link-order`: which functions the linker lays out first in the release
//!   binary, from a profile of a real server (see [`link_order`]).
//! - `cargo xtask bench`: weft against no multiplexer, tmux, GNU screen and Zellij, played
//!   from a fake user terminal (see [`bench`]).

use std::process::{Command, ExitCode};

mod bench;
mod fuzz;
mod link_order;
mod soak;

/// The steps of `cargo xtask ci`, in order; the first failure stops the run.
const CI_STEPS: &[&[&str]] = &[
    &["fmt", "--all", "--check"],
    CLIPPY,
    &["test", "--workspace"],
    // A minute of mixed load on a real server: no growth after the warm-up, no key lost.
    &["xtask", "soak", "--minutes", "1"],
    // Every fuzz target builds and runs for 20 s on the seeds kept in fuzz/seeds; a crash
    // fails CI (hours-long runs: README.md, Fuzzing).
    &["xtask", "fuzz", "--seconds", "20"],
    // Each published crate has the metadata and versioned dependencies a release needs.
    &[
        "package",
        "--workspace",
        "--no-verify",
        "--allow-dirty",
        "--exclude",
        "weft-tests",
        "--exclude",
        "weft-benches",
        "--exclude",
        "xtask",
    ],
];

/// The lint, on the normal build and, last, on the build without `tokio_unstable`.
const CLIPPY: &[&str] = &[
    "clippy",
    "--workspace",
    "--all-targets",
    "--",
    "-D",
    "warnings",
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("ci") => ci(),
        Some("bench") => bench::main(&args[1..]),
        Some("fuzz") => fuzz::main(&args[1..]),
        Some("soak") => soak::main(&args[1..]),
        Some("link-order") => link_order::main(&args[1..]),
        Some(bench::pane::SUBCOMMAND) => bench::pane::main(&args[1..]),
        Some(bench::relay::SUBCOMMAND) => bench::relay::main(&args[1..]),
        Some(bench::launch::REAPER_SUBCOMMAND) => bench::launch::reaper_main(),
        _ => {
            eprintln!(
                "usage: cargo xtask ci\n       cargo xtask fuzz [--seconds N] [TARGET...]\n       \
                 cargo xtask soak [--minutes N] [--weft PATH]\n       \
                 cargo xtask link-order\n       {}",
                bench::options::USAGE
            );
            ExitCode::from(2)
        }
    }
}

fn ci() -> ExitCode {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    for step in CI_STEPS {
        eprintln!("xtask ci: cargo {}", step.join(" "));
        match Command::new(&cargo).args(*step).status() {
            Ok(status) if status.success() => {}
            Ok(status) => {
                eprintln!("xtask ci: `cargo {}` failed ({status})", step.join(" "));
                return ExitCode::FAILURE;
            }
            Err(err) => {
                eprintln!("xtask ci: cannot run cargo: {err}");
                return ExitCode::FAILURE;
            }
        }
    }
    // What `cargo install` from a registry builds: without the workspace's
    // `--cfg tokio_unstable` (the config file does not travel with a package). Linted in a
    // target directory of its own, so the other flags do not invalidate the main one.
    eprintln!(
        "xtask ci: cargo {} (without tokio_unstable)",
        CLIPPY.join(" ")
    );
    let plain = Command::new(&cargo)
        .args(CLIPPY)
        .env("RUSTFLAGS", "--cfg weft_plain_build")
        .env("CARGO_TARGET_DIR", "target/plain")
        .status();
    match plain {
        Ok(status) if status.success() => {}
        Ok(status) => {
            eprintln!("xtask ci: the build without tokio_unstable failed ({status})");
            return ExitCode::FAILURE;
        }
        Err(err) => {
            eprintln!("xtask ci: cannot run cargo: {err}");
            return ExitCode::FAILURE;
        }
    }
    eprintln!("xtask ci: all steps passed");
    ExitCode::SUCCESS
}
