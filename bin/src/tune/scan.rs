//! `tusk tune --scan NAME=V1,V2,...`: a line search over one parameter, for the shape
//! parameters the gradient cannot fit (a share, a curve's point, a cap) and as an exact
//! one-weight check of any linear weight.
//!
//! The positions are sampled once (with the starting weights, so every value is judged on the
//! same positions); for each value the rows are computed again with that value, `K` is fitted
//! again (or `--k` is used), and the training and validation losses are measured. The
//! validation loss is also compared position by position with the starting value's: the mean
//! difference and its standard error, so a gain can be told from noise. The value with the
//! least training loss is written into the weights file; no weight is fitted.

use std::io::Write;

use rayon::prelude::*;
use tusk_engine::Position;
use tusk_eval::{Param, Weights};

use super::fit::{self, LossKind};
use super::matrix::{row_of, to_vector, Matrix, Row};

/// The parameter to scan and the values to try, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scan {
    /// The parameter.
    pub param: Param,
    /// The values, each within the parameter's range, without repeats.
    pub values: Vec<i32>,
}

/// Parses `NAME=V1,V2,...` (a weight or shape parameter's name as in weights files, then
/// integers within its range); an error names what is wrong.
pub fn parse_scan(text: &str) -> Result<Scan, String> {
    let Some((name, list)) = text.split_once('=') else {
        return Err(format!(
            "--scan {text}: expected NAME=V1,V2,... (e.g. capture_risk_mover_pct=0,50,100)"
        ));
    };
    let name = name.trim();
    let param = Weights::find(name)
        .ok_or_else(|| format!("--scan {text}: no weight or shape parameter is called {name:?}"))?;
    let (group, _) = Weights::group_of(param);
    let mut values = Vec::new();
    for item in list.split(',') {
        let item = item.trim();
        let v: i32 = item
            .parse()
            .map_err(|_| format!("--scan {text}: {item:?} is not an integer"))?;
        if !(group.min..=group.max).contains(&v) {
            return Err(format!(
                "--scan {text}: {v} is outside {name}'s range {}..={}",
                group.min, group.max
            ));
        }
        if values.contains(&v) {
            return Err(format!("--scan {text}: {v} is given twice"));
        }
        values.push(v);
    }
    Ok(Scan { param, values })
}

/// A position sampled for the scan, with its target (the game result from the side to
/// move's view, or the teacher's predicted result).
pub type Target = (Position, f32);

/// One value's measurements.
#[derive(Clone, Debug, PartialEq)]
pub struct ScanPoint {
    /// The value tried.
    pub value: i32,
    /// The logistic scale used (fitted for this value unless given).
    pub k: f64,
    /// Mean loss on the training positions.
    pub train: f64,
    /// Mean loss on the validation positions.
    pub valid: f64,
    /// Mean validation loss difference from the starting value, position by position, and its
    /// standard error (zero for the starting value itself).
    pub versus_start: (f64, f64),
}

/// The mean of the differences `a[i] - b[i]` and its standard error (`0` with fewer than two).
pub fn paired_difference(a: &[f64], b: &[f64]) -> (f64, f64) {
    let n = a.len().min(b.len());
    if n == 0 {
        return (0.0, 0.0);
    }
    let d = a.iter().zip(b).map(|(x, y)| x - y);
    let mean = d.clone().sum::<f64>() / n as f64;
    if n < 2 {
        return (mean, 0.0);
    }
    let var = d.map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
    (mean, (var / n as f64).sqrt())
}

/// The rows of `positions` with the shape parameters of `w`, in parallel and in order. A
/// position that has no row (the side to move can goal; sampling leaves none) gets an empty
/// one, so that rows stay paired across values.
fn rows_of(positions: &[Target], w: &Weights) -> Matrix {
    let chunks: Vec<Matrix> = positions
        .par_chunks(1024)
        .map(|chunk| {
            let mut m = Matrix::default();
            for (pos, y) in chunk {
                let row = row_of(pos, w).unwrap_or(Row {
                    entries: Vec::new(),
                    variance: [0.0; 3],
                });
                m.push_row(&row, *y);
            }
            m
        })
        .collect();
    let mut all = Matrix::default();
    for m in &chunks {
        all.append(m);
    }
    all
}

/// Measures every value of `scan` (the starting value of `start` first when the list leaves
/// it out) on the training and validation positions, with the loss `kind` and the scale `k`
/// (fitted per value when `None`).
pub fn run_scan(
    scan: &Scan,
    start: &Weights,
    train: &[Target],
    valid: &[Target],
    kind: LossKind,
    k: Option<f64>,
) -> Vec<ScanPoint> {
    let first = start[scan.param];
    let mut values = scan.values.clone();
    if !values.contains(&first) {
        values.insert(0, first);
    }
    let tr: Vec<u32> = (0..train.len() as u32).collect();
    let mut measured: Vec<(i32, f64, f64, Vec<f64>)> = Vec::new();
    for &v in &values {
        let mut w = start.clone();
        w[scan.param] = v;
        let vector = to_vector(&w);
        let (mt, mv) = (rows_of(train, &w), rows_of(valid, &w));
        let k = k.unwrap_or_else(|| fit::fit_k(&mt, &tr, &vector, kind));
        let t = fit::loss(&mt, &tr, &vector, k, kind);
        measured.push((v, k, t, fit::row_losses(&mv, &vector, k, kind)));
    }
    // The starting value is in the list, so it was measured.
    let base = &measured[values.iter().position(|&v| v == first).unwrap_or(0)].3;
    measured
        .iter()
        .map(|(value, k, train, losses)| ScanPoint {
            value: *value,
            k: *k,
            train: *train,
            valid: losses.iter().sum::<f64>() / losses.len().max(1) as f64,
            versus_start: paired_difference(losses, base),
        })
        .collect()
}

/// The point with the least training loss (the first of equals).
pub fn best(points: &[ScanPoint]) -> Option<&ScanPoint> {
    points.iter().min_by(|a, b| a.train.total_cmp(&b.train))
}

/// Prints the scan's table: per value, K, both losses and the validation difference from the
/// starting value `first` with its standard error.
pub fn print_table(
    out: &mut impl Write,
    name: &str,
    first: i32,
    points: &[ScanPoint],
) -> std::io::Result<()> {
    writeln!(
        out,
        "{:>8} {:>8} {:>12} {:>12}   validation minus {name} = {first}",
        "value", "K", "training", "validation"
    )?;
    for p in points {
        let versus = if p.value == first {
            "(the starting value)".to_string()
        } else {
            format!("{:+.6} ± {:.6}", p.versus_start.0, p.versus_start.1)
        };
        writeln!(
            out,
            "{:>8} {:>8.1} {:>12.6} {:>12.6}   {versus}",
            p.value, p.k, p.train, p.valid
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tusk_eval::id;

    #[test]
    fn scans_parse_and_errors_say_what_is_wrong() {
        let s = parse_scan("capture_risk_mover_pct=0, 50,100").unwrap();
        assert_eq!(s.param, Weights::find("capture_risk_mover_pct").unwrap());
        assert_eq!(s.values, vec![0, 50, 100]);
        let s = parse_scan("trap_strength.2=10,-5").unwrap();
        assert_eq!(s.param, Weights::find("trap_strength.2").unwrap());
        assert_eq!(s.values, vec![10, -5]);

        let e = parse_scan("capture_risk_mover_pct").unwrap_err();
        assert!(e.contains("expected NAME=V1,V2"), "{e}");
        let e = parse_scan("no_such_thing=1").unwrap_err();
        assert!(e.contains("\"no_such_thing\""), "{e}");
        let e = parse_scan("capture_risk_mover_pct=0,x").unwrap_err();
        assert!(e.contains("\"x\" is not an integer"), "{e}");
        let e = parse_scan("capture_risk_mover_pct=101").unwrap_err();
        assert!(e.contains("101 is outside"), "{e}");
        assert!(e.contains("0..=100"), "{e}");
        let e = parse_scan("capture_risk_mover_pct=5,5").unwrap_err();
        assert!(e.contains("5 is given twice"), "{e}");
    }

    #[test]
    fn paired_differences_have_the_textbook_mean_and_error() {
        let (m, se) = paired_difference(&[1.0, 2.0, 3.0, 6.0], &[0.0, 1.0, 1.0, 2.0]);
        // Differences 1, 1, 2, 4: mean 2, sample variance 2, standard error sqrt(2 / 4).
        assert!((m - 2.0).abs() < 1e-12);
        assert!((se - 0.5f64.sqrt()).abs() < 1e-12);
        assert_eq!(paired_difference(&[], &[]), (0.0, 0.0));
        assert_eq!(paired_difference(&[3.0], &[1.0]), (2.0, 0.0));
    }

    /// Positions of random games, each labelled by whether the material favours the side to
    /// move (a result the material weight predicts and nothing else does).
    fn labelled(seeds: std::ops::Range<u64>) -> Vec<Target> {
        seeds
            .flat_map(|s| tusk_tests::random_game(s, 60))
            .filter(|p| row_of(p, &Weights::default()).is_some())
            .map(|p| {
                let us = p.side();
                let count = |c| p.occupied_by(c).count() as i32;
                let y = if count(us) > count(!us) { 1.0 } else { 0.0 };
                (p, y)
            })
            .collect()
    }

    #[test]
    fn the_scan_prefers_the_weight_that_predicts_and_adds_the_start() {
        let train = labelled(0..12);
        let valid = labelled(100..106);
        assert!(train.len() > 300 && valid.len() > 100);
        // Material is what decides these labels: no material at all predicts worst.
        let mut start = Weights::default();
        start[id::material_pct] = 0;
        let scan = Scan {
            param: id::material_pct,
            values: vec![50, 100],
        };
        let points = run_scan(&scan, &start, &train, &valid, LossKind::Mse, None);
        assert_eq!(
            points.iter().map(|p| p.value).collect::<Vec<_>>(),
            vec![0, 50, 100]
        );
        assert_eq!(points[0].versus_start, (0.0, 0.0));
        assert!(points[1].train < points[0].train, "{points:?}");
        assert!(points[2].valid < points[0].valid, "{points:?}");
        // The gain is many standard errors, and the best value is not the start.
        let (gain, se) = points[2].versus_start;
        assert!(gain < -3.0 * se && se > 0.0, "{points:?}");
        assert_ne!(best(&points).unwrap().value, 0);

        // A given K is used as it is.
        let fixed = run_scan(&scan, &start, &train, &valid, LossKind::Mse, Some(300.0));
        assert!(fixed.iter().all(|p| p.k == 300.0));
        let mut table = Vec::new();
        print_table(&mut table, "material_pct", 0, &points).unwrap();
        let table = String::from_utf8(table).unwrap();
        assert!(table.contains("(the starting value)"), "{table}");
        assert_eq!(table.lines().count(), 4, "{table}");
    }
}
