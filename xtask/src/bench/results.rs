//! The samples: one table per workload, one row per metric, samples per contender, and what
//! kept a contender from a table (not applicable, unsupported, failed).

use super::stats;
use super::Failure;
use std::collections::BTreeMap;

/// How a metric's values read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Seconds.
    Seconds,
    /// Milliseconds.
    Millis,
    /// Megabytes (10^6 bytes).
    MegaBytes,
    /// Bytes.
    Bytes,
    /// A count.
    Count,
    /// Megabytes per second.
    MegaBytesPerSecond,
    /// One figure over another.
    Ratio,
}

impl Unit {
    /// The unit's name in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Seconds => "s",
            Unit::Millis => "ms",
            Unit::MegaBytes => "MB",
            Unit::Bytes => "bytes",
            Unit::Count => "count",
            Unit::MegaBytesPerSecond => "MB/s",
            Unit::Ratio => "ratio",
        }
    }
}

/// One metric.
#[derive(Clone, Debug)]
pub struct Row {
    /// What it measures, with its unit (`time inside the pane, s`).
    pub metric: &'static str,
    /// Its unit.
    pub unit: Unit,
    /// Whether the report adds each contender's ratio to no multiplexer and to tmux.
    pub ratios: bool,
    /// Samples (one a round) per contender.
    pub samples: BTreeMap<&'static str, Vec<f64>>,
}

/// Why a contender has no samples in a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The workload means nothing for it (no server without a multiplexer).
    NotApplicable,
    /// It cannot do what the workload needs.
    Unsupported,
    /// A run failed.
    Failed,
}

/// A check of the table against the project's target, for the line under the table.
pub type Verdict = fn(&Table) -> String;

/// One workload's table.
#[derive(Clone, Debug)]
pub struct Table {
    /// Stable identifier (the workload name).
    pub id: String,
    /// Heading.
    pub title: String,
    /// How it is measured, printed under the heading.
    pub about: String,
    /// Metrics in display order.
    pub rows: Vec<Row>,
    /// Per contender: why some cells are empty.
    pub status: BTreeMap<&'static str, Status>,
    /// Failures and unsupported features, for the notes under the table.
    pub notes: Vec<String>,
    /// The target line.
    pub verdict: Option<Verdict>,
}

impl Table {
    /// An empty table.
    pub fn new(id: &str, title: String) -> Table {
        Table {
            id: id.to_string(),
            title,
            about: String::new(),
            rows: Vec::new(),
            status: BTreeMap::new(),
            notes: Vec::new(),
            verdict: None,
        }
    }

    /// Declares a metric (rows show in declaration order).
    pub fn metric(mut self, metric: &'static str, unit: Unit, ratios: bool) -> Table {
        self.rows.push(Row {
            metric,
            unit,
            ratios,
            samples: BTreeMap::new(),
        });
        self
    }

    /// Says how the table is measured.
    pub fn about(mut self, text: impl Into<String>) -> Table {
        self.about = text.into();
        self
    }

    /// Sets the target check.
    pub fn target(mut self, verdict: Verdict) -> Table {
        self.verdict = Some(verdict);
        self
    }

    /// Adds a sample of a declared metric.
    pub fn add(&mut self, metric: &'static str, contender: &'static str, value: f64) {
        let row = match self.rows.iter_mut().position(|r| r.metric == metric) {
            Some(i) => &mut self.rows[i],
            None => {
                self.rows.push(Row {
                    metric,
                    unit: Unit::Count,
                    ratios: false,
                    samples: BTreeMap::new(),
                });
                let last = self.rows.len() - 1;
                &mut self.rows[last]
            }
        };
        row.samples.entry(contender).or_default().push(value);
    }

    /// Records why a run of `contender` gave no sample.
    pub fn fail(&mut self, contender: &'static str, round: usize, failure: &Failure) {
        let (status, note) = match failure {
            Failure::NotApplicable => (Status::NotApplicable, None),
            Failure::Unsupported(why) => (
                Status::Unsupported,
                Some(format!("{contender}: unsupported: {why}")),
            ),
            Failure::Failed(why) => (
                Status::Failed,
                Some(format!("{contender}, round {}: {why}", round + 1)),
            ),
        };
        let entry = self.status.entry(contender).or_insert(status);
        if status != Status::NotApplicable {
            *entry = status;
        }
        if let Some(note) = note {
            if !self.notes.contains(&note) {
                self.notes.push(note);
            }
        }
    }

    /// The samples of `contender` for `metric`.
    pub fn samples(&self, metric: &str, contender: &str) -> &[f64] {
        self.rows
            .iter()
            .find(|r| r.metric == metric)
            .and_then(|r| r.samples.get(contender))
            .map_or(&[], Vec::as_slice)
    }

    /// The median of `contender` for `metric`.
    pub fn median(&self, metric: &str, contender: &str) -> Option<f64> {
        stats::median(self.samples(metric, contender))
    }

    /// Whether `contender` ran in this table at all (a sample, or a reason for none).
    pub fn ran(&self, contender: &str) -> bool {
        self.status.contains_key(contender)
            || self.rows.iter().any(|r| r.samples.contains_key(contender))
    }

    /// The contenders with samples for `metric`.
    pub fn contenders(&self, metric: &str) -> Vec<&'static str> {
        self.rows
            .iter()
            .find(|r| r.metric == metric)
            .map(|r| r.samples.keys().copied().collect())
            .unwrap_or_default()
    }
}

/// All tables, in the order the workloads ran.
#[derive(Clone, Debug, Default)]
pub struct Results {
    /// The tables.
    pub tables: Vec<Table>,
}

impl Results {
    /// The table `id`, made by `make` the first time.
    pub fn table(&mut self, id: &str, make: impl FnOnce() -> Table) -> &mut Table {
        let i = match self.tables.iter().position(|t| t.id == id) {
            Some(i) => i,
            None => {
                self.tables.push(make());
                self.tables.len() - 1
            }
        };
        &mut self.tables[i]
    }
}
