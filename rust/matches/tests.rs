use std::fmt::Write;

use super::*;
use crate::engine::Engine;
use crate::planner::Budget;
use crate::profile::Profile;

/// The plan of `text` as a search tool's output (grep's profile: 70 : 25), and its shape.
fn planned(text: &str, budget: u64) -> (String, Shape) {
    let profile = Profile::new("search", Some("grep"), 7000, 2500).unwrap();
    let mut engine = Engine::new(Budget::new(budget, 0).unwrap(), profile);
    engine.feed_str(text);
    let plan = engine.finish().plan;
    let out = plan.render();
    assert!(out.chars().count() as u64 <= budget, "{out}");
    (out, plan.shape)
}

/// `grep -r NAME dir` without `-n`: `path:text` rows, the definition in the middle.
fn grep_r(name: &str) -> String {
    let mut text = String::new();
    for i in 0..60 {
        writeln!(
            text,
            "pkg/mod{i:02}/use_{i:02}.py:    value = {name}(items, key={i})"
        )
        .unwrap();
        if i == 30 {
            writeln!(text, "pkg/core/util.py:def {name}(items, key=None):").unwrap();
        }
    }
    text
}

#[test]
fn a_definition_in_the_middle_of_an_unmapped_search_is_shown() {
    let text = grep_r("either_dict_or_kwargs");
    let (out, shape) = planned(&text, 1200);
    assert_eq!(shape, Shape::Matches, "{out}");
    assert!(
        out.contains("\npkg/core/util.py:def either_dict_or_kwargs(items, key=None):\n"),
        "{out}"
    );
    assert!(out.starts_with("pkg/mod00/use_00.py:"), "{out}");
    assert!(
        out.contains("pkg/mod59/use_59.py:"),
        "the last lines stay: {out}"
    );
}

#[test]
fn definitions_are_read_past_the_prefixes_searches_print() {
    for line in [
        "pkg/core/util.py:def f(x):",
        "pkg/core/util.py:12:def f(x):",
        "Line 1384:    public JsonGenerator createGenerator(OutputStream out) throws IOException {",
        "   869\t    def __getattr__(self, attr):",
        "319:   319\tclass HashingVectorizer(BaseEstimator):",
        "341-   341\tclass Hidden(Base):",
        "src/Gson.java:  public String toJson(Object src) {",
    ] {
        assert!(is_definition(past_search_prefix(line)), "{line}");
    }
    for line in [
        "pkg/core/util.py:    return f(x)",
        "Line 12:        toJson(src, writer);",
        "   870\t        return self.x",
        "def: a word, then a colon",
    ] {
        assert!(!is_definition(past_search_prefix(line)), "{line}");
    }
}

#[test]
fn a_search_without_definitions_is_left_to_the_clip() {
    let mut text = String::new();
    for i in 0..80 {
        writeln!(
            text,
            "pkg/mod{i:02}/use.py:    value = compute(items, key={i})"
        )
        .unwrap();
    }
    assert_eq!(planned(&text, 1200).1, Shape::Clip);
}

#[test]
fn other_tools_never_get_this_plan() {
    let text = grep_r("either_dict_or_kwargs");
    for (kind, tool) in [
        ("shell", "bash"),
        ("file_read", "read_file"),
        ("other", "mcp"),
    ] {
        let profile = Profile::new(kind, Some(tool), 3000, 6000).unwrap();
        let mut engine = Engine::new(Budget::new(1200, 0).unwrap(), profile);
        engine.feed_str(&text);
        assert_ne!(engine.finish().plan.shape, Shape::Matches, "{kind}");
    }
}

#[test]
fn definitions_take_a_third_of_the_room_at_most() {
    // Every line a definition: the head and tail keep their shares.
    let mut text = String::new();
    for i in 0..200 {
        writeln!(text, "Line {i}:    public void method{i:03}(int value) {{").unwrap();
    }
    let (out, shape) = planned(&text, 2000);
    assert_eq!(shape, Shape::Matches, "{out}");
    assert!(out.starts_with("Line 0:"), "{out}");
    assert!(
        out.trim_end()
            .ends_with("Line 199:    public void method199(int value) {"),
        "{out}"
    );
    let middle = out.lines().filter(|l| l.starts_with("Line ")).count();
    assert!(middle > 20, "{out}");
}

#[test]
fn definitions_are_looked_for_in_the_first_lines_only() {
    // A grep flood is the search planner's; reading all of it for definitions cost that
    // planner a third of its speed. Past the first lines the walk stops, and the plan still
    // shows what it found.
    let mut text = grep_r("either_dict_or_kwargs");
    for i in 0..READ_LINES {
        writeln!(
            text,
            "pkg/late/use_{i:05}.py:    either_dict_or_kwargs(items)"
        )
        .unwrap();
    }
    text.push_str("pkg/late/defs.py:def either_dict_or_kwargs_late(items):\n");
    let mut planner = MatchesPlanner::new(2000);
    for (no, line) in (1..).zip(text.lines()) {
        if planner.declined() {
            break;
        }
        planner.line(no, line);
    }
    assert!(
        planner.declined() && !planner.declined,
        "the walk stopped, the plan did not"
    );
    assert_eq!(planner.defs.len(), 1);
    let (out, shape) = planned(&text, 2000);
    assert_eq!(shape, Shape::Matches, "{out}");
    assert!(
        out.contains("pkg/core/util.py:def either_dict_or_kwargs(items, key=None):"),
        "{out}"
    );
}

/// `grep "def _print_" printer.py`: definitions from the first line on, a few calls among them.
fn definitions_throughout(lines: usize) -> String {
    let mut text = String::new();
    for i in 0..lines {
        if i % 5 == 4 {
            writeln!(text, "        return self._print_call_{i:03}(expr)").unwrap();
        } else {
            writeln!(text, "    def _print_Node{i:03}(self, expr, **settings):").unwrap();
        }
    }
    text
}

#[test]
fn the_share_of_definitions_the_head_shows_goes_to_the_head() {
    // The definitions in the first lines are shown by the head: the room set aside for them
    // is the head's, not left empty.
    let text = definitions_throughout(120);
    for budget in [1000, 2000, 4000] {
        let (out, shape) = planned(&text, budget);
        assert_eq!(shape, Shape::Matches, "{out}");
        assert!(
            char_count(&out) + 120 > budget,
            "{budget}: {}\n{out}",
            char_count(&out)
        );
    }
}
