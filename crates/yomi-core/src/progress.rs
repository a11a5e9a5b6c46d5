//! Progress of long jobs on stderr, one way for every command: an `indicatif` bar with the
//! count, rate and time left when stderr is a terminal; otherwise (a log file, a CI run, a
//! Ray worker) a plain line at every tenth of the job and at least every
//! [`LINE_INTERVAL`], so logs stay short and still show a stuck job. Quiet progress prints
//! nothing.
//!
//! # Threads
//! [`Progress`] is `Sync`: workers of a parallel job call [`Progress::inc`] directly.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Longest time between two plain progress lines while work advances.
pub const LINE_INTERVAL: Duration = Duration::from_secs(30);

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Display {
    /// A bar (stderr is a terminal).
    Bar,
    /// Plain lines (stderr is a file or a pipe).
    Lines,
    /// Nothing.
    Quiet,
}

impl Display {
    /// A bar on a terminal, lines otherwise; nothing when `quiet`.
    pub fn for_stderr(quiet: bool) -> Display {
        if quiet {
            Display::Quiet
        } else if std::io::stderr().is_terminal() {
            Display::Bar
        } else {
            Display::Lines
        }
    }
}

/// The progress of one job of `total` units (games, states, matches, positions).
pub struct Progress {
    display: Display,
    bar: ProgressBar,
    label: String,
    unit: String,
    total: u64,
    start: Instant,
    /// Units done when the job (re)started: the rate counts only this run's work.
    resumed: u64,
    /// When the last plain line was printed, and the tenth it reported.
    last_line: Mutex<(Instant, u64)>,
}

impl Progress {
    /// Progress of `label` over `total` `unit`s (plural, e.g. `"games"`), `done` of them
    /// finished already (a resumed job), shown as `display` says.
    pub fn new(label: &str, unit: &str, total: u64, done: u64, display: Display) -> Progress {
        let bar = if display == Display::Bar {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            let template =
                format!("{label} {{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {unit}, ETA {{eta}}  {{wide_msg}}");
            let style = ProgressStyle::with_template(&template)
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
            bar.set_style(style);
            bar.enable_steady_tick(Duration::from_millis(500));
            bar.set_position(done);
            bar.reset_eta();
            bar
        } else {
            let bar = ProgressBar::hidden();
            bar.set_length(total);
            bar.set_position(done);
            bar
        };
        if display == Display::Lines && done > 0 {
            eprintln!("{label}: {done}/{total} {unit} done before, resuming");
        }
        Progress {
            display,
            bar,
            label: label.to_string(),
            unit: unit.to_string(),
            total,
            start: Instant::now(),
            resumed: done,
            last_line: Mutex::new((Instant::now(), done * 10 / total.max(1))),
        }
    }

    /// Counts `n` more units done.
    pub fn inc(&self, n: u64) {
        self.bar.inc(n);
        if self.display == Display::Lines {
            let done = self.bar.position();
            let tenth = done * 10 / self.total.max(1);
            let mut last = self.last_line.lock().unwrap_or_else(|e| e.into_inner());
            if tenth > last.1 || last.0.elapsed() >= LINE_INTERVAL || done >= self.total {
                *last = (Instant::now(), tenth);
                eprintln!("{}", self.line());
            }
        }
    }

    /// Sets the text shown after the bar (e.g. a running score); plain lines carry it too.
    pub fn set_message(&self, message: impl Into<String>) {
        self.bar.set_message(message.into());
    }

    /// Prints `text` on its own line (above the bar, which stays), unless quiet.
    pub fn println(&self, text: &str) {
        match self.display {
            Display::Bar => self.bar.println(text),
            Display::Lines => eprintln!("{text}"),
            Display::Quiet => {}
        }
    }

    /// Units done so far.
    pub fn position(&self) -> u64 {
        self.bar.position()
    }

    /// Ends the bar (leaving its last state on screen).
    pub fn finish(&self) {
        if self.display == Display::Bar {
            self.bar.finish();
        }
    }

    /// The plain progress line: count, percentage, rate, time so far and left.
    fn line(&self) -> String {
        let done = self.bar.position();
        let secs = self.start.elapsed().as_secs_f64();
        let rate = done.saturating_sub(self.resumed) as f64 / secs.max(1e-9);
        let left = if rate > 0.0 {
            format!(
                ", {} left",
                format_secs(self.total.saturating_sub(done) as f64 / rate)
            )
        } else {
            String::new()
        };
        let message = self.bar.message();
        format!(
            "{}: {done}/{} {} ({:.0} %), {rate:.2}/s, {} so far{left}{}{}",
            self.label,
            self.total,
            self.unit,
            100.0 * done as f64 / self.total.max(1) as f64,
            format_secs(secs),
            if message.is_empty() { "" } else { "  " },
            message
        )
    }
}

/// `75 s`, `12 min`, `3.5 h`.
fn format_secs(s: f64) -> String {
    if s < 120.0 {
        format!("{s:.0} s")
    } else if s < 7200.0 {
        format!("{:.0} min", s / 60.0)
    } else {
        format!("{:.1} h", s / 3600.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_lines_report_count_rate_and_time_left() {
        let p = Progress::new("labelling", "states", 40, 10, Display::Lines);
        p.set_message("best 0.5");
        for _ in 0..30 {
            p.inc(1);
        }
        assert_eq!(p.position(), 40);
        let line = p.line();
        assert!(
            line.starts_with("labelling: 40/40 states (100 %), "),
            "{line}"
        );
        assert!(line.ends_with("  best 0.5"), "{line}");
        assert!(line.contains(" left"), "{line}");
    }

    #[test]
    fn quiet_progress_still_counts() {
        let p = Progress::new("x", "games", 3, 0, Display::Quiet);
        p.inc(2);
        p.println("not shown");
        assert_eq!(p.position(), 2);
        p.finish();
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(format_secs(75.0), "75 s");
        assert_eq!(format_secs(720.0), "12 min");
        assert_eq!(format_secs(12_600.0), "3.5 h");
    }
}
