//! `yomi geister ...`: the Geister tournament protocol (GAT / GPW servers): a referee
//! server and a client that plays any yomi agent; AlphaZero training on
//! perfect-information Geister and the DQN baseline on the 5×4 board (yomi-nn). Geister itself is in the game list as
//! `geister` (hidden colours), `geister-perfect` and `geister-mini`, so `play`, `match`,
//! `tournament`, `agents` and `bench` take it too.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use clap::{Args, Subcommand};
use yomi_geister::session::{connect_and_play_with_retry, ClientResult, Clock, Server};
use yomi_geister::{registry, Geister};

use crate::error::{seconds_option, usage};
use yomi_core::limits::Zero;

/// Arguments of `yomi geister`.
#[derive(Args, Debug)]
pub struct GeisterArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: GeisterCommand,
}

/// The Geister commands.
#[derive(Subcommand, Debug)]
pub enum GeisterCommand {
    /// Referee games between two clients: the first player connects to --port, the second
    /// to --port + 1.
    #[command(
        long_about = "Listen on --port (first player) and --port + 1 (second player) and \
                      referee --games games with the tournament's messages (SET?, MOV?, \
                      OK/OKR/OKB/NG, WON:/LST:/DRW:), clocks and judgement: a garbled line, an \
                      illegal set-up or move, a timeout or a disconnect loses. A seat is taken \
                      by the first connection that answers SET? with SET:...; connections that \
                      close, stay silent or answer anything else take no seat and lose \
                      nothing. A seat not taken within --seat-timeout stops the server with \
                      an error. Listens on 127.0.0.1 unless --host says otherwise. One line \
                      per game goes to stdout; --verbose shows every message on stderr.",
        after_help = "Examples:\n  \
                      yomi geister server\n  \
                      yomi geister server --port 10000 --games 10 --main-time 60 --per-move 2"
    )]
    Server(ServerArgs),
    /// Connect to a Geister server and play one or more games with a yomi agent.
    #[command(after_help = "Examples:\n  \
                      yomi geister client --port 10000 --agent estimate:guard=5,iters=2000\n  \
                      yomi geister client --host 192.168.0.10 --port 10001 --agent mcts:iters=2000,dets=8")]
    Client(ClientArgs),
    /// AlphaZero self-play training on perfect-information Geister (yomi-nn); resumable.
    #[command(
        long_about = "Run the self-play -> train -> (gate) -> evaluate cycle of the experiment \
                      file on perfect-information Geister, checkpointing every cycle into --dir \
                      (network, optimizer, replay buffer, log.csv, log.png). Running the same \
                      command again resumes after the last finished cycle; raise `cycles` in \
                      the file to train further. The trained network plays as \
                      `az:net=DIR/best.ynn` (e.g. `yomi match geister-perfect az:net=... mcts`).",
        after_help = "Example:\n  yomi geister train experiments/geister-az.toml --dir runs/geister-az"
    )]
    Train(TrainArgs),
    /// DQN self-play on the 5×4 board (the paper's preliminary experiment); resumable.
    #[command(
        long_about = "Train a Q-network by self-play on the paper's 5x4 board (geister-mini), \
                      masked (only legal moves) or unmasked (an illegal choice loses), as the \
                      experiment file says; every cycle is checkpointed into --dir (network, \
                      target network, optimizer, replay buffer, log.csv, log.png) and the run \
                      resumes after the last finished cycle. Evaluations play random with an \
                      illegal choice replaced by a random legal move and report win, win+draw \
                      and illegal-choice rates.",
        after_help = "Example:\n  yomi geister dqn experiments/geister-dqn-masked.toml --dir runs/geister-dqn-masked"
    )]
    Dqn(DqnArgs),
}

/// Arguments of `yomi geister train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// The training configuration (TOML; see experiments/geister-az.toml).
    pub config: PathBuf,
    /// The run directory: checkpoints and logs (created; an existing run is resumed).
    #[arg(long, default_value = "runs/geister-az")]
    pub dir: PathBuf,
}

/// Arguments of `yomi geister dqn`.
#[derive(Args, Debug)]
pub struct DqnArgs {
    /// The DQN configuration (TOML; see experiments/geister-dqn-masked.toml).
    pub config: PathBuf,
    /// The run directory (created; an existing run is resumed).
    #[arg(long, default_value = "runs/geister-dqn")]
    pub dir: PathBuf,
}

/// Arguments of `yomi geister server`.
#[derive(Args, Debug)]
pub struct ServerArgs {
    /// Address to listen on (only this machine by default; `--host 0.0.0.0` listens on
    /// every interface).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// The first player's port; the second player's is the next one.
    #[arg(long, default_value_t = 10000)]
    pub port: u16,
    /// Games to referee (the clients reconnect for each).
    #[arg(long, default_value_t = 1)]
    pub games: usize,
    /// Each player's time for the whole game, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 600.0)]
    pub main_time: f64,
    /// Time each move may use beyond the main time, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub per_move: f64,
    /// Plies after which the game is drawn.
    #[arg(long, default_value_t = 300)]
    pub plies: u16,
    /// How long to wait, for each game, until a client has taken each seat (connected
    /// and answered SET?), in seconds; then the server stops with an error.
    #[arg(long, value_name = "SECONDS", default_value_t = 600.0)]
    pub seat_timeout: f64,
    /// The least time between two messages to the same client, in seconds (not counted on
    /// its clock). The reference server waits 0.1 s after each event, and public clients
    /// (Geister-cpp-lib's) lose a message that arrives together with the one before it;
    /// 0 is fine between yomi clients.
    #[arg(long, value_name = "SECONDS", default_value_t = 0.1)]
    pub message_gap: f64,
    /// Show every message on stderr.
    #[arg(long)]
    pub verbose: bool,
}

/// Arguments of `yomi geister client`.
#[derive(Args, Debug)]
pub struct ClientArgs {
    /// The server.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// 10000 to play first, 10001 to play second (on the tournament server).
    #[arg(long, default_value_t = 10000)]
    pub port: u16,
    /// The agent (see `yomi agents geister`). The default guards the exits against
    /// ghosts that run for them (see the yomi-geister README: 94% against
    /// Geister-cpp-lib's rush player, where the paper's estimate alone scored 15%).
    #[arg(long, default_value = "estimate:guard=5,iters=2000")]
    pub agent: String,
    /// Games to play (reconnecting for each).
    #[arg(long, default_value_t = 1)]
    pub games: usize,
    /// How long to keep retrying a refused connection (with back-off) before a game, in
    /// seconds: servers pause between games before they listen again.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub retry: f64,
    /// Seed of the agent's random choices.
    #[arg(long, default_value_t = yomi_core::rng::DEFAULT_SEED)]
    pub seed: u64,
    /// Show every message on stderr.
    #[arg(long)]
    pub verbose: bool,
}

/// Runs `yomi geister ...`.
///
/// # Errors
/// Bad arguments (usage errors), sockets that cannot be opened, a client session that fails.
pub fn run(args: GeisterArgs) -> anyhow::Result<()> {
    match args.command {
        GeisterCommand::Server(a) => server(a),
        GeisterCommand::Client(a) => client(a),
        GeisterCommand::Train(a) => train(a),
        GeisterCommand::Dqn(a) => dqn(a),
    }
}

/// The error of a neural-network command in a build without them.
#[cfg(not(feature = "nn"))]
fn without_nn(command: &str) -> anyhow::Result<()> {
    Err(usage(format!(
        "`yomi geister {command}` needs the neural networks, which this yomi was built \
         without: build it with `cargo build --release -p yomi --features nn` (burn adds \
         minutes to a cold build, so the feature is off by default)"
    )))
}

#[cfg(not(feature = "nn"))]
fn train(_: TrainArgs) -> anyhow::Result<()> {
    without_nn("train")
}

#[cfg(not(feature = "nn"))]
fn dqn(_: DqnArgs) -> anyhow::Result<()> {
    without_nn("dqn")
}

#[cfg(feature = "nn")]
fn train(a: TrainArgs) -> anyhow::Result<()> {
    let rows = yomi_nn::train::run_training(&Geister::perfect(), registry(), &a.config, &a.dir)
        .with_context(|| format!("training from {}", a.config.display()))?;
    eprintln!(
        "{} cycles in {}; the best network is {}",
        rows.len(),
        a.dir.display(),
        a.dir.join("best.ynn").display()
    );
    Ok(())
}

#[cfg(feature = "nn")]
fn dqn(a: DqnArgs) -> anyhow::Result<()> {
    let rows = yomi_nn::dqn::run_dqn(&Geister::mini(), &a.config, &a.dir)
        .with_context(|| format!("DQN training from {}", a.config.display()))?;
    let games = rows.last().map_or(0, |r| r.games_total);
    match rows.iter().rev().find_map(|r| r.eval.as_ref()) {
        Some(e) => println!(
            "{games} self-play games; vs random over {} games: win {:.3} [{:.3}, {:.3}], \
             win+draw {:.3}, illegal choices {}/{}; log in {}",
            e.stats.games,
            e.win[0],
            e.win[1],
            e.win[2],
            e.win_draw[0],
            e.stats.illegal,
            e.stats.decisions,
            a.dir.join("log.csv").display()
        ),
        None => println!(
            "{games} self-play games; no evaluation yet; log in {}",
            a.dir.join("log.csv").display()
        ),
    }
    Ok(())
}

/// A duration option of the Geister commands, zero allowed (see
/// [`crate::error::seconds_option`]).
fn seconds(option: &str, s: f64) -> anyhow::Result<Duration> {
    seconds_option(option, s, Zero::Allowed)
}

fn server(a: ServerArgs) -> anyhow::Result<()> {
    if a.plies == 0 {
        return Err(usage("--plies must be positive"));
    }
    let clock = Clock {
        main: seconds("--main-time", a.main_time)?,
        per_move: seconds("--per-move", a.per_move)?,
    };
    let seat_timeout = seconds("--seat-timeout", a.seat_timeout)?;
    let game = Geister::standard().with_max_plies(a.plies);
    let mut srv = Server::bind(&a.host, a.port, game, clock)
        .with_context(|| format!("cannot listen on {}:{} and the next port", a.host, a.port))?;
    srv.seat_timeout = seat_timeout;
    srv.message_gap = seconds("--message-gap", a.message_gap)?;
    if srv.message_gap > Duration::from_secs(10) {
        // Every message waits this long: more would stall games, not pace them.
        return Err(usage("--message-gap must be at most 10 seconds"));
    }
    let [p0, p1] = srv.ports()?;
    eprintln!(
        "listening: first player on {}:{p0}, second on {}:{p1}",
        a.host, a.host
    );
    for g in 1..=a.games {
        let verbose = a.verbose;
        let report = srv
            .play_one(|line| {
                if verbose {
                    eprintln!("{line}");
                }
            })
            .with_context(|| format!("game {g}"))?;
        println!(
            "game {g}: {} after {} plies; final board {}",
            report.ending, report.plies, report.final_board
        );
    }
    Ok(())
}

fn client(a: ClientArgs) -> anyhow::Result<()> {
    let game = Geister::standard();
    let reg = registry();
    let recipe = reg
        .recipe(&game, &a.agent)
        .map_err(|e| usage(format!("--agent: {e}")))?;
    let patience = seconds("--retry", a.retry)?;
    let (mut won, mut lost, mut drawn) = (0, 0, 0);
    for g in 0..a.games {
        let mut agent = recipe.build(&game, yomi_core::rng::derive_seed(a.seed, g as u64));
        let verbose = a.verbose;
        let result = connect_and_play_with_retry(
            (a.host.as_str(), a.port),
            patience,
            &game,
            agent.as_mut(),
            |line| {
                if verbose {
                    eprintln!("{line}");
                }
            },
        )
        .with_context(|| format!("game {} on {}:{}", g + 1, a.host, a.port))?;
        let (word, board) = match result {
            ClientResult::Won(b) => {
                won += 1;
                ("won", b)
            }
            ClientResult::Lost(b) => {
                lost += 1;
                ("lost", b)
            }
            ClientResult::Draw(b) => {
                drawn += 1;
                ("drew", b)
            }
        };
        println!("game {}: {word}; final board {board}", g + 1);
    }
    if a.games > 1 {
        println!("{won} won, {drawn} drawn, {lost} lost");
    }
    Ok(())
}
