//! The plan when the engine's own keeping of the input failed: its window, or the clip over it.
//!
//! A planner's panic costs only that planner (see `registry::guarded`), but the window and the
//! clip are what every plan falls back on. If either panics there is nothing left to show, and
//! the honest answer is a marker that says the whole output was omitted and why, with the
//! reader's totals, which stay exact because the reader counts apart from every sink. This
//! code is kept small and separate from the clip's so that the failure it answers cannot be
//! its own.

use crate::markers::{plural, tokens};
use crate::plan::{LineRange, Piece, Plan, Shape};
use crate::profile::{Profile, ToolKind};
use crate::sink::Totals;
use crate::text::char_count;

/// A plan of one marker saying that all of the input was omitted, in at most `budget`
/// characters. `totals` is of an input of at least one character.
#[must_use]
pub fn plan(totals: &Totals, budget: u64, profile: &Profile) -> Plan {
    debug_assert!(totals.chars > 0, "an empty input fits any budget");
    let lines = totals.lines;
    let marker = [full(totals, lines, profile), short(lines)]
        .into_iter()
        .find(|text| char_count(text) <= budget)
        .unwrap_or_else(|| "\u{2026}".to_owned());
    Plan {
        shape: Shape::Clip,
        pieces: vec![Piece::Marker(marker)],
        omitted: vec![LineRange {
            first: 1,
            last: lines,
        }],
        omitted_chars: totals.chars,
    }
}

fn full(totals: &Totals, lines: u64, profile: &Profile) -> String {
    let again = match (&profile.way_back, profile.kind) {
        (Some(way), _) => format!("To see it, {}.", way.lines_hint(1, lines, lines)),
        (None, kind) if kind.reruns() => {
            "To see it, run the command again without shapeclip.".into()
        }
        (None, ToolKind::FileRead) => "To see it, read the file again in parts.".into(),
        (None, _) => "To see it, call the tool again for a part of it.".into(),
    };
    format!(
        "[shapeclip: all of this output omitted ({}, {}, ~{}): shapeclip failed on it. {again}]",
        plural(lines, "line", "lines"),
        plural(totals.chars, "char", "chars"),
        tokens(totals.chars),
    )
}

fn short(lines: u64) -> String {
    format!("[lines 1-{lines} omitted: shapeclip failed]")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::way_back::WayBack;

    fn totals(chars: u64, lines: u64) -> Totals {
        Totals {
            chars,
            lines,
            newlines: lines,
        }
    }

    #[test]
    fn says_everything_was_omitted_with_exact_totals_and_the_way_back() {
        let mut profile = Profile::new("shell", Some("bash"), 1, 1).unwrap();
        let plain = plan(&totals(12_345, 678), 4000, &profile);
        assert_eq!(
            plain.render(),
            "[shapeclip: all of this output omitted (678 lines, 12,345 chars, ~3,087 tokens): \
             shapeclip failed on it. To see it, run the command again without shapeclip.]"
        );
        assert_eq!((plain.omitted_lines(), plain.omitted_chars), (678, 12_345));
        profile.way_back = Some(WayBack::Stored {
            id: "abc".into(),
            path: "/s/abc.out".into(),
        });
        assert!(
            plan(&totals(12_345, 678), 4000, &profile)
                .render()
                .ends_with("To see it, run shapeclip show abc --lines 1:678, or read /s/abc.out with offset 1 and limit 678.]")
        );
    }

    #[test]
    fn shrinks_to_the_budget() {
        let profile = Profile::new("shell", None, 1, 1).unwrap();
        for budget in 1..200 {
            let text = plan(&totals(1_000_000, 5000), budget, &profile).render();
            assert!(char_count(&text) <= budget, "{budget}: {text}");
        }
        assert_eq!(
            plan(&totals(1_000_000, 5000), 40, &profile).render(),
            "[lines 1-5000 omitted: shapeclip failed]"
        );
    }
}
