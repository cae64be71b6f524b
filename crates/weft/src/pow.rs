//! `pow` for the whole executable, from the `libm` crate, so that weft does not load the C
//! math library.
//!
//! The only symbol weft took from `libm.so.6` was `pow` (tokio's scheduler weighs its
//! poll-time average with `powf`). Loading the library for it cost every weft process about
//! 0.4 MB of resident memory (its headers, symbol tables, and the 64 KB windows of code and
//! tables around `pow`) and the loader's work to map and relocate it. Defined here, the
//! linker resolves `pow` to this function and, linking with `--as-needed` (Rust's default),
//! drops `libm.so.6` from the executable's needed libraries. The `libm` crate is the Rust
//! project's port of musl's `pow` (within 1 ulp), so results match the C library's for every
//! use weft makes of it.

/// The C `pow(x, y)`: `x` raised to the power `y`.
// SAFETY: `pow` is C's own name for exactly this function (same signature, same meaning), and
// nothing else in the executable defines it; the shared C math library that would otherwise
// provide it is no longer loaded.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn pow(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}

#[cfg(test)]
mod tests {
    use super::pow;

    #[test]
    fn exact_powers_are_exact() {
        assert_eq!(pow(2.0, 10.0), 1024.0);
        assert_eq!(pow(10.0, -2.0), 0.01);
        assert_eq!(pow(0.5, -3.0), 8.0);
        assert_eq!(pow(7.25, 0.0), 1.0);
        assert_eq!(pow(9.0, 0.5), 3.0);
    }

    #[test]
    fn a_decay_matches_repeated_multiplication() {
        // tokio's use: the weight of n polls in an exponentially weighted average.
        let mut product = 1.0f64;
        for n in 1..=200 {
            product *= 0.9;
            let got = pow(0.9, f64::from(n));
            assert!(
                (got - product).abs() <= product * 1e-13,
                "0.9^{n}: {got} vs {product}"
            );
        }
    }

    #[test]
    fn special_values_follow_c() {
        assert!(pow(-8.0, 1.0 / 3.0).is_nan());
        assert_eq!(pow(0.0, -1.0), f64::INFINITY);
        assert_eq!(pow(f64::NAN, 0.0), 1.0);
        assert_eq!(pow(1.0, f64::NAN), 1.0);
    }
}
