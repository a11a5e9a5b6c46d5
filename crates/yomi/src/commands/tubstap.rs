//! `yomi tubstap ...`: TUBSTAP's own commands (check a map, the paper's speed figures, the
//! platform's network client, the paper's experiment). TUBSTAP itself is in the game list as
//! `tubstap` (the standard map) and `tubstap:<map>` (a built-in map or a `.tbsmap` file), so
//! `play`, `match`, `tournament`, `agents` and `bench` take it too.

use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Subcommand};
use yomi_core::Game;
use yomi_tubstap::client::{self, ClientConfig, DEFAULT_PORT};
use yomi_tubstap::experiment;
use yomi_tubstap::{maps, TbsMap, Tubstap};

use crate::commands::round_robin::{arena_error, summary};
use crate::commands::{emit, table_format};
use crate::error::{seconds_option, usage};
use crate::games::GameChoice;
use crate::tournament_file::TournamentFile;
use yomi_core::limits::Zero;

/// Arguments of `yomi tubstap`.
#[derive(Args, Debug)]
pub struct TubstapArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: TubstapCommand,
}

/// The TUBSTAP commands.
#[derive(Subcommand, Debug)]
pub enum TubstapCommand {
    /// Load a map (a .tbsmap file or a built-in name), print its warnings and its start.
    #[command(
        after_help = "Examples:\n  yomi tubstap check my-map.tbsmap\n  yomi tubstap check standard"
    )]
    Check {
        /// The map: a `.tbsmap` file, or a built-in name (standard, duel, skies, fortress).
        #[arg(value_name = "MAP.tbsmap")]
        map: String,
    },
    /// The paper's speed figures: playouts/s, one DLMC and one method 1+2 turn with the
    /// paper's parameters (ms and simulations/s), UCT+PW iterations/s; one thread.
    #[command(after_help = "Examples:\n  yomi tubstap bench\n  yomi tubstap bench --map skies")]
    Bench {
        /// The map: a built-in name or a `.tbsmap` file.
        #[arg(long, default_value = "standard")]
        map: String,
    },
    /// Join a match on the platform's server (TCP line protocol) with a yomi agent.
    #[command(
        long_about = "Connect to a TUBSTAP platform server (its network match mode, port 7777) \
                      and play with a yomi agent: the server sends name, opponent, MAP, Color, \
                      Genmove and play; the client answers `= ...`. The session lasts until \
                      the server closes the connection; a summary of each game is printed. \
                      Malformed lines from the server end the session with an error naming \
                      the line.",
        after_help = "Examples:\n  \
                      yomi tubstap client --host 192.168.0.10 --port 7777 --agent dlmc-m12\n  \
                      yomi tubstap client --host localhost --agent dlmc:time=2.5 --verbose"
    )]
    Client(ClientArgs),
    /// Run an experiment file (a tournament file on a tubstap game) and compare with the
    /// paper's tables 1 and 3.
    #[command(
        long_about = "Run a round robin from a tournament file whose game is a TUBSTAP map \
                      (experiments/tubstap.toml is the paper's table 3, \
                      experiments/tubstap-table1.toml its table 1), print the standings and \
                      then every pairing's win-draw-loss and win rate (draws as half, 95 % \
                      Wilson interval) beside the paper's numbers. Flags override the file; \
                      an existing records file is resumed.",
        after_help = "Examples:\n  \
                      yomi tubstap experiment experiments/tubstap.toml\n  \
                      yomi tubstap experiment experiments/tubstap.toml --games 20 --out t3-small.jsonl"
    )]
    Experiment(ExperimentArgs),
}

/// Arguments of `yomi tubstap client`.
#[derive(Args, Debug)]
pub struct ClientArgs {
    /// The server's host name or address.
    #[arg(long)]
    pub host: String,
    /// The server's port.
    #[arg(long, default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// The agent that plays (`yomi agents tubstap` lists them; `time=` sets seconds per turn).
    #[arg(long, default_value = "dlmc")]
    pub agent: String,
    /// The name given to the server (default: `yomi <agent>`).
    #[arg(long)]
    pub name: Option<String>,
    /// Seed of the agent.
    #[arg(long, default_value_t = yomi_core::rng::DEFAULT_SEED)]
    pub seed: u64,
    /// Seconds to wait for the server's next line (and for the connection); 0: for ever.
    #[arg(long, default_value_t = 600.0)]
    pub timeout: f64,
    /// Show every line exchanged (on standard error).
    #[arg(long)]
    pub verbose: bool,
}

/// Arguments of `yomi tubstap experiment`.
#[derive(Args, Debug)]
pub struct ExperimentArgs {
    /// The experiment: a tournament file whose game is `tubstap` or `tubstap:<map>`.
    #[arg(value_name = "FILE.toml")]
    pub file: PathBuf,
    /// What the command line overrides in the file.
    #[command(flatten)]
    pub overrides: super::round_robin::FileOverrides,
    /// Print the standings as Markdown (the comparison is always Markdown).
    #[arg(long)]
    pub markdown: bool,
}

/// Runs a TUBSTAP command.
///
/// # Errors
/// A usage error for a map, agent or flag that is refused; file, network and protocol
/// errors.
pub fn run(args: TubstapArgs) -> anyhow::Result<()> {
    match args.command {
        TubstapCommand::Check { map } => check(&map),
        TubstapCommand::Bench { map } => {
            let game = maps::load(&map).map_err(|e| usage(e.to_string()))?;
            print_figures(&game)
        }
        TubstapCommand::Client(a) => client(a),
        TubstapCommand::Experiment(a) => experiment(a),
    }
}

/// `yomi tubstap check`: the map's facts, its warnings and the start position.
fn check(map: &str) -> anyhow::Result<()> {
    let builtin = maps::BUILTIN.iter().find(|(n, _)| *n == map);
    let (name, text) = match builtin {
        Some((name, text)) if !std::path::Path::new(map).exists() => {
            (name.to_string(), text.to_string())
        }
        _ => {
            let text =
                std::fs::read_to_string(map).with_context(|| format!("cannot read {map}"))?;
            let stem = std::path::Path::new(map)
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or(map)
                .to_string();
            (stem, text)
        }
    };
    let parsed = TbsMap::parse(&text).with_context(|| format!("{map} is not a valid map"))?;
    let warnings = parsed.warnings();
    let game = Tubstap::new(&name, parsed).with_context(|| format!("{map} is not playable"))?;
    let m = game.map();
    let mut out = format!(
        "{map}: {}x{} cells ({}x{} playable), {} units ({} red, {} blue), turn limit {}, HP threshold {}\n",
        m.width,
        m.height,
        m.width - 2,
        m.height - 2,
        m.units.len(),
        m.team_units(0).count(),
        m.team_units(1).count(),
        m.turn_limit,
        m.hp_threshold
    );
    if let Some(a) = &m.author {
        out.push_str(&format!("author: {a}\n"));
    }
    if let Some(c) = &m.comment {
        out.push_str(&format!("comment: {c}\n"));
    }
    if warnings.is_empty() {
        out.push_str("warnings: none\n");
    } else {
        for w in &warnings {
            out.push_str(&format!("warning: {w}\n"));
        }
    }
    out.push('\n');
    out.push_str(&game.render(&game.initial_state()));
    emit(&out)?;
    Ok(())
}

/// The crate's figures for `game`, one `<what>: <number> <unit>` line each.
pub fn print_figures(game: &Tubstap) -> anyhow::Result<()> {
    for figure in yomi_tubstap::bench::figures(game) {
        emit(&format!("{figure}\n"))?;
    }
    Ok(())
}

/// `yomi tubstap client`.
fn client(a: ClientArgs) -> anyhow::Result<()> {
    // 0 means no timeout.
    let timeout = seconds_option("--timeout", a.timeout, Zero::Allowed)?;
    yomi_tubstap::registry()
        .validate(&maps::standard(), &a.agent)
        .map_err(|e| usage(e.to_string()))?;
    let config = ClientConfig {
        name: a.name.unwrap_or_else(|| format!("yomi {}", a.agent)),
        agent: a.agent,
        seed: a.seed,
        timeout: (!timeout.is_zero()).then_some(timeout),
        ..ClientConfig::default()
    };
    let verbose = a.verbose;
    let mut log = |line: &str| {
        if verbose || line.starts_with("connected") || line.starts_with("game over") {
            eprintln!("{line}");
        }
    };
    let report = client::connect(&a.host, a.port, &config, &mut log)
        .context("the network session stopped")?;
    let mut text = format!(
        "session with {}:{} ended: {} game{}\n",
        a.host,
        a.port,
        report.games.len(),
        if report.games.len() == 1 { "" } else { "s" }
    );
    for (i, g) in report.games.iter().enumerate() {
        text.push_str(&format!("game {}: {g}\n", i + 1));
    }
    emit(&text)?;
    Ok(())
}

/// `yomi tubstap experiment`.
fn experiment(a: ExperimentArgs) -> anyhow::Result<()> {
    let mut file = TournamentFile::read(&a.file)?;
    let origin = a.file.display().to_string();
    let GameChoice::Tubstap(game) =
        GameChoice::from_name(&file.game).map_err(|e| anyhow::anyhow!("{origin}: game: {e}"))?
    else {
        return Err(usage(format!(
            "{origin}: game {:?} is not a TUBSTAP game; `yomi tournament` runs other games",
            file.game
        )));
    };
    a.overrides.apply(&mut file.round_robin);
    let config = file.round_robin;
    let registry = yomi_tubstap::registry();
    let resolved = config
        .resolve(&game, &registry)
        .map_err(arena_error)
        .with_context(|| format!("{origin}, agents"))?;
    eprintln!(
        "{}: experiment {origin}: {} agents, {} games per pairing, seed {}",
        game.facts().name,
        config.agents.len(),
        config.games,
        config.seed
    );
    let result = config
        .run_resolved(&game, resolved)
        .map_err(arena_error)
        .context("the experiment stopped")?;
    let mut text = summary(&config, &result, table_format(a.markdown));
    text.push_str(&experiment::report(&result));
    emit(&text)?;
    Ok(())
}
