//! The commands and their flags, defined once here: clap builds the parser and every
//! `--help` page from these structs and their doc comments.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::games::{parse_game, GameChoice};

/// yomi (読み, "reading ahead"): game-tree search on the command line.
///
/// Agents are named by spec strings, `name` or `name:key=value,...`, for example
/// `random`, `mcts:iters=2000,c=0.7`, `alphabeta:depth=6` or `human`; `yomi agents GAME`
/// lists them with every parameter. Every seeded command gives the same games for the same
/// seed.
#[derive(Parser, Debug)]
#[command(
    name = "yomi",
    version,
    after_help = "Examples:
  yomi games
  yomi agents connect4
  yomi play tictactoe human mcts:iters=2000
  yomi match connect4 mcts:iters=2000 flatmc:n=50 --games 20 --seed 1 --out c4.jsonl
  yomi tournament                       # the built-in connect four round robin
  yomi tournament examples/tournament.toml
  yomi bench connect4
  yomi report c4.jsonl"
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// List the built-in games: name, players and a short description.
    #[command(after_help = "Example:\n  yomi games")]
    Games,
    /// List the agents a game can use, with every parameter and the evaluators.
    #[command(
        long_about = "List the agents registered for GAME: each agent's name, what it does, \
                      and its parameters (key, default, what it does), then the evaluators \
                      that parameters such as `eval=` accept.\n\n\
                      Agents are written as spec strings: `name` or `name:key=value,...`.",
        after_help = "Example:\n  yomi agents connect4"
    )]
    Agents(AgentsArgs),
    /// Play one game, showing the board before every move.
    #[command(
        long_about = "Play one game between the given agents (one per seat, the first moves \
                      first), showing the board before every move and each move as it is \
                      played, then the result.\n\n\
                      The agent `human` reads moves from the terminal: type a move in the \
                      game's notation, `moves` to list the legal ones, `quit` to resign.",
        after_help = "Examples:\n  \
                      yomi play tictactoe human mcts:iters=2000\n  \
                      yomi play connect4 mcts:iters=20000 alphabeta:depth=6 --seed 7\n  \
                      yomi play connect4 human random --position '......./......./......./......./......./...x... o'"
    )]
    Play(PlayArgs),
    /// Play a match between two agents (colors alternate) and print the standings.
    #[command(
        long_about = "Play a match of --games games between two agents. Colors alternate: \
                      the first agent moves first in even games, the second in odd ones. \
                      Each game's seed derives from --seed and the game's number, so the \
                      same seed gives the same games whatever the thread count.\n\n\
                      With --out, every finished game is appended to a JSONL records file at \
                      once; rerunning the same command resumes from the file and plays only \
                      the missing games (a file written by other settings is refused).\n\n\
                      An agent is `spec` or `label=spec`; records and standings name it by \
                      its label, which is the spec unless given. An agent may meet itself \
                      (`mcts mcts`): the second one is then labelled `mcts#2`.",
        after_help = "Examples:\n  \
                      yomi match connect4 mcts:iters=2000 flatmc:n=50 --games 20 --seed 1 --out c4.jsonl\n  \
                      yomi match tictactoe random random --games 1000 --markdown\n  \
                      yomi match connect4 fast=mcts:iters=200 slow=mcts:iters=2000 --games 10"
    )]
    Match(MatchArgs),
    /// Run a round robin from a TOML file, or the built-in connect four one.
    #[command(
        long_about = "Run a round robin: every pair of agents plays --games games (colors \
                      alternate), then print the standings and the cross table.\n\n\
                      FILE is a TOML file with the keys game, agents, games, seed, threads, \
                      turn_limit, out and quiet; examples/tournament.toml documents each one. \
                      Unknown keys are errors. Flags given here override the file.\n\n\
                      Without FILE the built-in default runs: connect four between random, \
                      flatmc:n=50, mcts:iters=2000 and alphabeta:depth=4, 100 games per pair, \
                      seed 1 (the settings of examples/tournament.toml).",
        after_help = "Examples:\n  \
                      yomi tournament\n  \
                      yomi tournament examples/tournament.toml --out results/rr.jsonl"
    )]
    Tournament(TournamentArgs),
    /// Measure random playouts and MCTS iterations per second.
    #[command(
        long_about = "Measure a game's speed, one line per figure (`<what>: <number> <unit>`): \
                      random playouts per second on one thread, then plain UCT (uniform \
                      playouts) iterations per second from the start position, for 20,000 \
                      and 200,000 iterations on one thread and 200,000 on every core.",
        after_help = "Examples:\n  yomi bench connect4\n  yomi bench breakthrough --time 5"
    )]
    Bench(BenchArgs),
    /// Print the standings of an existing records file.
    #[command(
        long_about = "Read a JSONL records file and print its standings and cross table, \
                      without playing anything. Every command that records games writes one \
                      it reads: `yomi match`, `tournament`, `play --out`, the web board, \
                      `yomi go twogtp` (a match journal) and `yomi ggp host` (a series \
                      journal; failed matches are not counted).",
        after_help = "Example:\n  yomi report c4.jsonl --markdown"
    )]
    Report(ReportArgs),
    /// Write the games of a records file as SGF (Go), GGF (Othello) or move lists.
    #[command(
        long_about = "Read a records file (`yomi match`, `tournament`, `play --out`, the web \
                      board, a `yomi go twogtp` match journal or a `yomi ggp host` series \
                      journal), replay every game through the rules and write it in the \
                      format its community reads: SGF for Go (an SGF collection, players and \
                      result in the root), GGF for Othello (one game per line), a numbered \
                      move list with each mover for the other games (GGP matches: each \
                      step's moves by role).",
        after_help = "Examples:\n  yomi match go:9 mcts:iters=500 random --games 2 --out go.jsonl\n  \
                      yomi export go.jsonl --out go.sgf\n  yomi export othello.jsonl --format ggf"
    )]
    Export(ExportArgs),
    /// General Game Playing: `yomi ggp check <file.kif>` validates a GDL rule sheet;
    /// `yomi ggp player` / `yomi ggp host` speak the GGP match protocol over HTTP.
    Ggp(crate::commands::ggp::GgpArgs),
    /// Simulation-policy learning (AL, SB, AL+SB) on GDL games: `yomi learn data`,
    /// `yomi learn train FILE`, `yomi learn experiment FILE`.
    Learn(crate::commands::learn::LearnArgs),
    /// Go's own commands: `yomi go gtp` runs a GTP engine, `yomi go twogtp` plays two GTP
    /// engines against each other.
    Go(crate::commands::go::GoArgs),
    /// Othello's own commands: perft, solve, nboard, gtp, train.
    Othello(crate::commands::othello::OthelloArgs),
    /// TUBSTAP's own commands: check a map, the paper's figures, the network client, the
    /// paper's experiment.
    Tubstap(crate::commands::tubstap::TubstapArgs),
    /// A short combinatorial game: canonical form, stops, mean, temperature, cooling.
    #[command(
        long_about = "Evaluate a short combinatorial game written in the standard notation \
                      and print its canonical form, outcome class, stops, mean, temperature, \
                      thermograph walls and its values cooled by 1/2, 1 and every --cool.",
        after_help = "Examples:\n  \
                      yomi cgt '{2|-1}'\n  \
                      yomi cgt '{1|0} + {0|*}' --cool 3/2 --compare '*'\n  \
                      yomi cgt '{{2|0}|-1}' --ascii"
    )]
    Cgt(crate::commands::cgt::CgtArgs),
    /// Geister's own commands: the tournament protocol's server and client.
    Geister(crate::commands::geister::GeisterArgs),
    /// The web board: play, watch, replay and analyse every game in the browser.
    #[command(after_help = "Examples:\n  yomi serve\n  yomi serve --port 8000 --records results")]
    Serve(ServeArgs),
}

/// Arguments of `yomi serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on (another than 127.0.0.1 exposes the board to the network).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// The port (0: any free port).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// A directory of JSONL records files to replay and follow; finished games are
    /// appended to yomi-serve.jsonl in it.
    #[arg(long, value_name = "DIR")]
    pub records: Option<PathBuf>,
}

/// Arguments of `yomi agents`.
#[derive(Args, Debug)]
pub struct AgentsArgs {
    /// The game (see `yomi games`).
    #[arg(value_parser = parse_game)]
    pub game: GameChoice,
}

/// Arguments of `yomi play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game (see `yomi games`).
    #[arg(value_parser = parse_game)]
    pub game: GameChoice,
    /// One agent spec per seat, the first moving first (see `yomi agents GAME`).
    #[arg(required = true, num_args = 1.., value_name = "AGENT")]
    pub agents: Vec<String>,
    /// Seed of the agents' random choices (seat i gets a seed derived from it and i).
    #[arg(long, default_value_t = yomi_core::rng::DEFAULT_SEED)]
    pub seed: u64,
    /// Start from this position, in the game's state notation, instead of the start.
    #[arg(long, value_name = "STATE")]
    pub position: Option<String>,
    /// Stop after this many turns (default: the game's longest possible game).
    #[arg(long, value_name = "TURNS")]
    pub turn_limit: Option<usize>,
}

/// Arguments of `yomi match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The game (see `yomi games`).
    #[arg(value_parser = parse_game)]
    pub game: GameChoice,
    /// The first agent's spec (moves first in even games).
    #[arg(value_name = "AGENT")]
    pub first: String,
    /// The second agent's spec (moves first in odd games).
    #[arg(value_name = "AGENT")]
    pub second: String,
    /// Games to play.
    #[arg(long, default_value_t = yomi_core::arena::DEFAULT_GAMES)]
    pub games: usize,
    /// The seed every game's seed derives from.
    #[arg(long, default_value_t = yomi_core::rng::DEFAULT_SEED)]
    pub seed: u64,
    /// JSONL records file: one line per finished game; an existing file is resumed.
    #[arg(long, value_name = "FILE.jsonl")]
    pub out: Option<PathBuf>,
    /// Threads to use, each playing one game at a time (default: every core; `human` forces 1).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Stop games after this many turns (default: the game's longest possible game).
    #[arg(long, value_name = "TURNS")]
    pub turn_limit: Option<usize>,
    /// Hide the progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Print the tables as Markdown.
    #[arg(long)]
    pub markdown: bool,
}

/// Arguments of `yomi tournament`.
#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// TOML configuration (see examples/tournament.toml); without it the built-in default.
    #[arg(value_name = "FILE.toml")]
    pub file: Option<PathBuf>,
    /// What the command line overrides in the file.
    #[command(flatten)]
    pub overrides: crate::commands::round_robin::FileOverrides,
    /// Print the tables as Markdown.
    #[arg(long)]
    pub markdown: bool,
}

/// Arguments of `yomi bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// The game (see `yomi games`).
    #[arg(value_parser = parse_game)]
    pub game: GameChoice,
    /// Seconds to spend on the random-playout figure.
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0)]
    pub time: f64,
    /// Threads to use for the multi-threaded figure (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Small counts (0.05 s of playouts, 1,000 and 5,000 iterations), for tests.
    #[arg(long)]
    pub quick: bool,
    /// Seed of the playouts and searches.
    #[arg(long, default_value_t = yomi_core::rng::DEFAULT_SEED)]
    pub seed: u64,
}

/// Arguments of `yomi export`.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The JSONL records file (or a `yomi go twogtp` or `yomi ggp host` journal).
    #[arg(value_name = "FILE.jsonl")]
    pub file: PathBuf,
    /// The format: `auto` picks SGF for Go, GGF for Othello and a move list otherwise.
    #[arg(long, value_enum, default_value_t = ExportFormat::Auto)]
    pub format: ExportFormat,
    /// Write here instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// The formats `yomi export` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// SGF for Go, GGF for Othello, a move list for every other game.
    Auto,
    /// Smart Game Format (Go).
    Sgf,
    /// Generic Game Format (Othello).
    Ggf,
    /// A numbered move list with the player of each move.
    Moves,
}

/// Arguments of `yomi report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// The JSONL records file (or a `yomi go twogtp` or `yomi ggp host` journal).
    #[arg(value_name = "FILE.jsonl")]
    pub file: PathBuf,
    /// Print the tables as Markdown.
    #[arg(long)]
    pub markdown: bool,
}
