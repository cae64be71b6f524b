//! `cargo xtask fuzz [--seconds N] [TARGET...]`: builds every fuzz target with coverage
//! instrumentation (libFuzzer's, through rustc's stable `-C passes=sancov-module`; no nightly
//! toolchain or cargo-fuzz needed) and runs each for a fixed time on the seeds kept in
//! `fuzz/seeds/TARGET`, with what it finds kept in `target/fuzz-corpus/TARGET`. A crash fails
//! the run and leaves the input that caused it in `target/fuzz-artifacts/`.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// Seconds per target when none are given: CI's budget.
const DEFAULT_SECONDS: u64 = 20;
/// Memory a fuzz run may use before libFuzzer calls it a failure (a leak or a blow-up).
const RSS_LIMIT_MB: u64 = 2048;

/// The flags that make libFuzzer coverage-guided, as cargo-fuzz passes them.
const COVERAGE_FLAGS: &str = "-Cpasses=sancov-module \
    -Cllvm-args=-sanitizer-coverage-level=4 \
    -Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
    -Cllvm-args=-sanitizer-coverage-pc-table \
    -Cllvm-args=-sanitizer-coverage-trace-compares \
    --cfg fuzzing -Cdebug-assertions -Coverflow-checks";

/// Runs the command line `args` (after `fuzz`).
pub fn main(args: &[String]) -> ExitCode {
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask fuzz: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let mut seconds = DEFAULT_SECONDS;
    let mut only = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "--seconds" => {
                seconds = words
                    .next()
                    .and_then(|s| s.parse().ok())
                    .ok_or("--seconds takes a whole number")?;
            }
            name => only.push(name.to_string()),
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("no workspace root")?
        .to_path_buf();
    let fuzz = root.join("fuzz");
    let mut targets = targets(&fuzz)?;
    if !only.is_empty() {
        targets.retain(|t| only.contains(t));
    }
    let host = host_triple()?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    eprintln!("xtask fuzz: building {} targets", targets.len());
    // Its own target directory, whatever CARGO_TARGET_DIR says: the instrumented build must
    // not mix with the workspace's, and the binaries are looked for there.
    let fuzz_target = fuzz.join("target");
    let status = Command::new(&cargo)
        .current_dir(&fuzz)
        .args([
            "build",
            "--release",
            "--bins",
            "--target",
            &host,
            "--target-dir",
        ])
        .arg(&fuzz_target)
        .env("RUSTFLAGS", COVERAGE_FLAGS)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err("the fuzz targets did not build".into());
    }
    let bins = fuzz_target.join(&host).join("release");
    let artifacts = root.join("target").join("fuzz-artifacts");
    std::fs::create_dir_all(&artifacts).map_err(|e| format!("{}: {e}", artifacts.display()))?;
    for target in &targets {
        let corpus = root.join("target").join("fuzz-corpus").join(target);
        std::fs::create_dir_all(&corpus).map_err(|e| format!("{}: {e}", corpus.display()))?;
        let seeds = fuzz.join("seeds").join(target);
        eprintln!("xtask fuzz: {target} for {seconds} s");
        let mut cmd = Command::new(bins.join(target));
        cmd.arg(format!("-max_total_time={seconds}"))
            .arg(format!("-rss_limit_mb={RSS_LIMIT_MB}"))
            .arg(format!(
                "-artifact_prefix={}/{target}-",
                artifacts.display()
            ))
            .arg("-print_final_stats=1")
            .arg(&corpus);
        if seeds.is_dir() {
            cmd.arg(&seeds);
        }
        let output = cmd
            .output()
            .map_err(|e| format!("cannot run {target}: {e}"))?;
        let log = String::from_utf8_lossy(&output.stderr);
        let runs = log
            .lines()
            .find(|l| l.starts_with("stat::number_of_executed_units"))
            .unwrap_or("");
        if !output.status.success() {
            let tail: Vec<&str> = log.lines().rev().take(40).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            return Err(format!(
                "{target} failed ({}); the input is in {}:\n{}",
                output.status,
                artifacts.display(),
                tail.join("\n")
            ));
        }
        eprintln!("xtask fuzz: {target} ok ({runs})");
    }
    Ok(())
}

/// The fuzz targets: the `fuzz_targets/*.rs` files.
fn targets(fuzz: &Path) -> Result<Vec<String>, String> {
    let dir = fuzz.join("fuzz_targets");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .flatten()
        .map(|e| PathBuf::from(e.file_name()))
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    names.sort();
    Ok(names)
}

/// The host's target triple (an explicit `--target` keeps the coverage flags off build
/// scripts, as cargo-fuzz does).
fn host_triple() -> Result<String, String> {
    let out = Command::new("rustc")
        .arg("-vV")
        .output()
        .map_err(|e| format!("cannot run rustc: {e}"))?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .ok_or_else(|| "rustc -vV names no host".into())
}
