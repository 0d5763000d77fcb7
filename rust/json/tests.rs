use std::fmt::Write;

use super::*;
use crate::engine::Engine;
use crate::plan::LineRange;
use crate::planner::Budget;

fn compress(text: &str, budget: u64, kind: &str) -> Plan {
    let profile = Profile::new(kind, Some("bash"), 3000, 6000).unwrap();
    let mut engine = Engine::new(Budget::new(budget, 0).unwrap(), profile);
    engine.feed_str(text);
    engine.finish().plan
}

fn json(text: &str, budget: u64) -> (String, Shape) {
    let plan = compress(text, budget, "shell");
    (plan.render(), plan.shape)
}

/// A pretty-printed array of `n` records, the `odd`th with a state no other has.
fn records(n: usize, odd: usize) -> String {
    let mut text = String::from("[\n");
    for i in 0..n {
        let state = if i == odd { "failed" } else { "running" };
        let sep = if i + 1 < n { "," } else { "" };
        writeln!(
            text,
            "  {{\n    \"id\": {i},\n    \"name\": \"service-{i}\",\n    \"state\": \"{state}\"\n  }}{sep}"
        )
        .unwrap();
    }
    text.push_str("]\n");
    text
}

/// A pretty-printed document of `n` members and the same minified.
fn pretty(n: usize) -> (String, String) {
    let mut text = String::from("{\n");
    let mut mini = String::from("{");
    for i in 0..n {
        let sep = if i + 1 < n { "," } else { "" };
        writeln!(text, "  \"k{i}\": [1, 2.50, -3e+2, \"x y\"]{sep}").unwrap();
        write!(mini, "\"k{i}\":[1,2.50,-3e+2,\"x y\"]{sep}").unwrap();
    }
    text.push_str("}\n");
    mini.push_str("}\n");
    (text, mini)
}

#[test]
fn minified_when_that_fits_with_the_lines_whitespace_was_dropped_from() {
    let (text, mini) = pretty(30);
    let plan = compress(&text, 1000, "shell");
    assert_eq!(plan.shape, Shape::Json);
    let out = plan.render();
    let (note, shown) = out.split_once('\n').unwrap();
    assert!(note.contains("minified"), "{note}");
    assert_eq!(shown, mini);
    // The last line, `}` and its newline, is shown whole.
    assert_eq!(plan.omitted, [LineRange { first: 1, last: 31 }]);
    assert_eq!(plan.omitted_chars, char_count(&text) - char_count(&mini));
}

#[test]
fn json_lines_minified_keep_a_document_a_line() {
    let docs: Vec<String> = (0..60)
        .map(|i| format!("{{\"a\": {i}, \"b\": [{i}]}}"))
        .collect();
    // A blank line after the first document, the rest one a line.
    let text = format!("{}\n\n{}\n", docs[0], docs[1..].join("\n"));
    let plan = compress(&text, 1150, "shell");
    let out = plan.render();
    let shown = out.split_once('\n').unwrap().1;
    let mini: Vec<String> = docs.iter().map(|d| d.replace(' ', "")).collect();
    assert_eq!(shown, format!("{}\n", mini.join("\n")));
    // Every line has spaces dropped; the line breaks between documents are kept.
    assert_eq!(plan.omitted, [LineRange { first: 1, last: 61 }]);
    assert_eq!(plan.omitted_chars, 3 * 60 + 1);
}

#[test]
fn an_array_of_objects_with_the_same_keys_becomes_a_table() {
    let text = records(40, 7);
    let (out, shape) = json(&text, 2000);
    assert_eq!(shape, Shape::Json);
    let mut lines = out.lines();
    assert!(lines.next().unwrap().contains("table"));
    assert_eq!(lines.next(), Some("[40]{id,name,state}"));
    assert_eq!(lines.next(), Some("0,\"service-0\",\"running\""));
    assert_eq!(lines.nth(6), Some("7,\"service-7\",\"failed\""));
    assert_eq!(out.lines().count(), 42);
}

#[test]
fn a_table_needs_every_object_to_have_the_same_keys() {
    let text = records(40, 7).replacen("\"name\"", "\"title\"", 1);
    let (out, _) = json(&text, 2000);
    assert!(!out.contains("[40]{"), "{out}");
    let jsonl = (0..60).fold(String::new(), |mut text, i| {
        writeln!(text, "{{\"level\": \"info\", \"n\": {i}}}").unwrap();
        text
    });
    let (out, shape) = json(&jsonl, 800);
    assert_eq!(shape, Shape::Json);
    assert!(out.contains("60 lines of one object each") || out.contains("table"));
    assert!(out.contains("\n[60]{level,n}\n\"info\",0\n"), "{out}");
}

#[test]
fn a_summary_keeps_the_first_the_last_and_the_record_that_differs() {
    let text = records(3000, 1234);
    for budget in [600, 2000, 4000, 16_000] {
        let (out, shape) = json(&text, budget);
        assert_eq!(shape, Shape::Json);
        assert!(out.chars().count() as u64 <= budget);
        assert!(out.starts_with("[shapeclip:") || out.starts_with("[JSON"));
        for record in [0, 1234, 2999] {
            let state = if record == 1234 { "failed" } else { "running" };
            let line =
                format!("{{\"id\":{record},\"name\":\"service-{record}\",\"state\":\"{state}\"}}");
            assert!(out.contains(&line), "record {record} at {budget}:\n{out}");
        }
        assert!(
            out.contains(".[].state: \"running\" \u{d7}2,999, \"failed\" \u{d7}1\n"),
            "{out}"
        );
        assert!(out.contains(".[].id: 3,000 numbers\n"), "{out}");
    }
}

#[test]
fn elided_runs_name_exact_items_and_lines() {
    let text = records(100, 50);
    let (out, _) = json(&text, 700);
    let records: Vec<(u64, u64)> = out
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix('\u{2026}')?;
            let (_, indices) = rest.split_once('[')?;
            let (indices, lines) = indices.split_once("], lines ")?;
            let (a, b) = indices.split_once('-').unwrap_or((indices, indices));
            let (la, lb) = lines.split_once('-')?;
            let (a, b): (u64, u64) = (a.parse().unwrap(), b.parse().unwrap());
            // Record i spans lines 2 + 5i to 6 + 5i.
            assert_eq!(la.parse::<u64>().unwrap(), 2 + 5 * a, "{l}");
            assert_eq!(lb.parse::<u64>().unwrap(), 6 + 5 * b, "{l}");
            Some((a, b))
        })
        .collect();
    assert!(!records.is_empty(), "{out}");
}

#[test]
fn numbers_and_strings_are_shown_as_written_and_cut_with_exact_lengths() {
    let long = "\\u00e9".repeat(100) + &"x".repeat(300);
    let mut text = String::from("[");
    for i in 0..200 {
        write!(
            text,
            "{{\"n\":1.500e+10,\"z\":-0.0,\"s\":\"{long}\",\"i\":{i}}},"
        )
        .unwrap();
    }
    text.push_str("{\"n\":1}]");
    let (out, shape) = json(&text, 3000);
    assert_eq!(shape, Shape::Json);
    assert!(out.contains("\"n\":1.500e+10,\"z\":-0.0,"), "{out}");
    // The string is cut at an escape's start, and the count is of what was written.
    let cut = out.split("\"s\":\"").nth(1).unwrap();
    let (shown, rest) = cut.split_once('\u{2026}').unwrap();
    assert!(
        shown.len() % 6 == 0 && shown.chars().all(|c| "\\u00e9".contains(c)),
        "{shown}"
    );
    let more: u64 = rest
        .strip_prefix('+')
        .and_then(|r| r.split_once(" chars"))
        .map(|(n, _)| n.replace(',', "").parse().unwrap())
        .unwrap();
    assert_eq!(shown.len() as u64 + more, 900);
}

#[test]
fn look_alike_markers_in_values_are_disarmed() {
    let mut text = String::from("[");
    for i in 0..100 {
        write!(
            text,
            "{{\"msg\":\"[shapeclip: lines 1-9 omitted]\",\"i\":{i}}},"
        )
        .unwrap();
    }
    text.push_str("{\"msg\":\"[lines 2-3 omitted]\",\"i\":100}]");
    let (out, _) = json(&text, 1500);
    let ours = out.matches("[shapeclip:").count();
    assert_eq!(ours, usize::from(out.starts_with("[shapeclip:")), "{out}");
    assert!(out.contains("(shapeclip: lines 1-9 omitted]"));
}

#[test]
fn what_is_not_whole_json_is_left_to_the_other_planners() {
    let log = "[INFO] starting\n".repeat(500);
    assert_ne!(json(&log, 2000).1, Shape::Json);
    let truncated = &records(300, 1)[..10_000];
    assert_ne!(json(truncated, 2000).1, Shape::Json);
    let deep = "[".repeat(100) + &"]".repeat(100);
    assert_ne!(json(&deep.repeat(30), 400).1, Shape::Json);
    assert_ne!(
        json(&records(300, 1), 300).1,
        Shape::Json,
        "below the least budget"
    );
}

#[test]
fn every_budget_is_kept_and_every_split_gives_the_same_plan() {
    let inputs = [
        records(500, 3),
        (0..400).fold(String::new(), |mut text, i| {
            let err = if i % 97 == 0 { "{\"code\": 5}" } else { "null" };
            writeln!(text, "{{\"t\": {i}, \"err\": {err}}}").unwrap();
            text
        }),
        format!(
            "{{\"meta\": {{\"n\": 3}}, \"items\": {}, \"tags\": [{}]}}",
            records(200, 100),
            (0..300)
                .map(|i| format!("\"t{i}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    ];
    for text in &inputs {
        for budget in [400, 555, 1000, 2500, 7000] {
            let whole = compress(text, budget, "shell");
            assert!(char_count(&whole.render()) <= budget);
            for size in [1, 7, 4096] {
                let profile = Profile::new("shell", Some("bash"), 3000, 6000).unwrap();
                let mut engine = Engine::new(Budget::new(budget, 0).unwrap(), profile);
                let bytes = text.as_bytes();
                for chunk in bytes.chunks(size) {
                    engine.feed_bytes(chunk);
                }
                assert_eq!(engine.finish().plan, whole, "chunks of {size} at {budget}");
            }
        }
    }
}

#[test]
fn the_way_back_follows_the_tool_and_the_store() {
    let text = records(400, 1);
    let read = compress(&text, 4000, "file_read").render();
    assert!(
        read.contains("read the file again with the offset and limit"),
        "{read}"
    );
    let one_line: String = records(400, 1).split_whitespace().collect();
    let shell = compress(&one_line, 4000, "shell").render();
    assert!(shell.contains("jq '.PATH[N]'"), "{shell}");
    assert!(
        !shell.contains(", lines "),
        "a one-line input names no lines"
    );
}

#[test]
fn what_is_kept_while_reading_is_bounded_by_the_room() {
    let room = 2000;
    let mut builder = Builder::new(room);
    let mut scanner = Scanner::default();
    let text = format!(
        "{{\"a\": {}, \"b\": {}}}",
        records(20_000, 17),
        (0..5000)
            .map(|i| format!("{{\"k{i}\": [{i}, \"{}\"]}}", "v".repeat(i % 500)))
            .collect::<Vec<_>>()
            .join(",")
            .replace("},{", ",")
    );
    scanner.feed(&text, &mut builder);
    assert!(scanner.complete());
    builder.finish();
    assert!(builder.mini.text.is_none() && builder.table.rows.is_none());
    let Some(doc) = &builder.root else {
        panic!("a document")
    };
    let held = weight(&doc.node);
    assert!(
        held <= 12 * room,
        "{held} characters held for a room of {room}"
    );
}

/// Characters of text a sketch holds.
fn weight(node: &sketch::Node) -> u64 {
    match node {
        sketch::Node::Atom(text) => char_count(text),
        sketch::Node::Str { head, .. } => char_count(head),
        sketch::Node::Items(items) => items
            .kept
            .iter()
            .map(|item| item.key.as_deref().map_or(0, char_count) + weight(&item.node))
            .sum(),
    }
}
