//! One module per command; each turns parsed arguments into calls of `yomi-core`. `round_robin`
//! holds what the commands that play matches share.

pub mod agents;
pub mod bench;
pub mod cgt;
pub mod export;
pub mod games;
pub mod geister;
pub mod ggp;
pub mod go;
pub mod learn;
pub mod matches;
pub mod othello;
pub mod play;
pub mod records;
pub mod report;
pub mod round_robin;
pub mod tournament;
pub mod tubstap;

use std::io::Write;

use yomi_core::arena::TableFormat;

/// The table format a `--markdown` flag asks for.
pub fn table_format(markdown: bool) -> TableFormat {
    if markdown {
        TableFormat::Markdown
    } else {
        TableFormat::Text
    }
}

/// Writes `text` to standard output and flushes it (errors, such as a closed pipe, are
/// returned rather than panicking as `print!` would).
pub fn emit(text: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// Left-aligned columns: each row's cells padded to the widest cell of their column.
pub fn columns(rows: &[Vec<String>], indent: &str) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut width = vec![0; cols];
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            width[i] = width[i].max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in rows {
        let mut line = String::from(indent);
        for (i, cell) in row.iter().enumerate() {
            line.push_str(cell);
            if i + 1 < row.len() {
                let pad = width[i] - cell.chars().count() + 2;
                line.push_str(&" ".repeat(pad));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
