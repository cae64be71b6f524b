//! The test kit's fast path, timed: starts `sh -c 'printf ...'` in a real pty, waits for its
//! text and for it to exit, N times, and prints each run's milliseconds on a line.
//! `cargo xtask bench --only kit` runs it beside the same test driven through weft's and
//! tmux's servers.
//!
//! ```text
//! cargo run --release -p weft-testkit --example kit_probe -- 20
//! ```

use std::process::ExitCode;
use std::time::Instant;
use weft_testkit::TestTerminal;

fn main() -> ExitCode {
    let runs: usize = match std::env::args().nth(1).map(|a| a.parse()) {
        None => 20,
        Some(Ok(n)) => n,
        Some(Err(_)) => {
            eprintln!("kit_probe: the argument is the number of runs, such as 20");
            return ExitCode::from(2);
        }
    };
    for run in 0..runs {
        let started = Instant::now();
        let text = format!("kit-{run}-done");
        let script = format!("printf 'kit-%s-%s\\n' {run} done");
        let result = TestTerminal::spawn(["sh", "-c", &script])
            .start()
            .and_then(|mut term| {
                term.wait_for_text(&text)?;
                term.wait_exit()
            });
        match result {
            Ok(exit) if exit.code == 0 => {
                println!("{:.3}", started.elapsed().as_secs_f64() * 1e3);
            }
            Ok(exit) => {
                eprintln!("kit_probe: run {run}: sh exited with {}", exit.code);
                return ExitCode::FAILURE;
            }
            Err(e) => {
                eprintln!("kit_probe: run {run}: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
