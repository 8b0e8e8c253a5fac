//! Fixed curves the terms share, computed at compile time so that the evaluation stays in
//! integers: the exponential and the logistic.

/// `e^x` for `|x| <= 16` (range-reduced series; relative error below 1e-12), usable in
/// constants.
pub const fn exp(x: f64) -> f64 {
    // e^x = (e^(x/64))^64; the small power by its series.
    let y = x / 64.0;
    let mut term = 1.0;
    let mut sum = 1.0;
    let mut k = 1;
    while k < 14 {
        term = term * y / k as f64;
        sum += term;
        k += 1;
    }
    let mut p = sum;
    let mut j = 0;
    while j < 6 {
        p = p * p;
        j += 1;
    }
    p
}

/// `scale / (1 + e^(-(i - center) / width))` for `i` in `0 .. N`, truncated toward zero.
pub const fn logistic_table<const N: usize>(center: f64, width: f64, scale: f64) -> [i32; N] {
    let mut out = [0i32; N];
    let mut i = 0;
    while i < N {
        let x = -((i as f64) - center) / width;
        let x = if x > 16.0 {
            16.0
        } else if x < -16.0 {
            -16.0
        } else {
            x
        };
        out[i] = (scale / (1.0 + exp(x))) as i32;
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_matches_the_library() {
        for i in -160..=160 {
            let x = f64::from(i) / 10.0;
            let rel = (exp(x) - x.exp()).abs() / x.exp();
            assert!(rel < 1e-12, "{x}: {} vs {}", exp(x), x.exp());
        }
    }

    #[test]
    fn the_logistic_table_is_the_logistic() {
        const T: [i32; 21] = logistic_table(10.0, 2.0, 1000.0);
        for (i, &v) in T.iter().enumerate() {
            let exact = 1000.0 / (1.0 + (-(i as f64 - 10.0) / 2.0).exp());
            assert_eq!(v, exact as i32, "{i}");
        }
        assert_eq!(T[10], 500);
    }
}
