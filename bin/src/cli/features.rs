//! `--with`, `--without` and `--param`, shared by `tusk analyze` and `tusk bench`: search
//! features switched on and off by name (the names of `tusk_search::Feature`, as the AEI
//! options `with` and `without` take them) and numeric tunables set by name (those of
//! `tusk_search::Tunable`, each also an AEI option).

use anyhow::Result;
use clap::Args;
use tusk_search::{Feature, Params, Tunable};

/// The `--with`, `--without` and `--param` options.
#[derive(Args, Clone, Debug, Default)]
pub struct FeatureArgs {
    /// Switch search features off, comma-separated: tt, ttmove, ordering, null, lmr, qsearch,
    /// threat, aspiration, rootred, commute, capmoves, goaldef, exchange, defext, lmp, lmpgoal,
    /// elim, qcapture, rfp, qdefence, waste, threatlift, predictor, rerank, tcapture, ttactic,
    /// tdefence, cthreat, immo (for measuring what each is worth).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub without: Vec<String>,
    /// Switch search features on (same names; `aspiration`, `rootred`, `capmoves`, `goaldef`,
    /// `exchange`, `defext`, `lmpgoal`, `elim`, `qcapture`, `qdefence`, `waste`, `threatlift`,
    /// `predictor`, `rerank`, `tcapture`, `ttactic`, `tdefence`, `cthreat` and `immo` are off
    /// by default). `--without` wins where both name one.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub with: Vec<String>,
    /// Set numeric search tunables, comma-separated NAME=VALUE: null_min_depth,
    /// null_reduction, lmr_min_depth, lmr_full_moves, lmr_deep_moves,
    /// aspiration_window, max_extension, goal_defence_nodes, lmp_moves1, lmp_moves2,
    /// rfp_max_depth, rfp_margin, capture_defence_len, immobilise_mobile, immobilise_steps,
    /// reversal_penalty, free_capture_pct, lift_prunes, root_full_moves, root_reduce1,
    /// root_reduce2, root_reduce3 (the root reductions' shares of the list in thousandths),
    /// brief_moves (a depth limit's extra step on its best root turns; a later one wins).
    #[arg(long, value_name = "NAME=VALUE", value_delimiter = ',')]
    pub param: Vec<String>,
}

impl FeatureArgs {
    /// Switches the named features of `params` on, then off, then sets the tunables; an
    /// unknown name or a bad value is an error naming the option and what is wrong.
    pub fn apply(&self, params: &mut Params) -> Result<()> {
        let parse = |names: &[String], option: &str| {
            Feature::parse_list(&names.join(",")).map_err(|name| {
                anyhow::anyhow!(
                    "{option} {name}: unknown feature (known: {})",
                    Feature::NAMES
                )
            })
        };
        let on = parse(&self.with, "--with")?;
        let off = parse(&self.without, "--without")?;
        let tunables = Tunable::parse_list(&self.param.join(","))
            .map_err(|e| anyhow::anyhow!("--param {e}"))?;
        params.switch(&on, &off);
        params.tune(&tunables);
        Ok(())
    }

    /// `, with a,b, without c, param n=v` for a summary line: the lists given, in that form.
    pub fn summary(&self) -> String {
        [
            (&self.with, "with"),
            (&self.without, "without"),
            (&self.param, "param"),
        ]
        .iter()
        .filter(|(l, _)| !l.is_empty())
        .map(|(l, w)| format!(", {w} {}", l.join(",")))
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(with: &[&str], without: &[&str]) -> FeatureArgs {
        let own = |l: &[&str]| l.iter().map(|s| s.to_string()).collect();
        FeatureArgs {
            with: own(with),
            without: own(without),
            param: Vec::new(),
        }
    }

    #[test]
    fn params_set_tunables_and_bad_ones_are_named() {
        let mut a = args(&["rfp"], &[]);
        a.param = vec!["rfp_margin=30".into(), "rfp_max_depth=4".into()];
        let mut p = Params::default();
        a.apply(&mut p).unwrap();
        assert!(p.reverse_futility);
        assert_eq!((p.rfp_margin, p.rfp_max_depth), (30, 4));
        assert_eq!(
            a.summary(),
            ", with rfp, param rfp_margin=30,rfp_max_depth=4"
        );
        a.param = vec!["rfp_margin=x".into()];
        let e = a.apply(&mut Params::default()).unwrap_err().to_string();
        assert_eq!(
            e,
            "--param rfp_margin=x: expected a whole number from 0 to 10000"
        );
    }

    #[test]
    fn features_switch_on_then_off() {
        let mut p = Params::default();
        args(&["exchange", "capmoves"], &["lmr", "capmoves"])
            .apply(&mut p)
            .unwrap();
        assert!(p.exchange && !p.capture_moves && !p.lmr && p.null_move);
        assert_eq!(
            args(&["exchange"], &["lmr"]).summary(),
            ", with exchange, without lmr"
        );
        assert_eq!(args(&[], &[]).summary(), "");
    }

    #[test]
    fn the_help_names_every_feature_and_tunable() {
        use clap::{CommandFactory, Parser};
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            features: FeatureArgs,
        }
        let help = Cli::command().render_long_help().to_string();
        // Words only: the help wraps its lines where it likes.
        let words: Vec<String> = help
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map(str::to_string)
            .collect();
        for name in Feature::ALL
            .map(|f| f.name())
            .into_iter()
            .chain(Tunable::ALL.map(|t| t.name()))
        {
            assert!(
                words.iter().any(|w| w == name),
                "{name} missing from:\n{help}"
            );
        }
    }

    #[test]
    fn an_unknown_feature_is_named() {
        let e = args(&[], &["lmr", "nosuch"])
            .apply(&mut Params::default())
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("--without nosuch: unknown feature"), "{e}");
        assert!(e.contains(Feature::NAMES), "{e}");
    }
}
