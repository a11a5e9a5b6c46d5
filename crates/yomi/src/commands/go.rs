//! `yomi go ...`: Go's own commands (`yomi go gtp`). Go itself is in the game list as
//! `go` (9×9) and `go:N` (N×N, 2..19), so `play`, `match`, `agents` and `bench` take it too.

use std::io::{BufReader, Write};

use clap::{Args, Subcommand};
use yomi_go::gtp::{GtpConfig, GtpEngine};
use yomi_go::Scoring;

use crate::commands::emit;
use crate::error::{seconds_option, usage};
use yomi_core::limits::Zero;
use yomi_core::progress::Display;

/// Arguments of `yomi go`.
#[derive(Args, Debug)]
pub struct GoArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: GoCommand,
}

/// The Go commands.
#[derive(Subcommand, Debug)]
pub enum GoCommand {
    /// Run a GTP version 2 engine on standard input and output (for GoGui, Sabaki, twogtp,
    /// GNU Go matches).
    #[command(
        after_help = "Examples:\n  yomi go gtp\n  yomi go gtp --agent diffmcts:iters=20000 --size 9 --komi 6.5"
    )]
    Gtp(GtpArgs),
    /// Play a match between two GTP engines (like gogui-twogtp): colours alternate, both
    /// engines score every game, disagreements are flagged, games go to a resumable JSONL
    /// file.
    #[command(
        after_help = "Example (yomi against GNU Go 3.8 level 10):\n  yomi go twogtp --games 20 --size 9 --komi 7.5 --out rave10k.jsonl \\\n    --first 'yomi go gtp --agent rave:iters=10000 --seed {seed}' \\\n    --second '/usr/games/gnugo --mode gtp --level 10 --chinese-rules'\n\n`{seed}` in a command line is replaced by the game's index + 1 and `{game}` by the\nindex; each game starts both engines afresh. The first engine is Black in even games.\nA rerun with the same settings plays only the games missing from --out; the summary\ngives the first engine's win rate with its Wilson 95 % interval."
    )]
    Twogtp(TwogtpArgs),
    /// Start positions for `twogtp --openings` from a finished `twogtp` match: the
    /// position some moves before the end of each game that ended by two passes, one SGF
    /// file per game.
    #[command(
        after_help = "Example (endgames from GNU Go self-play, as in experiments/go-endgames):\n  yomi go positions selfplay.jsonl --from-end 20 --out endgames/\n\nFiles already in --out are written again (the same journal gives the same files)."
    )]
    Positions(PositionsArgs),
    /// Proven yose (endgame) next-move problems: make a suite, verify it, score GTP
    /// engines on it.
    #[command(subcommand)]
    Yose(YoseCommand),
}

/// The `yomi go yose` commands.
#[derive(Subcommand, Debug)]
pub enum YoseCommand {
    /// Generate and prove problems (SGF files with the proof's values); files already in the
    /// directory are kept, so an interrupted run resumes.
    #[command(
        after_help = "Example (the shipped suite):\n  yomi go yose make --out crates/yomi-go/data/yose --plan 7:16,9:14,6:4 --seed 2026"
    )]
    Make(MakeArgs),
    /// Re-prove every problem of a suite directory.
    Verify(VerifyArgs),
    /// Each problem's region as a combinatorial game (yomi-cgt): its canonical value,
    /// mean and temperature, and the suite's values checked against the stops.
    #[command(
        after_help = "Example (the shipped suite, as in experiments/go-yose-report.md):\n  yomi go yose cgt crates/yomi-go/data/yose --markdown\n\nValues count territory (Japanese): Left is Black, filling one's own territory costs\na point, so every region ends in a number. The suite counts area (Chinese); the table\ngives the stops both plain and heated by one (each stone played earns its point)."
    )]
    Cgt(CgtArgs),
    /// Score GTP engines on a suite: correct rates on A and B problems over R runs.
    #[command(
        after_help = "Examples:\n  yomi go yose score --suite crates/yomi-go/data/yose --runs 5 \\\n    --engine 'yomi go gtp --agent diffmcts:iters=3000 --seed {seed}' \\\n    --engine '/usr/games/gnugo --mode gtp --level 10 --chinese-rules' --out answers.jsonl\n\n`{seed}` in an engine's command line is replaced by the run number + 1; each run\nstarts the engine afresh. Answers are appended to --out as they come and a rerun skips\nthose already there; a rerun with another --timeout, or with another command line under\na label already in the file, is refused, and so is a second run on the file."
    )]
    Score(ScoreArgs),
}

/// Arguments of `yomi go yose score`.
#[derive(Args, Debug)]
pub struct ScoreArgs {
    /// The suite directory.
    #[arg(long)]
    pub suite: std::path::PathBuf,
    /// A GTP engine's command line (repeat for several engines).
    #[arg(long, required = true)]
    pub engine: Vec<String>,
    /// A label for each engine, in order (default: the command line).
    #[arg(long)]
    pub label: Vec<String>,
    /// Runs per problem.
    #[arg(long, default_value_t = 1)]
    pub runs: usize,
    /// Seconds an engine may take for one genmove.
    #[arg(long, default_value_t = 120)]
    pub timeout: u64,
    /// The answers journal (a settings header, then one JSON answer a line; resumed).
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Also write the table (and the paper's table) as Markdown to this file.
    #[arg(long)]
    pub report: Option<std::path::PathBuf>,
}

/// Arguments of `yomi go yose make`.
#[derive(Args, Debug)]
pub struct MakeArgs {
    /// Output directory.
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Board sizes and problem counts, `SIZE:COUNT,...`; kinds alternate A, B.
    #[arg(long, default_value = "7:16,9:14,6:4")]
    pub plan: String,
    /// Seed of the whole suite (problem i uses a seed derived from it).
    #[arg(long, default_value_t = yomi_core::rng::DEFAULT_SEED)]
    pub seed: u64,
    /// Fewest and most points of the unsettled region, `MIN:MAX`.
    #[arg(long, default_value = "4:11")]
    pub region: String,
    /// Seconds each exact search may take.
    #[arg(long, default_value_t = 20)]
    pub limit: u64,
}

/// Arguments of `yomi go yose verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The suite directory.
    pub suite: std::path::PathBuf,
    /// Seconds each exact search may take.
    #[arg(long, default_value_t = 60)]
    pub limit: u64,
}

/// Arguments of `yomi go yose cgt`.
#[derive(Args, Debug)]
pub struct CgtArgs {
    /// The suite directory.
    pub suite: std::path::PathBuf,
    /// Print the table as Markdown.
    #[arg(long)]
    pub markdown: bool,
}

/// Arguments of `yomi go twogtp`.
#[derive(Args, Debug)]
pub struct TwogtpArgs {
    /// The first engine's command line.
    #[arg(long)]
    pub first: String,
    /// The second engine's command line.
    #[arg(long)]
    pub second: String,
    /// Games to play (game indices 0..games; those already in --out are skipped).
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// Board size.
    #[arg(long, default_value_t = 9)]
    pub size: usize,
    /// Komi.
    #[arg(long, default_value_t = 7.5)]
    pub komi: f64,
    /// The first engine plays Black in every game (default: colours alternate).
    #[arg(long)]
    pub no_alternate: bool,
    /// Whose final_score decides a game the engines score differently: first or second.
    #[arg(long, default_value = "second")]
    pub trust: String,
    /// Moves after which a game is stopped and scored (0: 3 times the board's points).
    #[arg(long, default_value_t = 0)]
    pub max_moves: usize,
    /// Seconds an engine may take for one genmove.
    #[arg(long, default_value_t = 600)]
    pub timeout: u64,
    /// The games file (JSON lines, one per finished game; resumed).
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Start positions: an SGF file or a directory of them (moves only, no setup stones).
    /// Game i starts from position i/2 (each played once with each colour; i with
    /// --no-alternate), cycling; see `yomi go positions`.
    #[arg(long)]
    pub openings: Option<std::path::PathBuf>,
}

/// Arguments of `yomi go positions`.
#[derive(Args, Debug)]
pub struct PositionsArgs {
    /// A `yomi go twogtp` match journal.
    pub journal: std::path::PathBuf,
    /// How many moves before the game's last move (trailing passes not counted) the
    /// position is taken.
    #[arg(long, default_value_t = 20)]
    pub from_end: usize,
    /// Games with fewer moves than this before the cut give no position.
    #[arg(long, default_value_t = 10)]
    pub min_moves: usize,
    /// The directory the SGF files go to (created if missing): gNNNN.sgf, NNNN the game's
    /// index in the journal.
    #[arg(long)]
    pub out: std::path::PathBuf,
}

/// Arguments of `yomi go gtp`.
#[derive(Args, Debug)]
pub struct GtpArgs {
    /// The agent that answers `genmove` (`yomi agents go` lists them).
    #[arg(long, default_value = "mcts:iters=5000")]
    pub agent: String,
    /// Seed of every random choice.
    #[arg(long, default_value_t = yomi_core::rng::DEFAULT_SEED)]
    pub seed: u64,
    /// Board size at start (the controller's `boardsize` changes it).
    #[arg(long, default_value_t = 9)]
    pub size: usize,
    /// Komi at start (the controller's `komi` changes it).
    #[arg(long, default_value_t = 7.5)]
    pub komi: f64,
    /// Count `final_score` by territory (Japanese) instead of area (Chinese).
    #[arg(long)]
    pub territory: bool,
}

/// Runs a Go command.
///
/// # Errors
/// A usage error for an agent spec, size or komi that is refused; I/O errors.
pub fn run(args: GoArgs) -> anyhow::Result<()> {
    match args.command {
        GoCommand::Yose(YoseCommand::Make(a)) => yose_make(a),
        GoCommand::Yose(YoseCommand::Verify(a)) => yose_verify(a),
        GoCommand::Yose(YoseCommand::Cgt(a)) => yose_cgt(a),
        GoCommand::Yose(YoseCommand::Score(a)) => yose_score(a),
        GoCommand::Twogtp(a) => twogtp(a),
        GoCommand::Positions(a) => positions(a),
        GoCommand::Gtp(a) => {
            let cfg = GtpConfig {
                agent: a.agent,
                seed: a.seed,
                size: a.size,
                komi: a.komi,
                scoring: if a.territory {
                    Scoring::Territory
                } else {
                    Scoring::Area
                },
                ..GtpConfig::default()
            };
            let mut engine = GtpEngine::new(cfg).map_err(|e| usage(e.to_string()))?;
            let stdin = std::io::stdin();
            let mut stdout = std::io::stdout().lock();
            engine.run(BufReader::new(stdin), &mut stdout)?;
            stdout.flush()?;
            Ok(())
        }
    }
}

fn parse_pair(text: &str, what: &str) -> anyhow::Result<(usize, usize)> {
    let bad = || usage(format!("{what} {text:?}: expected two numbers A:B"));
    let (a, b) = text.split_once(':').ok_or_else(bad)?;
    Ok((
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    ))
}

fn yose_make(a: MakeArgs) -> anyhow::Result<()> {
    use yomi_go::yose::{make_suite, suite_plan, SuiteStep};
    let plan = a
        .plan
        .split(',')
        .map(|p| parse_pair(p, "plan entry"))
        .collect::<anyhow::Result<Vec<_>>>()?;
    if let Some(&(size, _)) = plan.iter().find(|p| !(5..=19).contains(&p.0)) {
        return Err(usage(format!("plan: board size {size} is not in 5..=19")));
    }
    let region = parse_pair(&a.region, "region")?;
    if region.0 == 0 || region.0 > region.1 {
        return Err(usage(format!(
            "region {:?}: need 1 <= MIN <= MAX",
            a.region
        )));
    }
    let plan = suite_plan(&plan);
    let limit = limit_seconds("--limit", a.limit)?;
    let total = plan.len();
    make_suite(&a.out, &plan, region, limit, a.seed, |step| match step {
        SuiteStep::Kept { index, name } => eprintln!("[{}/{total}] {name}: kept", index + 1),
        SuiteStep::Made {
            index,
            problem,
            seconds,
        } => eprintln!(
            "[{}/{total}] {}: {} to play, komi {}, correct {}, {} candidates, {seconds:.1}s",
            index + 1,
            problem.name,
            problem.to_move,
            problem.komi,
            problem.correct[0].to_gtp(problem.size),
            problem.values.len(),
        ),
    })?;
    Ok(())
}

fn yose_verify(a: VerifyArgs) -> anyhow::Result<()> {
    let limit = limit_seconds("--limit", a.limit)?;
    let suite = yomi_go::yose::load_suite(&a.suite)?;
    let mut out = std::io::stdout().lock();
    let mut failed = 0;
    for p in &suite {
        let start = std::time::Instant::now();
        match p.verify(limit) {
            Ok(proof) => writeln!(
                out,
                "{}: ok (kind {}, correct {}, {} nodes, {:.2}s)",
                p.name,
                p.kind,
                p.correct
                    .iter()
                    .map(|v| v.to_gtp(p.size))
                    .collect::<Vec<_>>()
                    .join(" "),
                proof.nodes,
                start.elapsed().as_secs_f64()
            )?,
            Err(e) => {
                failed += 1;
                writeln!(out, "{}: FAILED: {e}", p.name)?;
            }
        }
    }
    if failed > 0 {
        anyhow::bail!("{failed} of {} problems failed verification", suite.len());
    }
    writeln!(out, "all {} problems verified", suite.len())?;
    Ok(())
}

fn yose_cgt(a: CgtArgs) -> anyhow::Result<()> {
    use yomi_go::yose_cgt::{suite_table, CgtLimits};
    let suite = yomi_go::yose::load_suite(&a.suite)?;
    emit(&suite_table(&suite, CgtLimits::default(), a.markdown))?;
    Ok(())
}

fn twogtp(a: TwogtpArgs) -> anyhow::Result<()> {
    use yomi_go::twogtp::{summary, MatchConfig, Runner, Side};
    let trust = match a.trust.as_str() {
        "first" => Side::First,
        "second" => Side::Second,
        other => return Err(usage(format!("--trust {other}: expected first or second"))),
    };
    if !a.komi.is_finite() {
        return Err(usage("--komi must be a number"));
    }
    let cfg = MatchConfig {
        first: a.first,
        second: a.second,
        size: a.size,
        komi: a.komi,
        alternate: !a.no_alternate,
        trust,
        max_moves: a.max_moves,
        openings: match &a.openings {
            Some(p) => yomi_go::twogtp::load_openings(p, a.size)
                .map_err(|e| usage(format!("--openings: {e}")))?,
            None => Vec::new(),
        },
    };
    let mut runner = Runner::new(cfg.clone());
    runner.move_timeout = limit_seconds("--timeout", a.timeout.max(1))?;
    let games = a.games;
    let records = runner.run(a.out.as_deref(), games, |i, r| match r {
        Ok(g) => eprintln!(
            "game {i}: first engine {} {}, {} ({} moves, {}; scores {} / {}{})",
            if g.first_black { "Black" } else { "White" },
            match g.winner {
                Some(Side::First) => "wins",
                Some(Side::Second) => "loses",
                None => "draws",
            },
            g.result,
            g.moves.len(),
            g.end,
            g.first_score.as_deref().unwrap_or("-"),
            g.second_score.as_deref().unwrap_or("-"),
            if g.disagreement { ", DISAGREE" } else { "" }
        ),
        Err(e) => eprintln!("game {i}: aborted, not recorded: {e}"),
    })?;
    emit(&summary(&cfg, &records))?;
    Ok(())
}

fn positions(a: PositionsArgs) -> anyhow::Result<()> {
    use crate::commands::records::RecordsFile;
    use anyhow::Context;
    let RecordsFile::Twogtp { config, games } = RecordsFile::read(&a.journal)? else {
        return Err(usage(format!(
            "{} is not a `yomi go twogtp` match journal",
            a.journal.display()
        )));
    };
    let cuts = yomi_go::twogtp::positions_before_end(&games, config.size, a.from_end, a.min_moves);
    std::fs::create_dir_all(&a.out)
        .with_context(|| format!("cannot create {}", a.out.display()))?;
    for (game, rec) in &cuts {
        let path = a.out.join(format!("g{game:04}.sgf"));
        let comment = format!(
            "Game {game} of {}, {} moves before its end",
            a.journal.display(),
            a.from_end
        );
        std::fs::write(&path, rec.to_sgf_with(&[("GC", &comment)]))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    emit(&format!(
        "{} positions from {} games (the others ended otherwise than by passes, were too short or repeated an earlier game's position) in {}\n",
        cuts.len(),
        games.len(),
        a.out.display()
    ))?;
    Ok(())
}

fn yose_score(a: ScoreArgs) -> anyhow::Result<()> {
    use yomi_go::yose_score::{score_suite, table, ScoredEngine};
    if a.runs == 0 {
        return Err(usage("--runs must be at least 1"));
    }
    if !a.label.is_empty() && a.label.len() != a.engine.len() {
        return Err(usage(format!(
            "{} labels for {} engines: give one label per engine or none",
            a.label.len(),
            a.engine.len()
        )));
    }
    let labels: Vec<String> = if a.label.is_empty() {
        a.engine.clone()
    } else {
        a.label.clone()
    };
    let engines: Vec<ScoredEngine> = a
        .engine
        .iter()
        .zip(&labels)
        .map(|(command, label)| ScoredEngine {
            label: label.clone(),
            command: command.clone(),
        })
        .collect();
    let suite = yomi_go::yose::load_suite(&a.suite)?;
    let limit = limit_seconds("--timeout", a.timeout.max(1))?;
    let answers = score_suite(
        &suite,
        &engines,
        a.runs,
        limit,
        a.out.as_deref(),
        Display::for_stderr(false),
    )?;
    let text = table(&answers, &labels, &suite);
    print!("{text}");
    if let Some(path) = &a.report {
        let mut md = format!(
            "# Yose suite scores\n\nSuite `{}` ({} problems), {} runs each.\n\n{text}\n",
            a.suite.display(),
            suite.len(),
            a.runs
        );
        md.push_str(yomi_go::yose_score::PAPER_TABLE);
        std::fs::write(path, md)?;
    }
    Ok(())
}

/// The figures `yomi bench go:N` adds to the common ones, `secs` seconds each: light
/// playouts from the empty board to two passes (one thread, per CPU second, as libEGO
/// measures them; see `benches/peers/libego`) and two-board difference-game playouts.
pub fn print_figures(size: usize, secs: f64, seed: u64) -> anyhow::Result<()> {
    let game = yomi_go::GoGame::new(size)?;
    let secs = seconds_option("--time", secs, Zero::Refused)?;
    let light = yomi_go::bench::light_playouts(&game, secs, seed);
    emit(&format!("{light}\n"))?;
    let root = yomi_core::Game::initial_state(&game);
    emit(&format!(
        "{}\n",
        yomi_go::diff::diff_playouts(&game, &root, secs, seed)
    ))?;
    Ok(())
}

/// `secs` (a whole number of seconds) as a duration, refused (a usage error naming
/// `what`) above [`yomi_core::limits::MAX_SECONDS`], where deadlines would overflow.
fn limit_seconds(what: &str, secs: u64) -> anyhow::Result<std::time::Duration> {
    // Checked as an integer first so that the message repeats the number as typed.
    if secs as f64 > yomi_core::limits::MAX_SECONDS {
        return Err(usage(format!(
            "{what} {secs}: expected seconds from 0 to {}",
            yomi_core::limits::MAX_SECONDS
        )));
    }
    seconds_option(what, secs as f64, Zero::Allowed)
}
