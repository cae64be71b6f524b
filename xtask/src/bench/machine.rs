//! The date and the machine, printed above the tables so a pasted result says where it came
//! from.

use std::time::{SystemTime, UNIX_EPOCH};

/// Where and when the bench ran.
#[derive(Clone, Debug)]
pub struct Machine {
    /// UTC date and time, `YYYY-MM-DD HH:MM UTC`.
    pub date: String,
    /// CPUs this process may use.
    pub nproc: usize,
    /// The CPU model from /proc/cpuinfo.
    pub cpu: String,
    /// The kernel release.
    pub kernel: String,
}

impl Machine {
    /// Reads the facts from the running system.
    pub fn describe() -> Machine {
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu = cpuinfo
            .lines()
            .find_map(|l| {
                let (k, v) = l.split_once(':')?;
                (k.trim() == "model name").then(|| v.trim().to_string())
            })
            .unwrap_or_else(|| "unknown CPU".to_string());
        let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
            .map(|s| format!("Linux {}", s.trim()))
            .unwrap_or_else(|_| "unknown kernel".to_string());
        Machine {
            date: utc_date(secs),
            nproc: std::thread::available_parallelism().map_or(1, |n| n.get()),
            cpu,
            kernel,
        }
    }

    /// One line: `2 CPUs, <model>, Linux <release>`.
    pub fn summary(&self) -> String {
        format!("{} CPUs, {}, {}", self.nproc, self.cpu, self.kernel)
    }
}

/// Seconds since the epoch as `YYYY-MM-DD HH:MM UTC` (proleptic Gregorian calendar).
fn utc_date(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        rem / 3_600,
        rem % 3_600 / 60
    )
}

#[cfg(test)]
mod tests {
    use super::utc_date;

    #[test]
    fn dates() {
        assert_eq!(utc_date(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc_date(951_782_400), "2000-02-29 00:00 UTC");
        assert_eq!(utc_date(1_700_000_000), "2023-11-14 22:13 UTC");
    }
}
