//! The AlphaZero training loop: self-play with the best network → replay buffer → train a
//! copy → optional gate (new vs best) → log and checkpoint, cycle after cycle.
//!
//! # Files in the run directory
//! - `checkpoint/`: `state.json` (cycles done, log rows), `net.ynn` (the network being
//!   trained), `best.ynn` (the network self-play uses), `optim.bpk` (Adam's state),
//!   `buffer.bin` (the replay buffer). Written to `checkpoint.new/` and swapped in by
//!   renames after every cycle, so a kill at any moment leaves a complete checkpoint.
//! - `best.ynn`: a copy of the best network (for `az:net=...`).
//! - `log.csv` and `log.png`: one row per cycle (losses, throughput, gate, win rates).
//!
//! # Exact resume
//! Every random choice of cycle `c` derives from the master seed and `c`; the network,
//! optimiser and buffer are restored from the checkpoint. A run killed after cycle `c` and
//! resumed therefore continues exactly as an uninterrupted run (with a deterministic
//! network backend; timings differ).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use burn::tensor::Device;
use serde::{Deserialize, Serialize};
use yomi_core::arena::RoundRobin;
use yomi_core::progress::{Display, Progress};
use yomi_core::registry::AgentRegistry;
use yomi_core::rng::derive_seed;
use yomi_core::{Rng, TensorGame};

use crate::checkpoint::CheckpointDir;
use crate::config::TrainConfig;
use crate::learner::{Learner, Losses};
use crate::net::{build_seeded, write_atomic, DualNet, NetSpec};
use crate::replay::ReplayBuffer;
use crate::selfplay::{LocalSelfPlay, SelfPlayBatch, SelfPlayRunner};
use crate::NnError;

pub use crate::cycle_log::{EvalResult, LogRow};

/// Checkpoint format version.
pub const CHECKPOINT_VERSION: u32 = 1;

#[derive(Clone, Debug, Serialize, Deserialize)]
struct State {
    version: u32,
    cycle: usize,
    spec: NetSpec,
    seed: u64,
    rows: Vec<LogRow>,
}

/// The training run in a directory. See the [module documentation](self).
pub struct Trainer<'a, G: TensorGame> {
    game: &'a G,
    registry: &'a AgentRegistry<G>,
    config: TrainConfig,
    dir: PathBuf,
    checkpoint_dir: CheckpointDir,
    device: Device,
    spec: NetSpec,
    /// Print progress to stderr.
    pub progress: bool,
}

impl<'a, G: TensorGame> Trainer<'a, G> {
    /// A trainer for `game` writing to `dir`. `registry` builds the evaluation opponents
    /// and must know the `az` agent ([`crate::az::register_az`]).
    ///
    /// # Errors
    /// [`NnError::Config`] for an unusable configuration, an unknown device or opponents
    /// that do not build; [`NnError::Io`] when `dir` cannot be created.
    pub fn new(
        game: &'a G,
        registry: &'a AgentRegistry<G>,
        config: TrainConfig,
        dir: &Path,
    ) -> Result<Self, NnError> {
        config.validate()?;
        if game.facts().players != 2 {
            return Err(NnError::Config(
                "AlphaZero training supports two-player games".into(),
            ));
        }
        for o in &config.eval.opponents {
            registry
                .validate(game, o)
                .map_err(|e| NnError::Config(format!("eval opponent {o:?}: {e}")))?;
        }
        if (config.gate.games > 0 || !config.eval.opponents.is_empty())
            && !registry.entries().iter().any(|e| e.name == "az")
        {
            return Err(NnError::Config(
                "the registry lacks the `az` agent (call yomi_nn::az::register_az)".into(),
            ));
        }
        std::fs::create_dir_all(dir).map_err(|e| NnError::Io {
            path: dir.to_path_buf(),
            source: e,
        })?;
        let device = config.device.device()?;
        let spec = NetSpec::for_game(config.net, game);
        spec.validate()?;
        Ok(Trainer {
            game,
            registry,
            config,
            dir: dir.to_path_buf(),
            checkpoint_dir: CheckpointDir::new(dir),
            device,
            spec,
            progress: true,
        })
    }

    /// Cycles completed so far (0 when there is no checkpoint).
    ///
    /// # Errors
    /// As [`Trainer::run`] when the checkpoint cannot be read.
    pub fn cycles_done(&self) -> Result<usize, NnError> {
        Ok(self.read_state()?.map_or(0, |s| s.cycle))
    }

    /// The log rows written so far.
    ///
    /// # Errors
    /// As [`Trainer::run`] when the checkpoint cannot be read.
    pub fn log(&self) -> Result<Vec<LogRow>, NnError> {
        Ok(self.read_state()?.map(|s| s.rows).unwrap_or_default())
    }

    fn read_state(&self) -> Result<Option<State>, NnError> {
        let Some(state) = self
            .checkpoint_dir
            .read_state(CHECKPOINT_VERSION, |s: &State| s.version)?
        else {
            return Ok(None);
        };
        if state.spec != self.spec {
            return Err(NnError::Mismatch(format!(
                "{} holds a run with network {:?}; the configuration asks for {:?}",
                self.dir.display(),
                state.spec,
                self.spec
            )));
        }
        if state.seed != self.config.seed {
            return Err(NnError::Mismatch(format!(
                "{} was trained with seed {}; the configuration says {}",
                self.dir.display(),
                state.seed,
                self.config.seed
            )));
        }
        Ok(Some(state))
    }

    /// Runs cycles until `config.cycles` are done, resuming from the checkpoint; with
    /// `stop_after = Some(n)` it returns after at most `n` new cycles. Returns the log.
    ///
    /// # Errors
    /// [`NnError`] for unreadable or mismatched checkpoints, file errors, and evaluation
    /// opponents that fail to build.
    pub fn run(&mut self, stop_after: Option<usize>) -> Result<Vec<LogRow>, NnError> {
        let mut local = LocalSelfPlay {
            progress: self.progress,
        };
        self.run_with(stop_after, &mut local)
    }

    /// [`Trainer::run`] with each cycle's self-play played by `runner` (for example in
    /// chunks on other machines). The runs are the same as long as the runner returns the
    /// batch's games in order, as [`SelfPlayRunner`] requires.
    ///
    /// # Errors
    /// As [`Trainer::run`], and whatever `runner` returns (the checkpoint of the last
    /// finished cycle stays, so a rerun resumes there).
    pub fn run_with(
        &mut self,
        stop_after: Option<usize>,
        runner: &mut dyn SelfPlayRunner<G>,
    ) -> Result<Vec<LogRow>, NnError> {
        let c = self.config.clone();
        let state = self.read_state()?;
        let (mut cycle, mut rows) = state.map_or((0, Vec::new()), |s| (s.cycle, s.rows));
        let plane_len = self.spec.shape().len();
        let (mut learner, mut best, mut buffer) = if cycle == 0 {
            let net = build_seeded(&self.device, derive_seed(c.seed, 0x6e6e), || {
                DualNet::new(&self.spec, &self.device)
            })?;
            let learner = Learner::new(net, self.spec, &self.device, c.train.lr, c.train.l2);
            let best = learner.inference_net();
            (learner, best, ReplayBuffer::new(c.train.buffer))
        } else {
            let ck = self.checkpoint_dir.current();
            let (net, _) = DualNet::load(&ck.join("net.ynn"), &self.device)?;
            let (best, _) = DualNet::load(&ck.join("best.ynn"), &self.device)?;
            let mut learner = Learner::new(net, self.spec, &self.device, c.train.lr, c.train.l2);
            let optim = ck.join("optim.bpk");
            let bytes = std::fs::read(&optim).map_err(|e| NnError::Io {
                path: optim.clone(),
                source: e,
            })?;
            learner.load_optimizer(&bytes)?;
            // The buffer is by far the largest file; a checkpoint copied from another
            // machine without it resumes with an empty buffer rather than not at all.
            let buffer_path = ck.join("buffer.bin");
            let mut buffer = if buffer_path.exists() {
                ReplayBuffer::load(&buffer_path, plane_len, self.spec.policy_size)?
            } else {
                eprintln!(
                    "warning: {} is missing; resuming with an empty replay buffer",
                    buffer_path.display()
                );
                ReplayBuffer::new(c.train.buffer)
            };
            if buffer.len() > c.train.buffer {
                let mut b = ReplayBuffer::new(c.train.buffer);
                b.extend((0..buffer.len()).filter_map(|i| buffer.get(i).cloned()));
                buffer = b;
            }
            if self.progress {
                eprintln!(
                    "resuming {} after cycle {cycle} ({} samples in the buffer)",
                    self.dir.display(),
                    buffer.len()
                );
            }
            (learner, best, buffer)
        };
        if cycle > 0 {
            self.publish_if_behind(&rows, &best)?;
        }
        let mut new_cycles = 0;
        let bar = Progress::new(
            "training",
            "cycles",
            c.cycles as u64,
            cycle as u64,
            Display::for_stderr(!self.progress),
        );
        while cycle < c.cycles && stop_after.is_none_or(|n| new_cycles < n) {
            cycle += 1;
            let cseed = derive_seed(c.seed, cycle as u64);
            bar.println(&format!("cycle {cycle}/{}: self-play", c.cycles));
            // Self-play with the best network.
            let sp = runner.play(
                self.game,
                &c,
                &SelfPlayBatch {
                    cycle,
                    network: &best,
                    spec: self.spec,
                    seed: derive_seed(cseed, 1),
                    games: c.selfplay.games,
                },
            )?;
            let positions = sp.samples.len();
            let sp_rate = sp.positions_per_second();
            buffer.extend(sp.samples);
            bar.println(&format!(
                    "cycle {cycle}: {} games ({} / {} / {} first wins / draws / second wins), {positions} positions, {sp_rate:.1} positions/s; training",
                    sp.games, sp.outcomes[0], sp.outcomes[1], sp.outcomes[2]
                ));
            // Train.
            let mut rng = Rng::seed_from_u64(derive_seed(cseed, 2));
            let losses: Losses = if c.train.epochs > 0 {
                learner.train_epochs(&buffer, c.train.epochs, c.train.batch, &mut rng)
            } else {
                learner.train(&buffer, c.train.steps, c.train.batch, &mut rng)
            };
            let candidate = learner.inference_net();
            bar.println(&format!(
                "cycle {cycle}: value loss {:.4}, policy loss {:.4}, {:.0} samples/s",
                losses.value, losses.policy, losses.samples_per_second
            ));
            // Gate.
            let work = self.dir.join("work");
            std::fs::create_dir_all(&work).map_err(|e| NnError::Io {
                path: work.clone(),
                source: e,
            })?;
            let (gate_score, accepted) = if c.gate.games > 0 {
                let new_path = work.join("candidate.ynn");
                let best_path = work.join("best.ynn");
                candidate.save(&self.spec, &new_path)?;
                best.save(&self.spec, &best_path)?;
                let spec_of = |p: &Path| {
                    format!(
                        "az:net={},sims={},temp=1,tmoves={}",
                        p.display(),
                        c.gate.simulations,
                        c.gate.temperature_moves
                    )
                };
                let (score, _) = self.play(
                    &spec_of(&new_path),
                    &spec_of(&best_path),
                    c.gate.games,
                    derive_seed(cseed, 3),
                )?;
                let ok = score.score[0] >= c.gate.threshold;
                bar.println(&format!(
                    "cycle {cycle}: gate {:.3} (W/D/L {:?}) -> {}",
                    score.score[0],
                    score.wdl,
                    if ok { "accepted" } else { "rejected" }
                ));
                (Some(score.score[0]), ok)
            } else {
                (None, true)
            };
            if accepted {
                best = candidate;
            }
            // Evaluate the best network.
            let mut evals = Vec::new();
            if !c.eval.opponents.is_empty() && (cycle % c.eval.every == 0 || cycle == c.cycles) {
                let best_path = work.join("eval.ynn");
                best.save(&self.spec, &best_path)?;
                let me = format!("az:net={},sims={}", best_path.display(), c.eval.simulations);
                for (k, o) in c.eval.opponents.iter().enumerate() {
                    let (mut r, _) =
                        self.play(&me, o, c.eval.games, derive_seed(cseed, 10 + k as u64))?;
                    r.opponent = o.clone();
                    bar.println(&format!(
                        "cycle {cycle}: vs {o}: W/D/L {:?}, score {:.3} [{:.3}, {:.3}]",
                        r.wdl, r.score[0], r.score[1], r.score[2]
                    ));
                    evals.push(r);
                }
            }
            rows.push(LogRow {
                cycle,
                games: sp.games,
                positions,
                buffer: buffer.len(),
                value_loss: losses.value,
                policy_loss: losses.policy,
                selfplay_positions_per_s: sp_rate,
                train_samples_per_s: losses.samples_per_second,
                gate_score,
                accepted,
                evals,
            });
            self.checkpoint(cycle, &rows, &learner, &best, &buffer)?;
            bar.inc(1);
            new_cycles += 1;
        }
        bar.finish();
        Ok(rows)
    }

    /// Plays `a` against `b` over `games` games in the arena; returns `a`'s result.
    fn play(
        &self,
        a: &str,
        b: &str,
        games: usize,
        seed: u64,
    ) -> Result<(EvalResult, Vec<String>), NnError> {
        let result = RoundRobin::head_to_head(a, b)
            .games(games.max(1))
            .seed(seed)
            .threads(self.config.eval.threads.max(1))
            .quiet(true)
            .run(self.game, self.registry)
            .map_err(|e| NnError::Config(format!("match {a} vs {b}: {e}")))?;
        let me = &result.agents[0];
        let row = result
            .standings
            .rows
            .iter()
            .find(|r| &r.agent == me)
            .ok_or_else(|| NnError::Config("match produced no standings".into()))?;
        let w = row.wdl;
        let s = w.score();
        Ok((
            EvalResult {
                opponent: b.to_string(),
                wdl: [w.wins, w.draws, w.losses],
                score: [s.value, s.low, s.high],
            },
            result.agents.clone(),
        ))
    }

    fn checkpoint(
        &self,
        cycle: usize,
        rows: &[LogRow],
        learner: &Learner,
        best: &DualNet,
        buffer: &ReplayBuffer,
    ) -> Result<(), NnError> {
        let state = State {
            version: CHECKPOINT_VERSION,
            cycle,
            spec: self.spec,
            seed: self.config.seed,
            rows: rows.to_vec(),
        };
        self.checkpoint_dir.write(&state, |new| {
            learner.model().save(&self.spec, &new.join("net.ynn"))?;
            best.save(&self.spec, &new.join("best.ynn"))?;
            write_atomic(&new.join("optim.bpk"), &learner.optimizer_bytes()?)?;
            buffer.save(&new.join("buffer.bin"))
        })?;
        self.publish(rows, best)
    }

    /// Writes the files users read outside the checkpoint: `best.ynn`, then `log.csv` and
    /// `log.png`. `log.csv` goes after the network, so a current log means a current
    /// network.
    fn publish(&self, rows: &[LogRow], best: &DualNet) -> Result<(), NnError> {
        best.save(&self.spec, &self.dir.join("best.ynn"))?;
        write_atomic(&self.dir.join("log.csv"), log_csv(rows).as_bytes())?;
        if let Err(e) = crate::plot::plot_log(rows, &self.dir.join("log.png")) {
            // The plot is a convenience; the CSV and the checkpoint are what count.
            eprintln!("warning: {e}");
        }
        Ok(())
    }

    /// [`Trainer::publish`] when `log.csv` is not the checkpoint's log: a kill between the
    /// checkpoint and the files outside it left them a cycle behind (or missing), and a
    /// rerun with no cycle left would otherwise never write them.
    fn publish_if_behind(&self, rows: &[LogRow], best: &DualNet) -> Result<(), NnError> {
        let current = std::fs::read(self.dir.join("log.csv")).ok();
        if current.as_deref() != Some(log_csv(rows).as_bytes()) {
            self.publish(rows, best)?;
        }
        Ok(())
    }
}

/// The training log as CSV (one row per cycle; three columns per evaluation opponent:
/// score, low and high of its 95 % interval).
pub fn log_csv(rows: &[LogRow]) -> String {
    let mut opponents: Vec<String> = Vec::new();
    for r in rows {
        for e in &r.evals {
            if !opponents.contains(&e.opponent) {
                opponents.push(e.opponent.clone());
            }
        }
    }
    let mut out = String::from(
        "cycle,games,positions,buffer,value_loss,policy_loss,total_loss,selfplay_positions_per_s,train_samples_per_s,gate_score,accepted",
    );
    for o in &opponents {
        let name = o.replace(['"', ','], ";");
        let _ = write!(out, ",\"{name} score\",\"{name} low\",\"{name} high\"");
    }
    out.push('\n');
    for r in rows {
        let _ = write!(
            out,
            "{},{},{},{},{:.5},{:.5},{:.5},{:.2},{:.1},{},{}",
            r.cycle,
            r.games,
            r.positions,
            r.buffer,
            r.value_loss,
            r.policy_loss,
            r.value_loss + r.policy_loss,
            r.selfplay_positions_per_s,
            r.train_samples_per_s,
            r.gate_score.map_or(String::new(), |s| format!("{s:.4}")),
            r.accepted
        );
        for o in &opponents {
            match r.evals.iter().find(|e| &e.opponent == o) {
                Some(e) => {
                    let _ = write!(
                        out,
                        ",{:.4},{:.4},{:.4}",
                        e.score[0], e.score[1], e.score[2]
                    );
                }
                None => out.push_str(",,,"),
            }
        }
        out.push('\n');
    }
    out
}

/// The whole `train <config>` command for a game: registers the `az` agent in `registry`
/// (for gating and evaluation), reads the TOML configuration at `config` and runs (or
/// resumes) training in `dir` with progress on stderr. Command-line front ends call this.
///
/// # Errors
/// As [`TrainConfig::load`], [`Trainer::new`] and [`Trainer::run`].
pub fn run_training<G: TensorGame>(
    game: &G,
    mut registry: AgentRegistry<G>,
    config: &Path,
    dir: &Path,
) -> Result<Vec<LogRow>, NnError> {
    crate::az::register_az(&mut registry);
    let config = TrainConfig::load(config)?;
    let mut trainer = Trainer::new(game, &registry, config, dir)?;
    trainer.run(None)
}
