//! `--with` and `--without`, shared by `tusk analyze` and `tusk bench`: search features
//! switched on and off by name (the names of `tusk_search::Feature`, as the AEI options
//! `with` and `without` take them).

use anyhow::Result;
use clap::Args;
use tusk_search::{Feature, Params};

/// The `--with` and `--without` options.
#[derive(Args, Clone, Debug, Default)]
pub struct FeatureArgs {
    /// Switch search features off, comma-separated: tt, ttmove, ordering, null, lmr, qsearch,
    /// threat, aspiration, rootred, commute, capmoves, goaldef, exchange, defext, lmp, lmpgoal,
    /// elim, qcapture, rfp (for measuring what each is worth).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub without: Vec<String>,
    /// Switch search features on (same names; `aspiration`, `rootred`, `capmoves`, `goaldef`,
    /// `exchange`, `defext`, `lmpgoal`, `elim`, `qcapture` and `rfp` are off by default).
    /// `--without` wins where both name one.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub with: Vec<String>,
}

impl FeatureArgs {
    /// Switches the named features of `params` on, then off; an unknown name is an error
    /// naming the option, the name and every known one.
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
        params.switch(&on, &off);
        Ok(())
    }

    /// `, with a,b, without c` for a summary line: the lists given, in that form.
    pub fn summary(&self) -> String {
        [(&self.with, "with"), (&self.without, "without")]
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
        }
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
    fn an_unknown_feature_is_named() {
        let e = args(&[], &["lmr", "nosuch"])
            .apply(&mut Params::default())
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("--without nosuch: unknown feature"), "{e}");
        assert!(e.contains(Feature::NAMES), "{e}");
    }
}
