//! The plan of a run: the arguments checked, the effort per move, the games' settings and
//! their key, the searcher's parameters, and the game indices of this run (or shard).

use anyhow::{bail, Result};
use tusk_search::{Limits, Params};

use super::game::GameConfig;
use super::{record, shard_has, DatagenArgs, DEFAULT_NODES};

/// The effort per move: the search's limits and their text (`nodes=5000`, `depth=8`), which
/// goes into the settings key and the summary.
#[derive(Clone, Debug)]
pub struct Effort {
    /// A node or a depth limit, one principal variation.
    pub limits: Limits,
    /// `nodes=N` or `depth=D`.
    pub text: String,
}

impl Effort {
    /// `--depth` when given, else `--nodes` ([`DEFAULT_NODES`] when neither is).
    pub fn of(depth: Option<u32>, nodes: Option<u64>) -> Effort {
        match (depth, nodes) {
            (Some(d), _) => Effort {
                limits: Limits {
                    depth: Some(d),
                    nodes: None,
                    multipv: 1,
                },
                text: format!("depth={d}"),
            },
            (None, n) => {
                let n = n.unwrap_or(DEFAULT_NODES);
                Effort {
                    limits: Limits {
                        depth: None,
                        nodes: Some(n),
                        multipv: 1,
                    },
                    text: format!("nodes={n}"),
                }
            }
        }
    }
}

/// A run ready to resume and play.
pub struct Plan {
    /// How every game is played, with the settings key written into each line.
    pub cfg: GameConfig,
    /// The searcher's parameters (the weights loaded from `--weights`).
    pub params: Params,
    /// The effort's text, for the summary.
    pub effort: String,
    /// The game indices still to play, in order (before resuming: all of the run or shard).
    pub todo: Vec<u64>,
    /// The games of this run (or shard), played before or not.
    pub planned: usize,
}

/// Refuses thread, hash, effort and turn counts out of range, naming the argument.
fn check(a: &DatagenArgs) -> Result<()> {
    if a.threads == 0 || a.threads > 1024 {
        bail!("--threads {}: must be between 1 and 1024", a.threads);
    }
    if a.hash == 0 || a.hash > 1 << 20 {
        bail!("--hash {}: must be between 1 and 1048576 MiB", a.hash);
    }
    if a.depth == Some(0) || a.nodes == Some(0) {
        bail!("--depth and --nodes must be at least 1");
    }
    if a.max_turns == 0 {
        bail!("--max-turns must be at least 1");
    }
    Ok(())
}

/// Checks the arguments, loads the weights and plans the run: the games' settings and key, the
/// searcher's parameters and the indices of this run (or shard).
pub fn plan(a: &DatagenArgs) -> Result<Plan> {
    check(a)?;
    let weights = a.weights.load()?;
    let Effort { limits, text } = Effort::of(a.depth, a.nodes);
    let key = record::settings_key(&text, a.random_turns, a.max_turns, a.hash, &weights);
    let cfg = GameConfig {
        seed: a.seed,
        limits,
        random_turns: a.random_turns,
        max_turns: a.max_turns,
        key,
    };
    let todo: Vec<u64> = (0..a.games).filter(|&i| shard_has(a.shard, i)).collect();
    Ok(Plan {
        cfg,
        params: Params {
            weights,
            ..Params::default()
        },
        effort: text,
        planned: todo.len(),
        todo,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_effort_is_the_depth_when_given_else_the_nodes() {
        let e = Effort::of(Some(6), None);
        assert_eq!(
            (e.limits.depth, e.limits.nodes, e.text.as_str()),
            (Some(6), None, "depth=6")
        );
        let e = Effort::of(None, Some(300));
        assert_eq!(
            (e.limits.depth, e.limits.nodes, e.text.as_str()),
            (None, Some(300), "nodes=300")
        );
        let e = Effort::of(None, None);
        assert_eq!(e.limits.nodes, Some(DEFAULT_NODES));
        assert_eq!(e.text, format!("nodes={DEFAULT_NODES}"));
    }
}
