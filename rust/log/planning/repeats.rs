//! The count after a shown example of a repeated diagnostic (`[shapeclip: ×3 in lines 12-80]`),
//! and where it says nothing: when every line it counts is shown as well.

use std::collections::BTreeMap;

use super::render::Shown;
use crate::log::reading::class::Class;
use crate::log::reading::dedup::{Template, variant_key};
use crate::log::reading::pass::Found;
use crate::log::reading::store::Kept;
use crate::markers::thousands;

/// The note after a shown example of a repeated diagnostic.
pub(super) fn repeat_note(t: &Template, example: &Kept) -> String {
    if t.count < 2 {
        return String::new();
    }
    let same = t
        .variants
        .iter()
        .find(|v| v.key == variant_key(&example.text))
        .map_or(1, |v| v.count);
    let range = format!(
        "lines {}-{}",
        thousands(t.first_line),
        thousands(t.last_line)
    );
    if same == t.count {
        format!(" [shapeclip: \u{d7}{} in {range}]", thousands(t.count))
    } else if same == 1 {
        format!(
            " [shapeclip: 1 of {} of this kind in {range}]",
            thousands(t.count)
        )
    } else {
        format!(
            " [shapeclip: \u{d7}{} identical; {} of this kind in {range}]",
            thousands(same),
            thousands(t.count)
        )
    }
}

/// Takes back each count whose lines are all shown. A count is noted when its example is
/// chosen, before the rest of the budget is filled; once the plan shows every line it counts
/// (the tail often does), it only costs room and reads as if some were left out: in the plans
/// of the CI corpus's logs at 4,000 and 16,000 characters and of the agent sessions' test logs
/// at 2,000 and 4,000, 343 of 620 `×N` notes were such.
///
/// An error's count is of the blocks whose last error line is of its kind, and a warning's of
/// its lines; a count that also holds lines evicted from the planner's stores, or lines
/// shown cut short, never finds them all shown, and stays.
pub(super) fn drop_told_counts(shown: &mut Shown, found: &Found) {
    // Each block's last error line, which a headline's count is noted on, and its kind.
    let keys: BTreeMap<u64, usize> = found
        .blocks
        .iter()
        .filter_map(|block| {
            let key = block.core().iter().rfind(|k| k.class == Class::Error)?;
            Some((key.no, block.template?))
        })
        .collect();
    // Each shown line's kind, counted; the noted lines' kinds, kept.
    let mut errors = vec![0u64; found.errors.templates.len()];
    let mut warnings = vec![0u64; found.warnings.templates.len()];
    let mut noted = Vec::new();
    for (no, (k, note)) in shown.iter() {
        if k.truncated {
            continue;
        }
        let (error, t) = match keys.get(no) {
            Some(&t) => (true, t),
            None if k.class == Class::Warning => match found.warnings.find(&k.text) {
                Some(t) => (false, t),
                None => continue,
            },
            None => continue,
        };
        if error {
            errors[t] += 1;
        } else {
            warnings[t] += 1;
        }
        if !note.is_empty() {
            noted.push((*no, error, t));
        }
    }
    for (no, error, t) in noted {
        let (table, seen) = if error {
            (&found.errors, &errors)
        } else {
            (&found.warnings, &warnings)
        };
        if seen[t] == table.templates[t].count {
            if let Some((_, note)) = shown.get_mut(&no) {
                note.clear();
            }
        }
    }
}
