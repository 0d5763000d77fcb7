//! Lines as a terminal leaves them: a redrawn line's last frame, read piece by piece as the
//! reader delivers a line, with the frames drawn over counted.

use crate::text::char_count;

/// The line being read: its current frame and what was drawn over so far; the counts run over
/// every line read.
#[derive(Debug, Default)]
pub(super) struct Screen {
    /// The current line's frame so far, while it is kept (empty once it outgrew its limit).
    frame: String,
    frame_chars: u64,
    /// `'\r'`s at the end of the current line so far: a frame's end, or the line's.
    pending_cr: u64,
    line_redrawn: bool,
    /// Some text of the current line holds a mark of progress.
    line_marked: bool,
    /// Characters drawn over and frames with text drawn over, in every line read.
    pub drawn_chars: u64,
    pub frames: u64,
    /// Some redrawn line held a mark of progress.
    pub progress: bool,
}

/// A line that ended: its characters as a terminal leaves it (its carriage returns at its end
/// included, its `'\n'` not), and whether a frame of it was drawn over.
#[derive(Debug, Clone, Copy)]
pub(super) struct Ended {
    pub chars: u64,
    pub redrawn: bool,
}

impl Screen {
    /// Reads the next piece of a line (`text`, without its `'\n'`), keeping the frame's text
    /// while it takes at most `limit` characters; `ends` when the line ends with it. An ended
    /// line whose last frame was kept is written to `out`.
    pub fn piece(&mut self, text: &str, ends: bool, limit: u64, out: &mut String) -> Option<Ended> {
        // A line's trailing carriage returns, found by bytes: `trim_end_matches` costs a search
        // set up per line.
        let body_len = text
            .bytes()
            .rposition(|b| b != b'\r')
            .map_or(0, |last| last + 1);
        let body = &text[..body_len];
        let trailing = (text.len() - body_len) as u64;
        self.line_marked = self.line_marked || (!self.progress && progress(body));
        if body.is_empty() {
            self.pending_cr += trailing;
        } else {
            let redraw = memchr::memrchr(b'\r', body.as_bytes())
                .map(|cr| cr + 1)
                .or((self.pending_cr > 0).then_some(0));
            match redraw {
                Some(at) => self.redraw(&body[..at], &body[at..], limit),
                None => self.extend(body, limit),
            }
            self.pending_cr = trailing;
        }
        ends.then(|| self.end_line(limit, out))
    }

    /// The current frame, any carriage returns after it and `over` are drawn over by `frame`.
    fn redraw(&mut self, over: &str, frame: &str, limit: u64) {
        self.frames += self.frames_in(over);
        self.drawn_chars += self.frame_chars + self.pending_cr + char_count(over);
        self.line_redrawn = true;
        self.frame.clear();
        self.frame_chars = 0;
        self.extend(frame, limit);
    }

    /// The frames with text that `over`, which ends in a carriage return or is empty, ends:
    /// each run of carriage returns ends the frame before it, which starts with the current
    /// one's text unless carriage returns already ended that. An empty frame (before a line's
    /// first carriage return, as tqdm writes it) is none.
    fn frames_in(&self, over: &str) -> u64 {
        let mut frames = 0;
        let mut open = self.frame_chars > 0;
        if self.pending_cr > 0 {
            frames += u64::from(open);
            open = false;
        }
        let mut start = 0;
        for cr in memchr::memchr_iter(b'\r', over.as_bytes()) {
            frames += u64::from(open || cr > start);
            open = false;
            start = cr + 1;
        }
        frames
    }

    fn extend(&mut self, text: &str, limit: u64) {
        self.frame_chars += char_count(text);
        if self.frame_chars <= limit {
            self.frame.push_str(text);
        } else {
            self.frame.clear();
        }
    }

    fn end_line(&mut self, limit: u64, out: &mut String) -> Ended {
        let ended = Ended {
            chars: self.frame_chars + self.pending_cr,
            redrawn: self.line_redrawn,
        };
        if ended.chars <= limit {
            out.push_str(&self.frame);
            out.extend(std::iter::repeat_n(
                '\r',
                usize::try_from(self.pending_cr).unwrap_or(0),
            ));
        }
        self.progress = self.progress || (self.line_redrawn && self.line_marked);
        self.frame.clear();
        self.frame_chars = 0;
        self.pending_cr = 0;
        self.line_redrawn = false;
        self.line_marked = false;
        ended
    }
}

/// A whole line (without its `'\n'`) as a terminal leaves it: its last frame, with the carriage
/// returns that end the line, and whether a frame of it was drawn over.
pub(super) fn last_frame(line: &str) -> (&str, bool) {
    let bytes = line.as_bytes();
    let body = bytes
        .iter()
        .rposition(|&b| b != b'\r')
        .map_or(0, |last| last + 1);
    match memchr::memrchr(b'\r', &bytes[..body]) {
        Some(cr) => (&line[cr + 1..], true),
        None => (line, false),
    }
}

/// Whether text shows progress: a percentage, a bar's blocks (U+2580-259F, U+2501), a
/// spinner's braille dots (U+2800-28FF). Every such character's UTF-8 starts with 0xE2, so
/// one search finds each candidate.
pub(super) fn progress(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr2_iter(b'%', 0xe2, bytes).any(|at| match bytes[at] {
        b'%' => true,
        _ => matches!(
            (bytes.get(at + 1), bytes.get(at + 2)),
            (Some(0x96), Some(0x80..=0x9f)) | (Some(0x94), Some(0x81)) | (Some(0xa0..=0xa3), _)
        ),
    })
}
