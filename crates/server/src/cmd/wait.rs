//! `wait`: block until a pane shows (or stops showing) some text, in the whole screen, a row
//! or a region; until its cursor, title or silence says so; until its program exits; or until
//! the shell reports that the command typed last finished (OSC 133 `D`).

use super::io::pane_action;
use super::{Args, Entry, Long};
use crate::capture::CaptureOptions;
use crate::deadline::Deadline;
use crate::outcome::{CommandError, Output, TargetKind};
use crate::pane::{PaneHandle, NO_STATUS};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

/// What `wait` waits for.
#[derive(Clone, Debug)]
enum WaitFor {
    /// The area contains this text.
    Text(String),
    /// The area matches this regular expression.
    Regex(regex::Regex),
    /// The area no longer contains this text.
    Absent(String),
    /// The area no longer matches this regular expression.
    AbsentRegex(regex::Regex),
    /// The cursor is at this row and column (0-based).
    Cursor(usize, usize),
    /// The pane's title matches this regular expression.
    Title(regex::Regex),
    /// Nothing printed for this long.
    Idle(Duration),
    /// The program exited.
    Exit,
    /// The shell reported that the command typed last finished; with a status, it must be
    /// that one.
    CommandFinished(Option<i64>),
}

/// The part of the screen a text condition looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Area {
    Screen,
    /// One row, 0-based.
    Row(usize),
    /// Rows and columns, 0-based and inclusive.
    Region {
        top: usize,
        left: usize,
        bottom: usize,
        right: usize,
    },
}

impl Area {
    /// The text of `screen` (rows joined by newlines) inside the area.
    fn of(self, screen: &str) -> String {
        let (top, bottom, left, right) = match self {
            Area::Screen => return screen.to_string(),
            Area::Row(r) => (r, r, 0, usize::MAX),
            Area::Region {
                top,
                left,
                bottom,
                right,
            } => (top, bottom, left, right),
        };
        screen
            .lines()
            .enumerate()
            .filter(|(i, _)| (top..=bottom).contains(i))
            .map(|(_, line)| {
                let cells = right.saturating_sub(left).saturating_add(1);
                line.chars().skip(left).take(cells).collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// `wait`.
pub static WAIT: Entry = Entry {
    name: "wait",
    aliases: &[],
    usage: "[-t target-pane] (--text TEXT | --regex RE | --absent TEXT | --absent-regex RE | \
            --cursor ROW,COL | --title RE | --idle MS | --exit | --command-finished [--status N]) \
            [--row N | --region TOP,LEFT,BOTTOM,RIGHT] [--after REVISION] [--timeout SECONDS]",
    about: "Block until a pane shows some text or a match (--row, --region: only there), no \
            longer shows it (--absent), has its cursor somewhere, a title, has been quiet for a \
            while, its program exited, or the shell reports that the command typed last \
            finished (OSC 133 D; its status is printed). Exit status 1 with the screen on \
            timeout. Rows and columns count from 0.",
    flags: "t:",
    long: &[
        Long::value("text"),
        Long::value("regex"),
        Long::value("absent"),
        Long::value("absent-regex"),
        Long::value("cursor"),
        Long::value("title"),
        Long::value("idle"),
        Long::switch("exit"),
        Long::switch("command-finished"),
        Long::value("status"),
        Long::value("row"),
        Long::value("region"),
        Long::value("after"),
        Long::value("timeout"),
    ],
    read_only: true,
    target: Some(TargetKind::Pane),
    build: |args| {
        args.no_arguments()?;
        let until = wait_condition(args)?;
        let area = wait_area(args)?;
        let after = match args.long_value("after") {
            Some(v) => v
                .parse()
                .map_err(|_| args.usage(format!("--after takes a revision number, not {v:?}")))?,
            None => 0,
        };
        let timeout = match args.long_value("timeout") {
            Some(v) => v
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .map(|s| Duration::from_secs_f64(s.min(86_400.0)))
                .ok_or_else(|| args.usage(format!("--timeout takes seconds, not {v:?}")))?,
            None => Duration::from_secs(10),
        };
        Ok(pane_action(move |pane| async move {
            let (stdout, code, why) = wait(&pane, &until, area, after, timeout).await;
            Ok(Output {
                stdout,
                stderr: why,
                code,
                ..Output::default()
            })
        }))
    },
};

/// The one condition `wait`'s flags ask for.
fn wait_condition(args: &Args) -> Result<WaitFor, CommandError> {
    let regex = |flag: &str, re: &str| {
        regex::Regex::new(re)
            .map_err(|e| args.usage(format!("--{flag} {re:?} is not a regular expression: {e}")))
    };
    if let Some(text) = args.long_value("text") {
        return Ok(WaitFor::Text(text.to_string()));
    }
    if let Some(re) = args.long_value("regex") {
        return Ok(WaitFor::Regex(regex("regex", re)?));
    }
    if let Some(text) = args.long_value("absent") {
        return Ok(WaitFor::Absent(text.to_string()));
    }
    if let Some(re) = args.long_value("absent-regex") {
        return Ok(WaitFor::AbsentRegex(regex("absent-regex", re)?));
    }
    if let Some(at) = args.long_value("cursor") {
        let numbers = numbers(at);
        return match numbers.as_deref() {
            Some(&[row, col]) => Ok(WaitFor::Cursor(row, col)),
            _ => Err(args.usage(format!("--cursor takes ROW,COL (from 0), not {at:?}"))),
        };
    }
    if let Some(re) = args.long_value("title") {
        return Ok(WaitFor::Title(regex("title", re)?));
    }
    if let Some(ms) = args.long_value("idle") {
        let ms: u64 = ms
            .parse()
            .map_err(|_| args.usage(format!("--idle takes milliseconds, not {ms:?}")))?;
        return Ok(WaitFor::Idle(Duration::from_millis(ms)));
    }
    if args.has_long("exit") {
        return Ok(WaitFor::Exit);
    }
    if args.has_long("command-finished") {
        let status = match args.long_value("status") {
            Some(v) => Some(
                v.parse::<i64>()
                    .map_err(|_| args.usage(format!("--status takes a number, not {v:?}")))?,
            ),
            None => None,
        };
        return Ok(WaitFor::CommandFinished(status));
    }
    Err(args.usage(
        "one of --text --regex --absent --absent-regex --cursor --title --idle --exit \
         --command-finished is needed",
    ))
}

/// Where text conditions look: `--row`, `--region` or the whole screen.
fn wait_area(args: &Args) -> Result<Area, CommandError> {
    if let Some(row) = args.long_value("row") {
        let row = row
            .parse()
            .map_err(|_| args.usage(format!("--row takes a row number (from 0), not {row:?}")))?;
        return Ok(Area::Row(row));
    }
    if let Some(region) = args.long_value("region") {
        return match numbers(region).as_deref() {
            Some(&[top, left, bottom, right]) if top <= bottom && left <= right => {
                Ok(Area::Region {
                    top,
                    left,
                    bottom,
                    right,
                })
            }
            _ => Err(args.usage(format!(
                "--region takes TOP,LEFT,BOTTOM,RIGHT (from 0, top-left first), not {region:?}"
            ))),
        };
    }
    Ok(Area::Screen)
}

/// `1,2,3` as numbers; `None` if any is not one.
fn numbers(text: &str) -> Option<Vec<usize>> {
    text.split(',').map(|n| n.trim().parse().ok()).collect()
}

/// Waits on a pane's own change notifications (no polling) until `until` holds for a screen
/// newer than `after`. Returns what to print, the exit status and what to say on standard
/// error: the revision (the exit code for `--exit`, the command's status for
/// `--command-finished`) and 0; or the last screen, 1 and the reason.
async fn wait(
    pane: &PaneHandle,
    until: &WaitFor,
    area: Area,
    after: u64,
    timeout: Duration,
) -> (String, u8, String) {
    let notify = Arc::new(tokio::sync::Notify::new());
    pane.watch(&notify);
    let deadline = tokio::time::Instant::now() + timeout;
    let idle = match until {
        WaitFor::Idle(d) => Some(*d),
        _ => None,
    };
    let mut idle_at = idle.map(|d| tokio::time::Instant::now() + d);
    let mut idle_timer = Deadline::new();
    let mut last_screen = String::new();
    let timed_out = |screen: String| {
        (
            screen,
            1,
            "weft wait: timed out; the screen is above".to_string(),
        )
    };
    loop {
        match met(pane, until, area, after, &mut last_screen).await {
            Some(Ok(out)) => return (out, 0, String::new()),
            Some(Err(why)) => return (last_screen, 1, why),
            // Exited, and done with its last output and its dead note (`remain-on-exit`):
            // nothing more is coming.
            None if pane.exit_code().is_some()
                && pane.has_finished()
                && !matches!(until, WaitFor::Exit) =>
            {
                return (
                    last_screen,
                    1,
                    "weft wait: the pane's program exited first".into(),
                );
            }
            None => {}
        }
        idle_timer.set(idle_at);
        tokio::select! {
            _ = notify.notified() => {
                if let Some(d) = idle {
                    idle_at = Some(tokio::time::Instant::now() + d);
                }
            }
            _ = idle_timer.wait() => {
                let revision = pane.shared.seq.load(Ordering::Acquire);
                if revision > after {
                    return (revision.to_string(), 0, String::new());
                }
                idle_at = idle.map(|d| tokio::time::Instant::now() + d);
            }
            _ = tokio::time::sleep_until(deadline) => {
                if let Some((text, _)) = pane.capture(CaptureOptions::default()).await {
                    last_screen = text;
                }
                return timed_out(last_screen);
            }
        }
    }
}

/// Whether `until` holds now: `Some(Ok(what to print))`, `Some(Err(why it never will))`, or
/// `None` (not yet). Keeps the screen it looked at in `last_screen`.
async fn met(
    pane: &PaneHandle,
    until: &WaitFor,
    area: Area,
    after: u64,
    last_screen: &mut String,
) -> Option<Result<String, String>> {
    let shared = &pane.shared;
    match until {
        // Exited, and what it printed last is on the screen.
        WaitFor::Exit => {
            return pane
                .exit_code()
                .filter(|_| pane.has_finished())
                .map(|code| Ok(code.to_string()))
        }
        WaitFor::Idle(_) => return None,
        WaitFor::CommandFinished(wanted) => {
            // The command the last keys started: a command-end mark newer than those keys.
            let ended = shared.last_command_end.load(Ordering::Acquire);
            if ended <= shared.input_revision.load(Ordering::Acquire) || ended <= after {
                return None;
            }
            let status = shared.last_command_status.load(Ordering::Acquire);
            let shown = if status == NO_STATUS {
                String::new()
            } else {
                status.to_string()
            };
            return Some(match wanted {
                Some(w) if status != *w => Err(format!(
                    "weft wait: the command finished with status {}, not {w}",
                    if shown.is_empty() { "unknown" } else { &shown }
                )),
                _ => Ok(shown),
            });
        }
        WaitFor::Title(re) => {
            let title = shared.title();
            return (re.is_match(&title) && shared.seq.load(Ordering::Acquire) > after)
                .then_some(Ok(title));
        }
        WaitFor::Cursor(row, col) => {
            let snapshot = pane.snapshot(u64::MAX).await?;
            return (snapshot.cursor.row == *row
                && snapshot.cursor.col == *col
                && snapshot.seq > after)
                .then(|| Ok(snapshot.seq.to_string()));
        }
        _ => {}
    }
    let (text, revision) = pane.capture(CaptureOptions::default()).await?;
    let seen = area.of(&text);
    *last_screen = text;
    let holds = match until {
        WaitFor::Text(t) => seen.contains(t.as_str()),
        WaitFor::Regex(r) => r.is_match(&seen),
        WaitFor::Absent(t) => !seen.contains(t.as_str()),
        WaitFor::AbsentRegex(r) => !r.is_match(&seen),
        _ => false,
    };
    (holds && revision > after).then(|| Ok(revision.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn areas_cut_rows_and_columns_out_of_the_screen() {
        let screen = "abcdef\nghijkl\nmnopqr";
        assert_eq!(Area::Screen.of(screen), screen);
        assert_eq!(Area::Row(1).of(screen), "ghijkl");
        assert_eq!(Area::Row(9).of(screen), "");
        let region = Area::Region {
            top: 1,
            left: 2,
            bottom: 2,
            right: 3,
        };
        assert_eq!(region.of(screen), "ij\nop");
        assert_eq!(numbers("1, 2"), Some(vec![1, 2]));
        assert_eq!(numbers("1,x"), None);
    }
}
