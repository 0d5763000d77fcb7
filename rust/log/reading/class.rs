//! The kinds a log line can be, and running counts of them: the vocabulary that classifying,
//! selecting and rendering share, kept apart from the classifier so that the rules it calls
//! (keywords, summaries) can name a class without depending on it.

/// What a line is to the planner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Error,
    Warning,
    Summary,
    Other,
}

/// Running totals of classified lines, through some line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub errors: u64,
    pub warnings: u64,
    pub summaries: u64,
}

impl Counts {
    pub fn add(&mut self, class: Class) {
        match class {
            Class::Error => self.errors += 1,
            Class::Warning => self.warnings += 1,
            Class::Summary => self.summaries += 1,
            Class::Other => {}
        }
    }

    /// Counts through the line before one of class `class` whose counts these are.
    #[must_use]
    pub fn before(mut self, class: Class) -> Self {
        match class {
            Class::Error => self.errors -= 1,
            Class::Warning => self.warnings -= 1,
            Class::Summary => self.summaries -= 1,
            Class::Other => {}
        }
        self
    }

    #[must_use]
    pub fn minus(self, earlier: Counts) -> Counts {
        Counts {
            errors: self.errors - earlier.errors,
            warnings: self.warnings - earlier.warnings,
            summaries: self.summaries - earlier.summaries,
        }
    }
}
