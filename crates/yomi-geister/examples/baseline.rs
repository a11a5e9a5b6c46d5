//! Baselines for the network work: an agent against another on a Geister variant through
//! core's arena, with Wilson intervals (seats alternate; records are appended to the JSONL
//! file named by the fourth argument, so an interrupted run resumes).
//!
//! `cargo run --release -p yomi-geister --example baseline -- geister-perfect mcts:iters=1000 random 100 [records.jsonl]`

use yomi_core::arena::round_robin::RoundRobin;
use yomi_core::arena::TableFormat;
use yomi_geister::{registry, Geister};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [name, a, b, games, rest @ ..] = &args[..] else {
        return Err("usage: baseline <game> <agent> <agent> <games> [records.jsonl]".into());
    };
    let game = Geister::from_name(name).ok_or("unknown Geister variant")?;
    let mut rr = RoundRobin::head_to_head(a.clone(), b.clone())
        .games(games.parse()?)
        .seed(2026)
        .threads(2);
    if let Some(out) = rest.first() {
        rr = rr.out(out.clone());
    }
    let result = rr.run(&game, &registry())?;
    println!("{}", result.report(TableFormat::Markdown));
    Ok(())
}
