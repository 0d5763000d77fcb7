//! The listing planner: `find`, `ls -R`, `tree`, `git ls-files` and other lists of paths keep
//! every directory, and as many of each directory's entries as the budget allows.
//!
//! An agent lists files to find the one to open. A head cut of a listing keeps the first
//! directories whole and loses every later one, a tail cut the reverse; either hides most of
//! the tree. This planner reads a listing as groups (an `ls -R` heading and its entries, or a
//! run of paths in one directory, see [`line`]), keeps every heading, and gives every group
//! the same number of its first entries, the largest number that fits; directories an agent
//! rarely opens first (tests, fixtures, vendored code, build outputs, caches, version control,
//! see [`line::is_noise`]) get a quarter of it, unless most of the listing is such (it was
//! asked for them). A map that would name fewer paths than the listing's first lines is not
//! made: those lines are shown, and the rest is one gap. What a group does not show is one exact gap,
//! and the closing marker counts them all ([`crate::gapped`]). An output is a listing only when
//! nine lines in ten read as one.

mod line;

use crate::gapped::{self, Frame, WholeLines};
use crate::plan::{LineRange, Plan, Shape};
use crate::planner::{Context, Planner};
use crate::sink::{Block, Sink};
use crate::text::char_count;
use line::Kind;

/// Non-blank lines a listing must have before the planner believes it.
const MIN_LINES: u64 = 20;
/// Percent of the budget spread evenly over the groups; the rest goes to them in order.
const SPREAD_PERCENT: u64 = 50;
/// Below this budget a listing is clipped.
const MIN_BUDGET: u64 = 400;

/// A directory's part of the listing: an optional heading line, then entry lines, in order.
#[derive(Debug)]
struct Group {
    key: String,
    /// The heading's text, on the group's first line.
    heading: Option<String>,
    /// The number of the first line after the heading.
    first: u64,
    /// The text of the first entries, as many as the store's bound allowed.
    entries: Vec<String>,
    /// Every entry line, stored or not.
    count: u64,
    /// Characters of `entries`.
    stored: u64,
    noise: bool,
}

impl Group {
    /// How many entries this group shows when each group may show `each`.
    fn shown(&self, each: u64) -> usize {
        let allowed = if self.noise { each.div_ceil(4) } else { each };
        usize::try_from(allowed).map_or(self.entries.len(), |a| a.min(self.entries.len()))
    }
}

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
    /// Not a listing, or more groups than any plan could show: the planner has stopped.
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
        if no == gapped::JUDGE_AFTER && self.other_lines * 10 > self.listing_lines {
            self.declined = true;
            return;
        }
        let kind = line::kind(text);
        match kind {
            Kind::Heading(_) | Kind::Entry(_) => self.listing_lines += 1,
            Kind::Other => self.other_lines += 1,
            Kind::Blank => {}
        }
        let opens = match kind {
            Kind::Heading(dir) => Some((dir, true)),
            Kind::Entry(dir) => {
                let current = self.groups.last();
                let same = current.is_some_and(|g| g.heading.is_some() || g.key == dir);
                (!same).then_some((dir, false))
            }
            Kind::Blank | Kind::Other => self.groups.is_empty().then_some(("", false)),
        };
        if let Some((key, heading)) = opens {
            if self.groups.len() as u64 >= self.room / 16 {
                self.declined = true;
                return;
            }
            self.groups.push(Group {
                key: key.to_owned(),
                heading: heading.then(|| text.to_owned()),
                first: no + u64::from(heading),
                entries: Vec::new(),
                count: 0,
                stored: 0,
                noise: line::is_noise(key),
            });
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
        }
    }
}

impl ListingPlanner {
    /// The characters a plan takes when each group shows `each` of its first entries.
    fn cost(&self, frame: &Frame<'_>, each: u64) -> u64 {
        let shown: Vec<usize> = self.groups.iter().map(|g| g.shown(each)).collect();
        self.cost_of(frame, &shown)
    }

    /// The characters a plan takes when group `i` shows `shown[i]` of its first entries.
    fn cost_of(&self, frame: &Frame<'_>, shown: &[usize]) -> u64 {
        let mut cost = frame.closing_len;
        for (group, &shown) in self.groups.iter().zip(shown) {
            if let Some(heading) = &group.heading {
                cost += char_count(heading) + 1;
            }
            cost += group.entries[..shown]
                .iter()
                .map(|e| char_count(e) + 1)
                .sum::<u64>();
            if (shown as u64) < group.count {
                cost += frame.gap_len;
            }
        }
        cost
    }
}

/// The listing's first `count` lines, `head`, and one gap for the rest.
fn plain_head(frame: &Frame<'_>, head: &str, count: u64) -> Option<Plan> {
    let total = frame.context.totals.lines;
    (count > 0 && count < total).then_some(())?;
    let omitted = vec![LineRange {
        first: count + 1,
        last: total,
    }];
    frame.plan(omitted, vec![head.to_owned(), String::new()])
}

impl ListingPlanner {
    /// How many of its first entries each group shows: the same share for every group, the
    /// largest whose plan takes at most [`SPREAD_PERCENT`] of the budget (at least one entry
    /// each), then what is left, to shallow directories before deep ones, the noise last.
    fn shares(&self, frame: &Frame<'_>, budget: u64) -> Vec<usize> {
        let spread = budget * SPREAD_PERCENT / 100;
        let most = self.groups.iter().map(|g| g.count).max().unwrap_or(0);
        let (mut fits, mut over) = (1, most + 1);
        while over - fits > 1 {
            let mid = fits + (over - fits) / 2;
            if self.cost(frame, mid) <= spread {
                fits = mid;
            } else {
                over = mid;
            }
        }
        let mut shown: Vec<usize> = self.groups.iter().map(|g| g.shown(fits)).collect();
        let mut left = budget - self.cost_of(frame, &shown);
        // Shallow directories first (the structure), then deeper ones; the noise last.
        let mut order: Vec<usize> = (0..self.groups.len()).collect();
        order.sort_by_key(|&i| {
            (
                self.groups[i].noise,
                self.groups[i].key.matches('/').count(),
                i,
            )
        });
        for i in order {
            let (group, shown) = (&self.groups[i], &mut shown[i]);
            {
                while let Some(entry) = group.entries.get(*shown) {
                    // The last entry of a group closes its gap: the marker's room comes back.
                    let back = if *shown as u64 + 1 == group.count {
                        frame.gap_len
                    } else {
                        0
                    };
                    let cost = char_count(entry) + 1;
                    if cost > left + back {
                        break;
                    }
                    left = left + back - cost;
                    *shown += 1;
                }
            }
        }
        // A group whose hidden entries take no more than the marker that would stand for them
        // shows them instead: that costs no more, and hides nothing.
        for (group, shown) in self.groups.iter().zip(&mut shown) {
            let hidden = &group.entries[*shown..];
            let chars: u64 = hidden.iter().map(|e| char_count(e) + 1).sum();
            if (*shown as u64) < group.count
                && group.entries.len() as u64 == group.count
                && chars <= frame.gap_len
            {
                *shown = group.entries.len();
            }
        }
        shown
    }
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
            declined: false,
        }
    }

    fn plan(mut self, context: &Context<'_>) -> Option<Plan> {
        let budget = self.room;
        if self.declined
            || budget < MIN_BUDGET
            || self.listing_lines < MIN_LINES
            || self.other_lines * 10 > self.listing_lines
        {
            return None;
        }
        // A listing mostly of tests (`ls -R src/test`) was asked for them: none is noise there.
        if self.groups.iter().filter(|g| g.noise).count() * 2 > self.groups.len() {
            self.groups.iter_mut().for_each(|g| g.noise = false);
        }
        let frame = Frame::new(context, budget, Shape::Listing);
        let head = gapped::head_lines(&context.window.head, budget.checked_sub(frame.closing_len)?);
        let head_count = memchr::memchr_iter(b'\n', head.as_bytes()).count() as u64;
        if self.cost(&frame, 1) > budget {
            return plain_head(&frame, head, head_count);
        }
        let shown = self.shares(&frame, budget);
        // A map that names fewer paths than the listing's own first lines would hides names
        // that fit: the first lines are shown instead.
        let named: u64 = self
            .groups
            .iter()
            .zip(&shown)
            .map(|(g, &s)| s as u64 + u64::from(g.heading.is_some()))
            .sum();
        if named < head_count {
            return plain_head(&frame, head, head_count);
        }
        let mut omitted: Vec<LineRange> = Vec::new();
        let mut segments = vec![String::new()];
        for (group, &shown) in self.groups.iter().zip(&shown) {
            let segment = segments.last_mut()?;
            if let Some(heading) = &group.heading {
                segment.push_str(heading);
                segment.push('\n');
            }
            for entry in &group.entries[..shown] {
                segment.push_str(entry);
                segment.push('\n');
            }
            if (shown as u64) < group.count {
                let gap = LineRange {
                    first: group.first + shown as u64,
                    last: group.first + group.count - 1,
                };
                match omitted.last_mut() {
                    // Nothing shown since the last gap: one gap, not two side by side.
                    Some(last) if segment.is_empty() && last.last + 1 == gap.first => {
                        last.last = gap.last;
                    }
                    _ => {
                        omitted.push(gap);
                        segments.push(String::new());
                    }
                }
            }
        }
        frame.plan(omitted, segments)
    }
}

#[cfg(test)]
mod tests;
