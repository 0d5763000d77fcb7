//! The read planner: a file read too long for the budget keeps its beginning, with its long
//! runs of comments and docstrings folded; the definitions of the part it cannot show, or the
//! middle of a viewer's window positioned inside the file; and its last lines. A read only a
//! little too long loses its blank and comment-only lines first.
//!
//! An agent reads a file to act on a place in it: its opening (imports, the class being read)
//! far more often than its end, its code far more often than its comments, and, in the part
//! it does not see, the function or class it will call, open or edit next. So most of the
//! budget goes to the head ([`head`]: each long run of filler one exact marker), a small share
//! to the tail, and a share to the definition lines of the middle ([`code::is_definition`]),
//! each kept whole, in order, between exact markers. A windowed viewer pointed at a line
//! puts it in the upper half of its window, so a window that starts inside a file gives that
//! share to its middle instead, and one that also reaches the file's end, half the room to
//! its tail ([`window`]). A read that a harness already cut around a note of its own
//! ([`elision`]) ends in the end of the harness's window, so its tail takes the share of the
//! room that the part after the note is of the read. A read that fits once its longest runs of filler
//! ([`code::FillerReader`]) are gone keeps every other line instead ([`trim`]). No gap's marker
//! stands for fewer characters than it takes: a gap that small is shown where its lines are
//! at hand. The markers are sized to the budget: at small budgets the closing marker is
//! short, and the gaps before it say only which lines they hold. A read whose head or tail
//! cannot be cut at a line (one huge line) is left to the clip.

mod code;
pub use code::is_definition;
mod head;
mod markdown;
mod shell;
mod trim;
mod window;

pub use shell::ShellSourcePlanner;

use crate::gapped::{self, Frame};
use crate::numbered::Climbing;
use crate::plan::{Plan, Shape};
use crate::planner::{Context, Planner};
use crate::profile::ToolKind;
use crate::sink::{Block, Sink};
use crate::text::{char_count, count_chars_and_newlines, elision};
use head::Head;
use markdown::Markdown;
use window::Window;

/// Percent of the room (after the closing marker) for the last lines of the read.
const TAIL_PERCENT: u64 = 5;
/// Percent of the room for definitions between the head and the tail; what they leave goes to
/// the head.
const DEFS_PERCENT: u64 = 15;
/// Percent of the room for the middle of a viewer's window positioned inside a file
/// ([`window`]), instead of definitions.
const MIDDLE_PERCENT: u64 = 25;
/// The same for a window that shows an edit, which the viewer centred on the edited lines.
const EDIT_MIDDLE_PERCENT: u64 = 35;
/// Below this budget a read is clipped: there is no room for more than one cut.
const MIN_BUDGET: u64 = 400;
/// Distinct definitions counted at most (see [`ReadPlanner::declared`]); more say no more.
const DECLARED_COUNTED: usize = 64;
/// How many bytes at the start of a read are searched for definitions.
const DEFS_SCANNED: u64 = 4 << 20;
/// How many bytes at the start of a read are searched for an earlier cut's note: a harness
/// that cuts an output keeps it shorter (mini-swe-agent to 10,000 characters, Claude Code's
/// shell to 30,000 by default and 150,000 at most).
const NOTES_SCANNED: u64 = 256 << 10;
/// The tail's share of the room, in percent, after an earlier cut's note is at most this: the
/// part after the note is the end of the harness's window, which its beginning matches. A
/// viewer's window that reaches the file's end gets it whole ([`Window::ends_file`]).
const MAX_TAIL_PERCENT: u64 = 50;
/// A definition line longer than this is not kept: it would crowd out the others.
const MAX_DEF_CHARS: u64 = 160;
/// The lines just before a definition, this many characters of them, are kept with it: where
/// the gap before a shown definition holds no more than they do (a blank line, a closing
/// brace), they are shown instead of a marker as long as they.
const LEAD_CHARS: u64 = 48;

/// Whole lines of the input from line `no` on, `lines` of them (a definition and the
/// annotation above it): their text without the last `'\n'`, and its characters.
#[derive(Debug, Clone)]
struct Line {
    no: u64,
    lines: u64,
    text: String,
    chars: u64,
}

impl Line {
    fn new(line: &crate::lines::Line<'_>) -> Self {
        Line {
            no: line.no,
            lines: 1,
            text: line.text.to_owned(),
            chars: char_count(line.text),
        }
    }

    /// The number of the last line.
    fn end(&self) -> u64 {
        self.no + self.lines - 1
    }
}

/// Watches a file read for its definition lines, and for all of its lines while it is short
/// enough that trimming its filler could make it fit; both bounded by the budget.
#[derive(Debug)]
pub struct ReadPlanner {
    defs: Vec<Line>,
    /// Characters of `defs`; no more are kept once they reach twice the room, more than any
    /// plan could show.
    defs_chars: u64,
    /// Every line and whether it is filler, until the input passes one and a half times the
    /// room (then `None`: a read that long loses more than filler, so its head goes first).
    all: Option<Vec<(Line, bool)>>,
    all_chars: u64,
    /// Says which of `all`'s lines are filler, docstrings and block comments included.
    all_filler: code::FillerReader,
    /// The line before, when it was an annotation alone: a definition after it takes it along.
    annotation: Option<Line>,
    /// The last lines read, at most `LEAD_CHARS` of them, while definitions are looked for.
    recent: std::collections::VecDeque<Line>,
    recent_chars: u64,
    /// The lines just before each kept definition, in order.
    leads: Vec<Line>,
    /// Whether the read is Markdown, whose headings stand for its definitions.
    markdown: Markdown,
    /// The beginning of the read, with its long runs of filler folded.
    head: Head,
    /// The read, while it may be a viewer's window positioned inside a file.
    window: Window,
    /// Bytes of the input read so far.
    read: u64,
    /// Where the last earlier cut's note ([`elision::is_note`]) in the first `NOTES_SCANNED`
    /// bytes ends, in bytes of the input.
    note_end: Option<u64>,
    /// Lines looked at for definitions, and the distinct definitions among them declared by a
    /// keyword or a modifier (kept or not), the first of them: what says a shell's output is
    /// source code.
    looked: u64,
    declared: std::collections::HashSet<String>,
    /// Set for a shell's output ([`ShellSourcePlanner`]): after this many lines looked at with
    /// no definition declared, it is no source code and nothing more is read, unless it is a
    /// viewer's numbered view so far (`numbering`).
    give_up_after: Option<u64>,
    numbering: Climbing,
    room: u64,
}

impl ReadPlanner {
    /// Whether a shell's output showed it is no source code: once so, nothing more is looked
    /// at, so it stays so.
    fn gave_up(&self) -> bool {
        self.give_up_after.is_some_and(|after| {
            self.looked >= after && self.declared.is_empty() && !self.numbering.so_far()
        })
    }

    fn keep_all(&mut self, line: &crate::lines::Line<'_>) {
        let Some(all) = &mut self.all else { return };
        // A long line arrives in pieces; such a read is no small overflow.
        if line.continued || line.open {
            self.all = None;
            return;
        }
        let kept = Line::new(line);
        self.all_chars += kept.chars + u64::from(line.terminated);
        if self.all_chars > self.room + self.room / 2 {
            self.all = None;
            return;
        }
        all.push((kept, self.all_filler.is_filler(line.text)));
    }

    fn keep_definition(&mut self, line: &crate::lines::Line<'_>) {
        let above = self.annotation.take();
        let whole = !line.continued && !line.open && line.terminated;
        let full = self.defs_chars >= self.room.saturating_mul(2);
        // Once the definitions are full, the headings are read on only while the read still
        // looks like Markdown: the definitions counted against them are no longer counted.
        let fenced = whole
            && (!full || self.markdown.reads_on(self.room))
            && self.markdown.line(line, self.room);
        if full || !whole {
            self.recent.clear();
            self.recent_chars = 0;
            return;
        }
        self.looked += 1;
        if self.give_up_after.is_some() {
            self.numbering.line(line.text);
        }
        if code::is_annotation(line.text) {
            self.annotation = Some(Line::new(line));
        } else if code::is_definition(line.text) {
            if !fenced {
                self.markdown.definition();
            }
            if code::is_declaration(line.text) && self.declared.len() < DECLARED_COUNTED {
                // Told apart by their text: a log that quotes one line of code again and
                // again (a warning's `class OrderedSet(...)`) shows one definition.
                self.declared.insert(line.text.trim().to_owned());
            }
            let kept = Line::new(line);
            let def = match above.filter(|a| a.no + 1 == line.no) {
                Some(above) => Line {
                    no: above.no,
                    lines: 2,
                    text: format!("{}\n{}", above.text, kept.text),
                    chars: above.chars + 1 + kept.chars,
                },
                None => kept,
            };
            if def.chars <= MAX_DEF_CHARS {
                let after = self.leads.last().map_or(0, |l| l.no);
                self.leads.extend(
                    self.recent
                        .iter()
                        .filter(|l| l.no > after && l.no < def.no)
                        .cloned(),
                );
                self.defs_chars += def.chars;
                self.defs.push(def);
            }
        }
        self.remember(line);
    }

    /// Keeps `line` among the recent ones, the last `LEAD_CHARS` characters of lines. A line
    /// longer than that is in no lead, and neither is any line before it: most lines of a
    /// read cost no copy.
    fn remember(&mut self, line: &crate::lines::Line<'_>) {
        if line.text.len() as u64 >= LEAD_CHARS {
            self.recent.clear();
            self.recent_chars = 0;
            return;
        }
        let kept = Line::new(line);
        self.recent_chars += kept.chars + 1;
        self.recent.push_back(kept);
        while self.recent_chars > LEAD_CHARS {
            let Some(first) = self.recent.pop_front() else {
                break;
            };
            self.recent_chars -= first.chars + 1;
        }
    }
}

impl Sink for ReadPlanner {
    type Lookahead = ();
    fn lookahead(&self) {}

    fn block(&mut self, block: &Block<'_>, (): ()) {
        // Once it keeps neither every line nor more definitions, nor looks for an earlier
        // cut's note, the rest of a read costs nothing: the head and tail come from the
        // engine's window. Definitions are looked for in the first DEFS_SCANNED bytes of a
        // read: a plan shows the first that fit after its head, so later ones in a read that
        // long are hardly ever shown.
        let scanned = self.read >= DEFS_SCANNED;
        let start = self.read;
        self.read += block.text.len() as u64;
        let done = self.all.is_none()
            && self.head.full()
            && !self.window.positioned()
            && (scanned
                || self.defs_chars >= self.room.saturating_mul(2)
                    && !self.markdown.reads_on(self.room));
        if (done && start >= NOTES_SCANNED) || self.gave_up() {
            return;
        }
        for line in block.lines() {
            // By the line's own offset, not its block's: where blocks begin changes nothing.
            let at = start + line.start as u64;
            if done && at >= NOTES_SCANNED {
                return;
            }
            let whole = !line.continued && !line.open;
            if at < NOTES_SCANNED && whole && elision::is_note(line.text) {
                self.note_end = Some(start + line.end() as u64);
            }
            if done {
                continue;
            }
            self.head.line(&line, whole && line.terminated);
            self.window.line(&line, whole);
            self.keep_all(&line);
            if at < DEFS_SCANNED {
                self.keep_definition(&line);
            }
            // Line by line, so that where blocks begin changes nothing.
            if self.gave_up() {
                return;
            }
        }
    }
}

/// Shows the lines of each gap between `pieces` (line ranges with their text, in order) that
/// hold no more characters than the gap's marker would, where the plan still has them: the
/// lines before a definition, of a positioned window, or just above the tail.
fn fill_small_gaps<'p>(
    frame: &Frame<'p>,
    planner: &'p ReadPlanner,
    tail: &str,
    first_tail: u64,
    pieces: &mut Vec<(u64, u64, &'p str)>,
) {
    let last_chars = frame.context.window.last_chars();
    let above_tail = &last_chars[..last_chars.len() - tail.len()];
    // The whole lines just above the tail (the first piece of `above_tail` may be a part).
    let mut near_tail: Vec<(u64, &str)> = Vec::new();
    if let Some(above) = above_tail.strip_suffix('\n') {
        let mut parts = above.rsplit('\n');
        let mut no = first_tail;
        let mut chars = 0;
        while let (Some(part), true) = (parts.next(), chars <= frame.gap_len) {
            no -= 1;
            chars += char_count(part) + 1;
            near_tail.push((no, part));
        }
        near_tail.pop();
    }
    let leads = match planner.markdown.headings() {
        Some(_) => planner.markdown.leads(),
        None => &planner.leads,
    };
    let spare = |no: u64| -> Option<&str> {
        if let Ok(i) = leads.binary_search_by_key(&no, |l| l.no) {
            return Some(&leads[i].text);
        }
        if let Some(line) = planner.window.shown_line(no) {
            return Some(&line.text);
        }
        None
    };
    let mut added: Vec<(u64, u64, &'p str)> = Vec::new();
    let mut next = 1;
    for &(first, last, _) in pieces.iter() {
        if first > next {
            let mut chars = 0;
            let mut lines = Vec::new();
            for no in next..first {
                let text = spare(no)
                    .or_else(|| near_tail.iter().find(|&&(n, _)| n == no).map(|&(_, t)| t));
                let Some(text) = text else {
                    lines.clear();
                    break;
                };
                chars += char_count(text) + 1;
                lines.push((no, no, text));
            }
            if !lines.is_empty() && chars <= frame.gap_len {
                added.extend(lines);
            }
        }
        next = last + 1;
    }
    pieces.extend(added);
    pieces.sort_by_key(|p| p.0);
}

/// The number of lines `text` holds (a last line without its `'\n'` counts).
fn count_lines(text: &str) -> u64 {
    let (_, newlines) = count_chars_and_newlines(text.as_bytes());
    newlines + u64::from(!text.is_empty() && !text.ends_with('\n'))
}

/// The head (its long filler runs folded); then the middle of a positioned window, or else
/// the definitions between the head and the tail; and the tail.
fn cut(frame: &Frame<'_>, planner: &ReadPlanner) -> Option<Plan> {
    let totals = frame.context.totals;
    let window = frame.context.window;
    let room = frame.budget.checked_sub(frame.closing_len + 1)?;
    let (middle_percent, defs_percent) = if planner.window.shows_edit() {
        (EDIT_MIDDLE_PERCENT, 0)
    } else if planner.window.positioned() {
        (MIDDLE_PERCENT, 0)
    } else {
        (0, DEFS_PERCENT)
    };
    // After an earlier cut's note, the tail is the end of the harness's window: it gets the
    // part after the note's share of what the definitions or the middle leave. A viewer's
    // window that reaches the file's end was pointed at its lower part: the tail gets the most.
    let tail_percent = if planner.window.ends_file() {
        MAX_TAIL_PERCENT
    } else {
        planner.note_end.map_or(TAIL_PERCENT, |end| {
            let after = planner.read - end;
            let left = 100 - middle_percent - defs_percent;
            (after * left / planner.read.max(1)).clamp(TAIL_PERCENT, MAX_TAIL_PERCENT)
        })
    };
    let tail_room = room * tail_percent / 100;
    let middle_room = room * middle_percent / 100;
    let defs_room = room * defs_percent / 100;
    let head_room = room - tail_room - defs_room - middle_room;

    let tail = gapped::tail_lines(window.last_chars(), tail_room);
    let first_tail = totals.lines + 1 - count_lines(tail);

    let head = &planner.head;
    let mut shown = head.shown(head_room, frame.gap_len);
    let mut chosen = planner.window.middle(
        middle_room.saturating_sub(frame.gap_len),
        shown.last,
        first_tail,
    );
    if chosen.is_empty() && middle_room > 0 {
        shown = head.shown(head_room + middle_room, frame.gap_len);
    }
    let mut spent = 0;
    let defs = planner.markdown.headings().unwrap_or(&planner.defs);
    for def in defs
        .iter()
        .filter(|d| d.no > shown.last && d.end() < first_tail)
    {
        let cost = def.chars + 1 + frame.gap_len;
        if spent + cost <= defs_room {
            spent += cost;
            chosen.push(def);
        }
    }
    // What the definitions left goes to the head; any it now covers are shown there.
    if spent < defs_room {
        shown = head.shown(head_room + defs_room - spent, frame.gap_len);
        chosen.retain(|d| d.no > shown.last);
    }
    if shown.lines.is_empty() {
        return None;
    }
    let mut pieces: Vec<(u64, u64, &str)> = shown
        .lines
        .iter()
        .chain(&chosen)
        .map(|l| (l.no, l.end(), l.text.as_str()))
        .collect();
    // A head that folded enough filler can reach lines of the tail: those are shown once.
    let mut shown_tail = tail;
    let mut tail_from = first_tail;
    while tail_from <= shown.last && !shown_tail.is_empty() {
        shown_tail = shown_tail.split_once('\n').map_or("", |(_, rest)| rest);
        tail_from += 1;
    }
    if !shown_tail.is_empty() {
        pieces.push((
            tail_from,
            totals.lines,
            shown_tail.strip_suffix('\n').unwrap_or(shown_tail),
        ));
    }
    fill_small_gaps(frame, planner, tail, first_tail, &mut pieces);
    let folded: Vec<Folded> = shown
        .folded
        .iter()
        .map(|&(lines, chars)| Folded {
            lines: lines.iter().collect(),
            chars,
        })
        .collect();
    plan_revealing(frame, &pieces, &folded)
}

/// The plan that shows `pieces` (line ranges with their text, in order) and, where it leaves
/// room, the first lines of the `folded` runs of filler that it omits.
fn plan_revealing<'p>(
    frame: &Frame<'_>,
    pieces: &[(u64, u64, &'p str)],
    folded: &[Folded<'p>],
) -> Option<Plan> {
    let total_lines = frame.context.totals.lines;
    let (omitted, segments) = gapped::layout(pieces, total_lines);
    let plan = frame.plan(omitted, segments)?;
    let spare = frame.budget.saturating_sub(char_count(&plan.render()));
    // First as if no revealed run split a marker, which most do not; where one did and the
    // plan no longer fits, again with each split's marker counted.
    for count_splits in [false, true] {
        let mut revealed = pieces.to_vec();
        if !reveal(folded, spare, frame.gap_len, count_splits, &mut revealed) {
            break;
        }
        let (omitted, segments) = gapped::layout(&revealed, total_lines);
        if let Some(fits) = frame.plan_if_fits(omitted, segments) {
            return Some(fits);
        }
    }
    Some(plan)
}

/// A run of filler a plan omits: its first lines (all of them, or as many as were kept) and
/// the characters of the whole run.
struct Folded<'p> {
    lines: Vec<&'p Line>,
    chars: u64,
}

/// Adds to `pieces` the first lines of `folded` runs that no piece shows, within `spare`
/// characters: a line with words of each run in turn (a doc comment's `/**` comes with the
/// sentence after it), then the next of each, so every run says what it is about before any
/// says more. What a run keeps folded is never shorter than its marker (`gap_len`). Whether
/// any line was added.
fn reveal<'p>(
    folded: &[Folded<'p>],
    spare: u64,
    gap_len: u64,
    count_splits: bool,
    pieces: &mut Vec<(u64, u64, &'p str)>,
) -> bool {
    let shown =
        |no: u64, pieces: &[(u64, u64, &str)]| pieces.iter().any(|&(a, b, _)| a <= no && no <= b);
    // Per run: how many of its lines are shown, and their characters; `None` once done.
    let mut next: Vec<Option<(usize, u64)>> = vec![Some((0, 0)); folded.len()];
    let mut left = spare;
    let mut added = false;
    loop {
        let mut progressed = false;
        for (run, state) in folded.iter().zip(&mut next) {
            let Some((at, revealed)) = *state else {
                continue;
            };
            let rest = &run.lines[at..];
            let mut portion = rest
                .iter()
                .position(|line| code::has_words(&line.text))
                .map_or(rest.len(), |i| i + 1);
            let chars = |lines: &[&Line]| -> u64 { lines.iter().map(|l| l.chars + 1).sum() };
            let mut cost = chars(&rest[..portion]);
            let folded_after = run.chars - revealed - cost;
            if folded_after > 0 && folded_after <= gap_len && chars(rest) == run.chars - revealed {
                portion = rest.len();
                cost = chars(rest);
            }
            let lines = &rest[..portion];
            let folded_after = run.chars - revealed - cost;
            // A run's first lines after a line no piece shows (the end of a folded run before
            // it) split the marker the two runs shared in two.
            let split =
                count_splits && at == 0 && lines[0].no > 1 && !shown(lines[0].no - 1, pieces);
            let price = cost + if split { gap_len } else { 0 };
            if portion == 0
                || price > left
                || (folded_after > 0 && folded_after <= gap_len)
                || lines.iter().any(|l| shown(l.no, pieces))
            {
                *state = None;
                continue;
            }
            left -= price;
            *state = Some((at + portion, revealed + cost));
            pieces.extend(lines.iter().map(|l| (l.no, l.end(), l.text.as_str())));
            progressed = true;
        }
        if !progressed {
            break;
        }
        added = true;
    }
    pieces.sort_by_key(|p| p.0);
    added
}

impl Planner for ReadPlanner {
    fn serves(kind: ToolKind) -> bool {
        kind.reads_file()
    }

    fn new(room: u64) -> Self {
        ReadPlanner {
            defs: Vec::new(),
            defs_chars: 0,
            read: 0,
            note_end: None,
            looked: 0,
            declared: std::collections::HashSet::new(),
            give_up_after: None,
            numbering: Climbing::default(),
            all: Some(Vec::new()),
            all_chars: 0,
            all_filler: code::FillerReader::default(),
            annotation: None,
            recent: std::collections::VecDeque::new(),
            recent_chars: 0,
            leads: Vec::new(),
            markdown: Markdown::default(),
            head: Head::new(room),
            window: Window::new(room),
            room,
        }
    }

    fn plan(self, context: &Context<'_>) -> Option<Plan> {
        let budget = self.room;
        if budget < MIN_BUDGET {
            return None;
        }
        let frame = Frame::new(context, budget, Shape::Read);
        if let Some(all) = &self.all {
            if let Some(plan) = trim::plan(&frame, all) {
                return Some(plan);
            }
        }
        cut(&frame, &self)
    }
}

#[cfg(test)]
mod tests;
