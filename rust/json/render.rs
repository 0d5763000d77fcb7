//! The summary of a JSON input that does not fit whole, even minified or as a table: the note,
//! the document rendered from its sketch, then the key paths with their counts.
//!
//! The document is written minified, but each record array (see [`super::sketch`]) has one
//! record on a line, and a line `…N items [a-b], lines A-B` where records are left out. Every
//! value is as written in the input; a string cut short ends in `…+N chars`, an array or object
//! shown in part in `…+N items` or `…+N keys`, one too deep in `[…N items]`, and each count is
//! exact. The render tries detail levels from rich to poor (string lengths, items and members
//! shown, depth): at the richest where the first and last record of every record array and
//! every record that stands out fit, records are added, those that stand out first and then
//! the nearest to either end, each while what it adds (its line, and the change in the lines
//! of the runs left out around it) still fits.

use super::marker::{self, Form};
use super::paths::PathTable;
use super::sketch::{Item, Items, Node, rarity};
use crate::markers::plural;
use crate::plan::{LineRange, Piece, Plan, Shape};
use crate::planner::Context;
use crate::text::cut::cut_before;
use crate::text::{byte_at_char, char_count};

/// How much of each value a render shows.
#[derive(Debug, Clone, Copy)]
struct Detail {
    /// Characters of a string, as written.
    string: u64,
    /// Items of an array inside a record.
    items: usize,
    /// Members of an object.
    members: usize,
    /// Containers nested in a record before one is shown only by its count.
    depth: usize,
}

const LEVELS: [Detail; 6] = [
    Detail {
        string: 200,
        items: 8,
        members: 64,
        depth: 64,
    },
    Detail {
        string: 100,
        items: 5,
        members: 24,
        depth: 8,
    },
    Detail {
        string: 60,
        items: 3,
        members: 12,
        depth: 5,
    },
    Detail {
        string: 32,
        items: 2,
        members: 8,
        depth: 4,
    },
    Detail {
        string: 16,
        items: 1,
        members: 4,
        depth: 3,
    },
    Detail {
        string: 8,
        items: 0,
        members: 2,
        depth: 2,
    },
];

/// A string shown whole when it is at most this much longer than the level allows: its cut
/// would say no less.
const STRING_SLACK: u64 = 12;

/// What a summary is rendered from: a document, or the documents of JSON Lines.
#[derive(Debug, Clone, Copy)]
pub enum Root<'a> {
    Doc(&'a Node),
    Stream(&'a Items),
}

/// Rendered pieces and their length.
#[derive(Debug, Default)]
struct Out {
    pieces: Vec<Piece>,
    chars: u64,
}

impl Out {
    fn kept(&mut self, text: &str) {
        self.chars += char_count(text);
        match self.pieces.last_mut() {
            Some(Piece::Kept(last)) => last.push_str(text),
            _ => self.pieces.push(Piece::Kept(text.to_owned())),
        }
    }

    fn marker(&mut self, text: &str) {
        self.chars += char_count(text);
        match self.pieces.last_mut() {
            Some(Piece::Marker(last)) => last.push_str(text),
            _ => self.pieces.push(Piece::Marker(text.to_owned())),
        }
    }
}

/// Which kept records a render shows: for each record array (by id), a flag per kept record.
type Selection = Vec<Vec<bool>>;

/// One render's settings.
struct Render<'s> {
    detail: Detail,
    selection: &'s Selection,
    /// Whether elisions name lines (the input has more than one).
    lines: bool,
}

impl Render<'_> {
    fn root(&self, root: Root<'_>, out: &mut Out) {
        match root {
            Root::Doc(node) => {
                self.node(node, 0, out);
                out.marker("\n");
            }
            // Every document and run left out ends its own line.
            Root::Stream(items) => self.records(items, out),
        }
    }

    fn node(&self, node: &Node, depth: usize, out: &mut Out) {
        match node {
            Node::Atom(text) => out.kept(text),
            Node::Str { head, chars } => self.string(head, *chars, out),
            Node::Items(items) if items.records.is_some() => self.records(items, out),
            Node::Items(items) => self.items(items, depth, out),
        }
    }

    fn string(&self, head: &str, chars: u64, out: &mut Out) {
        let head_chars = char_count(head);
        out.kept("\"");
        if head_chars == chars && chars <= self.detail.string + STRING_SLACK {
            out.kept(head);
        } else {
            let at = byte_at_char(head, self.detail.string.min(head_chars));
            let at = escape_start(head, cut_before(head, at));
            out.kept(&head[..at]);
            let shown = char_count(&head[..at]);
            out.marker(&format!(
                "\u{2026}+{}",
                plural(chars - shown, "char", "chars")
            ));
        }
        out.kept("\"");
    }

    /// An array or object inside a record, or an object of the frame, on the current line.
    fn items(&self, items: &Items, depth: usize, out: &mut Out) {
        let (open, close, one, many) = if items.array {
            ("[", "]", "item", "items")
        } else {
            ("{", "}", "key", "keys")
        };
        out.kept(open);
        if depth >= self.detail.depth && items.total > 0 {
            out.marker(&format!("\u{2026}{}", plural(items.total, one, many)));
            out.kept(close);
            return;
        }
        let limit = if items.array {
            self.detail.items
        } else {
            self.detail.members
        };
        let shown = items.kept.len().min(limit);
        for (i, item) in items.kept[..shown].iter().enumerate() {
            if i > 0 {
                out.kept(",");
            }
            member(item, out);
            self.node(&item.node, depth + 1, out);
        }
        let rest = items.total - shown as u64;
        if rest > 0 {
            if shown > 0 {
                out.kept(",");
            }
            out.marker(&format!("\u{2026}+{}", plural(rest, one, many)));
        }
        out.kept(close);
    }

    /// A record array: the records selected, a line each, and a line for each run left out.
    fn records(&self, items: &Items, out: &mut Out) {
        let Some(facts) = &items.records else {
            return;
        };
        if items.total == 0 {
            out.kept("[]");
            return;
        }
        if !items.stream {
            out.kept("[");
            out.marker("\n");
        }
        let flags = &self.selection[facts.id];
        let mut next = 0;
        let mut from = items.span.0;
        for (item, _) in items.kept.iter().zip(flags).filter(|(_, shown)| **shown) {
            if item.index > next {
                self.elision(
                    next,
                    item.index - 1,
                    (from, item.prev_end),
                    items.stream,
                    out,
                );
            }
            self.node(&item.node, 0, out);
            if item.index + 1 < items.total && !items.stream {
                out.kept(",");
            }
            out.marker("\n");
            next = item.index + 1;
            from = item.next_start;
        }
        if next < items.total {
            self.elision(
                next,
                items.total - 1,
                (from, items.span.1),
                items.stream,
                out,
            );
        }
        if !items.stream {
            out.kept("]");
        }
    }

    fn elision(&self, first: u64, last: u64, lines: (u64, u64), stream: bool, out: &mut Out) {
        let lines = self.lines.then_some(lines);
        out.marker(&marker::elision(first, last, lines, stream));
        out.marker("\n");
    }
}

/// An object member's key, as written, and its colon.
fn member(item: &Item, out: &mut Out) {
    if let Some(key) = &item.key {
        out.kept("\"");
        out.kept(key);
        out.kept("\":");
    }
}

/// The start of the escape sequence that byte `at` of a string's text falls inside, else `at`.
fn escape_start(text: &str, at: usize) -> usize {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < at {
        if bytes[i] == b'\\' {
            let len = if bytes.get(i + 1) == Some(&b'u') {
                6
            } else {
                2
            };
            if i + len > at {
                return i;
            }
            i += len;
        } else {
            i += 1;
        }
    }
    at
}

/// The record arrays a render at `detail` shows in the frame under `node` (at `depth`), and
/// every record array inside their records (see [`nested_arrays`]), in document order.
fn frame_arrays<'a>(
    node: &'a Node,
    detail: Detail,
    depth: usize,
    found: &mut Vec<(&'a Items, bool)>,
) {
    let Node::Items(items) = node else {
        return;
    };
    if items.records.is_some() {
        found.push((items, false));
        for item in &items.kept {
            nested_arrays(&item.node, found);
        }
        return;
    }
    if depth >= detail.depth && items.total > 0 {
        return;
    }
    let limit = if items.array {
        detail.items
    } else {
        detail.members
    };
    for item in items.kept.iter().take(limit) {
        frame_arrays(&item.node, detail, depth + 1, found);
    }
}

/// Every record array under `node`, a record: only the first document of JSON Lines, read
/// before it was known to be one, has them. Such an array shows its first and last records,
/// a fixed part of its record.
fn nested_arrays<'a>(node: &'a Node, found: &mut Vec<(&'a Items, bool)>) {
    if let Node::Items(items) = node {
        if items.records.is_some() {
            found.push((items, true));
        }
        for item in &items.kept {
            nested_arrays(&item.node, found);
        }
    }
}

/// Which records must be shown before any other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Must {
    FirstAndLast,
    First,
    Nothing,
}

/// A record that may be shown: its array, its place among the array's kept records, and
/// whether it stands out.
#[derive(Debug, Clone, Copy)]
struct Choice<'a> {
    array: &'a Items,
    id: usize,
    at: usize,
    differs: bool,
}

/// What a summary is planned from.
pub struct Summary<'a> {
    pub root: Root<'a>,
    pub paths: &'a PathTable,
    /// Record arrays made (their ids are below this).
    pub arrays: usize,
}

impl Summary<'_> {
    /// The record arrays a render at `detail` may choose records of (`false`), and those
    /// whose records are fixed (`true`).
    fn arrays(&self, detail: Detail) -> Vec<(&Items, bool)> {
        let mut found = Vec::new();
        match self.root {
            Root::Doc(node) => frame_arrays(node, detail, 0, &mut found),
            Root::Stream(items) => {
                found.push((items, false));
                for item in &items.kept {
                    nested_arrays(&item.node, &mut found);
                }
            }
        }
        found
    }

    /// Every kept record, those that stand out first (rarest first), then by how near they
    /// are to either end of their array.
    fn choices<'a>(&'a self, arrays: &[(&'a Items, bool)]) -> Vec<Choice<'a>> {
        let mut choices: Vec<(u64, u64, Choice<'a>)> = Vec::new();
        for &(array, nested) in arrays {
            let Some(facts) = array.records.as_ref().filter(|_| !nested) else {
                continue;
            };
            for (at, item) in array.kept.iter().enumerate() {
                let rare = rarity(item, &facts.sigs, self.paths);
                let differs = rare != u64::MAX && rare.saturating_mul(10) <= array.total;
                let near = item.index.min(array.total - 1 - item.index);
                let key = if differs { (0, rare) } else { (1, near) };
                choices.push((
                    key.0,
                    key.1,
                    Choice {
                        array,
                        id: facts.id,
                        at,
                        differs,
                    },
                ));
            }
        }
        // A stable sort keeps document order among equals.
        choices.sort_by_key(|(class, rank, _)| (*class, *rank));
        choices.into_iter().map(|c| c.2).collect()
    }

    fn base(&self, arrays: &[(&Items, bool)], must: Must) -> Selection {
        let mut selection = vec![Vec::new(); self.arrays];
        for &(array, nested) in arrays {
            let Some(facts) = &array.records else {
                continue;
            };
            let must = if nested { Must::FirstAndLast } else { must };
            selection[facts.id] = array
                .kept
                .iter()
                .map(|item| match must {
                    Must::FirstAndLast => item.index == 0 || item.index + 1 == array.total,
                    Must::First => item.index == 0,
                    Must::Nothing => false,
                })
                .collect();
        }
        selection
    }

    fn render(&self, detail: Detail, selection: &Selection, lines: bool) -> Out {
        let mut out = Out::default();
        Render {
            detail,
            selection,
            lines,
        }
        .root(self.root, &mut out);
        out
    }

    /// What showing `choice` adds to a render at `detail` that shows `selection`: its line,
    /// less the line of the run it was in, plus the lines of the runs it splits that into.
    fn added(choice: &Choice<'_>, detail: Detail, selection: &Selection, lines: bool) -> i64 {
        let array = choice.array;
        let flags = &selection[choice.id];
        let item = &array.kept[choice.at];
        let prev = (0..choice.at)
            .rev()
            .find(|&k| flags[k])
            .map(|k| &array.kept[k]);
        let next = (choice.at + 1..array.kept.len())
            .find(|&k| flags[k])
            .map(|k| &array.kept[k]);
        // A run of items `first..end`, on lines `from..=to`.
        let run = |first: u64, end: u64, from: u64, to: u64| -> i64 {
            if first >= end {
                return 0;
            }
            let text = marker::elision(first, end - 1, lines.then_some((from, to)), array.stream);
            i64::try_from(char_count(&text)).unwrap_or(i64::MAX) + 1
        };
        let (start, from) = prev.map_or((0, array.span.0), |p| (p.index + 1, p.next_start));
        let (end, to) = next.map_or((array.total, array.span.1), |n| (n.index, n.prev_end));
        let split = run(start, item.index, from, item.prev_end)
            + run(item.index + 1, end, item.next_start, to);
        let mut out = Out::default();
        Render {
            detail,
            selection,
            lines,
        }
        .node(&item.node, 0, &mut out);
        let comma = u64::from(item.index + 1 < array.total && !array.stream);
        let line = i64::try_from(out.chars + comma + 1).unwrap_or(i64::MAX);
        line + split - run(start, end, from, to)
    }

    /// The document within `budget` characters, showing as much as fits.
    fn document(&self, budget: u64, lines: bool) -> Option<Out> {
        let budget = i64::try_from(budget).unwrap_or(i64::MAX);
        for must in [Must::FirstAndLast, Must::First, Must::Nothing] {
            let mut fitting = None;
            for detail in LEVELS {
                let arrays = self.arrays(detail);
                let base = self.base(&arrays, must);
                let shown = i64::try_from(self.render(detail, &base, lines).chars).ok()?;
                if shown > budget {
                    continue;
                }
                let differing: i64 = self
                    .choices(&arrays)
                    .iter()
                    .filter(|c| c.differs && !base[c.id][c.at])
                    .map(|c| Self::added(c, detail, &base, lines))
                    .sum();
                fitting.get_or_insert((detail, shown));
                if shown + differing <= budget {
                    fitting = Some((detail, shown));
                    break;
                }
            }
            let Some((detail, mut used)) = fitting else {
                continue;
            };
            let arrays = self.arrays(detail);
            let mut selection = self.base(&arrays, must);
            for choice in &self.choices(&arrays) {
                if selection[choice.id][choice.at] {
                    continue;
                }
                let added = Self::added(choice, detail, &selection, lines);
                if used + added <= budget {
                    selection[choice.id][choice.at] = true;
                    used += added;
                }
            }
            let out = self.render(detail, &selection, lines);
            debug_assert_eq!(i64::try_from(out.chars).ok(), Some(used), "exact additions");
            return Some(out);
        }
        None
    }

    /// The summary plan within `budget` characters, `None` when not even its note and the
    /// barest document fit.
    pub fn plan(&self, context: &Context<'_>, budget: u64) -> Option<Plan> {
        let totals = context.totals;
        let note = super::note(Form::Summary, budget, &totals, context.profile)?;
        let avail = budget - char_count(&note) - 1;
        let lines = totals.lines > 1;
        let all_paths = self.paths.section(u64::MAX).map_or(0, |s| char_count(&s));
        // A document that leaves no room for the section's title and its count of paths not
        // shown would drop the key paths without a word; a smaller one comes first.
        let least = self.paths.least_section_len();
        let doc = self
            .document(avail - all_paths.min(avail / 2), lines)
            .or_else(|| self.document(avail.saturating_sub(least), lines))
            .or_else(|| self.document(avail, lines))?;
        let section = self.paths.section(avail - doc.chars).unwrap_or_default();
        let kept: u64 = doc
            .pieces
            .iter()
            .filter(|p| matches!(p, Piece::Kept(_)))
            .map(|p| char_count(p.text()))
            .sum();
        let mut pieces = vec![Piece::Marker(format!("{note}\n"))];
        pieces.extend(doc.pieces);
        if !section.is_empty() {
            pieces.push(Piece::Marker(section));
        }
        let plan = Plan {
            shape: Shape::Json,
            pieces,
            omitted: vec![LineRange {
                first: 1,
                last: totals.lines,
            }],
            omitted_chars: totals.chars.saturating_sub(kept),
        };
        debug_assert!(plan.fits(budget), "planned within the budget");
        Some(plan)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_never_splits_an_escape() {
        let text = r"ab\u00e9\ncd";
        assert_eq!(escape_start(text, 4), 2);
        assert_eq!(escape_start(text, 8), 8);
        assert_eq!(escape_start(text, 9), 8);
        assert_eq!(escape_start(text, 10), 10);
    }
}
