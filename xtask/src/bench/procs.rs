//! What /proc says about processes, and ending them by pid.

use rustix::process::{Pid, Signal, WaitOptions};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// The fields of /proc/PID/stat after the command name, which may contain spaces.
fn stat_fields(pid: u32) -> Option<Vec<String>> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &s[s.rfind(')')? + 2..];
    Some(rest.split_whitespace().map(str::to_string).collect())
}

/// Whether `pid` exists and is not a zombie.
pub fn is_alive(pid: u32) -> bool {
    stat_fields(pid).is_some_and(|f| f.first().is_some_and(|s| s != "Z"))
}

/// Per-thread counters of one thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Time on a CPU, ns (schedstat).
    pub run_ns: u64,
    /// Voluntary context switches: the thread slept and was woken.
    pub voluntary: u64,
    /// Involuntary context switches: the thread was preempted.
    pub involuntary: u64,
}

/// The counters of each live thread of `pid`, by thread id.
pub fn thread_counters(pid: u32) -> BTreeMap<u32, Counters> {
    let mut out = BTreeMap::new();
    let Ok(dir) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return out;
    };
    for entry in dir.flatten() {
        let Some(tid) = entry.file_name().to_str().and_then(|s| s.parse().ok()) else {
            continue;
        };
        let mut c = Counters::default();
        let base = format!("/proc/{pid}/task/{tid}");
        if let Ok(s) = std::fs::read_to_string(format!("{base}/schedstat")) {
            c.run_ns = s
                .split_whitespace()
                .next()
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
        }
        let Ok(status) = std::fs::read_to_string(format!("{base}/status")) else {
            continue;
        };
        for line in status.lines() {
            let value = |l: &str| l.split_whitespace().nth(1).and_then(|v| v.parse().ok());
            if line.starts_with("voluntary_ctxt_switches") {
                c.voluntary = value(line).unwrap_or(0);
            } else if line.starts_with("nonvoluntary_ctxt_switches") {
                c.involuntary = value(line).unwrap_or(0);
            }
        }
        out.insert(tid, c);
    }
    out
}

/// What the threads alive at the end did since `before` (threads born in between count whole).
pub fn counters_delta(
    before: &BTreeMap<u32, Counters>,
    after: &BTreeMap<u32, Counters>,
) -> Counters {
    let mut d = Counters::default();
    for (tid, a) in after {
        let b = before.get(tid).copied().unwrap_or_default();
        d.run_ns += a.run_ns.saturating_sub(b.run_ns);
        d.voluntary += a.voluntary.saturating_sub(b.voluntary);
        d.involuntary += a.involuntary.saturating_sub(b.involuntary);
    }
    d
}

/// Resident set size, KiB.
pub fn rss_kib(pid: u32) -> Option<u64> {
    status_kib(pid, "VmRSS:")
}

/// The anonymous part of the resident set (heap, stacks; not the program's code), KiB.
pub fn rss_anon_kib(pid: u32) -> Option<u64> {
    status_kib(pid, "RssAnon:")
}

/// A `/proc/PID/status` field given in kB.
fn status_kib(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with(field))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// Processes whose environment has `key` set to a value `accept` takes: (pid, value).
pub fn with_env(key: &str, accept: impl Fn(&str) -> bool) -> Vec<(u32, String)> {
    let me = std::process::id();
    let prefix = format!("{key}=");
    let mut found = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == me {
            continue;
        }
        let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) else {
            continue;
        };
        let value = env
            .split(|&b| b == 0)
            .find_map(|var| var.strip_prefix(prefix.as_bytes()));
        if let Some(value) = value.and_then(|v| std::str::from_utf8(v).ok()) {
            if accept(value) {
                found.push((pid, value.to_string()));
            }
        }
    }
    found
}

fn pid_of(pid: u32) -> Option<Pid> {
    Pid::from_raw(i32::try_from(pid).ok()?)
}

/// Collects `pid`'s exit status if it is a child of ours (or an orphan we adopted).
pub fn reap(pid: u32) {
    if let Some(p) = pid_of(pid) {
        let _ = rustix::process::waitpid(Some(p), WaitOptions::NOHANG);
    }
}

/// Ends `pids`: SIGHUP and SIGTERM (an interactive shell ignores the latter), then SIGKILL to
/// those still alive after `grace`; reaps our children.
pub fn kill_all(pids: &[u32], grace: Duration) {
    for signals in [&[Signal::HUP, Signal::TERM][..], &[Signal::KILL]] {
        let mut alive: Vec<u32> = pids.iter().copied().filter(|&p| is_alive(p)).collect();
        for &p in &alive {
            for &signal in signals {
                if let Some(pid) = pid_of(p) {
                    let _ = rustix::process::kill_process(pid, signal);
                }
            }
        }
        let deadline = Instant::now() + grace;
        while !alive.is_empty() && Instant::now() < deadline {
            // A fixed nap is right here: the processes are not our children, so there is no exit to wait on
            std::thread::sleep(Duration::from_millis(5)); // deadline-ok
            for &p in &alive {
                reap(p);
            }
            alive.retain(|&p| is_alive(p));
        }
        if alive.is_empty() {
            break;
        }
    }
    for &p in pids {
        reap(p);
    }
}

/// Waits until `pid` has used no CPU for `still` (it finished digesting its input); false
/// when `timeout` passed first or the process is gone.
pub fn wait_idle(pid: u32, still: Duration, timeout: Duration) -> bool {
    let deadline = Instant::now() + timeout;
    let total = |pid| -> Option<u64> {
        let t = thread_counters(pid);
        (!t.is_empty()).then(|| t.values().map(|c| c.run_ns).sum())
    };
    let Some(mut last) = total(pid) else {
        return false;
    };
    let mut since = Instant::now();
    while Instant::now() < deadline {
        // A fixed nap is right here: CPU time standing still can only be sampled
        std::thread::sleep(Duration::from_millis(20)); // deadline-ok
        let Some(now) = total(pid) else {
            return false;
        };
        if now != last {
            last = now;
            since = Instant::now();
        } else if since.elapsed() >= still {
            return true;
        }
    }
    false
}

/// Makes this process adopt orphaned descendants (daemonized multiplexer servers), so it can
/// reap them after killing them.
pub fn become_subreaper() {
    let _ = rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
}
