//! Times DLMC turns from the start of a map (paper parameters):
//! `cargo run --release -p yomi-tubstap --example dlmc_turn [map] [turns]`.
use yomi_core::Game;
use yomi_tubstap::search::dlmc::{Dlmc, DlmcParams, Method};

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "standard".into());
    let turns: u32 = args.next().and_then(|t| t.parse().ok()).unwrap_or(5);
    let game = match yomi_tubstap::maps::load(&name) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let mut dlmc = Dlmc::new(DlmcParams::paper(Method::Dlmc), 7);
    let (mut secs, mut sims) = (0.0, 0);
    for _ in 0..turns {
        let plan = dlmc.plan(&game, &game.initial_state());
        secs += plan.elapsed.as_secs_f64();
        sims += plan.simulations;
    }
    println!(
        "{}: DLMC m=200 n=100 d=2: {:.1} ms/turn, {:.0} simulations/s ({turns} turns)",
        game.name(),
        1000.0 * secs / turns as f64,
        sims as f64 / secs
    );
}
