//! The title pytest prints over its report of one failure (`_____ test_price_of_apple _____`)
//! and the lines of the report that stand under it.
//!
//! A failure's `E` lines say how it failed, and the title which test failed: shown without the
//! lines between, an `E` line takes its title along where the budget allows. The look-ahead
//! finds the titles with pytest's places ([`super::place`]), since a title reports nothing and
//! is no line the prefilter hits, and the pass keeps the last one read.

/// Whether `body` (after any CI prefix) is pytest's title over one failure's report, the
/// test's name between runs of `_` (`_____ test_price_of_apple _____`, or `_ TestCart.test_total
/// _` when the name is long): what the report's `E` lines below it are about. Tests are named
/// `test…` and `Test…`, as pytest collects them by default; the `_ _ _ _` between a
/// traceback's frames names nothing.
#[must_use]
pub fn failure_title(body: &str) -> bool {
    let t = body.trim_end();
    let name = t.trim_matches('_');
    t.starts_with('_')
        && t.ends_with('_')
        && name.ends_with(' ')
        && (name.starts_with(" test") || name.starts_with(" Test"))
}

/// Whether an error line's `body` is one of the lines of pytest's report of a failure that
/// stand under the failure's title ([`failure_title`]): an `E` line, or the line of source
/// marked `>` that raised (`>       raise ValueError(...)`, an error line by its name).
#[must_use]
pub fn under_title(body: &str) -> bool {
    e_line(body) || raised_line(body)
}

/// Whether `body` is one of the `E` lines of pytest's report, which say how a test failed.
#[must_use]
pub fn e_line(body: &str) -> bool {
    body.starts_with("E ")
}

/// Whether `body` is the line of source pytest marks `>` over its `E` lines: the line of the
/// test (or of the code it called) that failed.
#[must_use]
pub fn raised_line(body: &str) -> bool {
    body.starts_with("> ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failures_title_names_a_test_between_rules() {
        for line in [
            "_____________________________ test_price_of_apple ______________________________",
            "_ TestCart.test_total_of_many_items_with_a_discount[3-items-and-a-long-name] _",
            "____ test_parse[a b] ____  ",
        ] {
            assert!(failure_title(line), "{line}");
        }
        for line in [
            "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _",
            "________________________________ summary _________________________________",
            "____ ERROR at setup of test_plot ____",
            "=========================== test session starts ============================",
            "____test_no_blank____",
            "__init___ test_x",
        ] {
            assert!(!failure_title(line), "{line}");
        }
        assert!(under_title("E       AssertionError: assert 290 == 300"));
        assert!(under_title(">       raise ValueError(kind)"));
        assert!(!under_title("tests/test_a.py:5: AssertionError"));
        assert!(!under_title("Error: E something"));
    }
}
