//! How well yomi's end-of-game count (dead stones by Monte Carlo ownership, then area)
//! agrees with another engine's `final_score`, over the games of `yomi go twogtp`
//! journals: for each game that ended by passes and that the second engine scored, yomi
//! counts the final position with light and with heavy playouts, and the margins are
//! compared with the second engine's.
//!
//! ```text
//! cargo run --release -p yomi-go --example score_agreement -- [--playouts 400] FILE.jsonl...
//! ```

use std::error::Error;

use yomi_core::Game;
use yomi_go::game::{GoGame, Rules};
use yomi_go::heavy::HeavyConfig;
use yomi_go::score::{dead_stones_by, Count, Playouts, Scoring};
use yomi_go::twogtp::{parse_score, GameRecord};

fn main() -> Result<(), Box<dyn Error>> {
    let mut playouts = 400usize;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--playouts" {
            playouts = args.next().ok_or("--playouts needs a value")?.parse()?;
        } else {
            files.push(a);
        }
    }
    if files.is_empty() {
        return Err("usage: score_agreement [--playouts N] FILE.jsonl...".into());
    }
    let kinds = [
        ("light", Playouts::Light),
        ("heavy", Playouts::Heavy(HeavyConfig::default())),
    ];
    // Per kind: games, same margin, same winner, summed |difference|.
    let mut stats = [(0u32, 0u32, 0u32, 0.0f64); 2];
    for file in &files {
        let text = std::fs::read_to_string(file)?;
        let mut size = 9usize;
        let mut komi = 7.5f64;
        for line in text.lines() {
            let v: serde_json::Value = serde_json::from_str(line)?;
            if let Some(s) = v.pointer("/yomi_journal/settings") {
                size = s["size"].as_u64().unwrap_or(9) as usize;
                komi = s["komi"].as_f64().unwrap_or(7.5);
                continue;
            }
            let rec: GameRecord = serde_json::from_value(v)?;
            let Some(theirs) = rec.second_score.as_deref().and_then(parse_score) else {
                continue;
            };
            if rec.end != "passes" {
                continue;
            }
            let game = GoGame::with_rules(
                size,
                Rules {
                    komi,
                    ..Rules::default()
                },
            )?;
            let mut state = game.initial_state();
            for m in &rec.moves {
                let mv = game.parse_vertex(m)?;
                game.play(&mut state, mv)
                    .map_err(|e| format!("game {}: {m}: {e}", rec.game))?;
            }
            for (k, (_, kind)) in kinds.iter().enumerate() {
                let dead = dead_stones_by(&game, &state, playouts, rec.game as u64, *kind);
                let ours = Count::new(&state, &dead).score(Scoring::Area);
                let st = &mut stats[k];
                st.0 += 1;
                st.1 += u32::from((ours - theirs).abs() < 1e-9);
                st.2 += u32::from(ours.signum() == theirs.signum());
                st.3 += (ours - theirs).abs();
            }
        }
    }
    println!("playouts per count: {playouts}");
    for (k, (name, _)) in kinds.iter().enumerate() {
        let (n, same, winner, diff) = stats[k];
        println!(
            "{name}: {n} games, same margin {same} ({:.1} %), same winner {winner}, mean |margin difference| {:.2} points",
            100.0 * f64::from(same) / f64::from(n.max(1)),
            diff / f64::from(n.max(1))
        );
    }
    Ok(())
}
