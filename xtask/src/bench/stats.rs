//! Medians, extremes and percentiles of samples.

/// The samples sorted ascending (NaN last).
fn sorted(samples: &[f64]) -> Vec<f64> {
    let mut v = samples.to_vec();
    v.sort_by(f64::total_cmp);
    v
}

/// The `p`-th percentile (0..=100) with linear interpolation between neighbours; `None` for
/// no samples. Infinite samples (lost keystrokes) stay infinite.
pub fn percentile(samples: &[f64], p: f64) -> Option<f64> {
    let v = sorted(samples);
    let last = v.len().checked_sub(1)?;
    let rank = last as f64 * p.clamp(0.0, 100.0) / 100.0;
    let lo = rank.floor() as usize;
    let hi = (lo + 1).min(last);
    let frac = rank - lo as f64;
    if frac == 0.0 || v[lo] == v[hi] {
        return Some(v[lo]);
    }
    if v[hi].is_infinite() {
        return Some(v[hi]);
    }
    Some(v[lo] + (v[hi] - v[lo]) * frac)
}

/// The median; `None` for no samples.
pub fn median(samples: &[f64]) -> Option<f64> {
    percentile(samples, 50.0)
}

/// The smallest sample.
pub fn min(samples: &[f64]) -> Option<f64> {
    sorted(samples).first().copied()
}

/// The largest sample.
pub fn max(samples: &[f64]) -> Option<f64> {
    sorted(samples).last().copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_and_percentiles() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3.0]), Some(3.0));
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[1.0, 2.0, 3.0, 4.0]), Some(2.5));
        assert_eq!(percentile(&[1.0, 2.0, 3.0, 4.0, 5.0], 100.0), Some(5.0));
        assert_eq!(percentile(&[1.0, 2.0, 3.0, 4.0, 5.0], 0.0), Some(1.0));
        assert_eq!(percentile(&[1.0, f64::INFINITY], 99.0), Some(f64::INFINITY));
        assert_eq!(min(&[2.0, 1.0]), Some(1.0));
        assert_eq!(max(&[2.0, 1.0]), Some(2.0));
    }
}
