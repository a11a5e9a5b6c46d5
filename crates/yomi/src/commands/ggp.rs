//! General Game Playing: any GDL rule sheet is a game of the list as `ggp:<file.kif>` (or
//! `ggp:tictactoe`, `ggp:connect4`, the rule sheets yomi-ggp ships), so `play`, `match`,
//! `agents` and `bench` take it; `yomi ggp check <file.kif>` validates a rule sheet and plays
//! random games on it; `yomi ggp player` serves the GGP match protocol over HTTP and
//! `yomi ggp host` runs matches between such players.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use yomi_core::Game;
use yomi_ggp::{games, Description, GdlGame};

use crate::error::usage;

/// Arguments of `yomi ggp`.
#[derive(Args, Debug)]
pub struct GgpArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: GgpCommand,
}

/// The GGP commands.
#[derive(Subcommand, Debug)]
pub enum GgpCommand {
    /// Read and validate a GDL rule sheet, compile it, then play random games to the end:
    /// prints warnings, roles, the compiled program's size, mean goals and playouts/s, and
    /// the rule-sheet bugs the random games ran into (a role with no or several goal values
    /// at a terminal state, or with no legal move before the end), each with its first
    /// state and the rules involved.
    #[command(
        after_help = "Examples:\n  yomi ggp check games/nim.kif\n  yomi ggp check ticTacToe.kif --games 1000 --time 3"
    )]
    Check(CheckArgs),
    /// Play GGP matches over HTTP (the Stanford / ggp-base match protocol): a game server
    /// POSTs start, play, stop, abort and info messages; each move is searched until the
    /// play clock minus the margin, and a legal move always goes back.
    #[command(
        after_help = "Examples:\n  yomi ggp player --port 9147\n  yomi ggp player --port 9147 --agent mcts:c=0.7 --margin 1"
    )]
    Player(PlayerArgs),
    /// Run matches between GGP players over HTTP and append one JSON record per match (a
    /// rerun with the same settings plays only the matches missing from --out).
    #[command(
        after_help = "Example:\n  yomi ggp host --game ggp:tictactoe --player 127.0.0.1:9147 --player 127.0.0.1:9148 \\\n      --startclock 10 --playclock 2 --matches 4 --out matches.jsonl"
    )]
    Host(HostArgs),
}

/// Arguments of `yomi ggp player`.
#[derive(Args, Debug)]
pub struct PlayerArgs {
    /// TCP port to listen on.
    #[arg(long, default_value_t = 9147)]
    pub port: u16,
    /// Address to listen on (127.0.0.1: this machine only; 0.0.0.0 to let other machines'
    /// hosts reach the player).
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: String,
    /// The agent (see `yomi agents ggp:tictactoe`); for mcts the time per move is set from
    /// the play clock, and subtrees are proven (solver=true) unless the spec says otherwise.
    #[arg(long, default_value = "mcts")]
    pub agent: String,
    /// Seconds kept free on both clocks (at most half of a clock).
    #[arg(long, default_value_t = 0.5)]
    pub margin: f64,
    /// Do not search on the opponent's time. By default, when this role's move is forced
    /// (the other role's turn), the player answers at once and goes on searching until the
    /// next message, keeping that tree for its next move.
    #[arg(long)]
    pub no_ponder: bool,
    /// The name answered to (info).
    #[arg(long, default_value = "yomi")]
    pub name: String,
    /// Seed of the agent.
    #[arg(long, default_value_t = yomi_core::rng::DEFAULT_SEED)]
    pub seed: u64,
    /// The playout policies (`playout=` of mcts) tried against each other at the start
    /// clock, the first kept unless another scores better in the trial games; the start
    /// clock left after compiling goes to them (at most 60 s; none below 3 s). Only for a
    /// plain `mcts` agent whose spec names no playout. `none`: no trial.
    #[arg(long, default_value = "uniform,nst", value_name = "LIST")]
    pub trial_playouts: String,
    /// Seconds per move of the trial games.
    #[arg(long, default_value_t = 0.02, value_name = "SECONDS")]
    pub trial_move_seconds: f64,
    /// Print one line per message on stderr, and how each match's trial went.
    #[arg(long)]
    pub verbose: bool,
}

/// Arguments of `yomi ggp host`.
#[derive(Args, Debug)]
pub struct HostArgs {
    /// The rule sheet: a file, or a shipped game as ggp:NAME.
    #[arg(long)]
    pub game: String,
    /// A player's HOST:PORT, once per role (role order of the rule sheet).
    #[arg(long = "player", required = true)]
    pub players: Vec<String>,
    /// Start clock, seconds.
    #[arg(long, default_value_t = 10.0)]
    pub startclock: f64,
    /// Play clock, seconds.
    #[arg(long, default_value_t = 5.0)]
    pub playclock: f64,
    /// Extra seconds allowed for the network on each request.
    #[arg(long, default_value_t = 1.0)]
    pub grace: f64,
    /// Matches to run; match k gives role r to player (r + k) mod n.
    #[arg(long, default_value_t = 1)]
    pub matches: usize,
    /// The match records journal (a settings header, then one JSON object a line; resumed
    /// with the same game, players, clocks and seed, refused with others).
    #[arg(long, default_value = "matches.jsonl")]
    pub out: PathBuf,
    /// Seed of the substitute random moves.
    #[arg(long, default_value_t = yomi_core::rng::DEFAULT_SEED)]
    pub seed: u64,
}

/// Arguments of `yomi ggp check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The rule sheet (KIF).
    pub file: PathBuf,
    /// Random games played to the end for the mean goals (0: none).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Seconds of random playouts for the playouts/s figure (0: not measured).
    #[arg(long, default_value_t = 1.0)]
    pub time: f64,
    /// A random game longer than this many moves counts as not ending.
    #[arg(long, default_value_t = 10_000)]
    pub max_moves: usize,
    /// Seed of the random games.
    #[arg(long, default_value_t = yomi_core::rng::DEFAULT_SEED)]
    pub seed: u64,
}

pub use yomi_games::choice::ggp_from_name as game_from_name;

/// Runs a GGP command.
///
/// # Errors
/// A bad rule sheet (with line and column) or an unreadable file; a usage error for bad
/// numbers.
pub fn run(args: GgpArgs) -> anyhow::Result<()> {
    match args.command {
        GgpCommand::Check(a) => check(&a),
        GgpCommand::Player(a) => player(&a),
        GgpCommand::Host(a) => host(&a),
    }
}

/// A duration flag's value in seconds, checked by the one rule every command uses
/// ([`yomi_core::limits::seconds`]: finite, from 0 to 1e6 s, the value echoed as typed).
fn seconds(name: &str, v: f64) -> anyhow::Result<f64> {
    crate::error::seconds_option(name, v, yomi_core::limits::Zero::Allowed).map(|d| d.as_secs_f64())
}

fn player(a: &PlayerArgs) -> anyhow::Result<()> {
    let config = yomi_ggp::player::PlayerConfig {
        name: a.name.clone(),
        agent: a.agent.clone(),
        margin: seconds("--margin", a.margin)?,
        ponder: !a.no_ponder,
        seed: a.seed,
        trial: yomi_ggp::trial::TrialConfig {
            candidates: trial_playouts(&a.trial_playouts)?,
            move_seconds: seconds("--trial-move-seconds", a.trial_move_seconds)?,
        },
        verbose: a.verbose,
        ..Default::default()
    };
    // Check the agent spec now rather than at the first match, and every trial
    // candidate with it.
    let probe = games::shipped("tictactoe").map_err(|e| anyhow::anyhow!("{e}"))?;
    yomi_ggp::registry()
        .validate(&probe, &a.agent)
        .map_err(|e| usage(e.to_string()))?;
    for playout in &config.trial.candidates {
        if let Some(spec) = yomi_ggp::trial::with_playout(&a.agent, playout) {
            yomi_ggp::registry()
                .validate(&probe, &spec)
                .map_err(|e| usage(format!("--trial-playouts: {e}")))?;
        }
    }
    let addr = format!("{}:{}", a.bind, a.port);
    let server = yomi_ggp::player::PlayerServer::bind(config, &addr)?;
    eprintln!(
        "ggp player {} ({}) listening on {}",
        a.name,
        a.agent,
        server.local_addr().map_or(addr.clone(), |s| s.to_string())
    );
    server.run(a.verbose);
    Ok(())
}

/// The `--trial-playouts` list: comma-separated `playout=` values, or `none`.
fn trial_playouts(list: &str) -> anyhow::Result<Vec<String>> {
    if list.trim() == "none" {
        return Ok(Vec::new());
    }
    let names: Vec<String> = list.split(',').map(|p| p.trim().to_string()).collect();
    if names.iter().any(String::is_empty) {
        return Err(usage(format!(
            "--trial-playouts {list:?}: write playout names separated by commas (e.g. \
             uniform,nst), or none"
        )));
    }
    Ok(names)
}

fn host(a: &HostArgs) -> anyhow::Result<()> {
    let game = if a.game.to_ascii_lowercase().starts_with("ggp:") {
        game_from_name(&a.game).map_err(|e| anyhow::anyhow!(e))?
    } else {
        game_from_name(&format!("ggp:{}", a.game)).map_err(|e| anyhow::anyhow!(e))?
    }
    .ok_or_else(|| usage(format!("{} is not a rule sheet", a.game)))?;
    let config = yomi_ggp::host::HostConfig {
        start_clock: seconds("--startclock", a.startclock)?,
        play_clock: seconds("--playclock", a.playclock)?,
        grace: Duration::from_secs_f64(seconds("--grace", a.grace)?),
        seed: a.seed,
        ..Default::default()
    };
    let records = yomi_ggp::host::run_matches(&game, &a.players, a.matches, &config, &a.out, true)
        .map_err(|e| anyhow::anyhow!(e))?;
    let errors: usize = records.iter().map(|r| r.errors.len()).sum();
    println!(
        "{} match(es) of {} recorded in {} ({errors} player error(s))",
        records.len(),
        game.facts().name,
        a.out.display()
    );
    Ok(())
}

fn check(a: &CheckArgs) -> anyhow::Result<()> {
    let time = seconds("--time", a.time)?;
    let text = std::fs::read_to_string(&a.file)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", a.file.display()))?;
    let shown = a.file.display();
    let desc = Description::from_kif(&text).map_err(|e| anyhow::anyhow!("{shown}: {e}"))?;
    println!("{shown}: valid GDL ({} rules)", desc.rules.len());
    for w in &desc.warnings {
        println!("warning: {w}");
    }
    let stem = a
        .file
        .file_stem()
        .map_or_else(|| "game".into(), |s| s.to_string_lossy().into_owned());
    let start = Instant::now();
    let game = GdlGame::new(&stem, &desc).map_err(|e| anyhow::anyhow!("{shown}: {e}"))?;
    let built = start.elapsed().as_secs_f64();
    let facts = game.facts();
    println!("roles: {}", facts.player_names.join(" "));
    let st = &game.reasoner().stats;
    println!(
        "compiled in {built:.2} s: {} ground rules, {} base propositions, {} actions, \
         {} state-phase / {} move-phase / {} goal-phase propositions, {} literals",
        st.ground_rules,
        st.base,
        game.reasoner().action_count(),
        st.state_phase,
        st.move_phase,
        st.goal_phase,
        st.literals
    );
    if let Some(why) = &st.fallback {
        println!(
            "too large to ground ({why}): runs on the fallback evaluator (rules evaluated state \
             by state)"
        );
    }
    if st.fallback.is_none() {
        let m = game.material();
        println!(
            "material (eval=material): pieces per role {:?}; lead-to-goal correlation {:.2} \
             over {} random games: {}",
            m.pieces,
            m.correlation,
            m.games,
            if m.used { "used" } else { "not used (neutral)" }
        );
    }
    if a.games > 0 {
        let report = yomi_ggp::check::check_random_games(&game, a.games, a.max_moves, a.seed);
        let means: Vec<String> = facts
            .player_names
            .iter()
            .zip(&report.goal_sums)
            .map(|(name, s)| format!("{name} {:.1}", s / report.ended.max(1) as f64))
            .collect();
        println!(
            "random games: {} of {} ended, mean length {:.1} moves, mean goals: {}",
            report.ended,
            report.games,
            report.plies as f64 / report.games as f64,
            means.join(", ")
        );
        if report.ended < report.games {
            println!(
                "warning: {} random game(s) did not end within {} moves",
                report.games - report.ended,
                a.max_moves
            );
        }
        for f in &report.findings {
            print!("warning: {f}");
        }
        if let Some(e) = game.reasoner().fallback_failure() {
            println!(
                "warning: the fallback evaluator failed on a state, which ended its game: {e}"
            );
        }
    }
    if time > 0.0 {
        let f = yomi_ggp::bench::playouts(&game, Duration::from_secs_f64(time), a.seed);
        println!("random playouts: {:.0} playouts/s (one thread)", f.value);
    }
    Ok(())
}
