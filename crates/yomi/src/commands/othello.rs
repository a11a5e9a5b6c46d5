//! `yomi othello ...`: Othello's own commands (perft, exact solving, engine protocols,
//! training the evaluation, the UCT+dZ test sets and coefficient fit, the paper's accuracy
//! experiment). Othello itself is in the game list as `othello`, so `play`,
//! `match`, `agents` and `bench` take it too.

use std::io::{BufReader, Write};

use clap::{Args, Subcommand};
use yomi_othello::accuracy::{self, AccuracyConfig};
use yomi_othello::commands::{perft_report, solve_report_with, SolveMode};
use yomi_othello::dz::{DzTable, KINDS};
use yomi_othello::dzfit::{fit_stage, report, row_of};
use yomi_othello::protocol::{run_gtp_with, run_nboard_with, Engine};
use yomi_othello::testsets::{self, GenConfig};
use yomi_othello::train::{train, TrainConfig};

use crate::error::{seconds_option, threads_option, threads_or_every_core, usage};
use yomi_core::limits::Zero;
use yomi_core::progress::Display;

/// Arguments of `yomi othello`.
#[derive(Args, Debug)]
pub struct OthelloArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: OthelloCommand,
}

/// The Othello commands.
#[derive(Subcommand, Debug)]
pub enum OthelloCommand {
    /// Count the move sequences of DEPTH plies from the start (passes are plies), timed.
    #[command(after_help = "Example:\n  yomi othello perft 12")]
    Perft {
        /// Plies, 1..=14.
        depth: u32,
    },
    /// Solve a position exactly: a best move, its score and a principal variation (as
    /// Edax's `-solve`); `--all` scores every move, `--wld` only tells win, draw or loss;
    /// `--threads`, and a `--time` or `--nodes` limit.
    #[command(after_help = "Examples:\n  \
                      yomi othello solve O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X\n  \
                      yomi othello solve 'O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------X' --all\n  \
                      yomi othello solve \"$(sed -n 1p positions.obf)\" --wld\n  \
                      yomi othello solve \"$(sed -n 1p positions.obf)\" --threads 2 --time 10")]
    Solve {
        /// The position: the 64 squares a1..h8 (X black, O white, - empty), followed by
        /// the side to move directly (Edax's one-string form) or as the next word; an OBF
        /// line's `;` and what follows it are ignored.
        #[arg(allow_hyphen_values = true, value_name = "POSITION")]
        board: String,
        /// The side to move (X or O) when POSITION holds only the squares.
        side: Option<String>,
        /// Score every legal move (best first) instead of one best move.
        #[arg(long, conflicts_with = "wld")]
        all: bool,
        /// Only win, draw or loss (and a move that achieves it): faster than the exact score.
        #[arg(long)]
        wld: bool,
        /// Threads to use (default 1, a plain one-thread search whose node counts repeat;
        /// more threads share the transposition table).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
        /// Stop after this many seconds (the best move found so far is reported).
        #[arg(long, value_name = "SECONDS")]
        time: Option<f64>,
        /// Stop after this many nodes (the best move found so far is reported).
        #[arg(long)]
        nodes: Option<u64>,
    },
    /// Run the NBoard engine protocol on standard input and output.
    #[command(
        after_help = "Examples:\n  yomi othello nboard\n  yomi othello nboard --agent uct+_playzebra:iters=20000"
    )]
    Nboard {
        /// Most seconds one search may take (`go`; `hint` shares it among the moves), so
        /// any `set depth` answers in bounded time.
        #[arg(long, value_name = "SECONDS", default_value_t = 5.0)]
        move_time: f64,
        /// Most nodes one alpha-beta search may visit (`hint` shares them), as well as the
        /// time: a cap that stops at the same point on any machine, so replies repeat.
        #[arg(long, value_name = "N")]
        nodes: Option<u64>,
        /// The agent that chooses the moves (`yomi agents othello` lists them; its spec sets
        /// its budget); default: alpha-beta with the pattern evaluation and exact solving.
        #[arg(long, value_name = "SPEC")]
        agent: Option<String>,
        /// Seed of the agent's random choices.
        #[arg(long, default_value_t = yomi_core::rng::DEFAULT_SEED)]
        seed: u64,
    },
    /// Run a GTP engine (Othello moves a1..h8, pass) on standard input and output.
    #[command(
        after_help = "Examples:\n  yomi othello gtp\n  yomi othello gtp --agent mcts:iters=5000 --seed 7"
    )]
    Gtp {
        /// Most seconds one `genmove` search may take.
        #[arg(long, value_name = "SECONDS", default_value_t = 5.0)]
        move_time: f64,
        /// Most nodes one alpha-beta `genmove` search may visit, as well as the time: a cap
        /// that stops at the same point on any machine, so replies repeat.
        #[arg(long, value_name = "N")]
        nodes: Option<u64>,
        /// The agent that chooses the moves (`yomi agents othello` lists them; its spec sets
        /// its budget); default: alpha-beta with the pattern evaluation and exact solving.
        #[arg(long, value_name = "SPEC")]
        agent: Option<String>,
        /// Seed of the agent's random choices.
        #[arg(long, default_value_t = yomi_core::rng::DEFAULT_SEED)]
        seed: u64,
    },
    /// Train the pattern evaluation by noisy self-play and exact solving; write the weights.
    #[command(
        after_help = "Example:\n  yomi othello train --games 5000 --rounds 3 --out eval.bin"
    )]
    Train {
        /// Self-play games per round.
        #[arg(long, default_value_t = 5000)]
        games: usize,
        /// Rounds of playing and fitting.
        #[arg(long, default_value_t = 3)]
        rounds: usize,
        /// Seed of everything random.
        #[arg(long, default_value_t = yomi_core::rng::DEFAULT_SEED)]
        seed: u64,
        /// The weights file to write.
        #[arg(long, default_value = "othello-eval.bin")]
        out: std::path::PathBuf,
    },
    /// Generate a test set: positions after S moves of noisy self-play with a winning and a
    /// losing move, every move labelled (exact, exact win/loss, or by search; each line
    /// says which).
    #[command(
        after_help = "Example:\n  yomi othello testset --stage 50 --count 300 --out s50.txt"
    )]
    Testset {
        /// Moves played before the positions (S), 4..=58.
        #[arg(long)]
        stage: u32,
        /// Positions wanted.
        #[arg(long, default_value_t = 300)]
        count: usize,
        /// Seed of the self-play.
        #[arg(long, default_value_t = yomi_core::rng::DEFAULT_SEED)]
        seed: u64,
        /// Threads to use (default: every core); the positions do not depend on it.
        #[arg(long)]
        threads: Option<usize>,
        /// The file to write.
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Label a test set's positions again (the same positions in the same order) with
    /// deeper searches or exact solving from more empties, and print how the old and new
    /// labels agree. Finished positions go to OUT.partial at once; a rerun resumes there.
    #[command(
        after_help = "Example:\n  yomi othello relabel crates/yomi-othello/data/testsets/s20.txt --depth 12 --out s20-d12.txt"
    )]
    Relabel {
        /// The test set to label again.
        input: std::path::PathBuf,
        /// Alpha-beta plies after each move where neither solver applies, 1..=40.
        #[arg(long)]
        depth: u32,
        /// Solve every move exactly at most this many empties (at most 40).
        #[arg(long, default_value_t = 14)]
        exact_empties: u32,
        /// Solve each move's win, draw or loss exactly at most this many empties (at most 40).
        #[arg(long, default_value_t = 20)]
        wld_empties: u32,
        /// Threads to use (default: every core); the labels do not depend on it.
        #[arg(long)]
        threads: Option<usize>,
        /// The file to write.
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Fit the UCT+dZ discriminant coefficients (the paper's tables 7-8) from labelled
    /// test-set files (one stage each) and write them into a coefficient table.
    #[command(
        after_help = "Example:\n  yomi othello fit-dz --kind random --playouts 3000 --table dz.txt fit20.txt fit30.txt fit40.txt fit50.txt"
    )]
    FitDz {
        /// Playout kind: random, playzebra, random-break or playzebra-break.
        #[arg(long, default_value = "random")]
        kind: String,
        /// Playouts per searched position.
        #[arg(long, default_value_t = 3000)]
        playouts: u64,
        /// Coefficient table to update (created if missing; other rows are kept).
        #[arg(long)]
        table: std::path::PathBuf,
        /// Seed of the searches.
        #[arg(long, default_value_t = yomi_core::rng::DEFAULT_SEED)]
        seed: u64,
        /// Labelled position files (the `yomi othello testset` format).
        #[arg(required = true)]
        sets: Vec<std::path::PathBuf>,
    },
    /// Run the paper's accuracy experiment (tables 1-6) from an experiment file: every
    /// variant picks a move in every test position at each playout budget; records are
    /// appended to a JSONL file (a rerun resumes) and a markdown report is written.
    #[command(
        after_help = "Examples:\n  yomi othello accuracy experiments/othello-accuracy.toml\n  \
                      yomi othello accuracy experiments/othello-accuracy.toml --positions 100 --playouts 10000 \\\n      \
                      --out experiments/othello-accuracy-100.jsonl --report experiments/othello-accuracy-100.md"
    )]
    Accuracy(AccuracyArgs),
}

/// Arguments of `yomi othello accuracy`; flags override the file's keys.
#[derive(Args, Debug)]
pub struct AccuracyArgs {
    /// The experiment file (TOML; see experiments/othello-accuracy.toml).
    pub file: std::path::PathBuf,
    /// Use the first N positions of each test set.
    #[arg(long)]
    pub positions: Option<usize>,
    /// Playouts per move, comma separated (10000,30000).
    #[arg(long, value_delimiter = ',')]
    pub playouts: Option<Vec<u64>>,
    /// Only these stages S, comma separated (20,30).
    #[arg(long, value_delimiter = ',')]
    pub stages: Option<Vec<u32>>,
    /// Only these variants (names as in the file), comma separated.
    #[arg(long, value_delimiter = ',')]
    pub variants: Option<Vec<String>>,
    /// Threads to use (default or 0: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Seed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Independent runs, run r seeded seed + r (the paper reports the mean of 10); the
    /// report gives the mean over runs and its interval.
    #[arg(long)]
    pub runs: Option<u32>,
    /// The records file (JSON lines).
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// The report file (markdown).
    #[arg(long)]
    pub report: Option<std::path::PathBuf>,
    /// Write the report from the records without running anything.
    #[arg(long)]
    pub report_only: bool,
    /// With --report-only: score every record's chosen move against the test sets' labels
    /// as they are now (after `yomi othello relabel`) instead of the labels it was
    /// recorded with.
    #[arg(long, requires = "report_only")]
    pub rescore: bool,
}

/// The experiment file with the flags applied.
fn accuracy_config(args: &AccuracyArgs) -> anyhow::Result<AccuracyConfig> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| usage(format!("{}: {e}", args.file.display())))?;
    let mut cfg =
        AccuracyConfig::parse(&text).map_err(|e| usage(format!("{}: {e}", args.file.display())))?;
    cfg.resolve_paths(&args.file);
    if let Some(n) = args.positions {
        cfg.positions = Some(n);
    }
    if let Some(p) = &args.playouts {
        cfg.playouts = p.clone();
    }
    if let Some(stages) = &args.stages {
        if let Some(s) = stages
            .iter()
            .find(|s| !cfg.sets.iter().any(|f| f.stage == **s))
        {
            return Err(usage(format!(
                "--stages: the file has no set with stage {s}"
            )));
        }
        cfg.sets.retain(|f| stages.contains(&f.stage));
    }
    if let Some(names) = &args.variants {
        if let Some(n) = names
            .iter()
            .find(|n| !cfg.variants.iter().any(|v| &v.name == *n))
        {
            let known: Vec<&str> = cfg.variants.iter().map(|v| v.name.as_str()).collect();
            return Err(usage(format!(
                "--variants: no variant {n:?} in the file (it has {})",
                known.join(", ")
            )));
        }
        cfg.variants.retain(|v| names.contains(&v.name));
    }
    if let Some(t) = threads_option("--threads", args.threads)? {
        cfg.threads = t;
    }
    if let Some(s) = args.seed {
        cfg.seed = s;
    }
    if let Some(r) = args.runs {
        cfg.runs = r;
    }
    if let Some(o) = &args.out {
        cfg.out = o.clone();
    }
    if let Some(r) = &args.report {
        cfg.report = r.clone();
    }
    cfg.check().map_err(|e| usage(e.to_string()))?;
    Ok(cfg)
}

/// Runs `yomi othello accuracy`.
fn run_accuracy(args: &AccuracyArgs) -> anyhow::Result<()> {
    let cfg = accuracy_config(args)?;
    let command = std::iter::once("yomi".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");
    if args.report_only {
        let sets = accuracy::load_sets(&cfg)?;
        let mut records = accuracy::load_records(&cfg.out)?;
        if args.rescore {
            let n = accuracy::rescore(&sets, &mut records, &cfg.out)?;
            crate::commands::emit(&format!(
                "rescored {n} of {} records against the test sets' labels\n",
                records.len()
            ))?;
        }
        std::fs::write(
            &cfg.report,
            accuracy::report(&cfg, &sets, &records, &command),
        )?;
    } else {
        let s = accuracy::run(&cfg, &command, Display::for_stderr(false))?;
        crate::commands::emit(&format!(
            "{} items: {} run now, {} resumed from {}\n",
            s.items,
            s.ran,
            s.resumed,
            cfg.out.display()
        ))?;
    }
    crate::commands::emit(&format!("wrote {}\n", cfg.report.display()))?;
    Ok(())
}

/// Runs an Othello command.
///
/// # Errors
/// A usage error for a malformed board or depth; I/O errors.
pub fn run(args: OthelloArgs) -> anyhow::Result<()> {
    match args.command {
        OthelloCommand::Perft { depth } => {
            if !(1..=14).contains(&depth) {
                return Err(usage(format!("perft depth {depth}: expected 1..=14")));
            }
            crate::commands::emit(&format!("{}\n", perft_report(depth)))?;
        }
        OthelloCommand::Solve {
            board,
            side,
            all,
            wld,
            threads,
            time,
            nodes,
        } => {
            let time = time
                .map(|t| seconds_option("--time", t, Zero::Refused))
                .transpose()?;
            let limits = yomi_othello::solver::Limits { nodes, time };
            let mode = if all {
                SolveMode::All
            } else if wld {
                SolveMode::Wld
            } else {
                SolveMode::Best
            };
            let position = match side {
                Some(side) => format!("{board} {side}"),
                None => board,
            };
            let text = solve_report_with(&position, mode, threads as usize, limits)
                .map_err(|e| usage(e.to_string()))?;
            crate::commands::emit(&text)?;
        }
        OthelloCommand::Nboard {
            move_time,
            nodes,
            agent,
            seed,
        } => {
            let engine = engine_with(move_time, nodes, agent.as_deref(), seed)?;
            let stdin = std::io::stdin();
            let mut stdout = std::io::stdout().lock();
            run_nboard_with(engine, BufReader::new(stdin.lock()), &mut stdout)?;
            stdout.flush()?;
        }
        OthelloCommand::Gtp {
            move_time,
            nodes,
            agent,
            seed,
        } => {
            let engine = engine_with(move_time, nodes, agent.as_deref(), seed)?;
            let mut stdout = std::io::stdout().lock();
            run_gtp_with(engine, BufReader::new(std::io::stdin()), &mut stdout)?;
            stdout.flush()?;
        }
        OthelloCommand::Train {
            games,
            rounds,
            seed,
            out,
        } => {
            if games == 0 || rounds == 0 {
                return Err(usage("--games and --rounds must be positive"));
            }
            let cfg = TrainConfig {
                games_per_round: games,
                rounds,
                seed,
                ..TrainConfig::default()
            };
            let (eval, report) = train(&cfg, |line| {
                let _ = crate::commands::emit(&format!("{line}\n"));
            });
            std::fs::write(&out, eval.to_bytes())?;
            let h = report.holdout_exact;
            crate::commands::emit(&format!(
                "wrote {}; held-out solved positions: {} positions, MAE {:.2} discs, RMSE {:.2} (always-0 MAE {:.2})\n",
                out.display(),
                h.count,
                h.mae,
                h.rmse,
                h.mae_zero
            ))?;
        }
        OthelloCommand::Testset {
            stage,
            count,
            seed,
            threads,
            out,
        } => {
            let threads = threads_or_every_core("--threads", threads)?;
            if !(4..=58).contains(&stage) || count == 0 || threads == 0 {
                return Err(usage(
                    "--stage must be 4..=58, --count and --threads positive",
                ));
            }
            if count > MAX_TESTSET_COUNT {
                // Generation runs until it has `count` distinct positions: a huge count
                // never ends and keeps every position in memory.
                return Err(usage(format!(
                    "--count {count}: at most {MAX_TESTSET_COUNT} positions"
                )));
            }
            let cfg = GenConfig {
                count,
                seed,
                threads,
                ..GenConfig::new(stage)
            };
            let t = std::time::Instant::now();
            let set = testsets::generate(&cfg, |line| eprintln!("{line}"));
            let header = format!(
                "S={stage}: {} positions by `yomi othello testset --stage {stage} --count {count} --seed {seed}`: \
                 noisy self-play ({} random plies, then evaluation-greedy with epsilon {}); values for the side to move: \
                 exact at <= {} empties, exact win/draw/loss (+1/0/-1) at <= {}, else {}-ply alpha-beta; {:.0} s",
                set.len(),
                cfg.random_plies,
                cfg.epsilon,
                cfg.exact_empties,
                cfg.wld_empties,
                cfg.search_depth,
                t.elapsed().as_secs_f64()
            );
            std::fs::write(&out, testsets::to_text(&header, &set))?;
            crate::commands::emit(&format!("wrote {}: {header}\n", out.display()))?;
        }
        OthelloCommand::Relabel {
            input,
            depth,
            exact_empties,
            wld_empties,
            threads,
            out,
        } => {
            let threads = threads_or_every_core("--threads", threads)?;
            run_relabel(
                &input,
                &out,
                GenConfig {
                    search_depth: depth,
                    exact_empties,
                    wld_empties,
                    threads,
                    ..GenConfig::new(20)
                },
            )?;
        }
        OthelloCommand::FitDz {
            kind,
            playouts,
            table,
            seed,
            sets,
        } => {
            if !KINDS.contains(&kind.as_str()) {
                return Err(usage(format!("--kind {kind}: expected one of {KINDS:?}")));
            }
            if playouts == 0 {
                return Err(usage("--playouts must be positive"));
            }
            let mut dz = match std::fs::read_to_string(&table) {
                Ok(text) => DzTable::parse(&text).map_err(|e| usage(e.to_string()))?,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => DzTable::default(),
                Err(e) => return Err(e.into()),
            };
            let mut fits = Vec::new();
            for file in &sets {
                let text = std::fs::read_to_string(file)?;
                let set = testsets::parse(&text)
                    .map_err(|e| usage(format!("{}: {e}", file.display())))?;
                let Some(first) = set.first() else {
                    return Err(usage(format!("{}: no positions", file.display())));
                };
                let stage = yomi_othello::dz::move_number(&first.state);
                let fit = fit_stage(&kind, stage, &set, playouts, seed);
                dz.set(&kind, row_of(&fit));
                fits.push(fit);
            }
            let names: Vec<String> = sets.iter().map(|p| p.display().to_string()).collect();
            std::fs::write(
                &table,
                dz.to_text(&format!(
                    "UCT+dZ discriminant coefficients; kind {kind} fitted by `yomi othello fit-dz --kind {kind} --playouts {playouts} --seed {seed}` on {}",
                    names.join(" ")
                )),
            )?;
            crate::commands::emit(&report(&kind, &fits))?;
        }
        OthelloCommand::Accuracy(a) => run_accuracy(&a)?,
    }
    Ok(())
}

/// Most positions `othello testset --count` generates (the paper's sets have 300).
const MAX_TESTSET_COUNT: usize = 1_000_000;

/// The deepest `othello relabel --depth`, and the most empties its solvers take: a limit
/// that no run reaches in practice, so a typo cannot start a search that never ends.
const MAX_RELABEL_DEPTH: u32 = 40;

/// `yomi othello relabel`: labels `input`'s positions under `cfg`, writing each finished
/// position to `out`.partial (`index<TAB>line`) at once and resuming from it, then `out`
/// (the input's header, a line saying how it was relabelled, the positions in order),
/// and prints how the old and new labels agree.
fn run_relabel(
    input: &std::path::Path,
    out: &std::path::Path,
    cfg: GenConfig,
) -> anyhow::Result<()> {
    if !(1..=MAX_RELABEL_DEPTH).contains(&cfg.search_depth)
        || cfg.exact_empties > MAX_RELABEL_DEPTH
        || cfg.wld_empties > MAX_RELABEL_DEPTH
    {
        return Err(usage(format!(
            "--depth must be 1..={MAX_RELABEL_DEPTH}, --exact-empties and --wld-empties at most {MAX_RELABEL_DEPTH}"
        )));
    }
    let text =
        std::fs::read_to_string(input).map_err(|e| usage(format!("{}: {e}", input.display())))?;
    let old = testsets::parse(&text).map_err(|e| usage(format!("{}: {e}", input.display())))?;
    if old.is_empty() {
        return Err(usage(format!("{}: no positions", input.display())));
    }
    let partial = {
        let mut name = out.as_os_str().to_owned();
        name.push(".partial");
        std::path::PathBuf::from(name)
    };
    // What this run writes for each position (`testsets::label` decides alike).
    let kind_for = |p: &testsets::LabelledPosition| {
        let empties = p.state.empty_count();
        if empties <= cfg.exact_empties {
            testsets::LabelKind::Exact
        } else if empties <= cfg.wld_empties {
            testsets::LabelKind::Wld
        } else {
            testsets::LabelKind::Search(cfg.search_depth)
        }
    };
    if !partial.exists() && out.exists() {
        // Finished before: report again rather than label everything a second time, but
        // never overwrite a file that is something else.
        let done = std::fs::read_to_string(out)
            .ok()
            .and_then(|t| testsets::parse(&t).ok())
            .filter(|d| {
                d.len() == old.len()
                    && d.iter()
                        .zip(&old)
                        .all(|(n, o)| n.state == o.state && n.kind == kind_for(n))
            });
        let Some(done) = done else {
            return Err(usage(format!(
                "{} exists and is not this relabelling of {}; remove it or choose another --out",
                out.display(),
                input.display()
            )));
        };
        return emit_agreement(out, &old, &done);
    }
    let mut new: Vec<Option<testsets::LabelledPosition>> = vec![None; old.len()];
    match std::fs::read_to_string(&partial) {
        Ok(mut done) => {
            if !done.is_empty() && !done.ends_with('\n') {
                // A line cut short by an interrupted write: dropped, so that the next
                // line starts on a line of its own; its position is labelled again.
                done.truncate(done.rfind('\n').map_or(0, |i| i + 1));
                std::fs::write(&partial, &done)
                    .map_err(|e| usage(format!("{}: {e}", partial.display())))?;
            }
            for (n, line) in done.lines().enumerate() {
                let bad = |why: String| {
                    usage(format!(
                        "{} line {}: {why}; remove the file to start over",
                        partial.display(),
                        n + 1
                    ))
                };
                let (i, rest) = line.split_once('\t').ok_or_else(|| {
                    bad("expected a position number, a tab and a labelled position".into())
                })?;
                let i: usize = i.parse().ok().filter(|&i| i < old.len()).ok_or_else(|| {
                    bad(format!(
                        "{i:?} is not a position number of {}",
                        input.display()
                    ))
                })?;
                let p = testsets::parse_line(rest).map_err(bad)?;
                if p.state != old[i].state {
                    return Err(bad(format!(
                        "position {i} is not {}'s position {i}",
                        input.display()
                    )));
                }
                if p.kind != kind_for(&p) {
                    return Err(bad(format!(
                        "position {i} has {} labels, this run writes {}",
                        p.kind,
                        kind_for(&p)
                    )));
                }
                new[i] = Some(p);
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(usage(format!("{}: {e}", partial.display()))),
    }
    let done: std::collections::HashSet<usize> =
        (0..old.len()).filter(|&i| new[i].is_some()).collect();
    let progress = yomi_core::progress::Progress::new(
        "relabel",
        "positions",
        old.len() as u64,
        done.len() as u64,
        Display::for_stderr(false),
    );
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&partial)
        .map_err(|e| usage(format!("{}: {e}", partial.display())))?;
    let states: Vec<_> = old.iter().map(|p| p.state).collect();
    let t = std::time::Instant::now();
    let mut write_error = None;
    testsets::relabel(&states, &cfg, &done, |i, p| {
        if write_error.is_none() {
            if let Err(e) = writeln!(log, "{i}\t{}", p.to_line()).and_then(|()| log.flush()) {
                write_error = Some(e);
            }
        }
        new[i] = Some(p);
        progress.inc(1);
    });
    progress.finish();
    if let Some(e) = write_error {
        // The labels are all in memory: write the set anyway, so that a full or lost
        // partial file costs the resumability only, never the finished work.
        eprintln!(
            "warning: {}: {e}; finished positions were not all saved there",
            partial.display()
        );
    }
    let new: Vec<testsets::LabelledPosition> = new.into_iter().flatten().collect();
    let mut header: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix('#'))
        .map(str::trim)
        .collect();
    let note = format!(
        "relabelled by `yomi othello relabel {} --depth {} --exact-empties {} --wld-empties {}` ({:.0} s this run): \
         exact at <= {} empties, exact win/draw/loss at <= {}, else {}-ply alpha-beta",
        input.display(),
        cfg.search_depth,
        cfg.exact_empties,
        cfg.wld_empties,
        t.elapsed().as_secs_f64(),
        cfg.exact_empties,
        cfg.wld_empties,
        cfg.search_depth
    );
    header.push(&note);
    std::fs::write(out, testsets::to_text(&header.join("\n"), &new))
        .map_err(|e| usage(format!("{}: {e}", out.display())))?;
    match std::fs::remove_file(&partial) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(usage(format!("{}: {e}", partial.display())))
        }
        _ => {}
    }
    emit_agreement(out, &old, &new)
}

/// Prints where a relabelled set is and how its labels agree with the old ones.
fn emit_agreement(
    out: &std::path::Path,
    old: &[testsets::LabelledPosition],
    new: &[testsets::LabelledPosition],
) -> anyhow::Result<()> {
    let agree = testsets::agreement(old, new).map_err(usage)?;
    crate::commands::emit(&format!(
        "wrote {}\n\n| old → new labels | positions | best moves agree | outcomes agree | critical before | critical after |\n|---|---:|---:|---:|---:|---:|\n{}\n",
        out.display(),
        agree.markdown_row(&format!("{} → {}", kinds(old), kinds(new)))
    ))?;
    Ok(())
}

/// The label kinds of a set, most frequent first (`search6`, or `exact 120, wld 180`).
fn kinds(set: &[testsets::LabelledPosition]) -> String {
    let mut count: Vec<(String, usize)> = Vec::new();
    for p in set {
        let k = p.kind.to_string();
        match count.iter_mut().find(|c| c.0 == k) {
            Some(c) => c.1 += 1,
            None => count.push((k, 1)),
        }
    }
    count.sort_by_key(|c| std::cmp::Reverse(c.1));
    if count.len() == 1 {
        return count.remove(0).0;
    }
    count
        .iter()
        .map(|(k, n)| format!("{k} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The protocol engine with `--move-time` checked (finite, above 0, at most 1e6 s), the
/// `--nodes` cap (above 0) and the `--agent` (a usage error when its spec is refused).
fn engine_with(
    move_time: f64,
    nodes: Option<u64>,
    agent: Option<&str>,
    seed: u64,
) -> anyhow::Result<Engine> {
    if nodes == Some(0) {
        return Err(usage("--nodes must be at least 1"));
    }
    let mut engine = match agent {
        Some(spec) => Engine::with_agent(spec, seed).map_err(|e| usage(format!("--agent: {e}")))?,
        None => Engine::new(),
    };
    engine.move_time = seconds_option("--move-time", move_time, Zero::Refused)?;
    engine.max_nodes = nodes;
    Ok(engine)
}
