//! A model of whole root turns (issue 22's move predictor): what a turn does, as a few dozen
//! binary features out of [`FEATURES`], and a linear score of them (a logit: a softmax over
//! the root's turns is the model's probability that a turn is the one a deeper search or a
//! stronger player chooses). The search uses it, with [`crate::Feature::Predictor`], to order
//! the root turns after its first iteration, so that root reductions hit the turns the model
//! ranks unlikely.
//!
//! The features of a turn of the side `us` (squares seen from `us`'s side: rank counted from
//! its home rank, file folded onto a to d, so the model is colour- and mirror-symmetric):
//! * each kind of `us`'s pieces on each square it reaches in the turn, and leaves;
//! * each kind of enemy piece on each square it is pushed or pulled to;
//! * the kinds captured on either side during the turn;
//! * the strongest kind of `us`'s pieces the opponent can capture next turn after it (or
//!   none), and whether the threat that stood before the turn (the opponent's capture had
//!   `us` passed) was removed or kept;
//! * the strongest kind `us` could capture the turn after, were the opponent to pass (or
//!   none: the threat the turn makes);
//! * the steps it takes;
//! * how far its score falls below the root's best, in buckets: its static score (the
//!   evaluation of the opponent's turn start, as [`crate::root`] computes it before any
//!   search) and its first iteration's search score.
//!
//! The weights are fitted by `search/examples/train_predictor.rs` on turns chosen in real
//! games (`search/examples/predictor_data.rs`) and shipped in `search/data/predictor.json`.

use tusk_engine::{Bitboard, Color, Game, PieceKind, Position, Square, Turn, TurnGen};
use tusk_eval::captures::best_capture_mut;

use crate::control::Control;
use crate::params::Params;
use crate::root::{static_scores, RootMove};
use crate::search::{RepetitionHistory, SearchShared, Worker, INF};
use crate::tt::Tt;

/// Squares of one kind's table: 8 ranks from the mover's home, 4 folded files.
const SQUARES: usize = 32;
/// Kinds of piece.
const KINDS: usize = PieceKind::NUM;

/// Where each family of features starts.
const OWN_TO: usize = 0;
const OWN_FROM: usize = OWN_TO + KINDS * SQUARES;
const ENEMY_TO: usize = OWN_FROM + KINDS * SQUARES;
const CAPTURED: usize = ENEMY_TO + KINDS * SQUARES;
const LOST: usize = CAPTURED + KINDS;
const OPP_CAPTURE: usize = LOST + KINDS;
const THREAT_REMOVED: usize = OPP_CAPTURE + KINDS + 1;
const THREAT_KEPT: usize = THREAT_REMOVED + KINDS;
const OUR_THREAT: usize = THREAT_KEPT + KINDS;
const STEPS: usize = OUR_THREAT + KINDS + 1;
const STATIC_GAP: usize = STEPS + 4;
const SEARCH_GAP: usize = STATIC_GAP + GAP_BUCKETS;

/// The number of features.
pub const FEATURES: usize = SEARCH_GAP + GAP_BUCKETS;

/// Upper ends of the score-gap buckets, in centirabbits below the root's best (the last
/// bucket takes every larger gap).
const GAP_LIMITS: [i32; 9] = [0, 10, 25, 50, 100, 200, 400, 800, 1600];
const GAP_BUCKETS: usize = GAP_LIMITS.len() + 1;

/// The bucket of a score `gap` centirabbits below the best.
fn gap_bucket(gap: i32) -> usize {
    GAP_LIMITS
        .iter()
        .position(|&limit| gap <= limit)
        .unwrap_or(GAP_LIMITS.len())
}

/// The feature square of `sq` seen from `us`: rank from `us`'s home, file folded onto a-d.
fn square_index(us: Color, sq: Square) -> usize {
    let file = sq.file() as usize;
    let folded = file.min(7 - file);
    sq.ranks_from_home(us) as usize * 4 + folded
}

/// The feature of a kind (or none) among `KINDS + 1`.
fn kind_or_none(kind: Option<PieceKind>) -> usize {
    kind.map_or(KINDS, PieceKind::index)
}

/// What the features of every turn of one root share: the side to move, its board before the
/// turn and the opponent's capture threat had it passed.
#[derive(Clone, Debug)]
pub struct RootContext {
    us: Color,
    before: [[Bitboard; KINDS]; 2],
    threat: Option<PieceKind>,
}

impl RootContext {
    /// The context of turns from `root` (a turn start).
    pub fn new(root: &Position) -> RootContext {
        let mut pos = root.clone();
        let undo = pos.end_turn();
        let threat = best_capture_mut(&mut pos);
        pos.undo_end_turn(undo);
        RootContext {
            us: root.side(),
            before: boards(root),
            threat,
        }
    }
}

/// Every piece bitboard of `pos`, by colour and kind.
fn boards(pos: &Position) -> [[Bitboard; KINDS]; 2] {
    let mut b = [[Bitboard::EMPTY; KINDS]; 2];
    for color in [Color::Gold, Color::Silver] {
        for kind in PieceKind::ALL {
            b[color.index()][kind.index()] = pos.pieces_of(color, kind);
        }
    }
    b
}

/// The features of `turn` played from `root` (the position `ctx` was made from), whose static
/// score is `static_gap` and first-iteration search score `search_gap` centirabbits below the
/// root's best (0 for the best; negative gaps count as 0), pushed onto `out` (cleared first)
/// in increasing order. `root` is used as scratch and left as it was.
pub fn turn_features(
    root: &mut Position,
    ctx: &RootContext,
    turn: &Turn,
    static_gap: i32,
    search_gap: i32,
    out: &mut Vec<u16>,
) {
    out.clear();
    let us = ctx.us;
    let them = !us;
    let mut played = [None; 4];
    for (j, s) in turn.steps().enumerate() {
        played[j] = Some((s, root.play_step_unchecked(s)));
    }
    let after = boards(root);
    let mut push = |i: usize| out.push(i as u16);
    for kind in PieceKind::ALL {
        let k = kind.index();
        let (b, a) = (ctx.before[us.index()][k], after[us.index()][k]);
        for sq in a & !b {
            push(OWN_TO + k * SQUARES + square_index(us, sq));
        }
        for sq in b & !a {
            push(OWN_FROM + k * SQUARES + square_index(us, sq));
        }
        let (b, a) = (ctx.before[them.index()][k], after[them.index()][k]);
        for sq in a & !b {
            push(ENEMY_TO + k * SQUARES + square_index(us, sq));
        }
    }
    for kind in PieceKind::ALL {
        let k = kind.index();
        if after[them.index()][k].count() < ctx.before[them.index()][k].count() {
            push(CAPTURED + k);
        }
    }
    for kind in PieceKind::ALL {
        let k = kind.index();
        if after[us.index()][k].count() < ctx.before[us.index()][k].count() {
            push(LOST + k);
        }
    }
    // The opponent's turn start: its capture, then ours had it passed.
    let end = root.end_turn();
    let opp_capture = best_capture_mut(root);
    let pass = root.end_turn();
    let our_threat = best_capture_mut(root);
    root.undo_end_turn(pass);
    root.undo_end_turn(end);
    for (s, u) in played.iter().rev().flatten() {
        root.undo_step(*s, *u);
    }
    push(OPP_CAPTURE + kind_or_none(opp_capture));
    if let Some(t) = ctx.threat {
        if opp_capture.is_some_and(|c| c >= t) {
            push(THREAT_KEPT + t.index());
        } else {
            push(THREAT_REMOVED + t.index());
        }
    }
    push(OUR_THREAT + kind_or_none(our_threat));
    push(STEPS + turn.len().clamp(1, 4) - 1);
    push(STATIC_GAP + gap_bucket(static_gap.max(0)));
    push(SEARCH_GAP + gap_bucket(search_gap.max(0)));
    out.sort_unstable();
}

/// The model's weights, one per feature.
#[derive(Clone, Debug, PartialEq)]
pub struct Predictor {
    weights: Vec<f32>,
}

/// A predictor file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum PredictorError {
    /// Not JSON of the expected shape.
    #[error("predictor weights: {0}")]
    Json(#[from] serde_json::Error),
    /// Written for another feature set (its `features` field, or the number of its weights,
    /// differs from this build's).
    #[error("predictor weights: {found} features where this build has {expected}")]
    Length {
        /// The weights found.
        found: usize,
        /// [`FEATURES`].
        expected: usize,
    },
}

/// The file format: `{"features": N, "weights": [w0, w1, ...]}`.
#[derive(serde::Serialize, serde::Deserialize)]
struct PredictorFile {
    features: usize,
    weights: Vec<f32>,
}

/// The shipped weights (`search/data/predictor.json`).
const SHIPPED: &str = include_str!("../data/predictor.json");

impl Predictor {
    /// A predictor with `weights`, one per feature (a shorter list is padded with zeros, a
    /// longer one cut to [`FEATURES`]).
    pub fn new(mut weights: Vec<f32>) -> Predictor {
        weights.resize(FEATURES, 0.0);
        Predictor { weights }
    }

    /// The shipped predictor (its file is parsed once per process).
    pub fn shipped() -> Predictor {
        static SHIPPED_MODEL: std::sync::OnceLock<Predictor> = std::sync::OnceLock::new();
        SHIPPED_MODEL
            .get_or_init(|| {
                Predictor::from_json(SHIPPED)
                    .expect("the shipped predictor file matches the features")
            })
            .clone()
    }

    /// A predictor read from the JSON `text` of [`Predictor::to_json`].
    pub fn from_json(text: &str) -> Result<Predictor, PredictorError> {
        let file: PredictorFile = serde_json::from_str(text)?;
        for found in [file.features, file.weights.len()] {
            if found != FEATURES {
                return Err(PredictorError::Length {
                    found,
                    expected: FEATURES,
                });
            }
        }
        Ok(Predictor {
            weights: file.weights,
        })
    }

    /// The weights as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(&PredictorFile {
            features: FEATURES,
            weights: self.weights.clone(),
        })
        .expect("plain numbers serialise")
    }

    /// The weights, one per feature.
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// The logit of a turn with `features` (indices below [`FEATURES`]).
    pub fn logit(&self, features: &[u16]) -> f32 {
        features.iter().map(|&i| self.weights[i as usize]).sum()
    }

    /// The weight of the search-gap feature of a turn `gap` centirabbits below the best.
    pub fn search_gap_weight(&self, gap: i32) -> f32 {
        self.weights[SEARCH_GAP + gap_bucket(gap.max(0))]
    }
}

/// One training position: the features of some of its root turns, and which of them was
/// chosen.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sample {
    /// Each turn's features.
    pub turns: Vec<Vec<u16>>,
    /// The index in `turns` of the turn chosen.
    pub chosen: usize,
}

/// How [`fit`] fits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitOptions {
    /// Full-batch Adam steps.
    pub epochs: usize,
    /// Adam's step size.
    pub learning_rate: f64,
    /// The L2 pull of every weight towards 0, per sample.
    pub l2: f64,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            epochs: 200,
            learning_rate: 0.05,
            l2: 1e-4,
        }
    }
}

/// The mean negative log-likelihood of the chosen turns of `samples` under a softmax of
/// `weights`' logits over each sample's turns, plus `l2` times the sum of squared weights.
pub fn loss(weights: &[f64], samples: &[Sample], l2: f64) -> f64 {
    let mut total = 0.0;
    for s in samples {
        let logits: Vec<f64> = s.turns.iter().map(|f| logit64(weights, f)).collect();
        total += log_sum_exp(&logits) - logits[s.chosen];
    }
    total / samples.len().max(1) as f64 + l2 * weights.iter().map(|w| w * w).sum::<f64>()
}

/// The gradient of [`loss`] with respect to `weights`, written into `grad` (resized).
pub fn gradient(weights: &[f64], samples: &[Sample], l2: f64, grad: &mut Vec<f64>) {
    grad.clear();
    grad.resize(weights.len(), 0.0);
    let n = samples.len().max(1) as f64;
    let mut logits = Vec::new();
    for s in samples {
        logits.clear();
        logits.extend(s.turns.iter().map(|f| logit64(weights, f)));
        let z = log_sum_exp(&logits);
        for (j, f) in s.turns.iter().enumerate() {
            let p = (logits[j] - z).exp() - if j == s.chosen { 1.0 } else { 0.0 };
            for &i in f {
                grad[i as usize] += p / n;
            }
        }
    }
    for (g, w) in grad.iter_mut().zip(weights) {
        *g += 2.0 * l2 * w;
    }
}

fn logit64(weights: &[f64], features: &[u16]) -> f64 {
    features.iter().map(|&i| weights[i as usize]).sum()
}

fn log_sum_exp(xs: &[f64]) -> f64 {
    let m = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    m + xs.iter().map(|x| (x - m).exp()).sum::<f64>().ln()
}

/// Fits a predictor to `samples` from zero weights with full-batch Adam on [`loss`];
/// `on_epoch(epoch, weights)` is called after each step.
pub fn fit(
    samples: &[Sample],
    options: &FitOptions,
    on_epoch: &mut dyn FnMut(usize, &[f64]),
) -> Predictor {
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let mut w = vec![0.0f64; FEATURES];
    let (mut m, mut v) = (vec![0.0f64; FEATURES], vec![0.0f64; FEATURES]);
    let mut g = Vec::new();
    for epoch in 1..=options.epochs {
        gradient(&w, samples, options.l2, &mut g);
        let (c1, c2) = (1.0 - b1.powi(epoch as i32), 1.0 - b2.powi(epoch as i32));
        for i in 0..FEATURES {
            m[i] = b1 * m[i] + (1.0 - b1) * g[i];
            v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
            w[i] -= options.learning_rate * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
        }
        on_epoch(epoch, &w);
    }
    Predictor::new(w.iter().map(|&x| x as f32).collect())
}

/// One root turn scored as the search's first iteration scores it.
#[derive(Clone, Debug)]
pub struct RootScore {
    /// The turn.
    pub turn: Turn,
    /// Its static score ([`crate::root`]'s: the evaluation of the opponent's turn start),
    /// from the mover's view, centirabbits (or the search's win and loss scores).
    pub static_score: i32,
    /// Its score in the search's first iteration (the quiescence search of the opponent's
    /// turn start), exact.
    pub search_score: i32,
}

/// Every distinct legal turn of `game`'s position (no third repetition) with its static
/// and first-iteration scores, best first by the latter, searched with `params` on one
/// thread; empty where the game is over or in its setup.
pub fn root_scores(game: &Game, params: &Params) -> Vec<RootScore> {
    if game.in_setup() || game.result().is_some() {
        return Vec::new();
    }
    let root = game.position().clone();
    let turns = crate::root::root_turns(game, &mut TurnGen::new());
    if turns.is_empty() {
        return Vec::new();
    }
    let tt = Tt::try_new(16).expect("a 16 MiB transposition table");
    let control = Control::new();
    let repetitions = RepetitionHistory::new(game);
    let shared = SearchShared::new(&tt, params, &control, &repetitions, None);
    let mut roots: Vec<RootMove> = turns.iter().map(|&t| RootMove::new(t)).collect();
    static_scores(&root, &mut roots, &params.weights, true, &|| false);
    let first = i32::from(root.steps_left());
    let mut w = Worker::new(&shared, root);
    w.root_search(&mut roots, first, -INF, INF, 1, true, &mut |_, _| {});
    roots
        .into_iter()
        .map(|r| RootScore {
            turn: r.turn,
            static_score: r.static_score,
            search_score: r.score,
        })
        .collect()
}

/// Orders `roots` (scored by a finished first iteration, best first) by `predictor`'s logit,
/// the first turn (the iteration's best) kept first. Returns how many turns were featured.
pub(crate) fn order_roots(root: &Position, roots: &mut [RootMove], predictor: &Predictor) -> usize {
    if roots.len() < 3 {
        return 0;
    }
    let best_static = roots.iter().map(|r| r.static_score).max().unwrap_or(-INF);
    let best_search = roots[0].score;
    let ctx = RootContext::new(root);
    let mut pos = root.clone();
    let mut features = Vec::with_capacity(32);
    // One feature pass a turn, its logit cached without the search gap; the sort (stable:
    // equal logits keep the iteration's order) adds the gap's weight back.
    for r in roots[1..].iter_mut() {
        turn_features(
            &mut pos,
            &ctx,
            &r.turn,
            gap(best_static, r.static_score),
            gap(best_search, r.score),
            &mut features,
        );
        // The search-gap feature is the highest index, so it is the last of the sorted
        // features, and the base plus its weight is the logit to the last bit.
        debug_assert!(features
            .last()
            .is_some_and(|&i| usize::from(i) >= SEARCH_GAP));
        r.predictor_base = predictor.logit(&features[..features.len() - 1]);
    }
    rerank_roots(roots, predictor);
    roots.len() - 1
}

/// Orders `roots[1..]` (each ranked once by [`order_roots`]) by the model again, each turn's
/// search-gap feature taken from its latest score (after a later iteration, a fail-soft
/// bound: how far below the best it was refuted). Stable: equal logits keep the order.
pub(crate) fn rerank_roots(roots: &mut [RootMove], predictor: &Predictor) {
    let Some(best) = roots.first().map(|r| r.score) else {
        return;
    };
    roots[1..].sort_by_cached_key(|r| {
        let logit = r.predictor_base + predictor.search_gap_weight(gap(best, r.score));
        std::cmp::Reverse(ordered(logit))
    });
}

/// A key that orders `x` as [`f32::total_cmp`] does.
fn ordered(x: f32) -> i32 {
    let bits = x.to_bits() as i32;
    bits ^ (((bits >> 31) as u32) >> 1) as i32
}

/// How far `score` falls below `best`, for the gap features: win and loss scores as far as
/// the last bucket.
pub fn gap(best: i32, score: i32) -> i32 {
    if score <= -INF || best <= -INF {
        return i32::MAX;
    }
    (i64::from(best) - i64::from(score)).clamp(0, i64::from(i32::MAX)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use tusk_engine::notation::board::parse_aei;
    use tusk_engine::notation::turn::parse_turn;

    fn features_of(pos: &str, turn: &str) -> Vec<u16> {
        let mut p = parse_aei(pos).unwrap();
        let ctx = RootContext::new(&p);
        let (t, _) = parse_turn(&p, turn).unwrap();
        let before = p.clone();
        let mut out = Vec::new();
        turn_features(&mut p, &ctx, &t, 0, 30, &mut out);
        assert_eq!(p, before, "the root is left as it was");
        out
    }

    #[test]
    fn a_capture_and_the_threat_it_leaves_are_seen() {
        // Gold's elephant on d4 pushes silver's cat c4 onto the trap c3, where it is captured.
        let pos = "g [       e       r                  cE            R       M       ]";
        let f = features_of(pos, "cc4s cc3x Ed4w");
        assert!(f.contains(&((CAPTURED + PieceKind::Cat.index()) as u16)));
        // The cat ends on no square: captured.
        assert!(!f
            .iter()
            .any(|&i| (ENEMY_TO..CAPTURED).contains(&(i as usize))));
        assert!(f.contains(&((OWN_TO + PieceKind::Elephant.index() * SQUARES + 3 * 4 + 2) as u16)));
        assert!(
            f.contains(&((OWN_FROM + PieceKind::Elephant.index() * SQUARES + 3 * 4 + 3) as u16))
        );
        assert!(f.contains(&((STEPS + 1) as u16)));
        assert!(f.contains(&(STATIC_GAP as u16)));
        assert!(
            f.contains(&((SEARCH_GAP + 3) as u16)),
            "30 cr: the bucket up to 50"
        );
        assert!(!f
            .iter()
            .any(|&i| (LOST..LOST + KINDS).contains(&(i as usize))));
        assert!(f.windows(2).all(|w| w[0] < w[1]));
        assert!(f.iter().all(|&i| (i as usize) < FEATURES));
    }

    #[test]
    fn the_features_are_colour_symmetric() {
        // The same turns by gold, and by silver on the rank-flipped board, have the same
        // features.
        let gold = "g [       e       r                  cE            R       M       ]";
        let p = parse_aei(gold).unwrap();
        let silver = tusk_engine::notation::board::to_aei_with_side(&p.flip());
        assert_eq!(
            features_of(gold, "Ed4n Ed5n"),
            features_of(&silver, "ed5s ed4s")
        );
        assert_eq!(
            features_of(gold, "cc4s cc3x Ed4w"),
            features_of(&silver, "Cc5n Cc6x ed5w")
        );
    }

    /// A random sample of `turns` turns with a few features each.
    fn random_sample(rng: &mut rand::rngs::StdRng, truth: &[f64], turns: usize) -> Sample {
        use rand::Rng;
        let feats: Vec<Vec<u16>> = (0..turns)
            .map(|_| {
                let mut f: Vec<u16> = (0..4).map(|_| rng.gen_range(0..40u16)).collect();
                f.sort_unstable();
                f.dedup();
                f
            })
            .collect();
        let logits: Vec<f64> = feats.iter().map(|f| logit64(truth, f)).collect();
        let z = log_sum_exp(&logits);
        let mut u: f64 = rng.gen();
        let mut chosen = turns - 1;
        for (j, l) in logits.iter().enumerate() {
            u -= (l - z).exp();
            if u <= 0.0 {
                chosen = j;
                break;
            }
        }
        Sample {
            turns: feats,
            chosen,
        }
    }

    fn truth() -> Vec<f64> {
        let mut t = vec![0.0; FEATURES];
        for (i, w) in t.iter_mut().take(40).enumerate() {
            *w = ((i * 7 % 11) as f64 - 5.0) / 3.0;
        }
        t
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let t = truth();
        let samples: Vec<Sample> = (0..30).map(|_| random_sample(&mut rng, &t, 12)).collect();
        let w: Vec<f64> = t.iter().map(|x| x * 0.3 + 0.1).collect();
        let mut g = Vec::new();
        gradient(&w, &samples, 1e-3, &mut g);
        for i in [0usize, 3, 17, 39, 100] {
            let h = 1e-5;
            let (mut up, mut down) = (w.clone(), w.clone());
            up[i] += h;
            down[i] -= h;
            let numeric = (loss(&up, &samples, 1e-3) - loss(&down, &samples, 1e-3)) / (2.0 * h);
            assert!((numeric - g[i]).abs() < 1e-6, "{i}: {numeric} vs {}", g[i]);
        }
    }

    #[test]
    fn a_fit_recovers_known_weights() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let t = truth();
        let samples: Vec<Sample> = (0..3000).map(|_| random_sample(&mut rng, &t, 20)).collect();
        let options = FitOptions {
            epochs: 300,
            learning_rate: 0.05,
            l2: 0.0,
        };
        let p = fit(&samples, &options, &mut |_, _| {});
        // A softmax is unchanged by a constant added to every feature a turn has in the same
        // number: compare the weights centred on their mean.
        let fitted: Vec<f64> = p.weights()[..40].iter().map(|&x| f64::from(x)).collect();
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        let (mf, mt) = (mean(&fitted), mean(&t[..40]));
        let err = fitted
            .iter()
            .zip(&t[..40])
            .map(|(f, t)| ((f - mf) - (t - mt)).abs())
            .fold(0.0, f64::max);
        assert!(err < 0.35, "largest error {err}");
        assert!(p.weights()[40..].iter().all(|&w| w == 0.0));
    }

    /// The game after `moves` and its root turns scored by [`root_scores`] (best first), as
    /// the searcher holds them after its first iteration.
    fn scored_roots(moves: &[&str]) -> (Game, Vec<RootMove>) {
        let mut game = Game::new();
        for m in moves {
            game.play_text(m).unwrap();
        }
        let scores = root_scores(&game, &Params::default());
        assert!(scores.len() > 1000, "{} turns", scores.len());
        assert!(scores
            .windows(2)
            .all(|w| w[0].search_score >= w[1].search_score));
        let roots = scores
            .iter()
            .map(|r| RootMove {
                score: r.search_score,
                static_score: r.static_score,
                ..RootMove::new(r.turn)
            })
            .collect();
        (game, roots)
    }

    /// Both sides' setups, the opening of the root tests.
    const SETUPS: [&str; 2] = [
        "Ra1 Rb1 Rc1 Dd1 De1 Rf1 Rg1 Rh1 Ra2 Hb2 Cc2 Md2 Ee2 Cf2 Hg2 Rh2",
        "ra8 rb8 rc8 dd8 de8 rf8 rg8 rh8 ra7 hb7 cc7 ed7 me7 cf7 hg7 rh7",
    ];

    #[test]
    fn the_root_order_keeps_the_best_first_and_every_turn() {
        let (game, mut roots) = scored_roots(&[SETUPS[0], SETUPS[1], "Ee2n Ee3n Hb2n Hg2n"]);
        let before: Vec<Turn> = roots.iter().map(|r| r.turn).collect();
        let featured = order_roots(game.position(), &mut roots, &Predictor::shipped());
        assert_eq!(featured, roots.len() - 1);
        assert_eq!(roots[0].turn, before[0]);
        let key = |t: &Turn| format!("{t:?}");
        let mut a: Vec<String> = before.iter().map(key).collect();
        let mut b: Vec<String> = roots.iter().map(|r| key(&r.turn)).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b, "the same turns, reordered");
        assert_ne!(
            before,
            roots.iter().map(|r| r.turn).collect::<Vec<_>>(),
            "the shipped model changes the order"
        );
    }

    #[test]
    fn a_rerank_follows_the_latest_bounds() {
        let (game, mut roots) = scored_roots(&SETUPS);
        let model = Predictor::shipped();
        order_roots(game.position(), &mut roots, &model);
        // The cached base plus the search-gap weight is the logit of the whole features.
        let (best_static, best) = (
            roots.iter().map(|r| r.static_score).max().unwrap(),
            roots[0].score,
        );
        let ctx = RootContext::new(game.position());
        let mut pos = game.position().clone();
        let mut features = Vec::new();
        for r in &roots[1..] {
            turn_features(
                &mut pos,
                &ctx,
                &r.turn,
                gap(best_static, r.static_score),
                gap(best, r.score),
                &mut features,
            );
            let whole = model.logit(&features);
            assert_eq!(
                r.predictor_base + model.search_gap_weight(gap(best, r.score)),
                whole
            );
        }
        // A later iteration refutes every turn by 2,000 but the last by 5: it climbs over
        // exactly the turns whose base is not higher than its own by the gap weights'
        // difference (2.9 in the shipped model), and the order follows base plus gap weight.
        let n = roots.len();
        for r in &mut roots[1..] {
            r.score = best - 2000;
        }
        roots[n - 1].score = best - 5;
        let climber = roots[n - 1].turn;
        let first = roots[0].turn;
        rerank_roots(&mut roots, &model);
        assert_eq!(roots[0].turn, first, "the best stays first");
        let key = |r: &RootMove| r.predictor_base + model.search_gap_weight(gap(best, r.score));
        assert!(roots[1..].windows(2).all(|w| key(&w[0]) >= key(&w[1])));
        let at = roots.iter().position(|r| r.turn == climber).unwrap();
        let climber_key = key(&roots[at]);
        let lift = model.search_gap_weight(gap(best, best - 5))
            - model.search_gap_weight(gap(best, best - 2000));
        assert!(lift > 2.0, "the gap weights differ by {lift}");
        let passed = roots[1..]
            .iter()
            .filter(|r| r.turn != climber && key(r) < climber_key)
            .count();
        assert!(passed > 0, "the barely refuted turn climbs over none");
        assert_eq!(
            n - 1 - at,
            passed,
            "the barely refuted turn ranks at {at} of {n}, above {passed} lower keys"
        );
    }

    #[test]
    fn the_sort_key_orders_logits_as_total_cmp() {
        let xs = [-3.5f32, -0.0, 0.0, 1e-7, 2.25, -1e9, 7.0, f32::MIN_POSITIVE];
        for a in xs {
            for b in xs {
                assert_eq!(ordered(a).cmp(&ordered(b)), a.total_cmp(&b), "{a} {b}");
            }
        }
    }

    #[test]
    fn gaps_fall_into_increasing_buckets() {
        let b: Vec<usize> = [0, 1, 10, 11, 1600, 1601, i32::MAX]
            .iter()
            .map(|&g| gap_bucket(g))
            .collect();
        assert_eq!(b, vec![0, 1, 1, 2, 8, 9, 9]);
        assert_eq!(gap(100, 40), 60);
        assert_eq!(gap(100, 140), 0);
        assert_eq!(gap(100, -INF), i32::MAX);
    }

    #[test]
    fn a_predictor_file_round_trips_and_a_wrong_length_is_refused() {
        let p = Predictor::new(vec![0.5, -1.0]);
        let q = Predictor::from_json(&p.to_json()).unwrap();
        assert_eq!(p, q);
        assert_eq!(q.logit(&[0, 1, 1]), -1.5);
        let bad = r#"{"features": 3, "weights": [1, 2, 3]}"#;
        assert!(matches!(
            Predictor::from_json(bad),
            Err(PredictorError::Length { found: 3, .. })
        ));
        // The field agrees with the build, the list does not.
        let short = format!(r#"{{"features": {FEATURES}, "weights": [1, 2]}}"#);
        assert!(matches!(
            Predictor::from_json(&short),
            Err(PredictorError::Length { found: 2, .. })
        ));
        assert!(matches!(
            Predictor::from_json("[1, 2]"),
            Err(PredictorError::Json(_))
        ));
        Predictor::shipped();
    }
}
