//! The listing planner: `find`, `ls -R`, `tree`, `git ls-files` and other lists of paths keep
//! every directory, and as many of each directory's entries as the budget allows; rows a
//! search tool summarised (`PATH (N matches)`) keep the files with the most matches.
//!
//! An agent lists files to find the one to open. A head cut of a listing keeps the first
//! directories whole and loses every later one, a tail cut the reverse; either hides most of
//! the tree. This planner reads a listing as groups (an `ls -R` heading and its entries, or a
//! run of paths in one directory, see [`line`]), keeps every heading, and gives every group a
//! share of its first entries, directories an agent rarely opens first (tests, fixtures,
//! vendored code, build outputs, caches, version control, docs, see [`line::is_noise`]) less
//! ([`map`]). A map that would name fewer paths than the listing's first lines is not made:
//! those lines are shown, and the rest is one gap, whose marker says by directory where the
//! paths it holds are when there are many ([`tally`]). Rows a search tool already summarised are
//! no tree: they are shown by rank ([`rows`]). What a plan does not show is exact gaps, and the
//! closing marker counts them all ([`crate::gapped`]). An output is a listing when it has ten
//! listing lines and nine lines in ten read as one, besides a header and a footer line.

mod line;
mod map;
mod rows;
mod tally;

use crate::gapped::marker::labelled_gap;
use crate::gapped::{self, Frame, WholeLines};
use crate::plan::{LineRange, Plan, Shape};
use crate::planner::{Context, Planner};
use crate::sink::{Block, Sink};
use crate::text::char_count;
use line::Kind;
use map::Group;
use rows::Rows;
use tally::Tally;

/// Listing lines a listing must have before the planner believes it.
const MIN_LINES: u64 = 10;
/// Below this budget a listing is clipped.
const MIN_BUDGET: u64 = 400;
/// A listing shown as its first lines keeps at most this part (1/n) of its room for the lines
/// after its last path: what a command run after the listing printed (`ls -R && grep ...`),
/// or the tool's own verdict.
const FOOTER_PART: u64 = 8;
/// A listing shown as its first lines gives at most this part (1/n) of its budget, and at
/// most [`TALLY_MAX`] characters, to the marker that tallies the paths it leaves out by
/// directory: a few dozen directories tell where the rest is, and each path more is a path
/// less shown.
const TALLY_PART: u64 = 16;
const TALLY_MAX: u64 = 480;
/// A listing is tallied when its budget is less than this part (1/n) of it: of a smaller one,
/// the first lines show much of what an agent looks for.
const TALLY_AFTER: u64 = 8;

/// Watches an output for the shape of a listing, keeping its groups within bounds set by the
/// budget: at most one group per sixteen characters of it (each shown group takes a gap marker
/// at least), and of each group's entries an eighth of it, or more while all stored entries
/// together hold less than twice the budget.
#[derive(Debug)]
pub struct ListingPlanner {
    room: u64,
    groups: Vec<Group>,
    stored: u64,
    listing_lines: u64,
    other_lines: u64,
    /// Whether the first non-blank line read as no listing line (unknown before one is read).
    first_is_other: Option<bool>,
    /// Whether the last non-blank line read so far read as no listing line.
    last_is_other: bool,
    /// The number of the last listing line read so far.
    last_listing: u64,
    /// The rows a search tool summarised, best first.
    rows: Rows,
    /// More groups than any map could show: none are kept.
    too_many_groups: bool,
    /// Every path, by directory, while no line is a heading.
    tally: Tally,
    /// Not a listing: the planner has stopped.
    declined: bool,
}

impl WholeLines for ListingPlanner {
    fn declined(&self) -> bool {
        self.declined
    }

    fn decline(&mut self) {
        self.declined = true;
    }

    fn line(&mut self, no: u64, text: &str) {
        if no == gapped::JUDGE_AFTER && !self.reads_as_listing() {
            self.declined = true;
            return;
        }
        let kind = line::kind(text);
        match kind {
            Kind::Heading(_) | Kind::Entry(_) | Kind::Counted(..) => {
                self.listing_lines += 1;
                self.last_listing = no;
            }
            Kind::Other => self.other_lines += 1,
            Kind::Blank => {}
        }
        if kind != Kind::Blank {
            let other = kind == Kind::Other;
            self.first_is_other.get_or_insert(other);
            self.last_is_other = other;
        }
        if no < gapped::JUDGE_AFTER && self.cannot_read_as_listing() {
            self.declined = true;
            return;
        }
        let row = match kind {
            Kind::Counted(dir, matches) => Some((dir, matches)),
            _ => None,
        };
        // Summarised rows, the lines among them, and a header line before the first path.
        let header = self.listing_lines == 0 && self.other_lines <= 1;
        if row.is_some() || self.rows.count > 0 || header {
            self.rows.line(no, text, row);
        }
        if !self.too_many_groups {
            self.group(no, text, kind);
        }
        if matches!(kind, Kind::Heading(_)) {
            self.tally.stop();
        }
        if let Some(dir) = tally_dir(kind) {
            self.tally.add(dir);
        }
    }
}

/// The directory a tally counts a line of kind `kind` in: a path's own.
fn tally_dir(kind: Kind<'_>) -> Option<&str> {
    match kind {
        Kind::Entry(dir) => Some(dir),
        Kind::Heading(_) | Kind::Counted(..) | Kind::Blank | Kind::Other => None,
    }
}

impl ListingPlanner {
    /// Whether the lines read so far read as a listing: nine in ten of them, besides a first
    /// and a last line that may be the tool's own header and footer.
    fn reads_as_listing(&self) -> bool {
        let framing = u64::from(self.first_is_other == Some(true)) + u64::from(self.last_is_other);
        self.other_lines.saturating_sub(framing) * 10 <= self.listing_lines
    }

    /// Whether the first [`gapped::JUDGE_AFTER`] lines cannot read as a listing, whatever the
    /// lines of them still to come, nor a shorter output: its other lines, less the two that
    /// may be framing, are already more than a tenth of what they leave for listing lines.
    fn cannot_read_as_listing(&self) -> bool {
        let room = gapped::JUDGE_AFTER.saturating_sub(self.other_lines);
        self.other_lines.saturating_sub(2) * 10 > room
    }

    /// The lines after the last path, where they fit in `room` characters (else none).
    fn footer<'w>(&self, context: &'w Context<'_>, room: u64) -> &'w str {
        if !self.last_is_other {
            return "";
        }
        let lines = context.totals.lines.saturating_sub(self.last_listing);
        let tail = gapped::tail_lines(context.window.last_chars(), room);
        let Some(extra) = (tail.lines().count() as u64).checked_sub(lines) else {
            return "";
        };
        let start = tail
            .split_inclusive('\n')
            .take(usize::try_from(extra).unwrap_or(usize::MAX))
            .map(str::len)
            .sum();
        &tail[start..]
    }

    /// Puts line `no` in its directory's group.
    fn group(&mut self, no: u64, text: &str, kind: Kind<'_>) {
        let opens = match kind {
            Kind::Heading(dir) => Some((Some(dir), true)),
            Kind::Entry(dir) | Kind::Counted(dir, _) => {
                let current = self.groups.last();
                let same =
                    current.is_some_and(|g| g.heading.is_some() || g.key.as_deref() == Some(dir));
                (!same).then_some((Some(dir), false))
            }
            // Lines before the first path (a tool's own header) are a group of no directory.
            Kind::Blank | Kind::Other => self.groups.is_empty().then_some((None, false)),
        };
        if let Some((key, heading)) = opens {
            if self.groups.len() as u64 >= self.room / 16 {
                self.too_many_groups = true;
                self.groups = Vec::new();
                return;
            }
            self.groups.push(Group::new(
                key,
                heading.then_some(text),
                no + u64::from(heading),
            ));
            if heading {
                self.stored += char_count(text);
                return;
            }
        }
        let Some(group) = self.groups.last_mut() else {
            return;
        };
        group.count += 1;
        let chars = char_count(text);
        // Entries are shown first to last, so once one is not stored none after it is. Each
        // group may store an eighth of the room, so that late directories are not crowded out
        // by early ones; past that, all groups together twice the room.
        let own = group.stored + chars <= self.room / 8;
        if group.entries.len() as u64 + 1 == group.count
            && (own || self.stored + chars <= self.room * 2)
        {
            self.stored += chars;
            group.stored += chars;
            group.entries.push(text.to_owned());
        } else {
            group.keep_last(text);
        }
    }
}

/// The listing's first `count` lines, `head`, its last lines, `tail`, and one gap between,
/// whose marker says `label` (empty, or `": ..."`) on a line of its own.
fn head_and_tail(
    frame: &Frame<'_>,
    head: &str,
    count: u64,
    tail: &str,
    label: &str,
) -> Option<Plan> {
    let total = frame.context.totals.lines;
    let tail_count = tail.lines().count() as u64;
    (count > 0 && count + tail_count < total).then_some(())?;
    let mut pieces = vec![(1, count, head.strip_suffix('\n').unwrap_or(head))];
    if tail_count > 0 {
        pieces.push((
            total + 1 - tail_count,
            total,
            tail.strip_suffix('\n').unwrap_or(tail),
        ));
    }
    let (omitted, segments) = gapped::layout(&pieces, total);
    let labels = vec![label.to_owned(); omitted.len()];
    frame.plan_labelled(omitted, segments, &labels)
}

/// The plan that shows `lines` (numbers and text, in order) and omits the rest.
fn show<'a>(frame: &Frame<'_>, lines: impl IntoIterator<Item = (u64, &'a str)>) -> Option<Plan> {
    let (omitted, segments) = laid_out(frame, lines);
    frame.plan(omitted, segments)
}

/// [`show`] where the plan fits the frame's budget.
fn show_if_fits<'a>(
    frame: &Frame<'_>,
    lines: impl IntoIterator<Item = (u64, &'a str)>,
) -> Option<Plan> {
    let (omitted, segments) = laid_out(frame, lines);
    frame.plan_if_fits(omitted, segments)
}

fn laid_out<'a>(
    frame: &Frame<'_>,
    lines: impl IntoIterator<Item = (u64, &'a str)>,
) -> (Vec<LineRange>, Vec<String>) {
    let pieces: Vec<(u64, u64, &str)> =
        lines.into_iter().map(|(no, text)| (no, no, text)).collect();
    gapped::layout(&pieces, frame.context.totals.lines)
}

impl Sink for ListingPlanner {
    type Lookahead = ();
    fn lookahead(&self) {}

    fn block(&mut self, block: &Block<'_>, (): ()) {
        gapped::feed(self, block);
    }
}

impl Planner for ListingPlanner {
    fn new(room: u64) -> Self {
        ListingPlanner {
            room,
            groups: Vec::new(),
            stored: 0,
            listing_lines: 0,
            other_lines: 0,
            first_is_other: None,
            last_is_other: false,
            last_listing: 0,
            rows: Rows::new(room),
            too_many_groups: false,
            tally: Tally::default(),
            declined: false,
        }
    }

    fn plan(mut self, context: &Context<'_>) -> Option<Plan> {
        let budget = self.room;
        if self.declined
            || budget < MIN_BUDGET
            || self.listing_lines < MIN_LINES
            || !self.reads_as_listing()
        {
            return None;
        }
        let frame = Frame::new(context, budget, Shape::Listing);
        // Rows a search tool summarised are shown by rank, not as a map.
        if self.rows.count * 2 > self.listing_lines {
            return self.rows.plan(&frame);
        }
        map::judge_noise(&mut self.groups);
        let room = budget.checked_sub(frame.closing_len + frame.gap_len)?;
        let tail = self.footer(context, room / FOOTER_PART);
        let head = gapped::head_lines(&context.window.head, room - char_count(tail));
        let head_count = memchr::memchr_iter(b'\n', head.as_bytes()).count() as u64;
        if !self.too_many_groups {
            // A map that names fewer paths than the listing's own first lines would hides
            // names that fit: the first lines are shown instead.
            for noise in [map::Noise::Quarter, map::Noise::Headings] {
                if let Some(plan) = self.map(&frame, noise, head_count, tail) {
                    return Some(plan);
                }
            }
        }
        self.tallied(context)
            .or_else(|| head_and_tail(&frame, head, head_count, tail, ""))
    }
}

impl ListingPlanner {
    /// The listing's first lines, and on the marker of the gap after them the tally of the
    /// paths it holds by directory, in at most [`TALLY_PART`] of the budget; `None` where the
    /// tally says nothing (the paths left out are in one directory) or does not fit.
    fn tallied(&mut self, context: &Context<'_>) -> Option<Plan> {
        if context.totals.chars < TALLY_AFTER * self.room {
            return None;
        }
        let frame = Frame::new(context, self.room, Shape::Listing);
        let tally_room = (self.room / TALLY_PART).min(TALLY_MAX);
        let room = frame
            .budget
            .checked_sub(frame.closing_len + frame.gap_len + tally_room)?;
        let tail = self.footer(context, room / FOOTER_PART);
        let head = gapped::head_lines(&context.window.head, room - char_count(tail));
        let head_count = memchr::memchr_iter(b'\n', head.as_bytes()).count() as u64;
        for line in head.lines() {
            if let Some(dir) = tally_dir(line::kind(line)) {
                self.tally.remove(dir);
            }
        }
        let gap = LineRange {
            first: head_count + 1,
            last: context.totals.lines - tail.lines().count() as u64,
        };
        let bare = char_count(&labelled_gap(gap, "")) + 1;
        let label = self.tally.label(tally_room.checked_sub(bare)?)?;
        head_and_tail(&frame, head, head_count, tail, &label)
    }

    /// The plan of a map that names at least as many paths as the listing's first
    /// `head_count` lines, made in the room the `footer` leaves and shown with it where it
    /// fits (without it otherwise); `None` when no map names as many.
    fn map(
        &self,
        frame: &Frame<'_>,
        noise: map::Noise,
        head_count: u64,
        footer: &str,
    ) -> Option<Plan> {
        let context = frame.context;
        let reserve = if footer.is_empty() {
            0
        } else {
            char_count(footer) + frame.gap_len
        };
        let inner = Frame::new(context, frame.budget.checked_sub(reserve)?, Shape::Listing);
        let made = |frame: &Frame<'_>| {
            map::plan(frame, &self.groups, noise)
                .filter(|shares| map::names_as_many(&self.groups, shares, head_count, noise))
        };
        if let Some(shares) = made(&inner).filter(|_| reserve > 0) {
            let mapped = map::shown_lines(&self.groups, &shares);
            let first = context.totals.lines + 1 - footer.lines().count() as u64;
            let mut lines = mapped.clone();
            // Not `lines`, which would drop a line's closing '\r'.
            for (no, text) in (first..).zip(footer.split_terminator('\n')) {
                if mapped.iter().all(|&(shown, _)| shown != no) {
                    lines.push((no, text));
                }
            }
            lines.sort_by_key(|&(no, _)| no);
            // The map fits the inner frame's budget with its markers; the outer frame's may be
            // wordier, so without the footer it is shown in the inner frame.
            return show_if_fits(frame, lines).or_else(|| show(&inner, mapped));
        }
        made(frame).and_then(|shares| show(frame, map::shown_lines(&self.groups, &shares)))
    }
}

#[cfg(test)]
mod tests;
