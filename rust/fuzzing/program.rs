//! How a fuzzer's bytes become settings, inputs and chunk splits.
//!
//! The first bytes are settings (tool kind, shares, budget, digest room, how to split); the
//! rest is the input or a small program that writes it. Every byte string decodes to something
//! (reads past the end give zeros), and the splits come from a seeded generator rather than
//! from bytes between the input's bytes, so that a mutation of the input keeps its splits.

use crate::profile::ToolKind;

/// A fuzzer's bytes, read front to back as choices.
pub struct Choices<'a> {
    data: &'a [u8],
}

impl<'a> Choices<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Choices { data }
    }

    pub fn byte(&mut self) -> u8 {
        let (&first, rest) = self.data.split_first().unwrap_or((&0, &[]));
        self.data = rest;
        first
    }

    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.byte(), self.byte()])
    }

    /// The next `n` bytes, fewer at the end.
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        let (taken, rest) = self.data.split_at(n.min(self.data.len()));
        self.data = rest;
        taken
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    pub fn rest(self) -> &'a [u8] {
        self.data
    }
}

/// Head and tail weights: the profiles' own, and the extremes (one side zero).
const WEIGHTS: [(u64, u64); 6] = [
    (3000, 6000),
    (8000, 1000),
    (5000, 3750),
    (1, 1),
    (0, 1),
    (1, 0),
];

/// How one input is compressed and fed.
#[derive(Debug, Clone)]
pub struct Settings {
    pub kind: &'static str,
    pub tool: &'static str,
    pub weights: (u64, u64),
    pub budget: u64,
    pub digest_room: u64,
    /// Seeds the chunk sizes of the streamed run.
    pub split_seed: u64,
    /// The largest chunk the streamed run feeds.
    pub max_chunk: usize,
}

impl Settings {
    /// Reads six bytes of settings.
    pub fn read(choices: &mut Choices<'_>) -> Self {
        let shape = choices.byte();
        let scale = choices.byte();
        let raw_budget = u64::from(choices.u16());
        let budget = match scale % 4 {
            0 => 1 + raw_budget % 64,
            1 => 1 + raw_budget % 600,
            2 => 400 + raw_budget % 4000,
            _ => 1 + raw_budget % 20_000,
        };
        // Any room below the budget is allowed; the facade's rule is an eighth, at most 1,200.
        let digest_room = match scale / 64 {
            0 => 0,
            1 if budget >= 800 => (budget / 8).min(1200),
            _ => u64::from(choices.byte()) * budget / 256,
        };
        let split = choices.u16();
        let kinds = ToolKind::NAMES.len();
        Settings {
            kind: ToolKind::NAMES[usize::from(shape) % kinds],
            tool: if shape & 0x80 == 0 { "bash" } else { "" },
            weights: WEIGHTS[usize::from(shape) / kinds % WEIGHTS.len()],
            budget,
            digest_room,
            split_seed: u64::from(split) | 1 << 32,
            max_chunk: [1, 3, 16, 64, 4096][usize::from((scale / 4) % 5)],
        }
    }

    /// A budget a shape's plan can use (most planners decline below 400), most of the time.
    pub fn for_plans(mut self) -> Self {
        if self.budget < 400 && self.split_seed % 8 != 0 {
            self.budget += 400;
        }
        self
    }

    /// A shell tool and a budget a log plan can use, most of the time.
    pub fn for_logs(mut self) -> Self {
        self.kind = "shell";
        self.for_plans()
    }

    /// A file-reading tool, or a shell that printed a file, and a budget a read plan can use,
    /// most of the time; now and then a search tool, whose output of code lines is planned by
    /// its definitions.
    pub fn for_reads(mut self) -> Self {
        self.kind = match self.split_seed % 8 {
            0 | 4 => "shell_read",
            1 => "search",
            _ => "file_read",
        };
        self.for_plans()
    }

    /// A file-reading tool, whose markers give offsets, or now and then a shell, which plans
    /// a numbered view as a read too, or a search tool (`nl -ba F | grep -C 5 X`).
    pub fn for_numbered(mut self) -> Self {
        self.kind = match self.split_seed % 8 {
            0 | 4 => "shell",
            1 => "search",
            _ => "file_read",
        };
        self.for_plans()
    }

    /// A search tool, or any other kind: search shape is recognised by content.
    pub fn for_search(mut self) -> Self {
        if self.split_seed % 4 != 0 {
            self.kind = "search";
        }
        self
    }

    /// A tool a table may come from (any but a file read), and a budget a table plan can use,
    /// most of the time.
    pub fn for_tables(mut self) -> Self {
        if matches!(self.kind, "file_read" | "shell_read") {
            self.kind = "shell";
        }
        if self.budget < 400 && self.split_seed % 8 != 0 {
            self.budget += 400;
        }
        self
    }

    /// Chunks up to megabytes, so that one chunk may hold several blocks or a long line's pieces.
    pub fn for_streams(mut self) -> Self {
        if self.split_seed % 3 == 0 {
            self.max_chunk = 3 << 20;
        }
        self
    }

    /// The chunk sizes of the streamed run, from the seed: each between 1 and `max_chunk`.
    pub fn chunk_sizes(&self) -> impl Iterator<Item = (usize, bool)> {
        let mut state = self.split_seed;
        let max = self.max_chunk as u64;
        std::iter::from_fn(move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let size = usize::try_from(1 + state % max).expect("chunks fit in memory");
            Some((size, state & (1 << 40) != 0))
        })
    }
}

/// Fragments of build and test logs: keywords in their casings, runner summaries, traces,
/// diagnostics (placed, and under a file's heading as eslint prints them), CI prefixes,
/// terminal noise and characters of every width.
const LOG_WORDS: &[&str] = &[
    "\n",
    "\n",
    "\n",
    "\n",
    "\r\n",
    "\r",
    " ",
    "  ",
    "    ",
    "\t",
    "x",
    "a.py",
    "1",
    "42",
    ":",
    "error",
    "Error:",
    "ERROR",
    "error[E0308]: mismatched types",
    "warning: unused",
    "Warning",
    "WARN",
    "DeprecationWarning: ",
    "FAILED",
    "FAIL",
    "Failure",
    "fatal: ",
    "--- FAIL: TestX (0.00s)",
    "--- PASS: TestReadFailure",
    " passed",
    " failed",
    " in 1.2s",
    "=====",
    "Traceback (most recent call last):",
    "  File \"a.py\", line 3, in f",
    "ValueError: bad value",
    "E       assert 1 == 2",
    "FAILED t.py::test_a - AssertionError: asse...",
    "_____ test_a _____",
    ">       raise ValueError(x)",
    "FAILED t.py::test_bb - ValueError...",
    "ERROR t.py::test_c - ",
    "thread 'main' panicked at src/main.rs:2:5:",
    "panic: runtime error",
    "make: *** [all] Error 2",
    "make[1]: Entering directory '/x'",
    "ninja: build stopped: subcommand failed.",
    "Ran 3 tests",
    "OK",
    "ok",
    "test result: FAILED. 3 passed; 1 failed",
    "exit status 2",
    "Process finished with exit code 1",
    "\u{1b}[31m",
    "\u{1b}[0m",
    "\u{1b}]0;t\u{7}",
    "2024-01-02T03:04:05.1234567Z ",
    "##[error]",
    "[12:34:56] ",
    "#5 0.123 ",
    "[Pipeline] ",
    "    at com.x.Y(Y.java:3)",
    "  --> src/main.rs:2:5",
    "   |",
    "Expected: 1",
    "Actual: 2",
    "not ok 1 - x",
    "\u{2715} test",
    "\u{25cf} suite",
    "Segmentation fault",
    "No such file or directory",
    "src/a.c:3:1: ",
    "Tests:       1 failed, 41 passed, 42 total",
    "skipped",
    "summary",
    "BUILD FAILED",
    "Found 3 errors in 2 files",
    "Success: no issues found",
    "[shapeclip: x]",
    "[lines 3-5 omitted]",
    "\u{e9}",
    "\u{6f22}",
    "\u{1f600}",
    "e\u{301}",
    "\u{fffd}",
    "\0",
    "/src/app/index.js",
    "  12:5  error  x  no-undef",
    "  3:1  warning  y",
    " 7 | ERROR | z",
];

/// Bytes a text written from words (a log, a file read) or a stream is written to at most. A
/// log needs only many lines (its chunked run still reads them in many blocks); a stream needs
/// megabytes for lines long enough to come in pieces and for chunks that are prepared on two
/// cores.
const MAX_WRITTEN_BYTES: usize = 32 << 10;
const MAX_STREAM_BYTES: usize = 6 << 20;

/// A log written by the program in `choices` from [`LOG_WORDS`] (see [`from_words`]).
pub fn log_lines(choices: &mut Choices<'_>) -> Vec<u8> {
    from_words(LOG_WORDS, choices)
}

/// Text written by the program in `choices`: each byte picks one of `words` (at most 256),
/// or (past the words) copies raw bytes, or repeats the last line, the same or numbered.
pub fn from_words(words: &[&str], choices: &mut Choices<'_>) -> Vec<u8> {
    let mut out = Vec::new();
    while !choices.is_empty() && out.len() < MAX_WRITTEN_BYTES {
        let op = usize::from(choices.byte());
        if op < words.len() {
            out.extend_from_slice(words[op].as_bytes());
        } else if op % 2 == 0 {
            let n = usize::from(choices.byte() % 32);
            out.extend_from_slice(choices.take(n));
        } else {
            repeat_last_line(&mut out, usize::from(choices.byte()) * 2, op % 4 == 1);
        }
    }
    out
}

/// Appends the last complete line of `out` `times` times more, each with its number when
/// `numbered` (distinct lines of one template).
fn repeat_last_line(out: &mut Vec<u8>, times: usize, numbered: bool) {
    let Some(end) = out.iter().rposition(|&b| b == b'\n') else {
        return;
    };
    let start = out[..end]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = out[start..end].to_vec();
    for i in 0..times {
        if out.len() >= MAX_WRITTEN_BYTES {
            break;
        }
        out.extend_from_slice(&line);
        if numbered {
            out.extend_from_slice(format!(" {i}").as_bytes());
        }
        out.push(b'\n');
    }
}

/// An input written by the program in `choices`: segments of up to 64 raw bytes, each
/// repeated up to 2^20 times, up to [`MAX_STREAM_BYTES`] in all.
pub fn expand(choices: &mut Choices<'_>) -> Vec<u8> {
    let mut out = Vec::new();
    while !choices.is_empty() && out.len() < MAX_STREAM_BYTES {
        let head = choices.byte();
        let segment = choices.take(usize::from(head % 64) + 1);
        let times = if head < 128 {
            1
        } else {
            1usize << (choices.byte() % 21)
        };
        let room = (MAX_STREAM_BYTES - out.len()) / segment.len().max(1);
        for _ in 0..times.min(room) {
            out.extend_from_slice(segment);
        }
    }
    out
}
