//! The read planner: a file read too long for the budget keeps its beginning, the definitions
//! of the part it cannot show, and its last lines; a read only a little too long loses its
//! blank and comment-only lines first.
//!
//! An agent reads a file to act on a place in it: its opening (imports, the class being read,
//! the lines a viewer centred on) far more often than its end, and, in the part it does not
//! see, the function or class it will call, open or edit next. So most of the budget goes to the
//! head, a small share to the tail, and a share to the definition lines of the middle
//! ([`code::is_definition`]), each kept whole, in order, between exact markers. A read that
//! fits once its longest runs of filler ([`code::is_filler`]) are gone keeps every other line
//! instead ([`trim`]). The markers are sized to the budget: at small budgets the closing marker
//! is short, and the gaps before it say only which lines they hold. A read whose head or tail
//! cannot be cut at a line (one huge line) is left to the clip.

mod code;
mod trim;

use crate::gapped::{self, Frame};
use crate::plan::{Plan, Shape, gaps};
use crate::planner::{Context, Planner};
use crate::profile::ToolKind;
use crate::sink::{Block, Sink};
use crate::text::{byte_at_char_from_end, char_count, count_chars_and_newlines};

/// Percent of the room (after the closing marker) for the last lines of the read.
const TAIL_PERCENT: u64 = 5;
/// Percent of the room for definitions between the head and the tail; what they leave goes to
/// the head.
const DEFS_PERCENT: u64 = 15;
/// Below this budget a read is clipped: there is no room for more than one cut.
const MIN_BUDGET: u64 = 400;
/// How many bytes at the start of a read are searched for definitions.
const DEFS_SCANNED: u64 = 4 << 20;
/// A definition line longer than this is not kept: it would crowd out the others.
const MAX_DEF_CHARS: u64 = 160;

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
    /// The line before, when it was an annotation alone: a definition after it takes it along.
    annotation: Option<Line>,
    /// Bytes of the input read so far.
    read: u64,
    room: u64,
}

impl ReadPlanner {
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
        all.push((kept, code::is_filler(line.text)));
    }

    fn keep_definition(&mut self, line: &crate::lines::Line<'_>) {
        let above = self.annotation.take();
        if self.defs_chars >= self.room.saturating_mul(2)
            || line.continued
            || line.open
            || !line.terminated
        {
            return;
        }
        if code::is_annotation(line.text) {
            self.annotation = Some(Line::new(line));
            return;
        }
        if !code::is_definition(line.text) {
            return;
        }
        let mut kept = Line::new(line);
        if let Some(above) = above.filter(|a| a.no + 1 == line.no) {
            kept = Line {
                no: above.no,
                lines: 2,
                text: format!("{}\n{}", above.text, kept.text),
                chars: above.chars + 1 + kept.chars,
            };
        }
        if kept.chars <= MAX_DEF_CHARS {
            self.defs_chars += kept.chars;
            self.defs.push(kept);
        }
    }
}

impl Sink for ReadPlanner {
    type Lookahead = ();
    fn lookahead(&self) {}

    fn block(&mut self, block: &Block<'_>, (): ()) {
        // Once it keeps neither every line nor more definitions, the rest of a read costs
        // nothing: the head and tail come from the engine's window. Definitions are looked for
        // in the first DEFS_SCANNED bytes of a read: a plan shows the first that fit after its
        // head, so later ones in a read that long are hardly ever shown.
        let scanned = self.read >= DEFS_SCANNED;
        self.read += block.text.len() as u64;
        if self.all.is_none() && (scanned || self.defs_chars >= self.room.saturating_mul(2)) {
            return;
        }
        for line in block.lines() {
            self.keep_all(&line);
            self.keep_definition(&line);
        }
    }
}

/// The head of `text` that ends at a line end within `room` characters; `None` when no line
/// ends there.
fn head_lines(text: &str, room: u64) -> Option<&str> {
    Some(gapped::head_lines(text, room)).filter(|head| !head.is_empty())
}

/// The last whole lines of `text` within `room` characters. `text` holds more characters than
/// `room`, so whether a line starts at the cut is known.
fn tail_lines(text: &str, room: u64) -> &str {
    let at = byte_at_char_from_end(text, room);
    if at > 0 && text.as_bytes()[at - 1] == b'\n' {
        return &text[at..];
    }
    match memchr::memchr(b'\n', &text.as_bytes()[at..]) {
        Some(i) => &text[at + i + 1..],
        None => "",
    }
}

/// The head, the definitions between it and the tail, and the tail.
fn cut(frame: &Frame<'_>, defs: &[Line]) -> Option<Plan> {
    let totals = frame.context.totals;
    let window = frame.context.window;
    let room = frame.budget.checked_sub(frame.closing_len + 1)?;
    let tail_room = room * TAIL_PERCENT / 100;
    let defs_room = room * DEFS_PERCENT / 100;
    let head_room = room - tail_room - defs_room;

    let tail = tail_lines(window.last_chars(), tail_room);
    let (_, tail_newlines) = count_chars_and_newlines(tail.as_bytes());
    let tail_lines_count = tail_newlines + u64::from(!tail.is_empty() && !tail.ends_with('\n'));
    let first_tail = totals.lines + 1 - tail_lines_count;

    let mut head = head_lines(&window.head, head_room)?;
    let mut last_head = count_chars_and_newlines(head.as_bytes()).1;
    let mut spent = 0;
    let mut chosen: Vec<&Line> = Vec::new();
    for def in defs
        .iter()
        .filter(|d| d.no > last_head && d.end() < first_tail)
    {
        let cost = def.chars + 1 + frame.gap_len;
        if spent + cost <= defs_room {
            spent += cost;
            chosen.push(def);
        }
    }
    // What the definitions left goes to the head; any it now covers are shown there.
    if spent < defs_room {
        head = head_lines(&window.head, head_room + defs_room - spent)?;
        last_head = count_chars_and_newlines(head.as_bytes()).1;
        chosen.retain(|d| d.no > last_head);
    }
    let shown = (1..=last_head)
        .chain(chosen.iter().flat_map(|d| d.no..=d.end()))
        .chain(first_tail..=totals.lines);
    let omitted = gaps(shown, totals.lines);
    let mut segments = vec![head.to_owned()];
    let mut defs = chosen.iter().peekable();
    for gap in &omitted {
        let before = segments.last_mut()?;
        while let Some(def) = defs.next_if(|d| d.no < gap.first) {
            before.push_str(&def.text);
            before.push('\n');
        }
        segments.push(String::new());
    }
    // Definitions just above the tail come after the last gap, before the tail.
    let last = segments.last_mut()?;
    for def in defs {
        last.push_str(&def.text);
        last.push('\n');
    }
    last.push_str(tail);
    frame.plan(omitted, segments)
}

impl Planner for ReadPlanner {
    fn serves(kind: ToolKind) -> bool {
        kind == ToolKind::FileRead
    }

    fn new(room: u64) -> Self {
        ReadPlanner {
            defs: Vec::new(),
            defs_chars: 0,
            read: 0,
            all: Some(Vec::new()),
            all_chars: 0,
            annotation: None,
            room,
        }
    }

    fn plan(self, context: &Context<'_>) -> Option<Plan> {
        let budget = context.budget.room(Self::DIGEST);
        if budget < MIN_BUDGET {
            return None;
        }
        let frame = Frame::new(context, budget, Shape::Read);
        if let Some(all) = &self.all {
            if let Some(plan) = trim::plan(&frame, all) {
                return Some(plan);
            }
        }
        cut(&frame, &self.defs)
    }
}

#[cfg(test)]
mod tests;
