use std::fmt::Write;

use super::*;
use crate::engine::Engine;
use crate::markers::thousands;
use crate::planner::Budget;
use crate::profile::Profile;

fn listing(text: &str, budget: u64) -> (String, Shape) {
    let profile = Profile::new("shell", Some("bash"), 3000, 6000).unwrap();
    let mut engine = Engine::new(Budget::new(budget, 0).unwrap(), profile);
    engine.feed_str(text);
    let plan = engine.finish().plan;
    (plan.render(), plan.shape)
}

/// The plan of `text`, which must be a listing's, within `budget`.
fn listed(text: &str, budget: u64) -> String {
    let (out, shape) = listing(text, budget);
    assert_eq!(shape, Shape::Listing, "{out}");
    assert!(out.chars().count() as u64 <= budget, "{out}");
    out
}

/// An `ls -R` whose first directory holds a few long generated names, then source directories
/// of short names, then a big test directory.
fn ls_r() -> String {
    let mut text = String::from(".:\nREADME.md\nsrc\n\n./generated:\n");
    for i in 0..30 {
        writeln!(
            text,
            "protocol_buffers_message_definitions_for_service_{i:02}_{}.pb.py",
            "v".repeat(40)
        )
        .unwrap();
    }
    text.push('\n');
    for dir in ["core", "io", "util"] {
        writeln!(text, "./src/{dir}:").unwrap();
        for i in 0..40 {
            writeln!(text, "{dir}_{i:02}.py").unwrap();
        }
        text.push('\n');
    }
    text.push_str("./src/tests:\n");
    for i in 0..400 {
        writeln!(text, "test_case_{i:03}.py").unwrap();
    }
    text
}

#[test]
fn every_directory_keeps_its_heading_and_a_share_of_its_entries() {
    let text = ls_r();
    let out = listed(&text, 2000);
    for heading in [
        ".:",
        "./generated:",
        "./src/core:",
        "./src/io:",
        "./src/util:",
        "./src/tests:",
    ] {
        assert!(out.contains(&format!("{heading}\n")), "{heading} in {out}");
    }
    for first in [
        "core_00.py\n",
        "io_00.py\n",
        "util_00.py\n",
        "test_case_000.py\n",
    ] {
        assert!(out.contains(first), "{first} in {out}");
    }
    // The test directory gets a quarter of a source directory's share.
    let shown = |prefix: &str| out.lines().filter(|l| l.starts_with(prefix)).count();
    assert!(shown("test_case_") * 3 <= shown("core_"), "{out}");
}

#[test]
fn a_map_naming_fewer_paths_than_the_first_lines_is_not_made() {
    // Short names throughout: the first lines name more paths than a map of every directory.
    let mut text = String::new();
    for dir in [
        "src/a", "src/b", "src/c", "src/d", "src/e", "src/f", "src/g", "src/h",
    ] {
        for i in 0..200 {
            writeln!(text, "{dir}/f{i:03}").unwrap();
        }
    }
    let out = listed(&text, 2000);
    let lines: Vec<&str> = out.lines().collect();
    let n = lines.len();
    assert!(text.starts_with(&lines[..n - 2].join("\n")), "{out}");
    // The gap's marker names the largest directories it holds that fit, and counts the rest.
    let shown = n as u64 - 2;
    assert_eq!(
        lines[n - 2],
        format!(
            "[lines {}-1600 omitted: 1,{} paths, by directory under src/: b/ 200; c/ 200; d/ 200; 5 more directories, {} paths]",
            shown + 1,
            600 - shown,
            1000 - shown
        ),
        "{out}"
    );
    assert!(lines[n - 1].starts_with("[shapeclip: lines "), "{out}");
}

#[test]
fn the_paths_a_listing_leaves_out_are_tallied_by_directory_down_to_what_fits() {
    // `find src -name '*.java'` of a project with packages of classes and of tests.
    let mut text = String::new();
    let packages = [
        ("core", 120),
        ("core/io", 60),
        ("core/util", 40),
        ("ser", 90),
    ];
    for (kind, scale) in [("main", 1), ("test", 2)] {
        for (package, count) in packages {
            for i in 0..count * scale {
                writeln!(
                    text,
                    "./src/{kind}/java/com/example/{package}/Class{i}.java"
                )
                .unwrap();
            }
        }
    }
    let total = text.lines().count();
    // (At 16,000 a map names every directory.)
    for budget in [2000, 4000] {
        let out = listed(&text, budget);
        let shown = out.lines().filter(|l| l.starts_with("./src/")).count();
        let tally = out
            .lines()
            .find(|l| l.contains(" paths, by directory under ./src/: "))
            .unwrap_or_else(|| panic!("no tally at {budget}:\n{out}"));
        assert!(tally.chars().count() as u64 <= budget / 16, "{tally}");
        let said: usize = tally
            .split_once(" under ./src/: ")
            .map(|(_, places)| places.trim_end_matches(']'))
            .unwrap()
            .split("; ")
            .flat_map(|places| places.split(", "))
            .map(|place| {
                let count = place.rsplit_once(' ').unwrap().1.trim_end_matches('}');
                count.replace(',', "").parse::<usize>().unwrap()
            })
            .sum();
        assert_eq!(said, total - shown, "{tally}");
        assert!(
            tally.contains(&format!(
                "omitted: {} paths, by directory",
                thousands(total as u64 - shown as u64)
            )),
            "{tally}"
        );
    }
    // At 4,000 the largest directories are split: a package's classes are told from its
    // subpackages'.
    let out = listed(&text, 4000);
    assert!(
        out.contains("test/java/com/example/core/{* 240, io/ 120, util/ 80}"),
        "{out}"
    );
    // Where the first lines show an eighth of the listing or more, they have the room.
    let small: String = text.split_inclusive('\n').take(150).collect();
    let out = listed(&small, 2000);
    assert!(!out.contains("paths, by directory"), "{out}");
}

#[test]
fn find_output_is_grouped_by_directory() {
    let mut text = String::new();
    for dir in ["src/a", "src/b", "src/c", "tests/unit"] {
        for i in 0..200 {
            writeln!(
                text,
                "{dir}/{}_{i:03}.rs",
                "long_module_name".repeat(i % 4 + 1)
            )
            .unwrap();
        }
    }
    let out = listed(&text, 3000);
    for dir in ["src/a", "src/b", "src/c", "tests/unit"] {
        assert!(
            out.contains(&format!("{dir}/long_module_name_000.rs\n")),
            "{dir} in {out}"
        );
    }
    assert!(out.contains(" omitted"), "{out}");
}

/// `git status` with three sections of `files` files each, their hints, and its framing.
fn git_status(files: usize) -> String {
    let mut text =
        String::from("On branch main\nYour branch is up to date with 'origin/main'.\n\n");
    text.push_str(
        "Changes to be committed:\n  (use \"git restore --staged <file>...\" to unstage)\n",
    );
    for i in 0..files {
        writeln!(text, "\tnew file:   src/added/module_{i}.rs").unwrap();
    }
    text.push_str("\nChanges not staged for commit:\n  (use \"git add <file>...\" to update what will be committed)\n");
    for i in 0..files {
        writeln!(text, "\tmodified:   src/core/part_{i}.rs").unwrap();
    }
    text.push_str(
        "\nUntracked files:\n  (use \"git add <file>...\" to include in what will be committed)\n",
    );
    for i in 0..files {
        writeln!(text, "\tscratch/notes_{i}.txt").unwrap();
    }
    text.push('\n');
    text
}

#[test]
fn git_status_keeps_every_section_and_a_share_of_its_files() {
    let text = git_status(100);
    let out = listed(&text, 2000);
    for title in [
        "Changes to be committed:\n",
        "Changes not staged for commit:\n",
        "Untracked files:\n",
    ] {
        assert!(out.contains(title), "{title}\n{out}");
    }
    for first in [
        "\tnew file:   src/added/module_0.rs\n",
        "\tmodified:   src/core/part_0.rs\n",
        "\tscratch/notes_0.txt\n",
    ] {
        assert!(out.contains(first), "{first}\n{out}");
    }
}

#[test]
fn a_log_is_not_a_listing() {
    let text = "compiling a\nerror: failed\n".repeat(500);
    assert_ne!(listing(&text, 2000).1, Shape::Listing);
}

/// The judgement of the first 4,096 lines is made as soon as it is sure: 375 lines that are no
/// paths leave 3,721 lines at most, of which 3,730 would have to be paths. With one fewer the
/// output may still be a listing, and is one when the rest are paths.
#[test]
fn lines_that_cannot_be_a_listing_end_the_reading_at_once() {
    let declined_after = |others: usize| {
        let mut planner = ListingPlanner::new(3000);
        for no in 1..=others as u64 {
            planner.line(no, "a line of prose, no path");
        }
        planner.declined
    };
    assert!(!declined_after(374));
    assert!(declined_after(375));
    // The first and the last of 374 lines of prose framing paths, nine in ten of the rest:
    // the most prose a listing of 4,094 lines may have.
    let mut text = String::from("found these files\n");
    for i in 0..3720 {
        writeln!(text, "src/dir{}/file_{i}.rs", i / 100).unwrap();
        if i % 10 == 9 {
            text.push_str("a line of prose, no path\n");
        }
    }
    text.push_str("3720 files\n");
    assert_eq!(listing(&text, 3000).1, Shape::Listing);
    // Past the first 4,096 lines, only the whole is judged: one line in twenty of prose, as
    // many as 1,000 of them, leaves a listing a listing.
    let mut long = String::new();
    for i in 0..20_000 {
        writeln!(long, "src/dir{}/file_{i}.rs", i / 100).unwrap();
        if i % 20 == 19 {
            long.push_str("a line of prose, no path\n");
        }
    }
    assert_eq!(listing(&long, 3000).1, Shape::Listing);
}

/// A `search_dir` output: its header, a row for each file with its count of matches, and its
/// footer. Generated documentation (one copy per release) comes first, with high counts; the
/// project's files after it, one of them with the most matches of its own code.
fn summarised_rows() -> String {
    let mut rows = Vec::new();
    for version in ["2.10", "2.11", "2.12", "2.13", "2.14", "2.9"] {
        for (class, matches) in [("Mapper", 30), ("Reader", 2), ("index-all", 1)] {
            rows.push(format!(
                "/repo/docs/javadoc/{version}/com/example/{class}.html ({matches} matches)"
            ));
        }
    }
    for i in 0..20 {
        let matches = if i == 17 { 14 } else { i % 3 + 1 };
        rows.push(format!(
            "/repo/src/main/java/com/example/core/Component{i:02}.java ({matches} matches)"
        ));
    }
    for i in 0..10 {
        rows.push(format!(
            "/repo/src/test/java/com/example/core/Component{i:02}Test.java (1 matches)"
        ));
    }
    let total: u64 = rows.iter().map(|row| row_matches(row)).sum();
    let mut text = format!("Found {total} matches for \"needle\" in /repo:\n");
    for row in rows {
        writeln!(text, "{row}").unwrap();
    }
    text.push_str("End of matches for \"needle\" in /repo\n");
    text
}

/// The count of a `PATH (N matches)` row.
fn row_matches(row: &str) -> u64 {
    let count = row.rsplit_once(" (").unwrap().1;
    count.split_once(' ').unwrap().0.parse().unwrap()
}

/// `out` is `text`'s lines in order, each gap marker in place of exactly the lines it names;
/// the closing marker stands for a gap that ends before the next line shown.
fn assert_exact_lines(text: &str, out: &str) {
    let lines: Vec<&str> = text.lines().collect();
    let mut next = 0;
    let mut after_closing = false;
    for line in out.lines() {
        if let Some(range) = line
            .strip_prefix("[line")
            .and_then(|l| l.strip_suffix(" omitted]"))
        {
            let range = range.trim_start_matches('s').trim();
            let (a, b) = range.split_once('-').unwrap_or((range, range));
            let (a, b): (usize, usize) = (a.parse().unwrap(), b.parse().unwrap());
            assert_eq!(a, next + 1, "{line} does not follow line {next} in {out}");
            next = b;
        } else if line.starts_with("[shapeclip:") {
            after_closing = true;
        } else {
            if after_closing {
                next += lines[next..].iter().position(|l| *l == line).unwrap();
                after_closing = false;
            }
            assert_eq!(line, lines[next], "line {} in {out}", next + 1);
            next += 1;
        }
    }
}

#[test]
fn summarised_rows_show_the_files_with_the_most_matches_of_the_projects_own_code_first() {
    let text = summarised_rows();
    let out = listed(&text, 2000);
    assert!(out.starts_with(text.lines().next().unwrap()), "{out}");
    assert!(
        out.contains("\nEnd of matches for \"needle\" in /repo\n"),
        "{out}"
    );
    assert!(out.contains("/Component17.java (14 matches)\n"), "{out}");
    // Thirty matches in generated docs go after the project's own files with one match.
    assert!(!out.contains("javadoc"), "{out}");
    assert!(out.contains("/Component00.java (1 matches)\n"), "{out}");
    assert_exact_lines(&text, &out);
    // With room for all of the project's files, the docs' largest counts come next.
    let (out, _) = listing(&text, 2600);
    assert!(out.contains("/Mapper.html (30 matches)\n"), "{out}");
    assert!(!out.contains("/Reader.html"), "{out}");
    assert_exact_lines(&text, &out);
}

#[test]
fn a_file_named_for_the_term_searched_comes_before_files_with_more_matches() {
    // The project's files with the most matches fill the budget; the one named for the term,
    // with two matches, is where the name is defined.
    let mut text = String::from("Found 900 matches for \"TokenBuffer\" in /repo:\n");
    for i in 0..40 {
        writeln!(
            text,
            "/repo/src/main/java/com/example/core/Component{i:02}.java (20 matches)"
        )
        .unwrap();
        if i == 30 {
            text.push_str("/repo/src/main/java/com/example/util/TokenBuffer.java (2 matches)\n");
        }
    }
    text.push_str("End of matches for \"TokenBuffer\" in /repo\n");
    let out = listed(&text, 1200);
    assert!(
        out.contains("/util/TokenBuffer.java (2 matches)\n"),
        "{out}"
    );
    assert_exact_lines(&text, &out);
    // A term too short to name a file by ranks nothing ahead.
    let short = text.replace("TokenBuffer", "To");
    let out = listed(&short, 1200);
    assert!(!out.contains("/util/To.java"), "{out}");
}

#[test]
fn a_few_summarised_rows_are_a_listing_too() {
    let text: String = summarised_rows()
        .lines()
        .filter(|row| row.contains("/core/Component1"))
        .fold(
            String::from("Found 32 matches for \"x\" in /repo:\n"),
            |text, row| text + row + "\n",
        );
    let out = listed(&text, 500);
    assert!(out.contains("(14 matches)\n"), "{out}");
    assert_exact_lines(&text, &out);
}

fn group(key: Option<&str>, count: u64) -> Group {
    let mut group = Group::new(key, None, 1);
    group.count = count;
    group
}

fn noise_of(groups: &[(Option<&str>, u64)]) -> Vec<bool> {
    let mut groups: Vec<Group> = groups.iter().map(|&(k, n)| group(k, n)).collect();
    map::judge_noise(&mut groups);
    groups.iter().map(|g| g.noise).collect()
}

#[test]
fn noise_is_what_lies_below_the_directory_every_path_shares() {
    // `ls -R` of a project: its docs and tests are noise.
    let project = [
        (Some("."), 9),
        (Some("./doc"), 20),
        (Some("./doc/_static"), 9),
        (Some("./seaborn"), 20),
        (Some("./tests"), 20),
    ];
    assert_eq!(noise_of(&project), [false, true, true, false, true]);
    // `find tests`, headed by the tool's own line, which is in no directory: all of it was
    // asked for, so none of it is noise.
    let tests = [
        (None, 1),
        (Some("tests/unit"), 20),
        (Some("tests/integration"), 20),
    ];
    assert_eq!(noise_of(&tests), [false, false, false]);
    // Nine paths in ten in the noise: the listing was asked for them too.
    let most = [(Some("src/test-jdk14"), 2), (Some("src/test/java"), 40)];
    assert_eq!(noise_of(&most), [false, false]);
}

#[test]
fn when_not_one_entry_of_every_directory_fits_the_noise_shows_its_headings_alone() {
    let mut text = String::from(".:\ndocs\nsrc\n\n");
    for version in 0..40 {
        writeln!(text, "./docs/v{version}:").unwrap();
        for i in 0..10 {
            writeln!(text, "page_{i:02}.html").unwrap();
        }
        text.push('\n');
    }
    for dir in ["core", "io"] {
        writeln!(text, "./src/{dir}:").unwrap();
        for i in 0..30 {
            writeln!(text, "{dir}_module_{i:02}.py").unwrap();
        }
        text.push('\n');
    }
    let out = listed(&text, 2500);
    for version in 0..40 {
        assert!(out.contains(&format!("./docs/v{version}:\n")), "{out}");
    }
    // The source directories' entries come before the docs' (what is left after them goes to
    // the docs' shorter names).
    assert!(
        out.contains("core_module_15.py\n") && out.contains("io_module_00.py\n"),
        "{out}"
    );
    assert!(
        out.matches("page_").count() < out.matches("_module_").count(),
        "{out}"
    );
    assert_exact_lines(&text, &out);
}

#[test]
fn a_listing_of_more_directories_than_a_map_can_show_is_still_a_listing() {
    let mut text = String::new();
    for dir in 0..400 {
        writeln!(text, "./pkg/mod{dir:03}:\nerror_codes.py\n").unwrap();
    }
    let out = listed(&text, 2000);
    assert!(
        out.starts_with("./pkg/mod000:\nerror_codes.py\n\n./pkg/mod001:"),
        "{out}"
    );
}

#[test]
fn a_groups_last_short_entries_are_shown_even_past_what_it_stores() {
    // Found by hypothesis: at 400 characters `./src/core` stored three of its four entries, and
    // the fourth, shorter than `[line 49 omitted]`, was hidden behind that marker.
    let text = format!(
        "./src/_.py\n{}{}{}{}",
        "./tests/unit/_.py\n".repeat(42),
        "./src/_.py\n".repeat(2),
        "./src/core/_.py\n".repeat(4),
        "./src/_.py\n".repeat(6)
    );
    let out = listed(&text, 400);
    assert_eq!(out.matches("./src/core/_.py\n").count(), 4, "{out}");
    assert_exact_lines(&text, &out);
}

/// `ls -R && grep -rn PATTERN .`: the listing's first lines are shown, and what the command
/// after it printed, its last line, is not lost to the gap.
#[test]
fn what_follows_the_last_path_is_shown_after_the_first_lines() {
    let mut text = String::new();
    for dir in 0..400 {
        writeln!(text, "./pkg/mod{dir:03}:\nerror_codes.py\n").unwrap();
    }
    let footer = "./pkg/mod123/error_codes.py:7:class InheritDocstrings(type):";
    let out = listed(&format!("{text}{footer}\n"), 2000);
    assert!(out.starts_with("./pkg/mod000:\nerror_codes.py\n"), "{out}");
    assert!(out.ends_with(&format!("]\n\n{footer}\n")), "{out}");
    // A listing that ends in a path keeps the plan it had: its first lines and one gap.
    let out = listed(&text, 2000);
    assert!(out.trim_end().ends_with(']'), "{out}");
}

/// The same where the listing is shown as a map of its directories.
#[test]
fn what_follows_the_last_path_is_shown_after_a_map() {
    let footer = "./src/core/core_07.py:3:class Parser:";
    let out = listed(&format!("{}{footer}\n", ls_r()), 2000);
    for heading in [
        "./src/core:\n",
        "./src/io:\n",
        "./src/util:\n",
        "./src/tests:\n",
    ] {
        assert!(out.contains(heading), "{out}");
    }
    assert!(out.ends_with(&format!("]\n{footer}\n")), "{out}");
}
