//! The feature matrix: one sparse row per training position, its features computed once per
//! fit. A row holds, for each weight whose feature differs between the side to move and its
//! opponent, the weight's index and that difference (f32), the variance points of the side to
//! move and its opponent and the adjustment's scale ([`tusk_eval::variance`]: the model is
//! the adjusted linear total), and the game result from the side to move's view (1 won, 0
//! lost). Stored as one compressed sparse row block: about 8 bytes per
//! non-zero feature, so a million positions fit in a few hundred MB whatever the number of
//! weights the evaluation grows to.

use tusk_engine::{ByColor, Color, Position};
use tusk_eval::variance::VariancePoints;
use tusk_eval::{features, Weights};

/// One position's row: its feature differences and its variance adjustment.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// (weight index, feature difference side to move minus opponent) for every weight whose
    /// difference is not zero.
    pub entries: Vec<(u16, f32)>,
    /// The variance points of the side to move and its opponent, and the scale (centirabbits).
    pub variance: [f32; 3],
}

/// Sparse rows of feature differences with their results.
#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    /// Where each row starts in `cols` and `vals`; one more entry than rows.
    starts: Vec<u32>,
    /// Weight index (a [`tusk_eval::Param`] index) of each entry.
    cols: Vec<u16>,
    /// Feature difference of each entry.
    vals: Vec<f32>,
    /// Result of each row.
    results: Vec<f32>,
    /// Variance points (side to move, opponent) and scale of each row.
    variance: Vec<[f32; 3]>,
}

impl Default for Matrix {
    fn default() -> Matrix {
        Matrix {
            starts: vec![0],
            cols: Vec::new(),
            vals: Vec::new(),
            results: Vec::new(),
            variance: Vec::new(),
        }
    }
}

impl Matrix {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// Number of stored entries.
    pub fn entries(&self) -> usize {
        self.vals.len()
    }

    /// Memory held by the rows, in bytes.
    pub fn bytes(&self) -> usize {
        self.starts.len() * 4
            + self.cols.len() * 2
            + self.vals.len() * 4
            + self.results.len() * 4
            + self.variance.len() * 12
    }

    /// Adds a row without a variance adjustment: its entries (weight index, feature
    /// difference) and its result.
    #[cfg(test)]
    pub fn push(&mut self, entries: &[(u16, f32)], result: f32) {
        self.push_adjusted(entries, [0.0; 3], result);
    }

    /// Adds a position's row and its result.
    pub fn push_row(&mut self, row: &Row, result: f32) {
        self.push_adjusted(&row.entries, row.variance, result);
    }

    fn push_adjusted(&mut self, entries: &[(u16, f32)], variance: [f32; 3], result: f32) {
        for &(c, v) in entries {
            self.cols.push(c);
            self.vals.push(v);
        }
        self.starts.push(self.cols.len() as u32);
        self.results.push(result);
        self.variance.push(variance);
    }

    /// Appends every row of `other`.
    pub fn append(&mut self, other: &Matrix) {
        let base = self.cols.len() as u32;
        self.cols.extend_from_slice(&other.cols);
        self.vals.extend_from_slice(&other.vals);
        self.starts
            .extend(other.starts[1..].iter().map(|&s| s + base));
        self.results.extend_from_slice(&other.results);
        self.variance.extend_from_slice(&other.variance);
    }

    /// The entries of row `i`.
    #[inline]
    pub fn row(&self, i: usize) -> (&[u16], &[f32]) {
        let (a, b) = (self.starts[i] as usize, self.starts[i + 1] as usize);
        (&self.cols[a..b], &self.vals[a..b])
    }

    /// The result of row `i`.
    #[inline]
    pub fn result(&self, i: usize) -> f32 {
        self.results[i]
    }

    /// `Σ w[col] × value` over row `i`: the linear part of the model.
    #[inline]
    pub fn linear(&self, i: usize, w: &[f64]) -> f64 {
        let (c, v) = self.row(i);
        c.iter()
            .zip(v)
            .map(|(&c, &v)| w[usize::from(c)] * f64::from(v))
            .sum()
    }

    /// Row `i`'s variance adjustment, from the side to move's view as gold.
    #[inline]
    fn variance(&self, i: usize) -> VariancePoints {
        let [us, them, scale] = self.variance[i];
        VariancePoints {
            points: ByColor([f64::from(us), f64::from(them)]),
            scale: f64::from(scale),
        }
    }

    /// The model's evaluation of row `i`: the linear part through the variance adjustment.
    #[inline]
    pub fn eval(&self, i: usize, w: &[f64]) -> f64 {
        self.variance(i).adjust(Color::Gold, self.linear(i, w))
    }

    /// The model's evaluation of row `i` and its derivative by the linear part.
    #[inline]
    pub fn eval_and_slope(&self, i: usize, w: &[f64]) -> (f64, f64) {
        let linear = self.linear(i, w);
        let v = self.variance(i);
        (v.adjust(Color::Gold, linear), v.slope(Color::Gold, linear))
    }
}

/// The row of `pos` (which must not have a goal this turn for the side to move): the
/// difference, side to move minus opponent, of every weight's feature that is not zero, and
/// the variance points, with the shape parameters of `w`. `None` when the side to move can
/// goal (a win score has no features).
pub fn row_of(pos: &Position, w: &Weights) -> Option<Row> {
    let f = features(pos, w);
    if f.goal.is_some() {
        return None;
    }
    let us = pos.side();
    let entries = Weights::params()
        .filter(|&p| Weights::is_linear(p))
        .filter_map(|p| {
            let d = f.difference(p, us);
            (d != 0.0).then_some((p.0, d as f32))
        })
        .collect();
    let v = f.variance;
    Some(Row {
        entries,
        variance: [v.points[us] as f32, v.points[!us] as f32, v.scale as f32],
    })
}

/// The weights as the fitted vector (reals, indexed like [`tusk_eval::Param`]).
pub fn to_vector(w: &Weights) -> Vec<f64> {
    w.values().iter().map(|&v| f64::from(v)).collect()
}

/// Which entries of the vector the tuner fits: the linear weights.
pub fn fitted_mask() -> Vec<bool> {
    Weights::params().map(Weights::is_linear).collect()
}

/// [`fitted_mask`] less the weights `keep` names: each item is a weight's name or a group's
/// (`trap_curve` keeps `trap_curve.0` ..). An item that names no linear weight is an error.
pub fn fitted_mask_keeping(keep: &[String]) -> Result<Vec<bool>, String> {
    let mut mask = fitted_mask();
    for item in keep {
        let mut found = false;
        for p in Weights::params().filter(|&p| Weights::is_linear(p)) {
            let name = Weights::name(p);
            let in_group = name
                .strip_prefix(item.as_str())
                .is_some_and(|rest| rest.starts_with('.'));
            if name == item || in_group {
                mask[p.index()] = false;
                found = true;
            }
        }
        if !found {
            return Err(format!(
                "--keep {item}: names no fitted weight or group of them"
            ));
        }
    }
    Ok(mask)
}

/// `base` with the fitted entries replaced by `v` rounded to integers and kept within each
/// entry's range.
pub fn rounded(base: &Weights, v: &[f64]) -> Weights {
    let mut w = base.clone();
    for p in Weights::params().filter(|&p| Weights::is_linear(p)) {
        let (g, _) = Weights::group_of(p);
        w[p] = v[p.index()]
            .round()
            .clamp(f64::from(g.min), f64::from(g.max)) as i32;
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use tusk_eval::evaluate;

    #[test]
    fn rows_reproduce_the_evaluation_and_store_compactly() {
        // The shipped weights, and sharp's priors with the variance adjustment on.
        let mut adjusted = Weights::default().with_sharp_priors();
        adjusted[tusk_eval::id::variance_pct] = 31;
        let mut with_variance = 0;
        for w in [Weights::default(), adjusted] {
            let mut m = Matrix::default();
            let mut scores = Vec::new();
            let mut bounds = Vec::new();
            for p in (0..20u64).flat_map(|s| tusk_tests::random_game(s, 50)) {
                let Some(row) = row_of(&p, &w) else { continue };
                with_variance += usize::from(row.variance[0] != 0.0 || row.variance[1] != 0.0);
                m.push_row(&row, 1.0);
                scores.push(f64::from(evaluate(&p, &w)));
                bounds.push(features(&p, &w).rounding_bound);
            }
            assert!(m.len() > 500);
            let v = to_vector(&w);
            for i in 0..m.len() {
                // f32 storage adds a little to the evaluation's own rounding.
                assert!(
                    (m.eval(i, &v) - scores[i]).abs() <= bounds[i] + 0.01,
                    "row {i}: {} vs {}",
                    m.eval(i, &v),
                    scores[i]
                );
            }
        }
        assert!(with_variance > 100, "{with_variance} rows adjusted");
        let w = Weights::default();
        let mut m = Matrix::default();
        for p in (0..20u64).flat_map(|s| tusk_tests::random_game(s, 50)) {
            if let Some(row) = row_of(&p, &w) {
                m.push_row(&row, 1.0);
            }
        }
        // About one entry per piece for the placement tables (39 a row here), the rest few.
        assert!(m.entries() < m.len() * 64, "{} entries", m.entries());
        let mut twice = m.clone();
        twice.append(&m);
        assert_eq!(twice.len(), 2 * m.len());
        assert_eq!(twice.row(m.len()), m.row(0));
    }

    #[test]
    fn rounding_keeps_shape_parameters_and_ranges() {
        let base = Weights::default();
        let mut v = to_vector(&base);
        let home = tusk_eval::id::trap_home.index();
        let cap = tusk_eval::id::trap_control_cap.index();
        v[home] = 40.6;
        v[cap] = 3.0;
        v[tusk_eval::id::material_pct.index()] = 1e9;
        let w = rounded(&base, &v);
        assert_eq!(w[tusk_eval::id::trap_home], 41);
        assert_eq!(
            w[tusk_eval::id::trap_control_cap],
            base[tusk_eval::id::trap_control_cap]
        );
        assert_eq!(w[tusk_eval::id::material_pct], 1000);
        assert!(!fitted_mask()[cap] && fitted_mask()[home]);
    }

    #[test]
    fn kept_weights_and_groups_are_left_out_of_the_fit() {
        let keep = ["goal_threat".to_string(), "trap_curve".to_string()];
        let mask = fitted_mask_keeping(&keep).unwrap();
        let fitted = |name: &str| mask[Weights::find(name).unwrap().index()];
        assert!(!fitted("goal_threat") && !fitted("trap_curve.0") && !fitted("trap_curve.16"));
        assert!(fitted("trap_home") && fitted("capture_threat_pct"));
        assert_eq!(
            mask.iter().filter(|&&f| f).count(),
            fitted_mask().iter().filter(|&&f| f).count() - 18
        );
        // A prefix that is not a whole group name keeps nothing, so it is refused.
        let e = fitted_mask_keeping(&["trap_cur".to_string()]).unwrap_err();
        assert!(e.contains("trap_cur"), "{e}");
        assert!(fitted_mask_keeping(&["trap_control_cap".to_string()]).is_err());
    }
}
