use std::fmt::Write;

use super::*;
use crate::engine::Engine;
use crate::plan::{Piece, Shape};
use crate::planner::Budget;
use crate::profile::Profile;
use crate::test_helpers::Xorshift;

fn compress(text: &str, budget: u64) -> Plan {
    let profile = Profile::new("shell", Some("bash"), 3000, 6000).unwrap();
    let mut engine = Engine::new(Budget::new(budget, 0).unwrap(), profile);
    engine.feed_str(text);
    engine.finish().plan
}

/// The marker that counts the rows.
fn count_line(plan: &Plan) -> &str {
    plan.pieces
        .iter()
        .find_map(|p| match p {
            Piece::Marker(t) if t.starts_with("[shapeclip: table of ") => Some(t.as_str()),
            _ => None,
        })
        .expect("a table plan counts its rows")
}

/// Every line of `out` is a line of `text` or a marker.
fn assert_rows_verbatim(text: &str, out: &str) {
    let lines: std::collections::HashSet<&str> = text.lines().collect();
    for line in out.lines().filter(|l| !l.starts_with('[')) {
        assert!(lines.contains(line), "{line:?} is not a line of the input");
    }
}

/// `kubectl get pods`, padded as kubectl pads: 200 running, a few pending, two crashing.
fn pods() -> String {
    let mut rows = Vec::new();
    for i in 0..220 {
        let status = match i {
            17 | 150 => "CrashLoopBackOff",
            40..=49 => "Pending",
            _ => "Running",
        };
        let restarts = if status == "CrashLoopBackOff" {
            "14 (2m ago)"
        } else {
            "0"
        };
        rows.push([
            format!("web-{i:03}-7c5ddbdf54-x{i}"),
            "1/1".into(),
            status.into(),
            restarts.into(),
            "5d".into(),
        ]);
    }
    let header = ["NAME", "READY", "STATUS", "RESTARTS", "AGE"].map(String::from);
    let widths: Vec<usize> = (0..5)
        .map(|c| {
            rows.iter()
                .chain([&header])
                .map(|r| r[c].len())
                .max()
                .unwrap()
        })
        .collect();
    let mut text = String::new();
    for row in std::iter::once(&header).chain(&rows) {
        for (c, cell) in row.iter().enumerate() {
            if c == 4 {
                writeln!(text, "{cell}").unwrap();
            } else {
                write!(text, "{cell:<w$}", w = widths[c] + 3).unwrap();
            }
        }
    }
    text
}

#[test]
fn pods_are_counted_by_status_and_the_crashing_ones_shown() {
    let text = pods();
    let plan = compress(&text, 3000);
    assert_eq!(plan.shape, Shape::Table);
    let out = plan.render();
    assert!(out.chars().count() <= 3000);
    assert!(out.starts_with("NAME "), "the header first: {out}");
    assert_eq!(
        count_line(&plan),
        "[shapeclip: table of 220 rows; by STATUS: Running 208; Pending 10; CrashLoopBackOff 2]\n"
    );
    for crashing in ["web-017-", "web-150-"] {
        assert!(out.contains(crashing), "{crashing} in {out}");
    }
    assert!(out.contains("web-040-"), "the first pending pod: {out}");
    assert_rows_verbatim(&text, &out);
}

/// `ps aux`: kernel threads first (VSZ and RSS 0), then processes of three users whose
/// numbers overflow their columns, one at 97% CPU.
fn ps() -> String {
    let mut text = String::from(
        "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n",
    );
    for pid in 1..150 {
        writeln!(
            text,
            "root     {pid:>7}  0.0  0.0      0     0 ?        I<   Nov26   0:00 [kworker/{pid}:0]"
        )
        .unwrap();
    }
    let mut rng = Xorshift(7);
    for pid in 2000..2300 {
        let user = ["root", "postgres", "www-data"][rng.below(3)];
        let cpu = if pid == 2222 { 97.0 } else { 0.1 };
        writeln!(
            text,
            "{user:<8} {pid:>7} {cpu:>4.1}  0.3 {:>6} {:>5} pts/0    Ss   10:00   0:01 /usr/bin/worker --id {pid} --verbose",
            1_000_000 + pid * 17,
            9000 + pid
        )
        .unwrap();
    }
    text
}

#[test]
fn processes_are_counted_by_user_and_the_busiest_shown() {
    let text = ps();
    let plan = compress(&text, 4000);
    assert_eq!(plan.shape, Shape::Table);
    let out = plan.render();
    let users: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.split_ascii_whitespace().next().unwrap())
        .collect();
    let count = |u: &str| users.iter().filter(|&&x| x == u).count();
    let line = count_line(&plan);
    assert!(
        line.starts_with("[shapeclip: table of 449 rows; by USER: root "),
        "{line}"
    );
    for user in ["root", "postgres", "www-data"] {
        assert!(
            line.contains(&format!(
                "{user} {}",
                crate::markers::thousands(count(user) as u64)
            )),
            "{user}: {line}"
        );
    }
    assert!(out.contains(" 97.0 "), "the busiest process: {out}");
    assert_rows_verbatim(&text, &out);
}

/// `ls -la` of a directory: `total`, `.` and `..`, files, links, one setuid binary.
fn ls_la(names: usize) -> String {
    let mut text = format!("total {}\n", names * 4);
    text.push_str("drwxr-xr-x  2 root root  36864 Sep 22 04:51 .\n");
    text.push_str("drwxr-xr-x 13 root root   4096 Nov 26 21:21 ..\n");
    for i in 0..names {
        let line = match i % 7 {
            3 => format!("lrwxrwxrwx  1 root root      9 Feb 17  2023 tool{i:04} -> tool0000"),
            _ if i == 100 => format!("-rwsr-xr-x  1 root root  62672 Apr  7  2025 tool{i:04}"),
            _ => format!(
                "-rwxr-xr-x  1 root root  {:>5} May 26  2022 tool{i:04}",
                1000 + i
            ),
        };
        text.push_str(&line);
        text.push('\n');
    }
    text
}

#[test]
fn a_long_listing_is_counted_by_mode_with_its_rare_modes_shown() {
    let text = ls_la(600);
    let plan = compress(&text, 2000);
    assert_eq!(plan.shape, Shape::Table);
    let out = plan.render();
    assert!(out.starts_with("total 2400\n[shapeclip: table of 602 rows; by column 1: -rwxr-xr-x 513; lrwxrwxrwx 86; drwxr-xr-x 2; -rwsr-xr-x 1]\n"), "{out}");
    assert!(
        out.contains("-rwsr-xr-x  1 root root  62672 Apr  7  2025 tool0100\n"),
        "{out}"
    );
    assert!(out.contains(" ..\n"), "{out}");
    assert_rows_verbatim(&text, &out);
}

#[test]
fn a_recursive_long_listing_keeps_its_headings() {
    let mut text = String::new();
    for dir in ["src", "src/core", "src/io", "tests"] {
        writeln!(text, "./{dir}:\ntotal 96").unwrap();
        for i in 0..40 {
            writeln!(
                text,
                "-rw-r--r-- 1 me staff {:>5} Jan  1 10:00 {dir}_{i}.py",
                100 + i * 7
            )
            .unwrap();
        }
        text.push('\n');
    }
    let plan = compress(&text, 3000);
    assert_eq!(plan.shape, Shape::Table);
    let out = plan.render();
    for heading in ["./src:\n", "./src/core:\n", "./src/io:\n", "./tests:\n"] {
        assert!(out.contains(heading), "{heading} in {out}");
    }
    assert!(count_line(&plan).starts_with("[shapeclip: table of 160 rows, 10 other lines"));
}

#[test]
fn porcelain_status_is_counted_by_status() {
    let mut text = String::new();
    for i in 0..300 {
        let status = match i {
            0..=9 => " M",
            10..=12 => "M ",
            13 => "D ",
            _ => "??",
        };
        writeln!(text, "{status} src/pkg{}/module_{i}.py", i % 9).unwrap();
    }
    let plan = compress(&text, 1500);
    assert_eq!(plan.shape, Shape::Table);
    assert_eq!(
        count_line(&plan),
        "[shapeclip: table of 300 rows; by status: ?? 286; \" M\" 10; \"M \" 3; \"D \" 1]\n"
    );
    let out = plan.render();
    assert!(out.starts_with("[shapeclip: table of 300 rows"), "{out}");
    assert!(out.contains("D  src/pkg4/module_13.py\n"), "{out}");
}

#[test]
fn a_table_without_a_grouping_column_keeps_its_header_and_rule() {
    let mut text = String::from("Package            Version\n------------------ ---------\n");
    for i in 0..400 {
        writeln!(
            text,
            "{:<18} {}.{}.{}",
            format!("package-{i}"),
            i % 5,
            i % 11,
            i
        )
        .unwrap();
    }
    let plan = compress(&text, 1000);
    assert_eq!(plan.shape, Shape::Table);
    let out = plan.render();
    assert!(
        out.starts_with("Package            Version\n------------------ ---------\n[shapeclip: table of 400 rows]\n"),
        "{out}"
    );
    assert!(out.ends_with("package-399        4.3.399\n"), "{out}");
}

#[test]
fn the_count_lists_the_largest_groups_when_not_all_fit() {
    let mut text = String::from("NAME        TYPE                      AGE\n");
    for i in 0..2000 {
        let kind = format!("kind-with-a-long-name-{}", i % 10);
        writeln!(text, "item-{i:05}  {kind:<24}  {}d", i % 9).unwrap();
    }
    let plan = compress(&text, 600);
    assert_eq!(plan.shape, Shape::Table);
    let line = count_line(&plan);
    assert!(line.chars().count() <= 600 / 4, "{line}");
    assert!(line.contains("more values in "), "{line}");
    assert!(plan.render().chars().count() <= 600);
}

#[test]
fn what_is_not_a_table_is_declined() {
    let mut log = String::from("Starting the server now\n");
    let mut build = String::new();
    let mut prose = String::new();
    let mut listing = String::new();
    for i in 0..300 {
        writeln!(
            log,
            "2024-01-01 12:00:{:02} INFO  worker {i} handled request",
            i % 60
        )
        .unwrap();
        writeln!(build, "   Compiling crate-{i} v0.{i}.0").unwrap();
        writeln!(
            prose,
            "This is sentence {i} of a  document that goes on and on."
        )
        .unwrap();
        writeln!(listing, "./src/module_{i}.py").unwrap();
    }
    // grep output whose rows share a path and an indentation: its first fields line up under
    // the first line's words (issue 29: taken for a table before headers needed three columns).
    let mut grep =
        String::from("src/sets/intersection.py:        from solvers import solve_real\n");
    for i in 0..120 {
        writeln!(
            grep,
            "src/solvers/tests/test_solve.py:    assert solve_real(x, {i}) == S.EmptySet"
        )
        .unwrap();
    }
    for text in [log, build, prose, listing, grep] {
        let plan = compress(&text, 2000);
        assert_ne!(plan.shape, Shape::Table, "{}", &text[..200]);
    }
}

#[test]
fn lines_mostly_not_rows_are_not_a_table() {
    // A table's header, then a log that quotes a few rows.
    let mut text = ps().lines().take(30).collect::<Vec<_>>().join("\n");
    text.push('\n');
    for i in 0..200 {
        writeln!(text, "note {i}").unwrap();
    }
    assert_ne!(compress(&text, 2000).shape, Shape::Table);
}

#[test]
fn memory_stays_bounded_by_the_budget() {
    // A huge table: the rows kept apart take at most twice the room, however many there are.
    let mut planner = TablePlanner::new(1000);
    for no in 1..=200_000u64 {
        let mode = ["-rw-r--r--", "drwxr-xr-x"][usize::from(no % 7 == 0)];
        let text = format!("{mode} 1 u{} root {no} Jan  1 10:00 file{no}", no % 5);
        planner.line(no, &text);
    }
    let State::Reading(table) = &planner.state else {
        panic!("a long listing is a table");
    };
    assert_eq!(table.rows, 200_000);
    assert!(table.picked.chars() <= 2 * 1000);
}

#[test]
fn every_line_shown_is_an_input_line_and_gaps_are_exact() {
    let text = ls_la(300);
    for budget in [400, 700, 1500, 5000] {
        let plan = compress(&text, budget);
        assert_eq!(plan.shape, Shape::Table, "{budget}");
        let out = plan.render();
        assert!(out.chars().count() as u64 <= budget);
        let kept: String = plan
            .pieces
            .iter()
            .filter_map(|p| match p {
                Piece::Kept(t) => Some(t.as_str()),
                Piece::Marker(_) => None,
            })
            .collect();
        let outside: String = text
            .split_inclusive('\n')
            .enumerate()
            .filter(|(i, _)| {
                !plan
                    .omitted
                    .iter()
                    .any(|r| (r.first..=r.last).contains(&(*i as u64 + 1)))
            })
            .map(|(_, l)| l)
            .collect();
        assert_eq!(kept, outside, "{budget}");
    }
}
