use std::fmt::Write;

use crate::engine::Engine;
use crate::plan::{LineRange, Piece, Plan, Shape};
use crate::planner::Budget;
use crate::profile::Profile;
use crate::text::char_count;

fn plan_of(kind: &str, chunks: &[&str], budget: u64) -> Plan {
    let profile = Profile::new(kind, Some("bash"), 3000, 6000).unwrap();
    let mut engine = Engine::new(Budget::new(budget, 0).unwrap(), profile);
    for chunk in chunks {
        engine.feed_str(chunk);
    }
    engine.finish().plan
}

/// `text` cut every `size` characters.
fn chunks_of(text: &str, size: usize) -> Vec<&str> {
    let cuts: Vec<usize> = text.char_indices().map(|(i, _)| i).step_by(size).collect();
    cuts.iter()
        .zip(cuts.iter().skip(1).chain([&text.len()]))
        .map(|(&a, &b)| &text[a..b])
        .collect()
}

/// A training script's output: a tqdm bar of 500 frames an epoch, and a line after each.
fn training() -> String {
    let mut text = String::from("Loading config from config.yaml\nUsing device: cuda\n");
    for epoch in 0..3 {
        for i in 0..=500 {
            let bar = "\u{2588}".repeat(i / 50) + &" ".repeat(10 - i / 50);
            write!(text, "\rEpoch {epoch}: {:3}%|{bar}| {i}/500", i / 5).unwrap();
        }
        writeln!(text).unwrap();
        writeln!(text, "Epoch {epoch} done: val_loss=1.{epoch}00").unwrap();
    }
    text.push_str("Saved checkpoint to out/model.pt\n");
    text
}

#[test]
fn redrawn_lines_show_their_last_frame_and_the_marker_counts_the_rest() {
    let text = training();
    let plan = plan_of("shell", &[&text], 2000);
    assert_eq!(plan.shape, Shape::Frames);
    let out = plan.render();
    for epoch in 0..3 {
        let last = format!("Epoch {epoch}: 100%|{}| 500/500\n", "\u{2588}".repeat(10));
        assert!(out.contains(&last), "{out}");
        assert!(out.contains(&format!("Epoch {epoch} done")), "{out}");
    }
    assert!(out.starts_with("Loading config from config.yaml\nUsing device: cuda\nEpoch 0: 100%"));
    // 500 frames drawn over in each of lines 3, 5 and 7; every character shown or counted.
    assert!(
        out.contains("1,500 progress frames drawn over in 3 lines between lines 3 and 7 of 9"),
        "{out}"
    );
    let shown: u64 = plan
        .pieces
        .iter()
        .map(|p| char_count(p.text()))
        .sum::<u64>()
        - char_count(plan.pieces.last().unwrap().text());
    assert_eq!(shown + plan.omitted_chars, char_count(&text));
    assert_eq!(
        plan.omitted,
        [3, 5, 7].map(|no| LineRange {
            first: no,
            last: no
        })
    );
}

#[test]
fn a_stream_cut_anywhere_plans_as_one_call_does() {
    let text = training();
    let whole = plan_of("shell", &[&text], 2000);
    // Cuts between a frame's carriage return and its text, and inside a run of them.
    let mut text = text.replacen('\r', "\r\r", 3);
    text.push_str("done\r\r\n");
    let whole_doubled = plan_of("shell", &[&text], 2000);
    assert_eq!(whole_doubled.shape, Shape::Frames);
    for size in [1, 2, 3, 7, 64, 1000] {
        let chunks = chunks_of(&text, size);
        assert_eq!(chunks.concat(), text);
        assert_eq!(plan_of("shell", &chunks, 2000), whole_doubled, "{size}");
    }
    assert_eq!(whole.shape, Shape::Frames);
}

#[test]
fn line_ends_of_carriage_returns_are_no_frames() {
    // CRLF line ends, and a line that ends in a carriage return before its '\n'.
    let mut text = String::new();
    for i in 0..200 {
        write!(text, "step {i}: 100% done\r\n").unwrap();
    }
    let plan = plan_of("shell", &[&text], 2000);
    assert_ne!(plan.shape, Shape::Frames);
}

#[test]
fn frames_of_no_progress_are_left_to_the_other_planners() {
    // A file with carriage returns alone for line ends, printed by a shell.
    let mut text = String::new();
    for i in 0..300 {
        write!(text, "row {i},value {i},ok\r").unwrap();
    }
    assert_ne!(plan_of("shell", &[&text], 2000).shape, Shape::Frames);
}

/// `text` as a terminal leaves it, worked out naively: each line's text after its last
/// carriage return that more of the line follows.
fn terminal_view(text: &str) -> String {
    text.split_inclusive('\n')
        .map(|line| {
            let body = line.trim_end_matches(['\n', '\r']);
            body.rfind('\r').map_or(line, |cr| &line[cr + 1..])
        })
        .collect()
}

/// Whether `plan` shows the whole of `text` as a terminal leaves it.
fn shows_whole(plan: &Plan, text: &str) -> bool {
    let view = terminal_view(text);
    match plan.pieces.as_slice() {
        [Piece::Kept(kept), Piece::Marker(_)] => *kept == view,
        [Piece::Marker(_)] => view.is_empty(),
        _ => false,
    }
}

/// A training log too long to show whole as a terminal leaves it: [`training`], then 200
/// lines of checkpoint shards.
fn long_training() -> String {
    let mut text = training();
    for i in 0..200 {
        writeln!(
            text,
            "checkpoint shard {i} written to out/shards/{i:04}.bin"
        )
        .unwrap();
    }
    text
}

#[test]
fn what_does_not_fit_as_a_terminal_leaves_it_shows_its_ends_so() {
    let text = long_training();
    let view = terminal_view(&text);
    for budget in [2000, 7000] {
        let plan = plan_of("shell", &[&text], budget);
        assert_eq!(plan.shape, Shape::Frames);
        let out = plan.render();
        assert!(char_count(&out) <= budget);
        let [Piece::Kept(head), Piece::Marker(marker), Piece::Kept(tail)] = plan.pieces.as_slice()
        else {
            panic!("{:?}", plan.pieces);
        };
        assert!(
            view.starts_with(head.as_str()) && view.ends_with(tail.as_str()),
            "{out}"
        );
        assert!(head.contains("Epoch 2 done: val_loss=1.200\n"), "{out}");
        assert!(tail.ends_with("checkpoint shard 199 written to out/shards/0199.bin\n"));
        let (first, last) = (head.lines().count() + 1, 209 - tail.lines().count());
        let chars = crate::markers::thousands(plan.omitted_chars);
        let said = if budget == 2000 {
            format!("[shapeclip: lines {first}-{last} and progress frames omitted, {chars} chars")
        } else {
            format!(
                "[shapeclip: lines {first}-{last} of 209 omitted from this bash output, and the \
                 progress frames drawn over in the lines shown, which show their last: {chars} \
                 chars"
            )
        };
        assert!(marker.starts_with(&said), "{marker}");
        assert!(
            marker.contains(&format!("sed -n '{first},{last}p'")),
            "{marker}"
        );
        assert_eq!(
            plan.omitted_chars,
            char_count(&text) - char_count(head) - char_count(tail)
        );
        // The redrawn lines 3, 5 and 7, shown as their last frames, and the lines left out.
        assert_eq!(
            plan.omitted,
            [(3, 3), (5, 5), (7, 7), (first as u64, last as u64)]
                .map(|(first, last)| LineRange { first, last })
        );
    }
}

#[test]
fn the_ends_keep_the_tail_of_redrawn_lines_longer_than_the_budget() {
    // Every epoch's bar is 25 KB of frames; the last lines as a terminal leaves them are shown
    // however far back their raw text starts.
    let mut text = String::new();
    for epoch in 0..40 {
        for i in 0..=500 {
            write!(text, "\rEpoch {epoch}: {:3}%| {i}/500", i / 5).unwrap();
        }
        writeln!(text, "\nEpoch {epoch} done: val_loss=0.{epoch:02}").unwrap();
    }
    let plan = plan_of("shell", &[&text], 1000);
    assert_eq!(plan.shape, Shape::Frames);
    let Some(Piece::Kept(tail)) = plan.pieces.last() else {
        panic!("{:?}", plan.pieces)
    };
    assert!(
        tail.ends_with(
            "Epoch 38 done: val_loss=0.38\nEpoch 39: 100%| 500/500\nEpoch 39 done: val_loss=0.39\n"
        ),
        "{tail}"
    );
    assert!(terminal_view(&text).ends_with(tail.as_str()));
}

#[test]
fn the_ends_of_a_stream_cut_anywhere_are_those_of_one_call() {
    let text = long_training();
    for budget in [400, 900, 2000] {
        let whole = plan_of("shell", &[&text], budget);
        assert_eq!(whole.shape, Shape::Frames);
        for size in [1, 7, 64, 1000, 4096] {
            let chunks = chunks_of(&text, size);
            assert_eq!(plan_of("shell", &chunks, budget), whole, "{budget} {size}");
        }
    }
}

#[test]
fn a_long_output_without_progress_is_no_frames_plan() {
    let mut text = long_training().replace('%', " percent");
    text = text.replace('\u{2588}', "#");
    assert_ne!(plan_of("shell", &[&text], 2000).shape, Shape::Frames);
}

#[test]
fn only_a_shells_output() {
    for kind in ["file_read", "search", "web", "shell_read"] {
        assert_ne!(
            plan_of(kind, &[&training()], 2000).shape,
            Shape::Frames,
            "{kind}"
        );
    }
}

#[test]
fn the_marker_shortens_to_fit_and_the_plan_stays_within_budget() {
    let text = training();
    let mut last = None;
    for budget in (100..2000).step_by(3) {
        let plan = plan_of("shell", &[&text], budget);
        let out = plan.render();
        assert!(char_count(&out) <= budget, "{budget}: {out}");
        if plan.shape == Shape::Frames {
            last = Some(budget);
        }
    }
    assert!(last.is_some());
}

#[test]
fn an_output_that_fits_with_its_shortest_marker_is_planned_so() {
    // The last line is a bar with no newline after it: the marker takes one before it.
    let mut text = training();
    text.push_str("\rupload:  10%\rupload: 100%");
    let shown: u64 = text
        .split('\n')
        .map(|line| char_count(line.rsplit('\r').next().unwrap_or(line)) + 1)
        .sum::<u64>()
        - 1;
    let terse = char_count("[1,501 progress frames in lines 3-10 omitted]");
    for budget in shown..shown + 400 {
        let plan = plan_of("shell", &[&text], budget);
        let fits = shown + 2 + terse <= budget;
        assert_eq!(
            shows_whole(&plan, &text),
            fits,
            "{budget}: {}",
            plan.render()
        );
    }
}
