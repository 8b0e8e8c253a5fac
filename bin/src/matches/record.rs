//! Game records in the official notation with tags, readable by
//! `tusk_engine::notation::record::Record::parse` (and so by every `--record` option).

use tusk_engine::Color;

use super::state::GameJson;

/// The record text of a finished game: `Name: value` tags (Event, Date, Round, Game, Gold,
/// Silver, TimeControl, Result, Reason, Termination, and IllegalMove when there was one),
/// then one move per line.
pub fn record_text(event: &str, g: &GameJson) -> String {
    let one_line = |s: &str| s.replace(['\n', '\r'], " ");
    let mut out = String::new();
    let mut tag = |k: &str, v: &str| out.push_str(&format!("{k}: {}\n", one_line(v)));
    tag("Event", event);
    tag("Date", &g.date);
    tag("Round", &(g.round + 1).to_string());
    tag("Game", &g.id.to_string());
    tag("Gold", &g.gold);
    tag("Silver", &g.silver);
    let tc = if g.tc[Color::Gold] == g.tc[Color::Silver] {
        g.tc[Color::Gold].clone()
    } else {
        format!("gold {}, silver {}", g.tc[Color::Gold], g.tc[Color::Silver])
    };
    tag("TimeControl", &tc);
    tag("Result", &g.winner.letter().to_string());
    tag("Reason", &g.reason.to_string());
    tag("Termination", &g.detail);
    if let Some(m) = &g.illegal_move {
        tag("IllegalMove", m);
    }
    for m in &g.moves {
        out.push_str(m);
        out.push('\n');
    }
    out
}

/// Today's UTC date as `YYYY-MM-DD`.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    civil_date((secs / 86400) as i64)
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's algorithm).
pub fn civil_date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::reason::Reason;
    use tusk_engine::notation::record::Record;
    use tusk_engine::ByColor;

    #[test]
    fn dates() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(11_016), "2000-02-29");
        assert_eq!(civil_date(20_415), "2025-11-23");
    }

    #[test]
    fn record_reads_back_with_its_tags() {
        let g = GameJson {
            id: 4,
            round: 2,
            gold: "new".into(),
            silver: "base".into(),
            winner: Color::Silver,
            reason: Reason::Illegal,
            moves: vec![
                "1g Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Da2 Hb2 Cc2 Md2 Ee2 Cf2 Hg2 Dh2".into(),
                "1s ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 da7 hb7 cc7 ed7 me7 cf7 hg7 dh7".into(),
                "2g Ee2n Ee3n Ee4n Ee5n".into(),
            ],
            illegal_move: Some("ed7s ed6s ed5s ed4s ed3s".into()),
            detail: "silver: illegal: step 5\nnext".into(),
            tc: ByColor::new("2s/20s/100/0/0/0".into(), "2s/20s/100/0/0/0".into()),
            setups: "engines".into(),
            seed: 1,
            match_key: "k".into(),
            date: "2026-11-23".into(),
            seconds: 3.5,
        };
        let text = record_text("test event", &g);
        let rec = Record::parse(&text).unwrap();
        assert_eq!(rec.tag("Gold"), Some("new"));
        assert_eq!(rec.tag("Reason"), Some("i"));
        assert_eq!(rec.tag("Round"), Some("3"));
        assert_eq!(rec.tag("Termination"), Some("silver: illegal: step 5 next"));
        assert_eq!(rec.tag("TimeControl"), Some("2s/20s/100/0/0/0"));
        assert_eq!(rec.moves.len(), 3);
        let game = rec.replay(None).unwrap();
        assert_eq!(game.move_label(), "2s");
    }
}
