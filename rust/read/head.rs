//! The beginning of a read with its longer runs of filler folded: when a read is cut, its
//! head shows the code of as many lines as the room allows, and each long run of blank,
//! comment, docstring and import lines ([`FillerReader`], [`code::is_import`]) stands as one
//! exact gap marker instead.
//!
//! A licence header, a block of doc comments, a long docstring or a Java file's imports can
//! fill most of a small budget; an agent reading a file acts on its code far more often. A short run is shown: a
//! marker would cost about as much as it saves.

use super::Line;
use super::code::{self, FillerReader};

/// A run of filler longer than this is folded whatever the width of its marker (twice the
/// widest gap marker of any real input); a shorter one keeps its lines until the plan knows
/// whether folding it saves more than twice its marker.
const RUN_KEPT_CHARS: u64 = 128;

/// The first lines of a folded run, this many characters of them, are kept: a plan with room
/// to spare shows them (a doc comment's first sentence says what the code below it does).
/// Past them a run keeps more of its lines while all runs together keep no more than the
/// room: a read that is mostly one long docstring has little else to show.
const RUN_FIRST_CHARS: u64 = 320;

/// The least a folded run costs shown: the narrowest gap marker, `[line 1 omitted]` and its
/// newline. It bounds how many runs the head holds.
const LEAST_MARKER: u64 = 18;

#[derive(Debug)]
struct Run {
    last: u64,
    chars: u64,
    /// Its first lines: `RUN_FIRST_CHARS` of them, and more while the head's room allows.
    lines: Vec<Line>,
    lines_chars: u64,
    /// Whether `lines` holds every line of the run so far: once one is left out, so are the
    /// rest, so that what is kept is always the run's beginning.
    taking: bool,
    /// Whether the run's lines are imports rather than comments, once one is not blank.
    imports: Option<bool>,
}

impl Run {
    /// Whether `lines` holds the whole run and it is short enough to show.
    fn whole(&self) -> bool {
        self.chars <= RUN_KEPT_CHARS
    }
}

#[derive(Debug)]
enum Item {
    Line(Line),
    Run(Run),
}

#[derive(Clone, Copy)]
enum ItemRef<'h> {
    Line(&'h Line),
    Run(&'h Run),
}

impl<'h> From<&'h Item> for ItemRef<'h> {
    fn from(item: &'h Item) -> Self {
        match item {
            Item::Line(line) => ItemRef::Line(line),
            Item::Run(run) => ItemRef::Run(run),
        }
    }
}

/// The head of a read, line by line, until what it would show passes its room.
#[derive(Debug)]
pub(super) struct Head {
    items: Vec<Item>,
    run: Option<Run>,
    filler: FillerReader,
    /// The least the items cost shown: each line whole, each run at most its marker.
    cost: u64,
    /// Characters of the runs' lines kept past each run's first `RUN_FIRST_CHARS`.
    beyond_first: u64,
    room: u64,
    full: bool,
}

/// What a plan shows of the head: whole lines (`Line::text` without the last `'\n'`) in
/// order, and the number of the last line it covers, shown or folded.
pub(super) struct Shown<'h> {
    pub lines: Vec<&'h Line>,
    pub last: u64,
    /// The first lines of each run it folded, in order, and the characters of the run.
    pub folded: Vec<(&'h [Line], u64)>,
}

impl Head {
    pub(super) fn new(room: u64) -> Self {
        Head {
            items: Vec::new(),
            run: None,
            filler: FillerReader::default(),
            cost: 0,
            beyond_first: 0,
            room,
            full: false,
        }
    }

    /// Reads the next line of the input, `whole` when it is a complete line (not a piece of
    /// a long one, not the input's unterminated last line): the head ends before any other.
    pub(super) fn line(&mut self, line: &crate::lines::Line<'_>, whole: bool) {
        if self.full {
            return;
        }
        if !whole {
            self.full = true;
            self.close_run();
            return;
        }
        let kept = Line::new(line);
        let import = code::is_import(line.text);
        if self.filler.is_filler(line.text) || import {
            // Imports and comments make runs of their own, blank lines joining either: a
            // folded run shows its first lines, and those of a doc comment after the imports
            // say what the file is for.
            let blank = !import && code::is_blank(line.text);
            if !blank
                && self
                    .run
                    .as_ref()
                    .is_some_and(|run| run.imports.is_some_and(|i| i != import))
            {
                self.close_run();
            }
            let run = self.run.get_or_insert_with(|| Run {
                last: line.no,
                chars: 0,
                lines: Vec::new(),
                lines_chars: 0,
                taking: true,
                imports: None,
            });
            if !blank {
                run.imports.get_or_insert(import);
            }
            run.last = line.no;
            run.chars += kept.chars + 1;
            let cost = kept.chars + 1;
            let first = run.lines_chars + cost <= RUN_FIRST_CHARS;
            run.taking &= first || self.beyond_first + cost <= self.room;
            if run.taking {
                if !first {
                    self.beyond_first += cost;
                }
                run.lines_chars += cost;
                run.lines.push(kept);
            }
            return;
        }
        self.close_run();
        self.cost += kept.chars + 1;
        self.items.push(Item::Line(kept));
        self.full = self.cost > self.room;
    }

    /// Whether the head has read all it can show.
    pub(super) fn full(&self) -> bool {
        self.full
    }

    fn close_run(&mut self) {
        if let Some(run) = self.run.take() {
            self.cost += run.chars.min(LEAST_MARKER);
            self.items.push(Item::Run(run));
        }
    }

    /// The head within `room` characters, where a folded run costs `gap_len`: a run is folded
    /// when it holds more than twice that.
    pub(super) fn shown(&self, room: u64, gap_len: u64) -> Shown<'_> {
        let mut shown = Shown {
            lines: Vec::new(),
            last: 0,
            folded: Vec::new(),
        };
        let mut spent = 0;
        // Folded runs next to each other (imports, then a doc comment) share one marker.
        let mut after_fold = false;
        // A read that ends in filler (or was cut there) ends with a run still open.
        let open = self.run.iter().map(ItemRef::Run);
        for item in self.items.iter().map(ItemRef::from).chain(open) {
            match item {
                ItemRef::Line(line) => {
                    spent += line.chars + 1;
                    if spent > room {
                        break;
                    }
                    shown.lines.push(line);
                    shown.last = line.no;
                    after_fold = false;
                }
                ItemRef::Run(run) if !run.whole() || run.chars > 2 * gap_len => {
                    if !after_fold {
                        spent += gap_len;
                    }
                    if spent > room {
                        break;
                    }
                    shown.last = run.last;
                    shown.folded.push((&run.lines, run.chars));
                    after_fold = true;
                }
                ItemRef::Run(run) => {
                    after_fold = false;
                    spent += run.chars;
                    if spent > room {
                        break;
                    }
                    shown.lines.extend(&run.lines);
                    shown.last = run.last;
                }
            }
        }
        shown
    }
}
