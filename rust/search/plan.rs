//! Planning a search output into the budget, in three steps of decreasing detail.
//!
//! 1. The lossless fold: each path once, then its rows as the tool printed them (ripgrep's
//!    `--heading` form), when that fits.
//! 2. Groups: every file's header with its exact match count, then each file's first matches
//!    with their context, added round by round (every file's first match, then every file's
//!    second...) so early files cannot starve the rest of the map.
//! 3. The roll-up ([`super::rollup`]) when not every file gets a header: files named with their
//!    counts as far as they fit, the others counted in directory lines.
//!
//! A common directory prefix is printed once, with a note, when that saves room. The marker is
//! sized first for the widest numbers this input could need, so the rendered plan is at most
//! the budget by construction.

use super::SearchPlanner;
use super::closing::{Closing, Facts, Listing, Tier, marker, widest_marker};
use super::rollup::{file_line, roll_up};
use super::table::{
    FileEntry, FileTable, MAX_MATCHES_SHOWN, Other, ROW_CHARS_SHOWN, Row, shown_part,
};
use crate::lookalike::disarm;
use crate::markers::{more_chars_note, more_chars_note_len, thousands};
use crate::plan::{Piece, Plan, Shape, gaps};
use crate::sink::Totals;
use crate::text::ansi::{SGR_RESET, sgr_open};
use crate::text::char_count;
use crate::way_back::WayBack;

/// The output under construction, with its length in characters.
#[derive(Debug, Default)]
struct Out {
    pieces: Vec<Piece>,
    chars: u64,
    /// Input lines shown whole, and the characters of input shown.
    shown_lines: Vec<u64>,
    shown_chars: u64,
}

impl Out {
    fn kept(&mut self, text: &str) {
        self.chars += char_count(text);
        if let Some(Piece::Kept(last)) = self.pieces.last_mut() {
            last.push_str(text);
        } else {
            self.pieces.push(Piece::Kept(text.to_owned()));
        }
    }

    fn marker(&mut self, text: &str) {
        self.chars += char_count(text);
        if let Some(Piece::Marker(last)) = self.pieces.last_mut() {
            last.push_str(text);
        } else {
            self.pieces.push(Piece::Marker(text.to_owned()));
        }
    }

    /// A line of the listing: shapeclip's words around paths of the input, which may look
    /// like its markers (see [`crate::lookalike`]); its own words never do.
    fn listing(&mut self, line: &str) {
        self.marker(&disarm(line));
    }

    /// Input text shown as a line, or its start. A colour it leaves on is turned off, so that
    /// it does not run into what comes next, which may be shapeclip's.
    fn line_text(&mut self, text: &str) {
        self.kept(text);
        if sgr_open(text) {
            self.marker(SGR_RESET);
        }
    }

    /// A row or other input line: whole when short, else its first characters and a label.
    fn input_line(&mut self, text: &str, chars: u64, input_line: u64, input_chars: u64) {
        if chars <= ROW_CHARS_SHOWN {
            self.line_text(text);
            self.shown_lines.push(input_line);
            self.shown_chars += input_chars;
        } else {
            let shown = shown_part(text);
            let shown_chars = char_count(shown);
            self.line_text(shown);
            self.marker(&more_chars_note(chars - shown_chars));
            self.shown_chars += shown_chars;
        }
        self.kept("\n");
    }

    fn into_plan(mut self, totals: &Totals, lossless: bool) -> Plan {
        if lossless {
            return Plan {
                shape: Shape::Search,
                pieces: self.pieces,
                omitted: vec![],
                omitted_chars: 0,
            };
        }
        self.shown_lines.sort_unstable();
        let omitted = gaps(self.shown_lines, totals.lines);
        Plan {
            shape: Shape::Search,
            pieces: self.pieces,
            omitted,
            omitted_chars: totals.chars.saturating_sub(self.shown_chars),
        }
    }
}

/// Characters a row or other line of `chars` characters, `text` or its start, takes in
/// groups, with its newline.
fn shown_len(text: &str, chars: u64) -> u64 {
    let reset = |shown: &str| {
        if sgr_open(shown) {
            char_count(SGR_RESET)
        } else {
            0
        }
    };
    if chars <= ROW_CHARS_SHOWN {
        chars + reset(text) + 1
    } else {
        let shown = shown_part(text);
        let shown_chars = char_count(shown);
        shown_chars + reset(shown) + more_chars_note_len(chars - shown_chars) + 1
    }
}

/// The longest leading directory all paths share (`./`, `/home/x/`, or ""), those of the
/// directories of files past the table's cap included. Files counted in `other_dirs` share no
/// directory with the others.
fn common_dir(table: &FileTable) -> &str {
    if table.other_dirs.0 > 0 {
        return "";
    }
    let first = table.files[0].path.as_str();
    let mut len = first.len();
    let paths = table.files[1..].iter().map(|f| f.path.as_str());
    let dirs = table.dirs.iter().chain(&table.unlisted);
    for path in paths.chain(dirs.map(|d| d.dir.as_str())) {
        len = first.as_bytes()[..len]
            .iter()
            .zip(path.as_bytes())
            .take_while(|(a, b)| a == b)
            .count();
    }
    let cut = first.as_bytes()[..len]
        .iter()
        .rposition(|&b| b == b'/' || b == b'\\')
        .map_or(0, |i| i + 1);
    &first[..cut]
}

fn prefix_note(prefix: &str) -> String {
    format!(
        "[shapeclip: paths below are relative to {}]\n",
        disarm(prefix)
    )
}

/// How the paths are printed: whole, or after a common prefix stated once.
#[derive(Debug, Clone, Copy)]
struct Paths<'a> {
    prefix: &'a str,
    prefix_chars: u64,
}

impl<'a> Paths<'a> {
    fn new(prefix: &'a str) -> Self {
        Paths {
            prefix,
            prefix_chars: char_count(prefix),
        }
    }

    fn shown(self, file: &FileEntry) -> &str {
        &file.path[self.prefix.len()..]
    }

    fn note_chars(self) -> u64 {
        if self.prefix.is_empty() {
            0
        } else {
            char_count(&prefix_note(self.prefix))
        }
    }

    fn note(self, out: &mut Out) {
        if !self.prefix.is_empty() {
            out.marker(&prefix_note(self.prefix));
        }
    }
}

/// Plans `planner`'s output into `budget` characters, or `None` when it is not search output
/// or not even the roll-up of everything fits (the clip then runs).
#[must_use]
pub fn plan(
    planner: &SearchPlanner,
    totals: &Totals,
    budget: u64,
    way_back: Option<&WayBack>,
) -> Option<Plan> {
    if !planner.is_search_shaped() {
        return None;
    }
    let table = &planner.table;
    let common = common_dir(table);
    // Files past the table's cap have no rows: only the roll-up can show them.
    if planner.fold_possible && table.spilled_files == 0 {
        for prefix in [&common[..0], common] {
            if let Some(out) = fold(planner, Paths::new(prefix), budget) {
                return Some(out.into_plan(totals, true));
            }
            if common.is_empty() {
                break;
            }
        }
    }
    let whole = Paths::new("");
    let factored = Paths::new(common);
    let saving = table.file_count().saturating_mul(factored.prefix_chars);
    let paths = if saving > factored.note_chars() {
        factored
    } else {
        whole
    };
    let closing = [Tier::Full, Tier::Compact]
        .into_iter()
        .map(|tier| Closing { tier, way_back })
        .find(|&c| widest_marker(planner, c) <= budget / 4)?;
    grouped(planner, paths, budget, closing)
        .or_else(|| rolled(planner, paths, budget, closing))
        .map(|out| out.into_plan(totals, false))
}

/// Step 1: every row, grouped under its path. `None` unless it fits.
fn fold(planner: &SearchPlanner, paths: Paths<'_>, budget: u64) -> Option<Out> {
    let table = &planner.table;
    let mut out = Out::default();
    paths.note(&mut out);
    let mut others = table.others.iter().peekable();
    for (i, file) in table.files.iter().enumerate() {
        if i > 0 {
            out.kept("\n");
        }
        while let Some(other) = others.next_if(|o| o.files_before <= i) {
            out.line_text(&other.text);
            out.kept("\n");
        }
        out.kept(paths.shown(file));
        out.kept("\n");
        let mut previous: Option<&Row> = None;
        for row in &file.rows {
            if planner.context_mode && previous.is_some_and(|p| p.line_no + 1 != row.line_no) {
                out.kept("--\n");
            }
            out.line_text(&row.text);
            out.kept("\n");
            previous = Some(row);
        }
        if out.chars > budget {
            return None;
        }
    }
    for other in others {
        out.line_text(&other.text);
        out.kept("\n");
    }
    out.marker("[shapeclip: search output grouped by file; nothing omitted]");
    (out.chars <= budget).then_some(out)
}

/// Where each of a file's first matches ends in its rows: `ends[k - 1]` rows show `k` matches
/// with their context. Context between two matches is split at a gap in the line numbers, or
/// halfway when the two share one run of context.
fn group_ends(file: &FileEntry) -> Vec<usize> {
    let rows = &file.rows;
    let matches: Vec<usize> = (0..rows.len()).filter(|&i| rows[i].is_match).collect();
    let mut ends = Vec::with_capacity(matches.len());
    for (k, &at) in matches.iter().enumerate() {
        let next = matches.get(k + 1).copied();
        let until = next.unwrap_or(rows.len());
        if next.is_none() && !file.truncated {
            ends.push(until);
            continue;
        }
        let gap = (at + 1..until).find(|&i| rows[i].line_no != rows[i - 1].line_no + 1);
        ends.push(gap.unwrap_or(at + 1 + (until - at - 1).div_ceil(2)));
    }
    ends
}

/// Characters of `rows` shown in groups, with `--` between runs in context mode.
fn rows_len(rows: &[Row], context_mode: bool) -> u64 {
    let gaps = rows
        .windows(2)
        .filter(|w| w[0].line_no + 1 != w[1].line_no)
        .count() as u64;
    rows.iter()
        .map(|r| shown_len(&r.text, r.chars))
        .sum::<u64>()
        + if context_mode { 3 * gaps } else { 0 }
}

fn header(path: &str, matches: u64, shown: u64) -> String {
    if shown == 0 || shown == matches {
        return file_line(path, matches);
    }
    format!(
        "{path} ({} matches, showing {})\n",
        thousands(matches),
        thousands(shown)
    )
}

/// Step 2: every file's header, then first matches round by round. `None` when the headers do
/// not all fit.
fn grouped(
    planner: &SearchPlanner,
    paths: Paths<'_>,
    budget: u64,
    closing: Closing<'_>,
) -> Option<Out> {
    let table = &planner.table;
    let files = &table.files;
    // Files past the table's cap have no entries to head.
    if table.spilled_files > 0 {
        return None;
    }
    let widest = widest_marker(planner, closing);
    let mut room = budget.checked_sub(widest + paths.note_chars())?;
    // Stops at the first header that does not fit: a flood of files costs no more than that.
    for file in files {
        room = room.checked_sub(char_count(&header(paths.shown(file), file.matches, 0)))?;
    }

    let others = pick_others(planner, &mut room);
    let ends: Vec<Vec<usize>> = files.iter().map(group_ends).collect();
    let mut shown = vec![0usize; files.len()];
    let mut stalled = vec![false; files.len()];
    for round in 1..=usize::try_from(MAX_MATCHES_SHOWN).unwrap_or(usize::MAX) {
        for (i, file) in files.iter().enumerate() {
            if stalled[i] || shown[i] + 1 != round || ends[i].len() < round {
                continue;
            }
            let old_end = if round == 1 { 0 } else { ends[i][round - 2] };
            let new_end = ends[i][round - 1];
            let path = paths.shown(file);
            let old = rows_len(&file.rows[..old_end], planner.context_mode)
                + char_count(&header(path, file.matches, shown[i] as u64));
            let new = rows_len(&file.rows[..new_end], planner.context_mode)
                + char_count(&header(path, file.matches, round as u64));
            // Showing every match drops ", showing k", so a step can also shrink the header.
            if new <= room + old {
                room = room + old - new;
                shown[i] = round;
            } else {
                stalled[i] = true;
            }
        }
    }

    let mut out = Out::default();
    paths.note(&mut out);
    let mut pending_others = others.iter().peekable();
    let mut shown_matches = 0;
    for (i, file) in files.iter().enumerate() {
        while let Some(o) = pending_others.next_if(|o| o.files_before <= i) {
            out.input_line(&o.text, o.chars, o.input_line, o.input_chars);
        }
        out.listing(&header(paths.shown(file), file.matches, shown[i] as u64));
        let end = if shown[i] == 0 {
            0
        } else {
            ends[i][shown[i] - 1]
        };
        let rows = &file.rows[..end];
        for (j, row) in rows.iter().enumerate() {
            if planner.context_mode && j > 0 && rows[j - 1].line_no + 1 != row.line_no {
                out.kept("--\n");
            }
            out.input_line(&row.text, row.chars, row.input_line, row.input_chars);
            shown_matches += u64::from(row.is_match);
        }
    }
    for o in pending_others {
        out.input_line(&o.text, o.chars, o.input_line, o.input_chars);
    }
    let facts = Facts {
        shown_matches,
        listing: Listing::Grouped {
            with_rows: shown.iter().filter(|&&k| k > 0).count() as u64,
        },
        others_shown: others.len() as u64,
        ..Facts::widest(planner)
    };
    out.marker(&marker(closing, &facts.exact(planner)));
    debug_assert!(out.chars <= budget);
    Some(out)
}

/// The non-search lines to show, in input order, taking what they need from `room`: the latest
/// first, in up to half of it (the lines a tool closes with, often its summary, say more about
/// the rest than more match rows: ruff's `Found 106 errors.` and its line on fixes, rg's
/// `--stats`), with the lines just before them while they fit, then the first ones, in up to an
/// eighth of what is left.
fn pick_others<'p>(planner: &'p SearchPlanner, room: &mut u64) -> Vec<&'p Other> {
    let others = &planner.table.others;
    let mut half = *room / 2;
    let mut next_line = None;
    let latest = others
        .iter()
        .rev()
        .take_while(|o| {
            let len = shown_len(&o.text, o.chars);
            let fits = len <= half && next_line.is_none_or(|next| o.input_line + 1 == next);
            if fits {
                half -= len;
                *room -= len;
                next_line = Some(o.input_line);
            }
            fits
        })
        .count();
    let earlier = &others[..others.len() - latest];
    let mut left = *room / 8;
    let n = earlier
        .iter()
        .take_while(|o| {
            let len = shown_len(&o.text, o.chars);
            let fits = len <= left;
            if fits {
                left -= len;
                *room -= len;
            }
            fits
        })
        .count();
    earlier[..n]
        .iter()
        .chain(&others[others.len() - latest..])
        .collect()
}

/// Step 3: named files and directory roll-ups, and no rows.
fn rolled(
    planner: &SearchPlanner,
    paths: Paths<'_>,
    budget: u64,
    closing: Closing<'_>,
) -> Option<Out> {
    let widest = widest_marker(planner, closing);
    let mut room = budget.checked_sub(widest + paths.note_chars())?;
    let others = pick_others(planner, &mut room);
    let shared_dir = if paths.prefix.is_empty() {
        "all files"
    } else {
        paths.prefix
    };
    let listing = roll_up(&planner.table, paths.prefix.len(), shared_dir, room)?;
    let mut out = Out::default();
    paths.note(&mut out);
    // Lines that came after every file (a closing summary) stay after the listing.
    let files = planner.table.files.len();
    let (before, after): (Vec<&Other>, Vec<&Other>) =
        others.iter().partition(|o| o.files_before < files);
    for o in before {
        out.input_line(&o.text, o.chars, o.input_line, o.input_chars);
    }
    for line in &listing.lines {
        out.listing(line);
    }
    for o in after {
        out.input_line(&o.text, o.chars, o.input_line, o.input_chars);
    }
    let facts = Facts {
        shown_matches: 0,
        listing: Listing::Rolled {
            named: listing.named_files,
            rolled: listing.rolled_files,
            dir_lines: listing.dir_lines,
        },
        others_shown: others.len() as u64,
        ..Facts::widest(planner)
    };
    out.marker(&marker(closing, &facts.exact(planner)));
    debug_assert!(out.chars <= budget);
    Some(out)
}
