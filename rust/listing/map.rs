//! The map of a listing: its directories' groups, each with its heading and a share of its
//! first entries.
//!
//! Half the budget is spread evenly: every group shows the same number of its first entries,
//! the largest that fits, and the noise (see [`super::line::is_noise`]) a quarter of it. The
//! rest goes to shallow directories before deep ones, the noise last. When not even one entry
//! of every group fits, the noise shows its headings alone, so that the project's own
//! directories still get their share and the tree keeps its shape.

use std::collections::VecDeque;

use super::line::is_noise;
use crate::gapped::Frame;
use crate::text::char_count;

/// Percent of the budget spread evenly over the groups; the rest goes to them in order.
const SPREAD_PERCENT: u64 = 50;
/// Characters of its last entries a group keeps beyond its stored ones: more than the longest
/// gap marker (`[lines 12345678901-12345678902 omitted]`) takes.
const LAST_ROOM: u64 = 48;

/// A directory's part of the listing: an optional heading line, then entry lines, in order.
#[derive(Debug)]
pub(super) struct Group {
    /// The directory, `None` for lines before the listing's first path (a tool's header).
    pub(super) key: Option<String>,
    /// The heading's text, on the group's first line.
    pub(super) heading: Option<String>,
    /// The number of the first line after the heading.
    pub(super) first: u64,
    /// The text of the first entries, as many as the store's bound allowed.
    pub(super) entries: Vec<String>,
    /// The last entries not in `entries`, while they take at most [`LAST_ROOM`] characters:
    /// where no more than these are hidden, they may take no more than their gap's marker.
    pub(super) last: VecDeque<String>,
    /// Characters of `last`, a newline for each entry included.
    pub(super) last_chars: u64,
    /// Every entry line, stored or not.
    pub(super) count: u64,
    /// Characters of `entries`.
    pub(super) stored: u64,
    /// Set at planning time, when the directory all groups share is known.
    pub(super) noise: bool,
}

/// How many of its first entries a group shows, under its heading.
pub(super) type Share = usize;

/// How much of the noise a map shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Noise {
    /// A quarter of the entries each other group shows, and at least one.
    Quarter,
    /// Headings alone: every entry folded.
    Headings,
}

impl Group {
    /// The group of directory `key` (`None`: lines before the first path), under `heading`
    /// if it has one, its entries from line `first`.
    pub(super) fn new(key: Option<&str>, heading: Option<&str>, first: u64) -> Self {
        Group {
            key: key.map(str::to_owned),
            heading: heading.map(str::to_owned),
            first,
            entries: Vec::new(),
            last: VecDeque::new(),
            last_chars: 0,
            count: 0,
            stored: 0,
            noise: false,
        }
    }

    /// The share of this group when each group may show `each` entries and the noise what
    /// `noise` says.
    fn share(&self, each: u64, noise: Noise) -> Share {
        let allowed = match (self.noise, noise) {
            (false, _) => each,
            (true, Noise::Quarter) => each.div_ceil(4),
            (true, Noise::Headings) => 0,
        };
        usize::try_from(allowed).map_or(self.entries.len(), |a| a.min(self.entries.len()))
    }

    /// Keeps `text`, an entry not stored, among the group's last ones.
    pub(super) fn keep_last(&mut self, text: &str) {
        self.last_chars += char_count(text) + 1;
        self.last.push_back(text.to_owned());
        while self.last_chars > LAST_ROOM {
            let Some(first) = self.last.pop_front() else {
                break;
            };
            self.last_chars -= char_count(&first) + 1;
        }
    }

    /// Entry `k` (from 0), where it is stored or among the last ones kept.
    fn entry(&self, k: usize) -> Option<&str> {
        if let Some(entry) = self.entries.get(k) {
            return Some(entry);
        }
        let count = usize::try_from(self.count).ok()?;
        let first_last = count.checked_sub(self.last.len())?;
        self.last
            .get(k.checked_sub(first_last)?)
            .map(String::as_str)
    }

    /// The lines (heading and entries) of this group that `share` shows.
    fn named(&self, share: Share) -> u64 {
        share as u64 + u64::from(self.heading.is_some())
    }

    /// Whether the group's first line is shown when it shows `share`.
    fn starts_shown(&self, share: Share) -> bool {
        self.heading.is_some() || share > 0
    }

    /// Whether the group's last line is shown when it shows `share`.
    fn ends_shown(&self, share: Share) -> bool {
        share as u64 == self.count
    }

    /// The lines of this group among the listing's first `head` lines.
    fn in_head(&self, head: u64) -> u64 {
        let start = self.first - u64::from(self.heading.is_some());
        let end = self.first + self.count;
        end.min(head + 1).saturating_sub(start)
    }
}

/// Notes that the noise of `groups` is what lies below the directory they all share: that
/// one was asked for (`ls -R src/test` is all tests, and none of it noise).
pub(super) fn judge_noise(groups: &mut [Group]) {
    let shared = super::line::shared_dir(groups.iter().filter_map(|g| g.key.as_deref()));
    let below = |g: &Group| g.key.as_ref().is_some_and(|key| is_noise(&key[shared..]));
    // Nine entries in ten in the noise: the listing was asked for them (`find -name '*Test*'`).
    let noise: u64 = groups.iter().filter(|g| below(g)).map(|g| g.count).sum();
    let all: u64 = groups.iter().map(|g| g.count).sum();
    let asked = noise * 10 >= all * 9;
    for group in groups {
        group.noise = !asked && below(group);
    }
}

/// The characters a plan takes that shows `shares` of `groups`; gaps side by side are one.
fn cost(frame: &Frame<'_>, groups: &[Group], shares: &[Share]) -> u64 {
    let mut cost = frame.closing_len;
    let mut in_gap = false;
    let gap = |cost: &mut u64, in_gap: &mut bool| {
        if !*in_gap {
            *cost += frame.gap_len;
            *in_gap = true;
        }
    };
    for (group, &shown) in groups.iter().zip(shares) {
        if let Some(heading) = &group.heading {
            cost += char_count(heading) + 1;
            in_gap = false;
        }
        if shown > 0 {
            cost += group.entries[..shown]
                .iter()
                .map(|e| char_count(e) + 1)
                .sum::<u64>();
            in_gap = false;
        }
        if (shown as u64) < group.count {
            gap(&mut cost, &mut in_gap);
        }
    }
    cost
}

/// How showing some hidden lines changes the number of gaps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Markers {
    /// They were a whole gap: one marker fewer.
    Fewer,
    /// They were the start or the end of a gap: as many.
    Same,
    /// They were inside a gap, which is now two: one marker more.
    More,
}

impl Markers {
    fn closed(self) -> u64 {
        u64::from(self == Markers::Fewer)
    }

    fn opened(self) -> u64 {
        u64::from(self == Markers::More)
    }
}

/// How showing entries `from..to` of group `i` (hidden, `shares[i]` being `from`) changes the
/// gaps: the start and the end of the input count as shown lines.
fn gap_change(groups: &[Group], shares: &[Share], i: usize, from: usize, to: usize) -> Markers {
    let group = &groups[i];
    let before = from > 0
        || group.heading.is_some()
        || i.checked_sub(1)
            .is_none_or(|p| groups[p].ends_shown(shares[p]));
    let after = (to as u64) >= group.count
        && groups
            .get(i + 1)
            .is_none_or(|next| next.starts_shown(shares[i + 1]));
    match (before, after) {
        (true, true) => Markers::Fewer,
        (false, false) => Markers::More,
        _ => Markers::Same,
    }
}

/// The characters a plan takes when each group shows `each` of its first entries.
fn cost_each(frame: &Frame<'_>, groups: &[Group], each: u64, noise: Noise) -> u64 {
    let shares: Vec<Share> = groups.iter().map(|g| g.share(each, noise)).collect();
    cost(frame, groups, &shares)
}

/// A map of `groups` within the frame's budget, showing of the noise what `noise` says;
/// `None` when not one entry of every group outside the noise fits.
pub(super) fn plan(frame: &Frame<'_>, groups: &[Group], noise: Noise) -> Option<Vec<Share>> {
    let budget = frame.budget;
    if cost_each(frame, groups, 1, noise) > budget {
        return None;
    }
    let spread = budget * SPREAD_PERCENT / 100;
    let most = groups.iter().map(|g| g.count).max().unwrap_or(0);
    let (mut fits, mut over) = (1, most + 1);
    while over - fits > 1 {
        let mid = fits + (over - fits) / 2;
        if cost_each(frame, groups, mid, noise) <= spread {
            fits = mid;
        } else {
            over = mid;
        }
    }
    let mut shares: Vec<Share> = groups.iter().map(|g| g.share(fits, noise)).collect();
    let mut left = budget - cost(frame, groups, &shares);
    // Shallow directories first (the structure), then deeper ones; the noise last.
    let mut order: Vec<usize> = (0..groups.len()).collect();
    let depth = |g: &Group| g.key.as_ref().map_or(0, |key| key.matches('/').count());
    order.sort_by_key(|&i| (groups[i].noise, depth(&groups[i]), i));
    for i in order {
        let group = &groups[i];
        let mut shown = shares[i];
        while let Some(entry) = group.entries.get(shown) {
            // Showing a hidden line closes its gap, shortens it, or splits it in two.
            let markers = gap_change(groups, &shares, i, shown, shown + 1);
            let cost = char_count(entry) + 1;
            let Some(rest) = (left + markers.closed() * frame.gap_len)
                .checked_sub(cost + markers.opened() * frame.gap_len)
            else {
                break;
            };
            left = rest;
            shown += 1;
            shares[i] = shown;
        }
    }
    // A group's hidden entries that take no more than the marker standing for them are shown
    // where that closes the gap: that costs no more, and hides nothing.
    for i in 0..groups.len() {
        let (group, shown) = (&groups[i], shares[i]);
        let Ok(count) = usize::try_from(group.count) else {
            continue;
        };
        let chars: Option<u64> = (shown..count)
            .map(|k| group.entry(k).map(|e| char_count(e) + 1))
            .sum();
        if shown < count
            && chars.is_some_and(|chars| chars <= frame.gap_len)
            && gap_change(groups, &shares, i, shown, count) == Markers::Fewer
        {
            shares[i] = count;
        }
    }
    Some(shares)
}

/// Whether a map showing `shares` (and of the noise what `noise` says) names at least as many
/// paths as the listing's first `head` lines; where the noise shows its headings alone, a path
/// in it counts a quarter.
pub(super) fn names_as_many(groups: &[Group], shares: &[Share], head: u64, noise: Noise) -> bool {
    let weight = |g: &Group| {
        if g.noise && noise == Noise::Headings {
            1
        } else {
            4
        }
    };
    let named: u64 = groups
        .iter()
        .zip(shares)
        .map(|(g, &s)| g.named(s) * weight(g))
        .sum();
    let in_head: u64 = groups.iter().map(|g| g.in_head(head) * weight(g)).sum();
    named > 0 && named >= in_head
}

/// The lines `shares` of `groups` show, with their numbers, in order.
pub(super) fn shown_lines<'g>(groups: &'g [Group], shares: &[Share]) -> Vec<(u64, &'g str)> {
    let mut lines = Vec::new();
    for (group, &shown) in groups.iter().zip(shares) {
        if let Some(heading) = &group.heading {
            lines.push((group.first - 1, heading.as_str()));
        }
        lines.extend(
            (0..shown)
                .filter_map(|k| group.entry(k))
                .zip(group.first..)
                .map(|(e, no)| (no, e)),
        );
    }
    lines
}
