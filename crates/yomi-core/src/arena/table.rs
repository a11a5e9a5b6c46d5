//! Small text tables: aligned plain text for terminals, or Markdown for reports.

use serde::{Deserialize, Serialize};

/// How to render a table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TableFormat {
    /// Columns padded with spaces, a dashed rule under the header.
    #[default]
    Text,
    /// A GitHub-flavoured Markdown table (padded too, so it reads well as text).
    Markdown,
}

/// Alignment of one column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Align {
    Left,
    Right,
}

/// A table being built: a header and rows of cells.
pub(crate) struct Table {
    header: Vec<(String, Align)>,
    rows: Vec<Vec<String>>,
}

impl Table {
    pub(crate) fn new(header: Vec<(&str, Align)>) -> Self {
        Table {
            header: header
                .into_iter()
                .map(|(h, a)| (h.to_string(), a))
                .collect(),
            rows: Vec::new(),
        }
    }

    pub(crate) fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    pub(crate) fn render(&self, format: TableFormat) -> String {
        let cols = self.header.len();
        let mut width: Vec<usize> = self.header.iter().map(|(h, _)| h.chars().count()).collect();
        for row in &self.rows {
            for (i, c) in row.iter().enumerate().take(cols) {
                width[i] = width[i].max(c.chars().count());
            }
        }
        if format == TableFormat::Markdown {
            // A Markdown rule needs at least three characters (`--:`).
            width.iter_mut().for_each(|w| *w = (*w).max(3));
        }
        let cell = |i: usize, text: &str| {
            let pad = width[i].saturating_sub(text.chars().count());
            match self.header[i].1 {
                Align::Left => format!("{text}{}", " ".repeat(pad)),
                Align::Right => format!("{}{text}", " ".repeat(pad)),
            }
        };
        let line = |cells: Vec<String>| match format {
            TableFormat::Text => cells.join("  ").trim_end().to_string(),
            TableFormat::Markdown => format!("| {} |", cells.join(" | ")),
        };
        let mut out = String::new();
        let head: Vec<String> = (0..cols).map(|i| cell(i, &self.header[i].0)).collect();
        out.push_str(&line(head));
        out.push('\n');
        match format {
            TableFormat::Text => {
                let total: usize = width.iter().sum::<usize>() + 2 * cols.saturating_sub(1);
                out.push_str(&"-".repeat(total));
            }
            TableFormat::Markdown => {
                let rules: Vec<String> = (0..cols)
                    .map(|i| {
                        let dashes = "-".repeat(width[i] - 1);
                        match self.header[i].1 {
                            Align::Left => format!("{dashes}-"),
                            Align::Right => format!("{dashes}:"),
                        }
                    })
                    .collect();
                out.push_str(&format!("| {} |", rules.join(" | ")));
            }
        }
        out.push('\n');
        for row in &self.rows {
            let cells: Vec<String> = (0..cols)
                .map(|i| {
                    let text = row.get(i).map_or("", String::as_str);
                    let text = match format {
                        TableFormat::Markdown => text.replace('|', "\\|"),
                        TableFormat::Text => text.to_string(),
                    };
                    cell(i, &text)
                })
                .collect();
            out.push_str(&line(cells));
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligns_columns() {
        let mut t = Table::new(vec![("agent", Align::Left), ("score", Align::Right)]);
        t.row(vec!["random".into(), "5%".into()]);
        t.row(vec!["mcts:iters=50".into(), "95.0%".into()]);
        assert_eq!(
            t.render(TableFormat::Text),
            "agent          score\n\
             --------------------\n\
             random            5%\n\
             mcts:iters=50  95.0%\n"
        );
        assert_eq!(
            t.render(TableFormat::Markdown),
            "| agent         | score |\n\
             | ------------- | ----: |\n\
             | random        |    5% |\n\
             | mcts:iters=50 | 95.0% |\n"
        );
    }
}
