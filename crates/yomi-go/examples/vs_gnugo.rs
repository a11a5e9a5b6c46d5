//! Win rate of a yomi agent against GNU Go on 9×9 (Chinese rules, komi 7.5), colours
//! alternating, both programs driven over GTP (yomi's engine in-process, GNU Go as a child
//! process). GNU Go's `final_score` referees each game; yomi's own count is reported beside
//! it. Prints one line per game and the win rate with its Wilson 95 % interval.
//!
//! ```text
//! cargo run --release -p yomi-go --example vs_gnugo -- \
//!     [--agent mcts:iters=10000] [--games 20] [--level 10] [--size 9] [--komi 7.5] \
//!     [--gnugo /usr/games/gnugo] [--offset 0] [--moves true]
//! ```
//!
//! Game `i` (from `--offset`) seeds GNU Go with `i + 1` and yomi with `1000 + i`, and yomi
//! plays Black in even games, so runs with different offsets add up to one longer match.

use std::error::Error;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::Instant;

use yomi_core::arena::stats::wilson_interval;
use yomi_go::gtp::{GtpConfig, GtpEngine};

/// A GTP peer over pipes.
struct Peer {
    child: Child,
    out: BufReader<ChildStdout>,
}

impl Peer {
    fn ask(&mut self, cmd: &str) -> Result<String, Box<dyn Error>> {
        let stdin = self
            .child
            .stdin
            .as_mut()
            .ok_or("GNU Go's stdin is closed")?;
        writeln!(stdin, "{cmd}")?;
        stdin.flush()?;
        let mut resp = String::new();
        loop {
            let mut line = String::new();
            if self.out.read_line(&mut line)? == 0 {
                return Err(format!("GNU Go closed the connection during '{cmd}'").into());
            }
            if line.trim().is_empty() && !resp.is_empty() {
                break;
            }
            resp.push_str(&line);
        }
        match resp.strip_prefix('=') {
            Some(r) => Ok(r.trim().to_string()),
            None => Err(format!("GNU Go answered '{cmd}' with {}", resp.trim()).into()),
        }
    }
}

fn ask_yomi(e: &mut GtpEngine, cmd: &str) -> Result<String, Box<dyn Error>> {
    let r = e.handle_line(cmd).unwrap_or_default();
    match r.strip_prefix('=') {
        Some(r) => Ok(r.trim().to_string()),
        None => Err(format!("yomi answered '{cmd}' with {}", r.trim()).into()),
    }
}

/// Black's lead from a GTP score (`B+3.5`, `W+0.5`, `0`).
fn parse_score(s: &str) -> Result<f64, Box<dyn Error>> {
    let s = s.trim();
    if s == "0" {
        return Ok(0.0);
    }
    let (side, v) = s.split_at(2.min(s.len()));
    let v: f64 = v.parse().map_err(|_| format!("bad score '{s}'"))?;
    match side {
        "B+" => Ok(v),
        "W+" => Ok(-v),
        _ => Err(format!("bad score '{s}'").into()),
    }
}

struct Options {
    agent: String,
    games: usize,
    level: u32,
    size: usize,
    komi: f64,
    gnugo: String,
    offset: usize,
    /// Print each game's moves (GTP vertices, Black first) after its result line.
    moves: bool,
}

fn options() -> Result<Options, Box<dyn Error>> {
    let mut o = Options {
        agent: "mcts:iters=10000".into(),
        games: 20,
        level: 10,
        size: 9,
        komi: 7.5,
        gnugo: "/usr/games/gnugo".into(),
        offset: 0,
        moves: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let v = args.next().ok_or(format!("{a} needs a value"))?;
        match a.as_str() {
            "--agent" => o.agent = v,
            "--games" => o.games = v.parse()?,
            "--level" => o.level = v.parse()?,
            "--size" => o.size = v.parse()?,
            "--komi" => o.komi = v.parse()?,
            "--gnugo" => o.gnugo = v,
            "--offset" => o.offset = v.parse()?,
            "--moves" => o.moves = v.parse()?,
            other => return Err(format!("unknown option {other}").into()),
        }
    }
    Ok(o)
}

/// Plays game `game`; returns GNU Go's and yomi's counts from yomi's side, and the moves.
fn play_game(o: &Options, game: usize) -> Result<(f64, f64, Vec<String>), Box<dyn Error>> {
    let mut child = Command::new(&o.gnugo)
        .args([
            "--mode",
            "gtp",
            "--level",
            &o.level.to_string(),
            "--chinese-rules",
            "--seed",
            &(game + 1).to_string(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", o.gnugo))?;
    let out = BufReader::new(child.stdout.take().ok_or("no stdout")?);
    let mut gg = Peer { child, out };
    let mut yomi = GtpEngine::new(GtpConfig {
        agent: o.agent.clone(),
        seed: 1000 + game as u64,
        ..GtpConfig::default()
    })?;
    for cmd in [
        format!("boardsize {}", o.size),
        "clear_board".into(),
        format!("komi {}", o.komi),
    ] {
        gg.ask(&cmd)?;
        ask_yomi(&mut yomi, &cmd)?;
    }
    let yomi_color = if game % 2 == 0 { "b" } else { "w" };
    let mut color = "b";
    let mut passes = 0;
    let mut moves = Vec::new();
    while passes < 2 && moves.len() < 3 * o.size * o.size {
        let mv = if color == yomi_color {
            let mv = ask_yomi(&mut yomi, &format!("genmove {color}"))?;
            gg.ask(&format!("play {color} {mv}"))?;
            mv
        } else {
            let mv = gg.ask(&format!("genmove {color}"))?;
            ask_yomi(&mut yomi, &format!("play {color} {mv}"))?;
            mv
        };
        passes = if mv.eq_ignore_ascii_case("pass") {
            passes + 1
        } else {
            0
        };
        color = if color == "b" { "w" } else { "b" };
        moves.push(mv.trim().to_string());
    }
    let theirs = parse_score(&gg.ask("final_score")?)?;
    let ours = parse_score(&ask_yomi(&mut yomi, "final_score")?)?;
    let _ = gg.ask("quit");
    let _ = gg.child.wait();
    // From yomi's side.
    let sign = if yomi_color == "b" { 1.0 } else { -1.0 };
    Ok((sign * theirs, sign * ours, moves))
}

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), Box<dyn Error>> {
    let o = options()?;
    if !std::path::Path::new(&o.gnugo).exists() {
        return Err(format!("{} not found (apt-get install gnugo)", o.gnugo).into());
    }
    println!(
        "yomi '{}' vs GNU Go level {} on {}x{}, komi {}, games {}..{}, colours alternating",
        o.agent,
        o.level,
        o.size,
        o.size,
        o.komi,
        o.offset + 1,
        o.offset + o.games
    );
    let start = Instant::now();
    let (mut points, mut agree) = (0.0, 0);
    for g in o.offset..o.offset + o.games {
        let (theirs, ours, record) = play_game(&o, g)?;
        let result = if theirs > 0.0 {
            1.0
        } else if theirs == 0.0 {
            0.5
        } else {
            0.0
        };
        points += result;
        agree += (theirs == ours) as usize;
        println!(
            "game {:>3}: yomi {} {:>5}  (GNU Go's count {:+}, yomi's {:+}, {} moves, {:.0} s so far)",
            g + 1,
            if g % 2 == 0 { "black" } else { "white" },
            if result == 1.0 {
                "wins"
            } else if result == 0.0 {
                "loses"
            } else {
                "draws"
            },
            theirs,
            ours,
            record.len(),
            start.elapsed().as_secs_f64()
        );
        if o.moves {
            println!("  moves: {}", record.join(" "));
        }
    }
    let n = o.games as u64;
    let (lo, hi) = wilson_interval(points, n, 1.96);
    println!(
        "yomi '{}' vs GNU Go level {}: {}/{} points, win rate {:.3}, Wilson 95% [{:.3}, {:.3}]; \
         counts agreed in {}/{} games",
        o.agent,
        o.level,
        points,
        n,
        points / n.max(1) as f64,
        lo,
        hi,
        agree,
        n
    );
    Ok(())
}
