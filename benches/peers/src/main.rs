//! Runs every Rust contender on connect four from the start position, alternating them over
//! several repetitions, and prints median iterations per second as `<what>: <number> <unit>`
//! lines and a Markdown table.
//!
//! Usage: `yomi-peers [--reps N] [--sizes 20000,200000] [--only yomi|treant|hand]
//! [--no-playouts]`. `--only` runs one contender (for profilers).

use std::time::{Duration, Instant};

use yomi_classic::ConnectFour;
use yomi_core::search::mcts::{Mcts, MctsParams};
use yomi_core::search::Budget;
use yomi_core::Game;
use yomi_peers::c4::{Board, Rng};
use yomi_peers::handwritten::HandUct;
use yomi_peers::treant_c4;

#[derive(Clone, Copy, PartialEq, Debug)]
enum Contender {
    Yomi,
    Treant,
    Hand,
}

impl Contender {
    const ALL: [Contender; 3] = [Contender::Yomi, Contender::Treant, Contender::Hand];
    fn name(self) -> &'static str {
        match self {
            Contender::Yomi => "yomi",
            Contender::Treant => "treant",
            Contender::Hand => "hand-written",
        }
    }
}

/// One timed search.
struct Sample {
    /// Construction and search, not dropping the tree (wall clock).
    secs: f64,
    /// The same span in this thread's CPU time (less sensitive to other processes).
    cpu_secs: f64,
    /// yomi's own `SearchResult::rate()` (search only).
    own_rate: Option<f64>,
    /// Root moves: (column, visits, mean reward in [0, 1] for the player to move).
    root: Vec<(u8, u64, f64)>,
    nodes: usize,
    /// Time to free the tree.
    drop_secs: f64,
}

/// This thread's CPU time in seconds.
fn thread_cpu() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec to write to.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// Wall-clock and CPU stopwatch.
struct Watch(Instant, f64);

impl Watch {
    fn start() -> Self {
        Watch(Instant::now(), thread_cpu())
    }
    fn stop(&self) -> (f64, f64) {
        (self.0.elapsed().as_secs_f64(), thread_cpu() - self.1)
    }
}

fn run(c: Contender, iterations: u64, seed: u64) -> Sample {
    match c {
        Contender::Yomi => {
            let game = ConnectFour;
            let state = game.initial_state();
            let watch = Watch::start();
            let params = MctsParams { budget: Budget::iterations(iterations), threads: 1, ..Default::default() };
            let mut mcts = Mcts::uct(params, seed);
            let r = mcts.search(&game, &state);
            let (secs, cpu_secs) = watch.stop();
            assert_eq!(r.iterations, iterations, "yomi ran a different number of iterations");
            let t = Instant::now();
            drop(mcts);
            let drop_secs = t.elapsed().as_secs_f64();
            Sample {
                secs,
                cpu_secs,
                own_rate: Some(r.rate()),
                root: r.children.iter().map(|c| (c.mv.index(), c.visits, c.total / c.visits.max(1) as f64)).collect(),
                nodes: r.nodes,
                drop_secs,
            }
        }
        Contender::Treant => {
            let watch = Watch::start();
            let m = treant_c4::search(Board::default(), iterations, seed);
            let (secs, cpu_secs) = watch.stop();
            let root = m
                .root_child_stats()
                .iter()
                .map(|s| (s.mov, s.visits, (s.avg_reward + 1.0) / 2.0))
                .collect();
            let nodes = m.tree().num_nodes();
            let t = Instant::now();
            drop(m);
            Sample { secs, cpu_secs, own_rate: None, root, nodes, drop_secs: t.elapsed().as_secs_f64() }
        }
        Contender::Hand => {
            let watch = Watch::start();
            let mut h = HandUct::new(seed);
            let root = h.search(Board::default(), iterations);
            let (secs, cpu_secs) = watch.stop();
            let nodes = h.nodes();
            let t = Instant::now();
            drop(h);
            Sample {
                secs,
                cpu_secs,
                own_rate: None,
                root: root.into_iter().map(|(c, v, m)| (c, v as u64, m)).collect(),
                nodes,
                drop_secs: t.elapsed().as_secs_f64(),
            }
        }
    }
}

fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    }
}

/// The highest rate: on a machine shared with other work, the run least disturbed.
fn best(v: &[f64]) -> f64 {
    v.iter().cloned().fold(0.0, f64::max)
}

fn column(c: u8) -> char {
    (b'a' + c) as char
}

fn describe(name: &str, iterations: u64, s: &Sample) -> String {
    let total: u64 = s.root.iter().map(|r| r.1).sum();
    let best = s.root.iter().max_by_key(|r| r.1).map(|r| column(r.0)).unwrap_or('?');
    let dist: Vec<String> = s
        .root
        .iter()
        .map(|&(c, v, m)| format!("{}:{}({:.3})", column(c), v, m))
        .collect();
    format!(
        "sanity {name} {iterations}: move {best}, root visits {total}, nodes {}, visits(mean) {}",
        s.nodes,
        dist.join(" ")
    )
}

/// Random playouts per second of the peers' bitboard, measured like
/// `yomi_core::bench::random_playouts`.
fn bitboard_playouts(min_time: Duration, seed: u64) -> f64 {
    let mut rng = Rng::new(seed);
    let start = Instant::now();
    let mut games = 0u64;
    let mut sum = 0i64;
    loop {
        sum += Board::default().rollout(&mut rng) as i64;
        games += 1;
        if games % 64 == 0 && start.elapsed() >= min_time {
            break;
        }
    }
    std::hint::black_box(sum);
    games as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    let mut reps = 5usize;
    let mut sizes: Vec<u64> = vec![20_000, 200_000];
    let mut only: Option<Contender> = None;
    let mut playouts = true;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = || args.get(i + 1).cloned().unwrap_or_else(|| panic!("{} needs a value", args[i]));
        match args[i].as_str() {
            "--reps" => {
                reps = value().parse().expect("--reps N");
                i += 1;
            }
            "--sizes" => {
                sizes = value().split(',').map(|x| x.trim().parse().expect("--sizes a,b")).collect();
                i += 1;
            }
            "--only" => {
                only = Some(match value().as_str() {
                    "yomi" => Contender::Yomi,
                    "treant" => Contender::Treant,
                    "hand" | "hand-written" => Contender::Hand,
                    o => panic!("unknown contender {o}"),
                });
                i += 1;
            }
            "--no-playouts" => playouts = false,
            "-h" | "--help" => {
                println!("yomi-peers [--reps N] [--sizes 20000,200000] [--only yomi|treant|hand] [--no-playouts]");
                return;
            }
            a => panic!("unknown argument {a}"),
        }
        i += 1;
    }
    let contenders: Vec<Contender> = match only {
        Some(c) => vec![c],
        None => Contender::ALL.to_vec(),
    };

    println!("# connect four from the start position: UCT, one uniformly random playout per iteration, 1 thread");
    println!("# {reps} repetitions, contenders alternated (order rotated every repetition); median iterations/s");

    // Warm-up (page faults, caches, CPU frequency), and the sanity check of every tree.
    let check = *sizes.iter().max().unwrap_or(&20_000);
    for &c in &contenders {
        let s = run(c, check, 12345);
        println!("{}", describe(c.name(), check, &s));
    }
    if only.is_none() {
        // yomi's single worker draws from `Rng::seed_from_u64(derive_seed(seed, 1))`; the
        // hand-written search given that seed makes the same choices and playouts, so while
        // yomi's arithmetic and seeding stay as they are, both build the very same tree.
        let yomi = run(Contender::Yomi, check, 12345);
        let mut h = HandUct::new(yomi_core::rng::derive_seed(12345, 1));
        let hand: Vec<(u8, u64)> = h.search(Board::default(), check).iter().map(|r| (r.0, r.1 as u64)).collect();
        let same = yomi.root.iter().map(|r| (r.0, r.1)).collect::<Vec<_>>() == hand;
        println!(
            "sanity hand-written with yomi's seed reproduces yomi's root visits: {}",
            if same { "yes (same tree, same playouts)" } else { "no (yomi's seeding or arithmetic differs now)" }
        );
    }

    // rates[contender][size] and yomi's own rate.
    let mut rates = vec![vec![Vec::new(); sizes.len()]; contenders.len()];
    let mut cpu_rates = vec![vec![Vec::new(); sizes.len()]; contenders.len()];
    let mut own = vec![Vec::new(); sizes.len()];
    let mut drops = vec![vec![Vec::new(); sizes.len()]; contenders.len()];
    let mut pl_yomi = Vec::new();
    let mut pl_bits = Vec::new();
    for rep in 0..reps {
        for (si, &n) in sizes.iter().enumerate() {
            for k in 0..contenders.len() {
                let ci = (k + rep) % contenders.len();
                let c = contenders[ci];
                let s = run(c, n, 1000 + rep as u64);
                rates[ci][si].push(n as f64 / s.secs);
                cpu_rates[ci][si].push(n as f64 / s.cpu_secs);
                drops[ci][si].push(s.drop_secs);
                if let Some(r) = s.own_rate {
                    own[si].push(r);
                }
            }
        }
        if playouts {
            let t = Duration::from_millis(500);
            if rep % 2 == 0 {
                pl_yomi.push(yomi_core::bench::random_playouts(&ConnectFour, t, rep as u64).value);
                pl_bits.push(bitboard_playouts(t, rep as u64));
            } else {
                pl_bits.push(bitboard_playouts(t, rep as u64));
                pl_yomi.push(yomi_core::bench::random_playouts(&ConnectFour, t, rep as u64).value);
            }
        }
    }

    println!();
    let med = |ci: usize, si: usize| median(&rates[ci][si]);
    let find = |c: Contender| contenders.iter().position(|&x| x == c);
    for (si, &n) in sizes.iter().enumerate() {
        for (ci, c) in contenders.iter().enumerate() {
            println!("{} uct {} iterations: {:.0} iterations/s", c.name(), n, med(ci, si));
        }
        for (ci, c) in contenders.iter().enumerate() {
            println!("{} uct {} iterations (cpu time): {:.0} iterations/s", c.name(), n, median(&cpu_rates[ci][si]));
        }
        for (ci, c) in contenders.iter().enumerate() {
            println!("{} uct {} iterations (best of {}): {:.0} iterations/s", c.name(), n, reps, best(&rates[ci][si]));
        }
        if !own[si].is_empty() {
            println!("yomi uct {} iterations (SearchResult::rate): {:.0} iterations/s", n, median(&own[si]));
        }
        if let Some(y) = find(Contender::Yomi) {
            for other in [Contender::Treant, Contender::Hand] {
                if let Some(o) = find(other) {
                    println!("ratio yomi/{} {} iterations: {:.2} x", other.name(), n, med(y, si) / med(o, si));
                    let (cy, co) = (median(&cpu_rates[y][si]), median(&cpu_rates[o][si]));
                    println!("ratio yomi/{} {} iterations (cpu time): {:.2} x", other.name(), n, cy / co);
                    let (by, bo) = (best(&rates[y][si]), best(&rates[o][si]));
                    println!("ratio yomi/{} {} iterations (best of {}): {:.2} x", other.name(), n, reps, by / bo);
                }
            }
        }
        for (ci, c) in contenders.iter().enumerate() {
            println!("{} tree drop after {} iterations: {:.2} ms", c.name(), n, median(&drops[ci][si]) * 1e3);
        }
    }
    if playouts {
        println!("yomi ConnectFour random playouts: {:.0} playouts/s", median(&pl_yomi));
        println!("peers bitboard random playouts: {:.0} playouts/s", median(&pl_bits));
    }

    // Markdown table: median (min–max) in thousands of iterations per second.
    println!();
    let mut header = String::from("| contender |");
    let mut rule = String::from("| --- |");
    for &n in &sizes {
        header.push_str(&format!(" {n} it.: k it/s wall, median (min–max) | {n} it.: k it/s CPU time |"));
        rule.push_str(" ---: | ---: |");
    }
    println!("{header}\n{rule}");
    for (ci, c) in contenders.iter().enumerate() {
        let mut row = format!("| {} |", c.name());
        for si in 0..sizes.len() {
            let v = &rates[ci][si];
            let lo = v.iter().cloned().fold(f64::INFINITY, f64::min);
            let hi = v.iter().cloned().fold(0.0, f64::max);
            row.push_str(&format!(" {:.0} ({:.0}–{:.0}) |", med(ci, si) / 1e3, lo / 1e3, hi / 1e3));
            row.push_str(&format!(" {:.0} |", median(&cpu_rates[ci][si]) / 1e3));
        }
        println!("{row}");
    }
    if let Some(y) = find(Contender::Yomi) {
        for other in [Contender::Treant, Contender::Hand] {
            if let Some(o) = find(other) {
                let mut row = format!("| yomi / {} |", other.name());
                for si in 0..sizes.len() {
                    row.push_str(&format!(" {:.2}× |", med(y, si) / med(o, si)));
                    row.push_str(&format!(" {:.2}× |", median(&cpu_rates[y][si]) / median(&cpu_rates[o][si])));
                }
                println!("{row}");
            }
        }
        for other in [Contender::Treant, Contender::Hand] {
            if let Some(o) = find(other) {
                let mut row = format!("| yomi / {}, best runs |", other.name());
                for si in 0..sizes.len() {
                    row.push_str(&format!(" {:.2}× | |", best(&rates[y][si]) / best(&rates[o][si])));
                }
                println!("{row}");
            }
        }
    }
}
