//! Choosing what a log plan shows, in priority order, under the budget.
//!
//! First the head and the tail (small fixed shares), then the summary lines, then error blocks
//! in full (the first and the last, then one of each kind of error, rarest first, then the rest
//! in order), then warnings once per template (most frequent first, each with its count), then
//! further variants of them, rarest first. Each candidate is taken only if the whole rendering,
//! markers included, still fits with room for the closing marker, so the plan is within the
//! budget by construction.

use super::classify::{Class, Counts, classify};
use super::dedup::{Dedup, Template, variant_key};
use super::keep_line;
use super::render::{self, LeftOut, Shown, Tier};
use super::store::{ErrorBlock, Evicted, Kept};
use crate::clip::window::Window;
use crate::engine::sink::Totals;
use crate::plan::{Piece, Plan, Shape};
use crate::profile::Profile;
use crate::text::{char_count, thousands};

/// Budgets from which markers use their full wording.
const FULL_TIER_BUDGET: u64 = 2000;

/// What the single pass found.
pub struct Found {
    pub blocks: Vec<ErrorBlock>,
    pub evicted: Evicted,
    pub summaries: Vec<Kept>,
    pub warnings: Dedup,
    pub errors: Dedup,
    pub counts: Counts,
    pub long_lines: Vec<(u64, u64, bool)>,
    pub line_keep: u64,
}

/// The selection so far and what it may still take.
struct Selection {
    shown: Shown,
    budget: u64,
    limit: u64,
    total_lines: u64,
    total_chars: u64,
    counts: Counts,
    tier: Tier,
    /// At least the length of the rendering of `shown`, when known: a candidate that fits
    /// under it is taken without measuring everything again.
    bound: Option<u64>,
}

impl Selection {
    /// Takes `lines` (and `note` on the last of them) if everything still fits.
    fn try_add(&mut self, lines: &[Kept], note: &str) -> bool {
        let last = lines.last().map_or(0, |l| l.no);
        self.try_add_noted(lines, note, last)
    }

    /// Takes `lines`, with `note` on line `note_on`, if everything still fits.
    fn try_add_noted(&mut self, lines: &[Kept], note: &str, note_on: u64) -> bool {
        let mut added = Vec::new();
        for line in lines {
            let note = if line.no == note_on { note } else { "" };
            if let Some(old) = self.shown.get_mut(&line.no) {
                if old.1.is_empty() && !note.is_empty() {
                    added.push((line.no, true));
                    note.clone_into(&mut old.1);
                }
            } else {
                added.push((line.no, false));
                self.shown.insert(line.no, (line.clone(), note.to_owned()));
            }
        }
        if added.is_empty() {
            return true;
        }
        if let Some(bound) = self.bound {
            let grown = bound + self.growth_bound(&added);
            if grown <= self.limit {
                debug_assert!(self.length() <= grown, "the growth bound is a bound");
                self.bound = Some(grown);
                return true;
            }
        }
        let length = self.length();
        if length <= self.limit {
            self.bound = Some(length);
            return true;
        }
        for (no, only_note) in added {
            if only_note {
                if let Some(old) = self.shown.get_mut(&no) {
                    old.1.clear();
                }
            } else {
                self.shown.remove(&no);
            }
        }
        false
    }

    /// At most what the rendering grew by when the lines `added` (numbers, and whether only a
    /// note was added) joined `shown`. Each line adds at most its text, its note, a newline,
    /// a truncation marker and a repeat marker. A note may split a run of repeats, which
    /// shows the line's text, and the same text of the line after it, again. Only the gaps
    /// next to a run of added lines change, and each of the at most two that take their place
    /// is at most the widest gap marker.
    fn growth_bound(&self, added: &[(u64, bool)]) -> u64 {
        let mut growth = 0;
        let mut runs = 0;
        let mut prev = None;
        let mut sorted = added.to_vec();
        sorted.sort_unstable();
        for (no, only_note) in sorted {
            let (line, note) = &self.shown[&no];
            let copies = if only_note { 2 } else { 1 };
            growth += copies * (char_count(&line.text) + 1) + char_count(note);
            growth +=
                render::truncation_note_len(line.chars) + render::repeat_note_len(self.total_lines);
            if prev.is_none_or(|p| p + 1 != no) {
                runs += 1;
            }
            prev = Some(no);
        }
        growth + runs * 2 * render::widest_gap(self.total_lines)
    }

    fn length(&self) -> u64 {
        let chars = render::measure(&self.shown, self.total_lines, self.counts, self.tier);
        debug_assert_eq!(
            chars,
            render::layout(
                &self.shown,
                self.total_lines,
                self.total_chars,
                self.counts,
                self.tier
            )
            .chars
        );
        chars
    }
}

/// The plan, or `None` when even the head and the tail do not fit.
#[must_use]
pub fn plan(
    mut found: Found,
    window: &Window,
    totals: &Totals,
    budget: u64,
    _profile: &Profile,
) -> Option<Plan> {
    let tier = if budget >= FULL_TIER_BUDGET {
        Tier::Full
    } else {
        Tier::Short
    };
    let reserve = render::widest_closing(totals.lines, tier) + 1;
    let mut sel = Selection {
        shown: Shown::new(),
        budget,
        limit: budget.checked_sub(reserve)?,
        total_lines: totals.lines,
        total_chars: totals.chars,
        counts: found.counts,
        tier,
        bound: None,
    };
    let fix = |k: &mut Kept, long: &[(u64, u64, bool)]| {
        if let Ok(i) = long.binary_search_by_key(&k.no, |l| l.0) {
            k.chars = long[i].1;
            k.nl = long[i].2;
            k.truncated = true;
        }
    };
    let long = std::mem::take(&mut found.long_lines);
    let mut head = head_lines(window, budget / 10, found.line_keep);
    let mut tail = tail_lines(window, totals, found.counts, budget / 8, found.line_keep);
    keep_blocks_whole(&mut head, &mut tail, &found.blocks);
    for k in found.blocks.iter_mut().flat_map(|b| b.lines.iter_mut()) {
        fix(k, &long);
    }
    for k in &mut found.summaries {
        fix(k, &long);
    }
    if !sel.try_add(&head, "") || !sel.try_add(&tail, "") {
        return None;
    }
    for line in &found.summaries {
        sel.try_add(std::slice::from_ref(line), "");
    }
    let left_blocks = select_errors(&mut sel, &found, &long);
    let left_warnings = select_warnings(&mut sel, &mut found.warnings, &long);
    let left = LeftOut {
        blocks: left_blocks.0,
        blocks_first: left_blocks.1,
        blocks_last: left_blocks.2,
        ..left_warnings
    };
    let layout = render::layout(&sel.shown, totals.lines, totals.chars, found.counts, tier);
    let mut pieces = layout.pieces;
    let mut closing = render::closing(&left, tier);
    if !closing.is_empty() {
        // A last line without '\n' must not run into the marker (the reserve has room for it).
        let glued = pieces.last().is_some_and(|p| match p {
            Piece::Kept(s) | Piece::Marker(s) => !s.ends_with('\n'),
        });
        if glued {
            closing.insert(0, '\n');
        }
        pieces.push(Piece::Marker(closing));
    }
    Some(Plan {
        shape: Shape::Log,
        pieces,
        omitted: layout.omitted,
        omitted_chars: layout.omitted_chars,
    })
}

/// Error blocks in priority order. Returns how many blocks were left out and the first and
/// last line where they start.
fn select_errors(
    sel: &mut Selection,
    found: &Found,
    _long: &[(u64, u64, bool)],
) -> (u64, u64, u64) {
    let blocks = &found.blocks;
    let n = blocks.len();
    let mut order: Vec<usize> = Vec::with_capacity(n);
    if n > 0 {
        order.push(0);
    }
    if n > 1 {
        order.push(n - 1);
    }
    // One block per kind of error: the rarest kinds first and, among equally rare ones, the
    // blocks with a trace, which say the most.
    let mut seen_template = vec![false; found.errors.templates.len()];
    let mut firsts: Vec<(u64, bool, usize)> = Vec::new();
    for (i, b) in blocks.iter().enumerate() {
        match b.template {
            Some(t) if seen_template[t] => {}
            Some(t) => {
                seen_template[t] = true;
                firsts.push((found.errors.count(Some(t)), b.lines.len() < 3, i));
            }
            None => {}
        }
    }
    firsts.sort_unstable();
    let kinds = 2 + firsts.len();
    order.extend(firsts.into_iter().map(|(_, _, i)| i));
    order.extend(0..n);
    let mut shown = vec![false; n];
    let mut noted = vec![false; found.errors.templates.len()];
    for (rank, &i) in order.iter().enumerate() {
        if shown[i] {
            continue;
        }
        let block = &blocks[i];
        // The count goes on the error line the block is known by, not after its notes.
        let key = block.lines.iter().rev().find(|l| l.class == Class::Error);
        let note = match (block.template, key) {
            (Some(t), Some(key)) if !noted[t] => repeat_note(&found.errors.templates[t], key),
            _ => String::new(),
        };
        let mut ok = sel.try_add_noted(&block.lines, &note, key.map_or(0, |k| k.no));
        let shown_chars: u64 = block.lines.iter().map(|l| char_count(&l.text) + 1).sum();
        if !ok && rank < kinds && block.lines.len() > 4 && shown_chars > sel.budget / 4 {
            // A block too long to show whole next to others: its first lines and its last
            // ones, the gap between them labelled. A shorter block is shown whole or not at all.
            let mut part: Vec<Kept> = block.lines[..2].to_vec();
            part.extend_from_slice(&block.lines[block.lines.len() - 2..]);
            ok = sel.try_add(&part, "");
        }
        if ok {
            shown[i] = true;
            if let (Some(t), false) = (block.template, note.is_empty()) {
                noted[t] = true;
            }
        }
    }
    let mut left = (
        found.evicted.blocks,
        found.evicted.first.unwrap_or(u64::MAX),
        found.evicted.last,
    );
    for (i, b) in blocks.iter().enumerate() {
        // A repeat of an error whose count is shown is not left out: the note counts it.
        let counted = b.template.is_some_and(|t| noted[t]);
        if !shown[i] && !counted {
            left.0 += 1;
            left.1 = left.1.min(b.start);
            left.2 = left.2.max(b.start);
        }
    }
    if left.0 == 0 {
        left.1 = 0;
    }
    left
}

/// The note after a shown example of a repeated diagnostic.
fn repeat_note(t: &Template, example: &Kept) -> String {
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

/// Warnings, once per template, then further variants. Fills the warning part of `LeftOut`.
fn select_warnings(
    sel: &mut Selection,
    warnings: &mut Dedup,
    long: &[(u64, u64, bool)],
) -> LeftOut {
    for t in &mut warnings.templates {
        for v in &mut t.variants {
            if let Ok(i) = long.binary_search_by_key(&v.example.no, |l| l.0) {
                v.example.chars = long[i].1;
                v.example.nl = long[i].2;
                v.example.truncated = true;
            }
        }
    }
    let templates = &warnings.templates;
    let mut by_count: Vec<usize> = (0..templates.len()).collect();
    by_count.sort_by_key(|&i| std::cmp::Reverse(templates[i].count));
    let mut represented = vec![false; templates.len()];
    for &i in &by_count {
        let t = &templates[i];
        let Some(best) = t
            .variants
            .iter()
            .max_by_key(|v| (v.count, std::cmp::Reverse(v.example.no)))
        else {
            continue;
        };
        if sel.try_add(
            std::slice::from_ref(&best.example),
            &repeat_note(t, &best.example),
        ) {
            represented[i] = true;
        }
    }
    let mut rest: Vec<(u64, u64, usize, usize)> = Vec::new();
    for (i, t) in templates.iter().enumerate() {
        for (j, v) in t.variants.iter().enumerate() {
            if represented[i] && !sel.shown.contains_key(&v.example.no) {
                rest.push((v.count, v.example.no, i, j));
            }
        }
    }
    rest.sort_unstable();
    for (count, _, i, j) in rest {
        let v = &templates[i].variants[j];
        let note = if count > 1 {
            format!(" [shapeclip: \u{d7}{} identical]", thousands(count))
        } else {
            String::new()
        };
        sel.try_add(std::slice::from_ref(&v.example), &note);
    }
    // Warnings left out: those of templates with no example shown, less those shown as lines.
    let mut left = LeftOut {
        warnings_first: u64::MAX,
        ..LeftOut::default()
    };
    for (i, t) in templates.iter().enumerate() {
        if !represented[i] {
            left.warnings += t.count;
            left.warnings_first = left.warnings_first.min(t.first_line);
            left.warnings_last = left.warnings_last.max(t.last_line);
        }
    }
    left.warnings += warnings.other;
    let shown_loose = sel
        .shown
        .values()
        .filter(|(k, note)| k.class == Class::Warning && note.is_empty())
        .filter(|(k, _)| warnings.find(&k.text).is_none_or(|t| !represented[t]))
        .count() as u64;
    left.warnings = left.warnings.saturating_sub(shown_loose);
    if left.warnings == 0 {
        left.warnings_first = 0;
    } else if warnings.other > 0 {
        left.warnings_first = 1;
        left.warnings_last = sel.total_lines;
    }
    left
}

/// Ends the head before, and starts the tail after, any error block they would cut: an error
/// shown without the rest of its trace (or a trace without its error) misleads. The block
/// itself competes for room with the others.
fn keep_blocks_whole(head: &mut Vec<Kept>, tail: &mut Vec<Kept>, blocks: &[ErrorBlock]) {
    for block in blocks {
        let (Some(first), Some(last)) = (block.lines.first(), block.lines.last()) else {
            continue;
        };
        if head
            .last()
            .is_some_and(|h| h.no >= first.no && h.no < last.no)
        {
            head.retain(|h| h.no < first.no);
        }
        if tail
            .first()
            .is_some_and(|t| t.no > first.no && t.no <= last.no)
        {
            tail.retain(|t| t.no > last.no);
        }
    }
}

/// The complete lines at the start of `window.head`, within `room` characters.
fn head_lines(window: &Window, room: u64, line_keep: u64) -> Vec<Kept> {
    let mut lines = Vec::new();
    let mut used = 0;
    let mut cum = Counts::default();
    for (i, raw) in window.head.split_inclusive('\n').enumerate() {
        let Some(raw) = raw.strip_suffix('\n') else {
            break;
        };
        used += char_count(raw).min(line_keep) + 1;
        if used > room {
            break;
        }
        let class = classify(raw);
        cum.add(class);
        lines.push(keep_line(raw, i as u64 + 1, class, true, cum, line_keep));
    }
    lines
}

/// The complete lines at the end of `window.tail`, within `room` characters.
fn tail_lines(
    window: &Window,
    totals: &Totals,
    counts: Counts,
    room: u64,
    line_keep: u64,
) -> Vec<Kept> {
    let text = window.tail.as_str();
    let starts_whole = char_count(text) == totals.chars;
    let body = if starts_whole {
        text
    } else {
        text.find('\n').map_or("", |nl| &text[nl + 1..])
    };
    let mut lines = Vec::new();
    let mut used = 0;
    let mut cum = counts;
    let mut no = totals.lines;
    let ends_nl = body.ends_with('\n');
    let trimmed = body.strip_suffix('\n').unwrap_or(body);
    if body.is_empty() {
        return lines;
    }
    for (i, raw) in trimmed.rsplit('\n').enumerate() {
        used += char_count(raw).min(line_keep) + 1;
        if used > room {
            break;
        }
        let class = classify(raw);
        let nl = i > 0 || ends_nl;
        lines.push(keep_line(raw, no, class, nl, cum, line_keep));
        cum = cum.before(class);
        no -= 1;
    }
    lines.reverse();
    lines
}
