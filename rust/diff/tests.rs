use std::fmt::Write;

use super::*;
use crate::engine::Engine;
use crate::plan::LineRange;
use crate::planner::Budget;
use crate::profile::Profile;

/// The plan of `text` within `budget` as a shell's output.
fn plan_of(text: &str, budget: u64) -> Plan {
    let profile = Profile::new("shell", Some("bash"), 3000, 6000).unwrap();
    let mut engine = Engine::new(Budget::new(budget, 0).unwrap(), profile);
    engine.feed_str(text);
    engine.finish().plan
}

fn diff(text: &str, budget: u64) -> (String, Shape) {
    let plan = plan_of(text, budget);
    (plan.render(), plan.shape)
}

/// A `git diff` of `files` files, each with a small hunk and a large one whose removed lines
/// start with `--`, as SQL comments would.
fn git_diff(files: usize) -> String {
    let mut text = String::new();
    for f in 0..files {
        writeln!(text, "diff --git a/src/file_{f}.sql b/src/file_{f}.sql").unwrap();
        writeln!(text, "index 3b18e51..a9c2f1d 100644").unwrap();
        writeln!(text, "--- a/src/file_{f}.sql").unwrap();
        writeln!(text, "+++ b/src/file_{f}.sql").unwrap();
        writeln!(text, "@@ -1,3 +1,3 @@ create table t{f}").unwrap();
        writeln!(text, " keep").unwrap();
        writeln!(text, "-old value {f}").unwrap();
        writeln!(text, "+new value {f}").unwrap();
        writeln!(text, "@@ -40,60 +40,60 @@ select").unwrap();
        for i in 0..60 {
            writeln!(text, "--- comment line {i} of file {f}").unwrap();
            writeln!(text, "+-- comment line {i} of file {f}, reworded").unwrap();
        }
    }
    text
}

#[test]
fn every_header_is_kept_and_whole_runs_of_changes_while_they_fit() {
    let text = git_diff(12);
    let (out, shape) = diff(&text, 6000);
    assert_eq!(shape, Shape::Diff);
    assert!(out.chars().count() <= 6000, "{out}");
    for f in 0..12 {
        assert!(
            out.contains(&format!(
                "diff --git a/src/file_{f}.sql b/src/file_{f}.sql\n"
            )),
            "{out}"
        );
        let header = format!("@@ -1,3 +1,3 @@ create table t{f}\n");
        let at = out.find(&header).expect(&out) + header.len();
        // The first files' runs of changes fit whole; those after them find no room left.
        let hunk = &out[at..at + out[at..].find("@@ ").expect(&out)];
        let changes = format!("-old value {f}\n+new value {f}\n");
        assert!(
            hunk.contains(&changes) || !hunk.contains(&format!("value {f}")),
            "{out}"
        );
    }
    assert_eq!(out.matches("@@ -40,60 +40,60 @@ select\n").count(), 12);
    // Hunks are tried in order: the first file's small one fits.
    assert!(
        out.contains("create table t0\n keep\n-old value 0\n+new value 0\n"),
        "{out}"
    );
    assert!(out.contains(" omitted"), "{out}");
}

#[test]
fn text_that_is_not_a_diff_is_left_to_the_others() {
    let text = "+ added\n- removed\n".repeat(500);
    assert_ne!(diff(&text, 2000).1, Shape::Diff);
}

#[test]
fn hunk_counts_read_every_form() {
    assert_eq!(hunk_counts("@@ -1,3 +1,4 @@ fn main"), Some((3, 4)));
    assert_eq!(hunk_counts("@@ -7 +7 @@"), Some((1, 1)));
    assert_eq!(hunk_counts("@@ -0,0 +1,2 @@"), Some((0, 2)));
    assert_eq!(hunk_counts("@@ broken @@"), None);
}

/// The `diff --git`, `index` and `---`/`+++` lines of a changed file at `path`.
fn file_header(text: &mut String, path: &str) {
    writeln!(text, "diff --git a/{path} b/{path}").unwrap();
    writeln!(
        text,
        "index 71092d0..e2a593b 100644\n--- a/{path}\n+++ b/{path}"
    )
    .unwrap();
}

/// `git show` of a commit whose message is long and whose `files` files each hold two hunks of
/// 40 changed lines.
fn git_show(files: usize) -> String {
    let mut text = String::from("commit 4d8116aa70dea822ac83e45dcfd59c0cbe4b5177\n");
    text.push_str("Author: A Person <a@example.org>\nDate:   Thu Nov 26 21:46:33 2026 +0000\n\n");
    text.push_str("    Planner: the subject line of the commit\n    \n");
    for i in 0..12 {
        writeln!(
            text,
            "    A line of the message body that explains the change, {i}."
        )
        .unwrap();
    }
    text.push('\n');
    for f in 0..files {
        file_header(&mut text, &format!("python/shapeclip/module_{f}.py"));
        for h in 0..2 {
            writeln!(
                text,
                "@@ -{0},41 +{0},41 @@ def function_{f}_{h}():",
                1 + 100 * h
            )
            .unwrap();
            writeln!(text, " context").unwrap();
            for i in 0..40 {
                writeln!(text, "-    old_value_{i} = compute({f}, {h})").unwrap();
                writeln!(text, "+    new_value_{i} = compute({f}, {h}, strict=True)").unwrap();
            }
        }
    }
    text
}

/// The removed and added lines of a diff's bodies that `out` shows or counts in its gaps.
fn removed_and_added(out: &str) -> (usize, usize) {
    let shown = |sign: char| {
        out.lines()
            .filter(|l| l.starts_with(sign) && !l.starts_with("---") && !l.starts_with("+++"))
            .count()
    };
    let counted = |at: usize| -> usize {
        out.lines()
            .filter_map(|l| l.split_once(" omitted: ")?.1.strip_suffix(']'))
            .filter_map(|label| {
                label
                    .rsplit_once(", ")
                    .map_or(label, |(_, c)| c)
                    .split_once(" -")
            })
            .map(|(plus, minus)| {
                [minus, plus.trim_start_matches('+')][at]
                    .parse::<usize>()
                    .unwrap()
            })
            .sum()
    };
    (shown('-') + counted(0), shown('+') + counted(1))
}

/// The plan of `text` within `budget`, which must be a diff's.
fn planned(text: &str, budget: u64) -> String {
    let (out, shape) = diff(text, budget);
    assert_eq!(shape, Shape::Diff, "{out}");
    assert!(out.chars().count() as u64 <= budget, "{out}");
    out
}

#[test]
fn hunk_headers_stay_when_the_lines_the_git_line_repeats_make_room() {
    // Every header is over the budget by the `index` and `---`/`+++` lines: those go, each file's
    // hunk headers stay (they went first before, leaving only the file names).
    let text = git_show(12);
    let out = planned(&text, 3500);
    let lines: Vec<&str> = out.lines().collect();
    for f in 0..12 {
        for h in 0..2 {
            let header = format!("@@ -{0},41 +{0},41 @@ def function_{f}_{h}():", 1 + 100 * h);
            assert!(lines.contains(&header.as_str()), "{header}\n{out}");
        }
    }
    assert!(!out.contains("\nindex "), "{out}");
    assert!(
        lines.contains(&"    Planner: the subject line of the commit"),
        "{out}"
    );
}

#[test]
fn a_run_too_long_to_keep_leaves_the_room_it_did_not_take_to_later_runs() {
    // The first hunk's run of changes holds a line longer than the storage bound, so it is not
    // kept; the lines after it in the run are not kept either, and take none of the bound.
    let mut text = String::from("--- a/f.py\n+++ b/f.py\n@@ -1,1 +1,39 @@\n");
    text.push_str("-old first\n");
    writeln!(text, "+{}", "x".repeat(2500)).unwrap();
    for i in 0..38 {
        writeln!(
            text,
            "+new line {i} of the first hunk, long enough to count for something"
        )
        .unwrap();
    }
    // The second hunk's lines are longer than any room the first hunk's could leave.
    let last = "line of the second hunk, longer than the lines of the first hunk were";
    writeln!(text, "@@ -100,1 +100,1 @@\n-old {last}\n+new {last}").unwrap();
    let (out, shape) = diff(&text, 1000);
    assert_eq!(shape, Shape::Diff, "{out}");
    let hunk = format!("@@ -100,1 +100,1 @@\n-old {last}\n+new {last}");
    assert!(out.contains(&hunk), "{out}");
}

#[test]
fn a_gap_of_context_only_says_its_lines_are_unchanged() {
    // One hunk whose changes are far apart: the context between them is what goes.
    let mut text =
        String::from("--- a/f.py\n+++ b/f.py\n@@ -1,62 +1,62 @@\n-old first\n+new first\n");
    for i in 0..60 {
        writeln!(
            text,
            " unchanged line {i} of the function between the two changes"
        )
        .unwrap();
    }
    text.push_str("-old last\n+new last\n");
    let (out, shape) = diff(&text, 1000);
    assert_eq!(shape, Shape::Diff, "{out}");
    assert!(out.contains("-old first\n+new first\n"), "{out}");
    assert!(out.contains("-old last\n+new last"), "{out}");
    assert!(out.contains(" omitted: unchanged]\n"), "{out}");
    assert!(!out.contains("+0 -0"), "{out}");
}

#[test]
fn a_gap_counts_the_hunks_and_the_added_and_removed_lines_it_hides() {
    let text = git_show(12);
    let (out, _) = diff(&text, 3500);
    // Each body's lines not shown are one gap after them, the last one's above the closing
    // marker, which counts what it hides.
    assert_eq!(out.matches(" omitted: +").count(), 24, "{out}");
    assert_eq!(removed_and_added(&out), (12 * 2 * 40, 12 * 2 * 40), "{out}");
    // When the hunk headers do not all fit, a file without them has its hunks and lines
    // counted in the gap after its name; the files that fit get theirs back, first to last.
    let out = planned(&text, 2000);
    let mut counted = 0;
    for f in 0..12 {
        let name = format!(
            "diff --git a/python/shapeclip/module_{f}.py b/python/shapeclip/module_{f}.py\n"
        );
        let at = out.find(&name).expect(&out) + name.len();
        let mut next = out[at..].lines();
        let gap = next.next().unwrap();
        if gap.ends_with(" omitted: 2 hunks, +80 -80]") {
            counted += 1;
        } else {
            assert!(
                next.next().unwrap().starts_with("@@ -1,41 +1,41 @@"),
                "{out}"
            );
            assert_eq!(counted, 0, "in order: {out}");
        }
    }
    assert!((1..12).contains(&counted), "{out}");
}

#[test]
fn names_that_do_not_all_fit_are_kept_from_the_first_and_the_rest_counted() {
    let text = git_show(10);
    let out = planned(&text, 1000);
    let named = out.matches("\ndiff --git ").count();
    assert!((3..10).contains(&named), "{out}");
    for f in 0..named {
        assert!(
            out.contains(&format!("a/python/shapeclip/module_{f}.py ")),
            "{out}"
        );
    }
    let left = 10 - named;
    // The last named file's hunks are in that gap too.
    let (hunks, lines) = (2 * (left + 1), 80 * (left + 1));
    let rest = format!(" omitted: {left} files, {hunks} hunks, +{lines} -{lines}]\n[shapeclip: ");
    assert!(out.contains(&rest), "{rest}\n{out}");
    assert!(
        out.contains("    Planner: the subject line of the commit\n"),
        "{out}"
    );
}

#[test]
fn a_small_overflow_keeps_every_name_and_hunk_header() {
    // One file, a little over the budget: its name and every hunk header stay.
    let mut text = String::from("diff --git a/sympy/perm.py b/sympy/perm.py\n");
    text.push_str("index 3b18e51..a9c2f1d 100644\n--- a/sympy/perm.py\n+++ b/sympy/perm.py\n");
    for h in 0..3 {
        writeln!(text, "@@ -{0},7 +{0},7 @@ class Permutation:", 1 + 50 * h).unwrap();
        for i in 0..7 {
            writeln!(text, "-        self._array_form = list(args[{i}])  # {h}").unwrap();
            writeln!(text, "+        self._array_form = tuple(args[{i}])  # {h}").unwrap();
        }
    }
    assert!(text.len() > 2000 && text.len() < 2300, "{}", text.len());
    let (out, shape) = diff(&text, 2000);
    assert_eq!(shape, Shape::Diff);
    assert!(
        out.starts_with("diff --git a/sympy/perm.py b/sympy/perm.py\n"),
        "{out}"
    );
    assert_eq!(out.matches("\n@@ ").count(), 3, "{out}");
}

#[test]
fn changed_lines_go_before_the_lines_the_git_line_repeats() {
    // Every header fits, but then the `index` and `---`/`+++` lines would leave room for the
    // changes of only some files (they did before); without them every change fits.
    let mut text = String::new();
    for f in 0..16 {
        file_header(&mut text, &format!("src/module_{f}.py"));
        writeln!(text, "@@ -10,7 +10,7 @@ def run_{f}():").unwrap();
        text.push_str("     first = 1\n     second = 2\n     third = 3\n");
        writeln!(text, "-    limit = {f}\n+    limit = {f} + 1").unwrap();
        text.push_str("     fourth = 4\n     fifth = 5\n     sixth = 6\n");
    }
    let out = planned(&text, 3500);
    for f in 0..16 {
        let change = format!("-    limit = {f}\n+    limit = {f} + 1\n");
        assert!(out.contains(&change), "{change}{out}");
        assert!(
            out.contains(&format!("@@ -10,7 +10,7 @@ def run_{f}():\n")),
            "{out}"
        );
    }
    assert!(!out.contains("\nindex "), "{out}");
}

/// `git log -p` of `commits` commits, each with a message of two paragraphs and two files of two
/// hunks: headers many times a small budget.
fn git_log_p(commits: usize) -> String {
    let mut text = String::new();
    for c in 0..commits {
        writeln!(text, "commit {c:040x}\nAuthor: A Person <a@example.org>").unwrap();
        writeln!(
            text,
            "Date:   Thu Nov 26 21:46:33 2026 +0000\n\n    Subject {c}\n"
        )
        .unwrap();
        text.push_str("    Why the change was made.\n\n");
        for f in 0..2 {
            file_header(&mut text, &format!("src/c{c}_f{f}.rs"));
            for h in 0..2 {
                writeln!(text, "@@ -{0},5 +{0},5 @@ fn f{h}()", 1 + 20 * h).unwrap();
                text.push_str(" context\n");
                for i in 0..4 {
                    writeln!(text, "-old {i}\n+new {i}").unwrap();
                }
            }
        }
    }
    text
}

/// What lines `first..=last` of `text` hold, as a diff gap's label says it.
fn counted(text: &str, range: LineRange) -> String {
    let mut counts = kind::Counts::default();
    let (first, last) = (range.first, range.last);
    for line in (1..)
        .zip(text.lines())
        .filter_map(|(no, line)| (first..=last).contains(&no).then_some(line))
    {
        counts.commits += u64::from(line.starts_with("commit "));
        counts.files += u64::from(line.starts_with("diff --git "));
        counts.hunks += u64::from(line.starts_with("@@ "));
        let body = !line.starts_with("+++ ") && !line.starts_with("--- ");
        counts.plus += u64::from(body && line.starts_with('+'));
        counts.minus += u64::from(body && line.starts_with('-'));
        // The only line of a hunk body that is neither added nor removed.
        let context = line == " context";
        counts.body_lines += u64::from(context || body && line.starts_with(['+', '-']));
    }
    counts.label()
}

#[test]
fn headers_past_four_times_the_room_still_get_the_names_and_exact_counts() {
    let text = git_log_p(60);
    let headers: usize = text
        .lines()
        .filter(|l| {
            !l.starts_with([' ', '+', '-']) || l.starts_with("+++ ") || l.starts_with("--- ")
        })
        .map(|l| l.len() + 1)
        .sum();
    assert!(headers > 4 * 2000, "{headers}");
    let plan = plan_of(&text, 2000);
    let out = plan.render();
    assert_eq!(plan.shape, Shape::Diff, "{out}");
    assert!(out.chars().count() <= 2000, "{out}");
    // The names from the first on, as many as fit, the rest one gap above the closing marker.
    let named = out.matches("diff --git ").count();
    assert!(named >= 4, "{out}");
    for n in 0..named {
        let path = format!("src/c{}_f{}.rs", n / 2, n % 2);
        assert!(
            out.contains(&format!("diff --git a/{path} b/{path}\n")),
            "{path}\n{out}"
        );
    }
    assert!(out.starts_with("commit 0000"), "{out}");
    let last = *plan.omitted.last().unwrap();
    assert_eq!(last.last, text.lines().count() as u64);
    let rest = format!(" omitted{}]\n[shapeclip: ", counted(&text, last));
    assert!(out.contains(&rest), "{rest}\n{out}");
    assert!(
        rest.contains(" commits, ") && rest.contains(" files, "),
        "{rest}"
    );
    // Every gap says exactly what it hides.
    for range in &plan.omitted {
        let label = counted(&text, *range);
        assert!(
            out.contains(&format!("{label}]\n")),
            "{range:?} {label}\n{out}"
        );
    }
}

/// `git log --stat` of `commits` commits, each with a subject, a paragraph of `body` lines and
/// the files it changed.
fn git_log(commits: usize, body: usize) -> String {
    let mut text = String::new();
    for c in 0..commits {
        if c > 0 {
            text.push('\n');
        }
        writeln!(text, "commit {c:040x}\nAuthor: A Person <a@example.org>").unwrap();
        writeln!(text, "Date:   Thu Nov 26 21:46:33 2026 +0000\n").unwrap();
        writeln!(text, "    Subject of commit {c}\n").unwrap();
        for i in 0..body {
            writeln!(
                text,
                "    Line {i} of why commit {c} was made, at some length."
            )
            .unwrap();
        }
        writeln!(text, "\n src/module_{c}.rs | 12 +++++++-----").unwrap();
        text.push_str(" 1 file changed, 7 insertions(+), 5 deletions(-)\n");
    }
    text
}

#[test]
fn a_commit_log_keeps_each_commits_name_and_subject_from_the_first() {
    let text = git_log(40, 6);
    let plan = plan_of(&text, 2000);
    let out = plan.render();
    assert_eq!(plan.shape, Shape::Diff, "{out}");
    assert!(out.chars().count() <= 2000, "{out}");
    let named = out.matches("commit 0000").count();
    assert!(named >= 8, "{out}");
    for c in 0..named {
        let commit = format!("commit {c:040x}\n");
        let at = out.find(&commit).expect(&out) + commit.len();
        let subject = format!("    Subject of commit {c}\n");
        let next = out[at..].find("commit 0000").map_or(out.len(), |n| at + n);
        assert!(out[at..next].contains(&subject), "{c}\n{out}");
    }
    // The rest is one gap that counts the commits it holds.
    let rest = format!(" omitted: {} commits]\n[shapeclip: ", 40 - named);
    assert!(out.contains(&rest), "{rest}\n{out}");
    for range in &plan.omitted {
        assert!(
            out.contains(&format!("{}]\n", counted(&text, *range))),
            "{out}"
        );
    }
}

#[test]
fn a_commit_named_in_a_log_is_named_with_its_subject_at_any_budget() {
    let text = git_log(40, 6);
    for budget in (600..3000).step_by(23) {
        let (out, shape) = diff(&text, budget);
        assert_eq!(shape, Shape::Diff, "{out}");
        let named = out.matches("commit 0000").count();
        assert_subjects(&out, named);
    }
}

/// Asserts that `out` shows the subjects of the first `commits` commits of a [`git_log`].
fn assert_subjects(out: &str, commits: usize) {
    for c in 0..commits {
        let subject = format!("    Subject of commit {c}\n");
        assert!(out.contains(&subject), "{subject}\n{out}");
    }
}

#[test]
fn a_commit_log_whose_subjects_fit_gets_its_first_commits_whole() {
    let text = git_log(6, 4);
    let (out, shape) = diff(&text, 2000);
    assert_eq!(shape, Shape::Diff, "{out}");
    assert!(out.chars().count() <= 2000, "{out}");
    let first = &text[..text.find("\ncommit ").unwrap()];
    assert!(out.starts_with(first), "{out}");
    assert_subjects(&out, 6);
}

#[test]
fn a_commit_log_longer_than_the_judged_lines_is_still_one() {
    let text = git_log(400, 8);
    assert!(text.lines().count() as u64 > gapped::JUDGE_AFTER);
    let (out, shape) = diff(&text, 4000);
    assert_eq!(shape, Shape::Diff, "{out}");
    assert!(out.contains("    Subject of commit 3\n"), "{out}");
}

#[test]
fn text_around_commits_is_no_commit_log() {
    let log = git_log(20, 6);
    for text in [
        format!("Checking out the branch\n{log}"),
        format!("{log}error: the build failed\n"),
        log.replacen("commit 0000000000", "commit 00000000zz", 1),
    ] {
        let (out, shape) = diff(&text, 2000);
        assert_ne!(shape, Shape::Diff, "{out}");
    }
}

#[test]
fn a_one_line_log_keeps_its_newest_commits_and_counts_the_rest() {
    let mut text = String::new();
    for c in 0..200_u64 {
        // Some abbreviated hashes are digits alone.
        let hash = if c % 10 == 3 {
            format!("{}", 1_234_567 + c)
        } else {
            format!("{:07x}", 0xabc_0000 + c)
        };
        writeln!(text, "{hash} Subject of commit {c}, at some length").unwrap();
    }
    let (out, shape) = diff(&text, 2000);
    assert_eq!(shape, Shape::Diff, "{out}");
    assert!(out.chars().count() <= 2000, "{out}");
    let shown = out.lines().take_while(|l| !l.starts_with('[')).count();
    assert!(shown >= 20, "{out}");
    assert!(text.starts_with(&out[..out.find("\n[").unwrap()]), "{out}");
    let rest = format!(
        "[lines {}-200 omitted: {} commits]\n",
        shown + 1,
        200 - shown
    );
    assert!(out.contains(&rest), "{rest}\n{out}");
}

#[test]
fn numbers_before_words_are_no_one_line_log() {
    let mut text = String::new();
    for i in 0..200 {
        writeln!(text, "{} src/module_{i}.rs", 1_000_000 + i * 7).unwrap();
    }
    assert_ne!(diff(&text, 2000).1, Shape::Diff);
}

#[test]
fn a_blame_is_no_one_line_log() {
    let line = |form: usize, n: usize| {
        let hash = format!("{:08x}", 0xabc0_0000 + n / 3);
        let code = format!("    let value_{n} = compute({n});");
        match form {
            0 => format!("{hash} (A U Thor 2026-11-26 22:32:49 +0000 {n:4}) {code}\n"),
            1 => format!("{hash} src/old.rs (A U Thor 2026-11-26 22:32:49 +0000 {n:4}) {code}\n"),
            _ => format!("{hash} {n:4}) {code}\n"),
        }
    };
    for form in 0..3 {
        let text: String = (1..300).map(|n| line(form, n)).collect();
        let (out, shape) = diff(&text, 2000);
        assert_ne!(shape, Shape::Diff, "{out}");
    }
}

#[test]
fn subjects_with_parentheses_are_still_a_one_line_log() {
    let subjects = [
        "(HEAD -> main, origin/main) parser: accept tabs",
        "fix(parser): a closing bracket after 12)",
        "Fix the crash in the reader (issue 12)",
        "Bump the version (#123)",
        "Release 1.2",
    ];
    let mut text = String::new();
    for c in 0..200 {
        writeln!(
            text,
            "{:07x} {}",
            0xabc_0000 + c,
            subjects[c % subjects.len()]
        )
        .unwrap();
    }
    let (out, shape) = diff(&text, 2000);
    assert_eq!(shape, Shape::Diff, "{out}");
}

#[test]
fn checksums_are_no_one_line_log() {
    // `sha1sum` and `md5sum`, in text and binary mode.
    for (digits, mode) in [(40, ' '), (40, '*'), (32, ' ')] {
        let mut text = String::new();
        for i in 0..200_u128 {
            let sum = format!("{:040x}", 0xd41d_8cd9_8f00_b204_e980_0998 * (i + 1));
            writeln!(text, "{} {mode}src/module_{i}.rs", &sum[..digits]).unwrap();
        }
        assert_ne!(diff(&text, 2000).1, Shape::Diff, "{text}");
    }
}

/// `git diff` of a file every line of which changed: one hunk, one run of changes.
fn rewritten(lines: usize) -> String {
    let mut text = String::from(
        "diff --git a/a.py b/a.py\nindex c97ca46..a5828ae 100644\n--- a/a.py\n+++ b/a.py\n",
    );
    writeln!(text, "@@ -1,{lines} +1,{lines} @@").unwrap();
    for i in 0..lines {
        writeln!(text, "-    value_{i} = compute(argument, x) + {i}").unwrap();
    }
    for i in 0..lines {
        writeln!(text, "+    value_{i} = compute(argument, y) + {i}").unwrap();
    }
    text
}

#[test]
fn a_run_too_long_to_show_whole_shows_its_first_lines() {
    let text = rewritten(300);
    for budget in [1000, 2000, 4000] {
        let plan = plan_of(&text, budget);
        let out = plan.render();
        assert_eq!(plan.shape, Shape::Diff, "{out}");
        assert!(char_count(&out) <= budget, "{out}");
        assert!(
            char_count(&out) + 250 > budget,
            "{budget}: {}\n{out}",
            char_count(&out)
        );
        assert!(
            out.contains("@@ -1,300 +1,300 @@\n-    value_0 = compute(argument, x) + 0\n"),
            "{out}"
        );
        // The first removed lines and the first added ones are shown, and the gaps count
        // the rest exactly.
        assert!(
            out.contains("\n+    value_0 = compute(argument, y) + 0\n"),
            "{out}"
        );
        assert_eq!(removed_and_added(&out), (300, 300), "{out}");
    }
}

#[test]
fn the_lines_the_git_line_repeats_stay_where_only_context_is_cut() {
    let mut text = String::new();
    file_header(&mut text, "src/module.py");
    for h in 0..2 {
        writeln!(text, "@@ -{0},9 +{0},9 @@ def run():", 10 + 40 * h).unwrap();
        for i in 0..4 {
            writeln!(text, "     context line {i} of hunk {h}, as it was").unwrap();
        }
        writeln!(text, "-    limit = {h}\n+    limit = {h} + 1").unwrap();
        for i in 4..8 {
            writeln!(text, "     context line {i} of hunk {h}, as it was").unwrap();
        }
    }
    let budget = text.chars().count() as u64 - 60;
    let out = planned(&text, budget);
    assert!(
        out.contains("\nindex 71092d0..e2a593b 100644\n--- a/src/module.py\n"),
        "{out}"
    );
    for h in 0..2 {
        assert!(
            out.contains(&format!("-    limit = {h}\n+    limit = {h} + 1\n")),
            "{out}"
        );
    }
}
