//! Plays random games on two rule sheets of the same game side by side, joint moves matched
//! by their text, and reports the first state where legal moves, termination or goals differ.
//!
//! `cargo run --release -p yomi-ggp --example ggp_compare A.kif B.kif [GAMES] [SEED]`
use yomi_core::{Game, Rng};
use yomi_ggp::{GdlGame, GdlState};

fn legal(g: &GdlGame, s: &GdlState) -> Vec<Vec<String>> {
    let r = g.reasoner();
    let mut buf = Vec::new();
    (0..r.roles().len())
        .map(|role| {
            r.legal_into(s, role, &mut buf);
            let mut v: Vec<String> = buf.iter().map(|&a| r.action_text(a).to_string()).collect();
            v.sort();
            v
        })
        .collect()
}

fn load(path: &str) -> GdlGame {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    GdlGame::from_kif(path, &text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: ggp_compare A.kif B.kif [GAMES] [SEED]");
        std::process::exit(2);
    }
    let (a, b) = (load(&args[1]), load(&args[2]));
    let games: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let mut rng = Rng::seed_from_u64(args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1));
    let (ra, rb) = (a.reasoner(), b.reasoner());
    let mut steps = 0usize;
    for game in 0..games {
        let (mut sa, mut sb) = (a.initial_state(), b.initial_state());
        loop {
            let la = legal(&a, &sa);
            let lb = legal(&b, &sb);
            let (ta, tb) = (ra.is_terminal(&sa), rb.is_terminal(&sb));
            let (ga, gb) = (a.returns(&sa), b.returns(&sb));
            if la != lb || ta != tb || (ta && ga != gb) {
                println!(
                    "game {game}: differ at\n  A {}\n  B {}",
                    a.format_state(&sa),
                    b.format_state(&sb)
                );
                println!(
                    "  legal A {la:?}\n  legal B {lb:?}\n  terminal {ta} {tb}, goals {:?} {:?}",
                    ra.goal_values(&sa),
                    rb.goal_values(&sb)
                );
                std::process::exit(1);
            }
            if ta {
                break;
            }
            let texts: Vec<&String> = la.iter().map(|m| &m[rng.below(m.len())]).collect();
            let ja: Vec<u32> = texts
                .iter()
                .enumerate()
                .map(|(r, t)| a.parse_action(&sa, r, t).unwrap())
                .collect();
            let jb: Vec<u32> = texts
                .iter()
                .enumerate()
                .map(|(r, t)| b.parse_action(&sb, r, t).unwrap())
                .collect();
            ra.step(&mut sa, &ja);
            rb.step(&mut sb, &jb);
            steps += 1;
        }
    }
    println!("{games} games, {steps} steps: same legal moves, terminal states and goals");
}
