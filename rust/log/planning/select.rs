//! Choosing what a log plan shows, in priority order, under the budget.
//!
//! A log plan drops the least valuable lines until the rest fits, and builds say why they
//! failed at the end, so the order is:
//!
//! 1. a contiguous run of the last lines, and the first few lines;
//! 2. the runner's failing summaries (`3 failed`, `FAIL pkg`, a non-zero exit status);
//! 3. every error block's headline (the exception, the diagnostic, the `FAIL` line), the
//!    last block first, then the first, then back from the end: breadth before depth, and an
//!    error repeated in many tests once, with its count; with the heading that names its file,
//!    or the title of its pytest report where that fits;
//! 4. the blocks' traces, in the same order, then the other summaries;
//! 5. the places pytest prints for the frames of the project's code (`PATH:N: in NAME`),
//!    above its error lines: they name the code to open, which a warning seldom does and the
//!    lines around an error seldom do; then the lines around the shown errors;
//! 6. one warning of each kind with its count;
//! 7. the rest of the budget: the traces of errors shown in part, whole; then the tail run goes
//!    back as far as it fits, then the head.
//!
//! Steps 2 to 6 keep a share of the budget for step 7. Each candidate is taken only if the
//! whole rendering, markers included, still fits with room for the closing marker, so the
//! plan is within the budget by construction. Last, a gap whose lines are known and cost no
//! more than its marker is shown instead.

use std::collections::{BTreeMap, HashSet};

use super::library;
use super::render::{self, LeftOut, Omitted, Tier};
use super::repeats::{drop_told_counts, repeat_note};
use super::selection::{Selection, completes_line_above};
use crate::log::reading::class::{Class, Counts};
use crate::log::reading::classify::classify;
use crate::log::reading::dedup::{Dedup, Variant};
use crate::log::reading::heading::{heads, is_heading, is_under};
use crate::log::reading::keep::keep_line;
use crate::log::reading::pass::Found;
use crate::log::reading::store::{ErrorBlock, Kept};
use crate::log::reading::summary::failing;
use crate::log::reading::title;
use crate::markers::thousands;
use crate::plan::{Piece, Plan, Shape, gaps};
use crate::profile::Profile;
use crate::sink::Totals;
use crate::text::char_count;
use crate::window::Window;

/// The closing marker uses its full wording when that takes at most this part (1/n) of the
/// budget, as the clip's and the gapped plans' do; else the short one, which keeps the exact
/// numbers and the way back.
const FULL_TIER_PART: u64 = 24;
/// The tail run taken first, in eighths of the budget.
const TAIL_FIRST_EIGHTHS: u64 = 2;
/// The head taken first, in sixtieths of the budget.
const HEAD_FIRST_SIXTIETHS: u64 = 1;
/// What errors, summaries, warnings and context may take, in eighths of the budget: the rest
/// goes to the tail and the head.
const SIGNAL_EIGHTHS: u64 = 6;
/// What headlines may take, in eighths of the budget.
const HEADLINE_SHARE: u64 = 6;
/// What the lines before each failing summary may take, in eighths of the budget.
const VERDICT_EIGHTHS: u64 = 1;
/// How far apart a headline's first and last error lines may be for the lines between them
/// to be part of it.
const HEADLINE_SPAN: u64 = 3;
/// Failing summary lines taken ahead of the errors, the last ones first.
const FAILING_SUMMARIES: usize = 8;
/// Other summary lines taken after the errors, the last ones first.
const OTHER_SUMMARIES: usize = 4;

/// Repeated lines in a row, this many or more, are left to a marker when the rest of the
/// budget is filled (a second copy of a trace says nothing the first did not).
const REPEAT_RUN: usize = 3;

/// The plan, or `None` when not even the last line fits.
#[must_use]
pub fn plan(
    mut found: Found,
    window: &Window,
    totals: &Totals,
    budget: u64,
    profile: &Profile,
) -> Option<Plan> {
    let (tier, reserve) = closing_room(&found, totals, budget, profile);
    let mut sel = Selection::new(budget.checked_sub(reserve)?, totals.lines, found.counts);
    let long = std::mem::take(&mut found.long_lines);
    let fix = |k: &mut Kept| {
        if let Ok(i) = long.binary_search_by_key(&k.no, |l| l.0) {
            k.chars = long[i].1;
            k.nl = long[i].2;
            k.truncated = true;
        }
    };
    found
        .blocks
        .iter_mut()
        .flat_map(|b| b.lines.iter_mut())
        .for_each(fix);
    found.summaries.iter_mut().for_each(fix);
    let head = head_lines(window, budget, found.line_keep);
    let mut tail = tail_lines(window, totals, found.counts, budget, found.line_keep);
    tail.drain(..headless(&tail, found.heading.as_ref()));

    // 1. The last lines, and the first few.
    let run = lines_within(tail.iter().rev(), budget * TAIL_FIRST_EIGHTHS / 8).max(1);
    let back: Vec<Kept> = tail.iter().rev().cloned().collect();
    let taken = sel.take_leading(&back[..run.min(back.len())]);
    if taken == 0 && !back.is_empty() {
        return None;
    }
    head_tail(&mut sel, &back[..taken], found.heading.as_ref());
    // The first line says what ran, when it is short enough to say it.
    let first = lines_within(head.iter(), budget * HEAD_FIRST_SIXTIETHS / 60)
        .max(lines_within(head.iter().take(1), budget / 16));
    sel.try_add(&head[..first], "");

    sel.cap = Some(budget * SIGNAL_EIGHTHS / 8);
    // 2. Failing summaries, the last first.
    let (failing_lines, other_lines): (Vec<&Kept>, Vec<&Kept>) =
        found.summaries.iter().partition(|k| failing(&k.text));
    for line in failing_lines.iter().rev().take(FAILING_SUMMARIES) {
        sel.try_add(std::slice::from_ref(*line), "");
    }
    // What the build printed just before it said it failed, the last verdict first.
    for verdict in found.verdicts.iter_mut().rev() {
        verdict.iter_mut().for_each(fix);
        let back: Vec<Kept> = verdict.iter().rev().cloned().collect();
        let cap = sel.cap;
        sel.cap = Some(sel.length() + budget * VERDICT_EIGHTHS / 8);
        sel.take_leading(&back);
        sel.cap = cap;
    }
    // 3 and 4. Errors: headlines, then traces.
    let noted = select_errors(&mut sel, &found);
    for line in other_lines.iter().rev().take(OTHER_SUMMARIES) {
        sel.try_add(std::slice::from_ref(*line), "");
    }
    // 5. The places of the project's frames; then context around the shown errors, the last
    // first.
    select_places(&mut sel, &found.places);
    for block in found.blocks.iter().rev() {
        if block.core().iter().any(|k| sel.shown.contains_key(&k.no)) {
            sel.try_add(&block.lines, "");
        }
    }
    // 6. One warning of each kind.
    let represented = select_warnings(&mut sel, &mut found.warnings, &long);
    sel.cap = None;

    // 7. The rest of the budget: first the traces of errors shown in part, then the tail.
    complete_traces(&mut sel, &found.blocks);
    fill(&mut sel, back, &head, found.heading.as_ref());

    // Gaps whose lines are known and cost no more than their markers.
    let known = known_lines(&head, &tail, &found);
    show_cheap_gaps(&mut sel, &known);
    drop_told_counts(&mut sel.shown, &found);

    let left = left_out(&sel, &found, &noted, &represented);
    let layout = render::layout(&sel.shown, totals.lines, totals.chars, found.counts);
    let mut pieces = layout.pieces;
    if let Some(example) = layout.widest.or_else(|| layout.omitted.first().copied()) {
        let omitted = Omitted {
            // As `omitted_lines` counts them: the lines in gaps and those cut short.
            lines: layout.omitted.iter().map(|r| r.len()).sum(),
            total_lines: totals.lines,
            chars: layout.omitted_chars,
            example,
            tool: &profile.tool,
            way_back: profile.way_back.as_ref(),
        };
        let mut closing = render::closing(&omitted, &left, tier);
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

/// The tier of the closing marker and the room set aside for it, with its newline: the
/// widest closing the log could need.
fn closing_room(found: &Found, totals: &Totals, budget: u64, profile: &Profile) -> (Tier, u64) {
    // The most the closing marker can say was left out: every error block, every warning.
    let most = LeftOut {
        blocks: found.evicted.blocks + found.blocks.len() as u64,
        warnings: found.counts.warnings,
        unsorted: found.warnings.other,
        ..LeftOut::default()
    };
    let reserve = |tier| {
        render::widest_closing(
            totals.lines,
            totals.chars,
            &profile.tool,
            profile.way_back.as_ref(),
            tier,
            &most,
        ) + 1
    };
    let tier = if reserve(Tier::Full) <= budget / FULL_TIER_PART {
        Tier::Full
    } else {
        Tier::Short
    };
    (tier, reserve(tier))
}

/// The rest of the budget: the tail going `back` from the shown lines, less runs of lines
/// that repeat ones shown, then the `head` (whose first lines say what ran and how).
fn fill(sel: &mut Selection, mut back: Vec<Kept>, head: &[Kept], heading: Option<&Kept>) {
    let tail_start = sel.shown.keys().next_back().map_or(0, |&no| no);
    let run_start = run_start(sel, tail_start);
    back.retain(|k| k.no < run_start);
    let mut seen: HashSet<String> = sel
        .shown
        .values()
        .map(|(k, _)| k.text.to_string())
        .collect();
    let back = without_repeats(&back, &mut seen);
    let taken = sel.take_leading(&back);
    head_tail(sel, &back[..taken], heading);
    sel.take_leading(head);
}

/// How many of the window's first lines (`tail`, in order) come before its first heading and
/// are under one that is not the last heading read ([`heading`]): which file they are in is
/// not known, and going back from the end they are not shown.
fn headless(tail: &[Kept], heading: Option<&Kept>) -> usize {
    let Some(first) = tail.iter().position(is_heading) else {
        return 0;
    };
    let known = |k: &Kept| heading.is_some_and(|h| heads(h, k));
    if tail[..first].iter().any(|k| is_under(k) && !known(k)) {
        first
    } else {
        0
    }
}

/// Shows the last heading when the earliest of the tail's lines just `taken` (going back) is
/// under it: the run says with it which file its lines are in.
fn head_tail(sel: &mut Selection, taken: &[Kept], heading: Option<&Kept>) {
    if let (Some(heading), Some(earliest)) = (heading, taken.last()) {
        if heads(heading, earliest) {
            sel.try_add(std::slice::from_ref(heading), "");
        }
    }
}

/// `lines` (adjacent in the input, in either order) less each run of `REPEAT_RUN` or more
/// lines that only repeat lines of `seen` (blank lines among them), which gains what they
/// hold. Shorter repeats stay: a marker would cost about as much, and a log that alternates a
/// timestamp with its message would be shown in shreds.
fn without_repeats(lines: &[Kept], seen: &mut HashSet<String>) -> Vec<Kept> {
    let repeat: Vec<bool> = lines
        .iter()
        .map(|k| k.text.trim().is_empty() || !seen.insert(k.text.to_string()))
        .collect();
    let mut kept = Vec::with_capacity(lines.len());
    let mut at = 0;
    while at < lines.len() {
        let end = (at..lines.len())
            .find(|&i| !repeat[i] || (i > at && lines[i].no.abs_diff(lines[i - 1].no) != 1))
            .unwrap_or(lines.len());
        let run = &lines[at..end];
        let repeated = run.iter().filter(|k| !k.text.trim().is_empty()).count();
        if repeated < REPEAT_RUN {
            kept.extend_from_slice(run);
        }
        if end < lines.len() && !repeat[end] {
            kept.push(lines[end].clone());
            at = end + 1;
        } else {
            at = end.max(at + 1);
        }
    }
    kept
}

/// How many of `lines` fit in `room` characters, each with its `'\n'`.
fn lines_within<'a>(lines: impl Iterator<Item = &'a Kept>, room: u64) -> usize {
    let mut used = 0;
    lines
        .take_while(|k| {
            used += char_count(&k.text) + 1;
            used <= room
        })
        .count()
}

/// The first line of the contiguous run of shown lines that ends at line `last`.
fn run_start(sel: &Selection, last: u64) -> u64 {
    let mut start = last;
    while start > 1 && sel.shown.contains_key(&(start - 1)) {
        start -= 1;
    }
    start
}

/// Error blocks: first each block's headline, then its whole error and trace, in priority
/// order. Returns which error templates have their count shown.
fn select_errors(sel: &mut Selection, found: &Found) -> Vec<bool> {
    let blocks = &found.blocks;
    let n = blocks.len();
    // The pieces that a trace too long for the budget was split into and that hold no error
    // line (a traceback's middle frames, a compiler's notes) come last, back from the end,
    // after every error's headline and trace and the repeats' headlines: their first line
    // names no failure.
    let (errors, pieces): (Vec<usize>, Vec<usize>) = (0..n)
        .rev()
        .partition(|&i| blocks[i].core().iter().any(|k| k.class == Class::Error));
    // The last error's block and the first; then one block of each kind of error, the rarest
    // kinds first and, among equally rare ones, the later first; then back from the end.
    let mut order: Vec<usize> = Vec::with_capacity(2 * errors.len() + 2);
    order.extend(errors.first());
    order.extend(errors.last());
    let mut seen = vec![false; found.errors.templates.len()];
    let mut kinds: Vec<(u64, std::cmp::Reverse<usize>)> = Vec::new();
    for &i in errors.iter().rev() {
        if let Some(t) = blocks[i].template.filter(|&t| !seen[t]) {
            seen[t] = true;
            kinds.push((found.errors.count(Some(t)), std::cmp::Reverse(i)));
        }
    }
    kinds.sort_unstable();
    order.extend(kinds.into_iter().map(|(_, i)| i.0));
    order.extend(&errors);
    let mut visited = vec![false; n];
    order.retain(|&i| !std::mem::replace(&mut visited[i], true));
    let mut noted = vec![false; found.errors.templates.len()];
    let mut headed = vec![false; n];
    // Headlines leave room for the traces of the first ones.
    let cap = sel.cap;
    sel.cap = cap.map(|c| c * HEADLINE_SHARE / SIGNAL_EIGHTHS);
    for &i in &order {
        let block = &blocks[i];
        let Some((first, key)) = headline(block) else {
            continue;
        };
        let note = match block.template {
            // A repeat of an error whose count is shown: the count stands for it.
            Some(t) if noted[t] => continue,
            Some(t) => repeat_note(&found.errors.templates[t], key),
            None => String::new(),
        };
        let lines = headline_lines(block, first, key);
        // A failure's title says which test failed; its `E` lines, which say how, say much
        // without it. A problem under a file's heading says nothing without it.
        let added = sel.try_add_noted(&lines, &note, key.no)
            || (titled(block).is_some() && sel.try_add_noted(&lines[1..], &note, key.no));
        if added {
            headed[i] = true;
            if let (Some(t), false) = (block.template, note.is_empty()) {
                noted[t] = true;
            }
        }
    }
    sel.cap = cap;
    for &i in &order {
        if headed[i] {
            add_trace(sel, blocks[i].core());
        }
    }
    // Then, as room allows, the headlines of the repeats a count stands for: the same kind of
    // failure in another test still names that test.
    // A headline that the line below completes goes with it; alone, only when no line shown
    // says the same (`cannot find value `x``, not one more `mismatched types`).
    let mut said = sel.shown_texts();
    for &i in &order {
        if let (false, Some((first, key))) = (headed[i], headline(&blocks[i])) {
            // A repeat goes without its `>` line: the lines of more failures say more.
            let before = line_above(&blocks[i], first).filter(|k| required_from_here(k));
            let after = line_below(&blocks[i], key);
            // The title of a repeated failure is left out: its `E` lines and its place say it.
            let heading = blocks[i]
                .heading
                .as_deref()
                .filter(|_| titled(&blocks[i]).is_none());
            let lines: Vec<Kept> = (heading.into_iter())
                .chain(before)
                .chain([first, key])
                .cloned()
                .collect();
            let placed: Vec<Kept> = lines.iter().chain(after).cloned().collect();
            // A bare `ERROR` (unittest's verdict pushed onto a line of its own by what the
            // test logged) says again only what is shown.
            let news = lines.iter().any(|k| !said.contains(&*k.text));
            let added =
                (after.is_some() && sel.try_add(&placed, "")) || (news && sel.try_add(&lines, ""));
            if added {
                said.extend(placed.iter().map(|k| k.text.to_string()));
            }
        }
    }
    for &i in &pieces {
        add_trace(sel, blocks[i].core());
    }
    noted
}

/// Shows whole, the last first, the cores of the error blocks shown in part whose lines left
/// out say something not yet shown: the cause of an exception a program logged and went on
/// from says more than the progress lines before the end. A block whose lines left out only
/// repeat shown ones (a second copy of a fixture's code) is left to its marker.
fn complete_traces(sel: &mut Selection, blocks: &[ErrorBlock]) {
    let mut said = sel.shown_texts();
    for block in blocks.iter().rev() {
        let core = block.core();
        let shown = core
            .iter()
            .filter(|k| sel.shown.contains_key(&k.no))
            .count();
        if shown == 0 || shown == core.len() {
            continue;
        }
        let news = core.iter().any(|k| {
            !sel.shown.contains_key(&k.no) && !k.text.trim().is_empty() && !said.contains(&*k.text)
        });
        if news && sel.try_add(core, "") {
            said.extend(core.iter().map(|k| k.text.to_string()));
        }
    }
}

/// Adds a block's `core` whole, or else without its library frames (see `library`), or else
/// as much of both its ends as fits.
fn add_trace(sel: &mut Selection, core: &[Kept]) {
    if !sel.try_add(core, "") {
        let own = without_library_frames(core);
        if own.len() == core.len() || !sel.try_add(&own, "") {
            take_both_ends(sel, &own);
        }
    }
}

/// The last places pytest printed for the frames of its failures' tracebacks in the project's
/// code (`PATH:N: in NAME`), the last first: they come before the error line, where no block's
/// trace reads, and name the code to open.
fn select_places(sel: &mut Selection, places: &[Kept]) {
    for place in places.iter().rev() {
        sel.try_add(std::slice::from_ref(place), "");
    }
}

/// The title over the report of `block`'s failure, when it has one: its heading, when its
/// first error line is no problem under a file's heading ([`is_under`]).
fn titled(block: &ErrorBlock) -> Option<&Kept> {
    let first = block.core().iter().find(|k| k.class == Class::Error)?;
    block.heading.as_deref().filter(|_| !is_under(first))
}

/// The lines of a block but those of its library frames; its first and last lines stay
/// whatever they are (the error, the exception).
fn without_library_frames(lines: &[Kept]) -> Vec<Kept> {
    let library = library::library_lines(lines.iter().map(|k| &*k.text));
    let last = lines.len().saturating_sub(1);
    lines
        .iter()
        .zip(library)
        .enumerate()
        .filter(|&(i, (_, library))| !library || i == 0 || i == last)
        .map(|(_, (kept, _))| kept.clone())
        .collect()
}

/// As much of a block too long to show whole as fits, half the room for its first lines (an
/// assertion's diff, a Java exception's top frames) and half for its last ones (a Python
/// traceback's innermost frames and exception).
fn take_both_ends(sel: &mut Selection, lines: &[Kept]) {
    let length = sel.length();
    let room = sel.room().saturating_sub(length);
    let cap = sel.cap;
    sel.cap = Some(length + room / 2);
    let front = sel.take_leading(lines);
    sel.cap = cap;
    let back: Vec<Kept> = lines[front..].iter().rev().cloned().collect();
    sel.take_leading(&back);
}

/// The lines that say what went wrong in `block`: its first error line (`--- FAIL: TestX`, a
/// test's header) and its last one (the exception after a traceback, the assertion message),
/// which is the one its kind and count go on. A block split off a long trace, with no error
/// line, has its first line for both.
fn headline(block: &ErrorBlock) -> Option<(&Kept, &Kept)> {
    let core = block.core();
    let mut errors = core.iter().filter(|l| l.class == Class::Error);
    match (errors.next(), errors.next_back()) {
        (Some(first), Some(last)) => Some((first, last)),
        (Some(only), None) => Some((only, only)),
        _ => core.first().map(|k| (k, k)),
    }
}

/// The lines a headline shows: its first and last error line, and what stands between them
/// when that is only a line or two (a test's name between `Failure:` and its assertion), which
/// says more than the marker that would stand for it; the heading that names the error's file
/// when the error line gives only a line number.
fn headline_lines(block: &ErrorBlock, first: &Kept, key: &Kept) -> Vec<Kept> {
    let mut lines: Vec<Kept> = (block.heading.as_deref().into_iter())
        .chain(
            line_above(block, first).filter(|k| required_from_here(k) || failed_source(k, first)),
        )
        .cloned()
        .collect();
    if key.no - first.no <= HEADLINE_SPAN {
        lines.extend(
            block
                .lines
                .iter()
                .filter(|k| (first.no..=key.no).contains(&k.no))
                .cloned(),
        );
    } else {
        lines.extend([first.clone(), key.clone()]);
    }
    lines.extend(line_below(block, key).cloned());
    lines
}

/// The line right after a block's `key` error line when it completes it: the error's place,
/// as rustc and ruff print it under the message (`  --> src/main.rs:57:20`), or the first
/// line of the message it announces (`error: |-`). Without it, the headline of one more
/// `error[E0308]: mismatched types` says nothing the count did not.
fn line_below<'b>(block: &'b ErrorBlock, key: &Kept) -> Option<&'b Kept> {
    let at = block.lines.iter().position(|k| k.no == key.no)?;
    let after = block.lines.get(at + 1)?;
    completes_line_above(key, after).then_some(after)
}

/// The line right before a block's `first` error line, when the block holds it.
fn line_above<'b>(block: &'b ErrorBlock, first: &Kept) -> Option<&'b Kept> {
    let at = block.lines.iter().position(|k| k.no == first.no)?;
    block.lines[..at].last().filter(|k| k.no + 1 == first.no)
}

/// Whether `line` names the place in the project's own code that led to an error below it.
/// gcc prints the chain of template instantiations that ends in an error before the error,
/// whose own place is in a library's header; the chain's last line (`t.cpp:6:60:   required
/// from here`) is the only one that names the user's code.
fn required_from_here(line: &Kept) -> bool {
    line.text
        .trim_end()
        .strip_suffix("required from here")
        .is_some_and(|rest| rest.trim_end().ends_with(':'))
}

/// Whether `line` is pytest's `>` line over the `E` line `first`: the line of the test that
/// failed (`>       assert total(items) == 115`), which says what was checked where the `E`
/// lines give values.
fn failed_source(line: &Kept, first: &Kept) -> bool {
    title::e_line(first.body()) && title::raised_line(line.body())
}

/// Every line whose text the plan holds, by number.
fn known_lines<'a>(
    head: &'a [Kept],
    tail: &'a [Kept],
    found: &'a Found,
) -> BTreeMap<u64, &'a Kept> {
    let mut known = BTreeMap::new();
    let blocks = found.blocks.iter().flat_map(|b| b.lines.iter());
    let verdicts = found.verdicts.iter().flatten();
    for k in head
        .iter()
        .chain(tail)
        .chain(blocks)
        .chain(&found.summaries)
        .chain(verdicts)
    {
        known.entry(k.no).or_insert(k);
    }
    known
}

/// Shows the lines of every gap that are all known and cost no more than its marker.
fn show_cheap_gaps(sel: &mut Selection, known: &BTreeMap<u64, &Kept>) {
    let gaps = gaps(sel.shown.keys().copied(), sel.total_lines);
    for gap in gaps {
        let lines: Option<Vec<Kept>> = (gap.first..=gap.last)
            .map(|no| known.get(&no).map(|k| (*k).clone()))
            .collect();
        if let Some(lines) = lines {
            sel.take_if_no_longer(&lines);
        }
    }
}

/// What the plan leaves out with no example shown: error blocks none of whose error lines is
/// shown (less the repeats a shown count stands for), warnings of kinds with no example shown,
/// and warnings past the kinds kept apart (each less those shown as lines).
fn left_out(sel: &Selection, found: &Found, noted: &[bool], represented: &[bool]) -> LeftOut {
    let mut left = LeftOut {
        blocks: found.evicted.blocks,
        blocks_first: found.evicted.first.unwrap_or(u64::MAX),
        blocks_last: found.evicted.last,
        warnings_first: u64::MAX,
        ..LeftOut::default()
    };
    for b in &found.blocks {
        let counted = b.template.is_some_and(|t| noted[t]);
        let shown = b.core().iter().any(|k| sel.shown.contains_key(&k.no));
        if !shown && !counted {
            left.blocks += 1;
            left.blocks_first = left.blocks_first.min(b.start);
            left.blocks_last = left.blocks_last.max(b.start);
        }
    }
    if left.blocks == 0 {
        left.blocks_first = 0;
    }
    let warnings = &found.warnings;
    // A kind one of whose lines is shown, even without a count, has an example above.
    let mut example = represented.to_vec();
    let mut unsorted = 0;
    let mut shown_warnings = 0;
    for (k, _) in sel
        .shown
        .values()
        .filter(|(k, _)| k.class == Class::Warning)
    {
        shown_warnings += 1;
        match warnings.find(&k.text) {
            Some(t) => example[t] = true,
            None => unsorted += 1,
        }
    }
    for (i, t) in warnings.templates.iter().enumerate() {
        if !example[i] {
            left.warnings += t.count;
            left.warnings_first = left.warnings_first.min(t.first_line);
            left.warnings_last = left.warnings_last.max(t.last_line);
        }
    }
    // A shown line whose text no longer finds its kind (cut short, or cleaned of bytes that
    // were not text) leaves its kind counted as left out: never more than the gaps hold.
    left.warnings = left
        .warnings
        .min(found.counts.warnings.saturating_sub(shown_warnings));
    left.unsorted = warnings.other.saturating_sub(unsorted);
    if left.warnings == 0 {
        left.warnings_first = 0;
    }
    left
}

/// Warnings, once per template, then further variants. Says which templates have an example
/// shown.
fn select_warnings(
    sel: &mut Selection,
    warnings: &mut Dedup,
    long: &[(u64, u64, bool)],
) -> Vec<bool> {
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
        if sel.try_add(&with_heading(best), &repeat_note(t, &best.example)) {
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
        sel.try_add(&with_heading(v), &note);
    }
    represented
}

/// A warning's example, after the heading that names its file when it has one.
fn with_heading(variant: &Variant) -> Vec<Kept> {
    variant
        .heading
        .iter()
        .chain([&variant.example])
        .cloned()
        .collect()
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

/// The complete lines at the end of the window's last characters, within `room` characters.
fn tail_lines(
    window: &Window,
    totals: &Totals,
    counts: Counts,
    room: u64,
    line_keep: u64,
) -> Vec<Kept> {
    let text = window.last_chars();
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
