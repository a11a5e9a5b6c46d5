//! The DQN training loop. A cycle plays `selfplay.games` self-play games, `selfplay.envs`
//! at a time; after every batched step the online network takes one Adam step per
//! `train.train_every` new transitions (once the buffer holds `train.warmup`), and every
//! `train.target_update` steps the target network becomes a copy of it. After the cycle it
//! is evaluated against the random agent (every `eval.every` cycles, and after the last
//! with `eval.final_games` games), logged and checkpointed.
//!
//! # Files in the run directory
//! - `checkpoint/`: `state.json` (counters, log rows), `net.ynn` (online network),
//!   `target.ynn`, `optim.bpk` (Adam's state), `buffer.bin` (replay buffer); written to
//!   `checkpoint.new/` and swapped in by renames, so a kill leaves a complete checkpoint.
//! - `qnet.ynn`: the online network after the last finished cycle.
//! - `log.csv` and `log.png`: one row per cycle. The plot's top panel is the mean TD loss
//!   (black; red is the same, blue is 0); the bottom panel, on 0–1, is the win rate
//!   against random (green), the win-or-draw rate (magenta) and the illegal-choice rate
//!   (cyan), each with its 95 % interval as thin lines.
//!
//! # Exact resume
//! Cycles end with no game in progress; every random choice of cycle `c` derives from the
//! master seed and `c`, and the networks, optimiser, buffer and step counters are restored,
//! so a resumed run continues exactly as an uninterrupted one (timings differ).
//!
//! Thread safety: one thread; burn's backend parallelises each network call.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use burn::module::Module;
use burn::nn::loss::{HuberLoss, HuberLossConfig, Reduction};
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::{Bytes, Device, Tensor, TensorData};
use serde::{Deserialize, Serialize};
use yomi_core::rng::derive_seed;
use yomi_core::{Player, Rng, TensorGame, Turn};

use super::config::{DqnConfig, TdLoss};
use super::eval::{evaluate_vs_random, EvalStats};
use super::qnet::{QNet, QNetSpec};
use super::replay::{mask_words, Transition, TransitionBuffer};
use super::{check_game, epsilon_greedy, td_target, LegalSet};
use crate::checkpoint::CheckpointDir;
use crate::cycle_log::{EvalResult, LogRow};
use crate::net::{build_seeded, write_atomic};
use crate::selfplay::outcome_for;
use crate::NnError;

/// Checkpoint format version.
pub const DQN_CHECKPOINT_VERSION: u32 = 1;

/// Games evaluated side by side (one network call per step for all of them).
const EVAL_ENVS: usize = 256;

/// An evaluation against the random agent, with rates and 95 % Wilson intervals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DqnEval {
    /// The raw counts.
    pub stats: EvalStats,
    /// Win rate, low, high.
    pub win: [f64; 3],
    /// Win-or-draw rate, low, high.
    pub win_draw: [f64; 3],
    /// Illegal choices per decision, low, high.
    pub illegal: [f64; 3],
    /// Decisions whose unrestricted argmax was illegal, per decision.
    pub argmax_illegal: f64,
}

impl DqnEval {
    fn of(stats: EvalStats) -> Self {
        DqnEval {
            stats,
            win: stats.win_rate(),
            win_draw: stats.win_draw_rate(),
            illegal: stats.illegal_rate(),
            argmax_illegal: stats.argmax_illegal_rate(),
        }
    }
}

/// One line of the training log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DqnLogRow {
    /// Cycle number (1-based).
    pub cycle: usize,
    /// Self-play games played so far in the run.
    pub games_total: usize,
    /// Transitions the cycle added.
    pub transitions: usize,
    /// Transitions in the buffer after the cycle.
    pub buffer: usize,
    /// Optimiser steps so far in the run.
    pub train_steps: usize,
    /// ε of the cycle's last game.
    pub epsilon: f64,
    /// Mean TD loss of the cycle's optimiser steps (0 without steps).
    pub td_loss: f64,
    /// Mean Q(s, a) of the cycle's training batches.
    pub mean_q: f64,
    /// Self-play results: first-player wins, draws, second-player wins.
    pub outcomes: [usize; 3],
    /// Self-play games ended by an illegal choice (unmasked mode).
    pub illegal_endings: usize,
    /// Mean plies of the cycle's games.
    pub mean_plies: f64,
    /// Self-play transitions per second of the whole cycle (acting and learning).
    pub transitions_per_s: f64,
    /// Training samples per second of the optimiser steps alone (batch × steps / their
    /// time, target computation included).
    pub train_samples_per_s: f64,
    /// Wall-clock seconds of the cycle (evaluation excluded).
    pub seconds: f64,
    /// The evaluation against random after this cycle, if one ran.
    pub eval: Option<DqnEval>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct State {
    version: u32,
    cycle: usize,
    games_done: usize,
    train_steps: usize,
    /// Transitions collected since the last optimiser step.
    pending: usize,
    spec: QNetSpec,
    seed: u64,
    masked: bool,
    rows: Vec<DqnLogRow>,
}

/// The online network being trained and its optimiser.
struct QLearner {
    /// Always `Some` between steps (taken while the optimiser consumes it).
    model: Option<QNet>,
    optim: ModuleOptimizer,
    device: Device,
    lr: f64,
    loss: TdLoss,
    huber: HuberLoss,
}

impl QLearner {
    fn new(model: QNet, device: &Device, lr: f64, loss: TdLoss) -> Self {
        let device = device.clone().autodiff();
        QLearner {
            model: Some(model.to_device(&device).train()),
            optim: AdamConfig::new().with_epsilon(1e-8).init(),
            device,
            lr,
            loss,
            huber: HuberLossConfig::new(1.0).init(),
        }
    }

    fn model(&self) -> &QNet {
        self.model.as_ref().expect("model present between steps")
    }

    /// A copy on the plain device for acting and targets.
    fn inference_net(&self) -> QNet {
        self.model().valid()
    }

    /// One Adam step on `n` states with the chosen actions as one-hot rows and their
    /// targets; returns the loss and the mean Q(s, a).
    fn step(&mut self, spec: &QNetSpec, batch: &Batch, n: usize) -> (f64, f64) {
        let x = Tensor::<4>::from_data(
            TensorData::new(
                batch.states.clone(),
                [n, spec.channels, spec.height, spec.width],
            ),
            &self.device,
        );
        let onehot = Tensor::<2>::from_data(
            TensorData::new(batch.onehot.clone(), [n, spec.policy_size]),
            &self.device,
        );
        let targets =
            Tensor::<1>::from_data(TensorData::new(batch.targets.clone(), [n]), &self.device);
        let model = self.model.take().expect("model present between steps");
        let q = (model.forward(x) * onehot).sum_dim(1).reshape([n]);
        let loss = match self.loss {
            TdLoss::Huber => self.huber.forward(q.clone(), targets, Reduction::Mean),
            TdLoss::Mse => (q.clone() - targets).square().mean(),
        };
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        self.model = Some(self.optim.step(self.lr, model, grads));
        // The logged figures are summed here in a fixed order: burn's threaded reductions
        // may round differently from run to run, and the log must resume exactly.
        let q = q.into_data();
        let q = q.as_slice::<f32>().expect("network outputs are f32");
        let (mut loss_sum, mut q_sum) = (0.0f64, 0.0f64);
        for (&v, &t) in q.iter().zip(&batch.targets) {
            let r = (t - v).abs() as f64;
            loss_sum += match self.loss {
                TdLoss::Huber if r > 1.0 => r - 0.5,
                TdLoss::Huber => 0.5 * r * r,
                TdLoss::Mse => r * r,
            };
            q_sum += v as f64;
        }
        (loss_sum / n as f64, q_sum / n as f64)
    }
}

/// Reused minibatch buffers.
struct Batch {
    indices: Vec<usize>,
    states: Vec<f32>,
    next_states: Vec<f32>,
    onehot: Vec<f32>,
    targets: Vec<f32>,
    next_q: Vec<f32>,
}

/// One self-play game in progress.
struct Game<G: TensorGame> {
    state: G::State,
    /// The current state encoded for the mover.
    planes: Vec<f32>,
    legal: LegalSet<G::Move>,
    epsilon: f64,
    plies: usize,
}

/// Per-cycle self-play and learning counters.
#[derive(Default)]
struct CycleStats {
    transitions: usize,
    outcomes: [usize; 3],
    illegal_endings: usize,
    plies: usize,
    steps: usize,
    loss_sum: f64,
    q_sum: f64,
    train_seconds: f64,
    last_epsilon: f64,
}

/// The DQN training run in a directory. See the [module documentation](self).
pub struct DqnTrainer<'a, G: TensorGame> {
    game: &'a G,
    config: DqnConfig,
    dir: PathBuf,
    checkpoint_dir: CheckpointDir,
    device: Device,
    spec: QNetSpec,
    /// Print progress to stderr.
    pub progress: bool,
}

impl<'a, G: TensorGame> DqnTrainer<'a, G> {
    /// A trainer for `game` writing to `dir`.
    ///
    /// # Errors
    /// [`NnError::Config`] for an unusable configuration, game or device; [`NnError::Io`]
    /// when `dir` cannot be created.
    pub fn new(game: &'a G, config: DqnConfig, dir: &Path) -> Result<Self, NnError> {
        config.validate()?;
        check_game(game)?;
        let spec = QNetSpec::for_game(config.net, game);
        spec.validate()?;
        if spec.policy_size > u32::MAX as usize {
            return Err(NnError::Config("policy size too large".into()));
        }
        let device = config.device.device()?;
        std::fs::create_dir_all(dir).map_err(|e| NnError::Io {
            path: dir.to_path_buf(),
            source: e,
        })?;
        Ok(DqnTrainer {
            game,
            config,
            dir: dir.to_path_buf(),
            checkpoint_dir: CheckpointDir::new(dir),
            device,
            spec,
            progress: true,
        })
    }

    /// The network's spec.
    pub fn spec(&self) -> &QNetSpec {
        &self.spec
    }

    /// The log rows written so far (empty without a checkpoint).
    ///
    /// # Errors
    /// As [`DqnTrainer::run`] when the checkpoint cannot be read.
    pub fn log(&self) -> Result<Vec<DqnLogRow>, NnError> {
        Ok(self.read_state()?.map(|s| s.rows).unwrap_or_default())
    }

    fn read_state(&self) -> Result<Option<State>, NnError> {
        let Some(state) = self
            .checkpoint_dir
            .read_state(DQN_CHECKPOINT_VERSION, |s: &State| s.version)?
        else {
            return Ok(None);
        };
        let c = &self.config;
        if state.spec != self.spec || state.seed != c.seed || state.masked != c.masked {
            return Err(NnError::Mismatch(format!(
                "{} holds a run with network {:?}, seed {}, masked {}; the configuration asks \
                 for {:?}, seed {}, masked {}",
                self.dir.display(),
                state.spec,
                state.seed,
                state.masked,
                self.spec,
                c.seed,
                c.masked
            )));
        }
        Ok(Some(state))
    }

    /// Runs cycles until `config.cycles` are done, resuming from the checkpoint; with
    /// `stop_after = Some(n)` it returns after at most `n` new cycles. Returns the log.
    ///
    /// # Errors
    /// [`NnError`] for unreadable or mismatched checkpoints and file errors.
    pub fn run(&mut self, stop_after: Option<usize>) -> Result<Vec<DqnLogRow>, NnError> {
        let c = self.config.clone();
        let plane_len = self.spec.plane_len();
        let words = mask_words(self.spec.policy_size);
        let mut st = match self.read_state()? {
            Some(s) => s,
            None => State {
                version: DQN_CHECKPOINT_VERSION,
                cycle: 0,
                games_done: 0,
                train_steps: 0,
                pending: 0,
                spec: self.spec,
                seed: c.seed,
                masked: c.masked,
                rows: Vec::new(),
            },
        };
        let (mut learner, mut target, mut buffer) = if st.cycle == 0 {
            let online = build_seeded(&self.device, derive_seed(c.seed, 0x6471), || {
                QNet::new(&self.spec, &self.device)
            })?;
            let target = online.clone();
            let learner = QLearner::new(online, &self.device, c.train.lr, c.train.loss);
            (
                learner,
                target,
                TransitionBuffer::new(c.train.buffer, plane_len, words),
            )
        } else {
            let ckpt = self.checkpoint_dir.current();
            let load = |name: &str| -> Result<QNet, NnError> {
                let (net, spec) = QNet::load(&ckpt.join(name), &self.device)?;
                if spec != self.spec {
                    return Err(NnError::Mismatch(format!("{name}: another network shape")));
                }
                Ok(net)
            };
            let mut learner =
                QLearner::new(load("net.ynn")?, &self.device, c.train.lr, c.train.loss);
            let optim_path = ckpt.join("optim.bpk");
            let bytes = std::fs::read(&optim_path).map_err(|e| NnError::Io {
                path: optim_path,
                source: e,
            })?;
            let optim = std::mem::replace(&mut learner.optim, AdamConfig::new().init());
            learner.optim = optim
                .from_bytes(Bytes::from_bytes_vec(bytes))
                .map_err(|e| NnError::Record(e.to_string()))?;
            let buffer = TransitionBuffer::load(
                &ckpt.join("buffer.bin"),
                plane_len,
                words,
                self.spec.policy_size,
            )?;
            if buffer.capacity() != c.train.buffer {
                return Err(NnError::Mismatch(format!(
                    "{} holds a replay buffer of {} transitions; the configuration says {}",
                    self.dir.display(),
                    buffer.capacity(),
                    c.train.buffer
                )));
            }
            if self.progress {
                eprintln!(
                    "resuming {} after cycle {} ({} games, {} steps, {} transitions in the buffer)",
                    self.dir.display(),
                    st.cycle,
                    st.games_done,
                    st.train_steps,
                    buffer.len()
                );
            }
            (learner, load("target.ynn")?, buffer)
        };
        if st.cycle > 0 {
            self.publish_if_behind(&st, &learner)?;
        }
        let mut new_cycles = 0;
        while st.cycle < c.cycles && stop_after.is_none_or(|n| new_cycles < n) {
            let cycle = st.cycle + 1;
            let cseed = derive_seed(c.seed, cycle as u64);
            let start = Instant::now();
            let cs = self.cycle(
                &mut st,
                &mut learner,
                &mut target,
                &mut buffer,
                &mut Rng::seed_from_u64(derive_seed(cseed, 1)),
            );
            let seconds = start.elapsed().as_secs_f64();
            let row_steps = cs.steps.max(1) as f64;
            let last = cycle == c.cycles;
            let eval_games = if last {
                c.eval.final_games
            } else if cycle % c.eval.every == 0 {
                c.eval.games
            } else {
                0
            };
            let eval = (eval_games > 0).then(|| {
                let t = Instant::now();
                let stats = evaluate_vs_random(
                    self.game,
                    &learner.inference_net(),
                    &self.spec,
                    c.masked,
                    eval_games,
                    EVAL_ENVS,
                    derive_seed(cseed, 2),
                );
                let e = DqnEval::of(stats);
                if self.progress {
                    eprintln!(
                        "cycle {cycle}: vs random {} games: W/D/L {}/{}/{}, win {:.3} [{:.3}, {:.3}], \
                         win+draw {:.3} [{:.3}, {:.3}], illegal {}/{} = {:.4} [{:.4}, {:.4}], \
                         argmax illegal {:.4} ({:.1} s)",
                        stats.games,
                        stats.wins,
                        stats.draws,
                        stats.losses,
                        e.win[0],
                        e.win[1],
                        e.win[2],
                        e.win_draw[0],
                        e.win_draw[1],
                        e.win_draw[2],
                        stats.illegal,
                        stats.decisions,
                        e.illegal[0],
                        e.illegal[1],
                        e.illegal[2],
                        e.argmax_illegal,
                        t.elapsed().as_secs_f64()
                    );
                }
                e
            });
            let row = DqnLogRow {
                cycle,
                games_total: st.games_done,
                transitions: cs.transitions,
                buffer: buffer.len(),
                train_steps: st.train_steps,
                epsilon: cs.last_epsilon,
                td_loss: cs.loss_sum / row_steps,
                mean_q: cs.q_sum / row_steps,
                outcomes: cs.outcomes,
                illegal_endings: cs.illegal_endings,
                mean_plies: cs.plies as f64 / c.selfplay.games as f64,
                transitions_per_s: cs.transitions as f64 / seconds.max(1e-9),
                train_samples_per_s: (cs.steps * c.train.batch) as f64 / cs.train_seconds.max(1e-9),
                seconds,
                eval,
            };
            if self.progress {
                eprintln!(
                    "cycle {cycle}/{}: {} games (first/draw/second {:?}, {} illegal endings, \
                     {:.1} plies), ε {:.3}, {} steps, TD loss {:.4}, mean Q {:.3}, \
                     {:.0} transitions/s, {:.0} train samples/s, {:.1} s",
                    c.cycles,
                    st.games_done,
                    row.outcomes,
                    row.illegal_endings,
                    row.mean_plies,
                    row.epsilon,
                    st.train_steps,
                    row.td_loss,
                    row.mean_q,
                    row.transitions_per_s,
                    row.train_samples_per_s,
                    seconds
                );
            }
            st.cycle = cycle;
            st.rows.push(row);
            self.checkpoint(&st, &learner, &target, &buffer)?;
            new_cycles += 1;
        }
        Ok(st.rows)
    }

    /// Plays one cycle's games with learning; updates the run counters in `st`.
    fn cycle(
        &self,
        st: &mut State,
        learner: &mut QLearner,
        target: &mut QNet,
        buffer: &mut TransitionBuffer,
        rng: &mut Rng,
    ) -> CycleStats {
        let c = &self.config;
        let game = self.game;
        let spec = &self.spec;
        let plane_len = spec.plane_len();
        let words = mask_words(spec.policy_size);
        let envs = c.selfplay.envs.min(c.selfplay.games);
        let mut games: Vec<Option<Game<G>>> = (0..envs).map(|_| None).collect();
        let mut spare: Vec<Game<G>> = Vec::new();
        let mut input = vec![0.0f32; envs * plane_len];
        let mut rows: Vec<usize> = Vec::with_capacity(envs);
        let mut q = Vec::new();
        let mut next_planes = vec![0.0f32; plane_len];
        let mut next_legal = LegalSet::new(spec.policy_size);
        let zeros = vec![0.0f32; plane_len];
        let no_moves = vec![0u64; words];
        let mut batch = Batch {
            indices: Vec::with_capacity(c.train.batch),
            states: Vec::with_capacity(c.train.batch * plane_len),
            next_states: Vec::with_capacity(c.train.batch * plane_len),
            onehot: vec![0.0; c.train.batch * spec.policy_size],
            targets: Vec::with_capacity(c.train.batch),
            next_q: Vec::new(),
        };
        let mut actor = learner.inference_net();
        let mut cs = CycleStats::default();
        let mut started = 0usize;
        loop {
            rows.clear();
            for (k, slot) in games.iter_mut().enumerate() {
                if slot.is_none() && started < c.selfplay.games {
                    let mut g = spare.pop().unwrap_or_else(|| Game {
                        state: game.initial_state(),
                        planes: vec![0.0; plane_len],
                        legal: LegalSet::new(spec.policy_size),
                        epsilon: 0.0,
                        plies: 0,
                    });
                    g.state = game.initial_state();
                    g.epsilon = c.explore.epsilon(st.games_done + started);
                    g.plies = 0;
                    observe(game, &g.state, &mut g.planes, &mut g.legal);
                    cs.last_epsilon = g.epsilon;
                    *slot = Some(g);
                    started += 1;
                }
                if slot.is_some() {
                    let g = slot.as_ref().expect("checked");
                    input[rows.len() * plane_len..(rows.len() + 1) * plane_len]
                        .copy_from_slice(&g.planes);
                    rows.push(k);
                }
            }
            if rows.is_empty() {
                break;
            }
            actor.infer_into(spec, &input, rows.len(), &mut q);
            for (row, &k) in rows.iter().enumerate() {
                let g = games[k].as_mut().expect("a listed slot holds a game");
                let Turn::Player(mover) = game.turn(&g.state) else {
                    unreachable!("games are removed when they end");
                };
                let qs = &q[row * spec.policy_size..(row + 1) * spec.policy_size];
                let choice = epsilon_greedy(qs, &g.legal, c.masked, g.epsilon, rng);
                let mv = choice.and_then(|i| g.legal.move_of(i));
                // The winner by the first player's view: 1 first, 0 draw, -1 second.
                let mut ended: Option<i8> = None;
                match (choice, mv) {
                    (Some(a), None) => {
                        // Unmasked: an index that is no legal move's loses on the spot.
                        buffer.push(Transition {
                            state: &g.planes,
                            action: a as u32,
                            reward: -1.0,
                            done: true,
                            next_state: &zeros,
                            next_mask: &no_moves,
                        });
                        cs.illegal_endings += 1;
                        ended = Some(if mover == Player(0) { -1 } else { 1 });
                    }
                    (Some(a), Some(mv)) => {
                        game.apply(&mut g.state, mv);
                        g.plies += 1;
                        let done = game.is_terminal(&g.state);
                        let reward = if done {
                            outcome_for(game, &g.state, mover)
                        } else {
                            0.0
                        };
                        if done {
                            next_legal.clear();
                            next_planes.copy_from_slice(&zeros);
                            let first = outcome_for(game, &g.state, Player(0));
                            ended = Some(if first > 0.0 {
                                1
                            } else if first < 0.0 {
                                -1
                            } else {
                                0
                            });
                        } else {
                            observe(game, &g.state, &mut next_planes, &mut next_legal);
                        }
                        buffer.push(Transition {
                            state: &g.planes,
                            action: a as u32,
                            reward,
                            done,
                            next_state: &next_planes,
                            next_mask: &next_legal.mask,
                        });
                        std::mem::swap(&mut g.planes, &mut next_planes);
                        std::mem::swap(&mut g.legal, &mut next_legal);
                    }
                    // Masked with no legal move (a game bug): end the game as a draw.
                    (None, _) => ended = Some(0),
                }
                cs.transitions += usize::from(choice.is_some());
                st.pending += usize::from(choice.is_some());
                if let Some(w) = ended {
                    cs.outcomes[(1 - w) as usize] += 1;
                    cs.plies += g.plies;
                    st.games_done += 1;
                    spare.push(games[k].take().expect("the game just played"));
                }
            }
            // Learn from what this step added.
            if buffer.len() < c.train.warmup.max(c.train.batch) {
                st.pending = 0;
                continue;
            }
            let mut stepped = false;
            while st.pending >= c.train.train_every {
                st.pending -= c.train.train_every;
                let t = Instant::now();
                let (loss, mean_q) = self.train_step(learner, target, buffer, &mut batch, rng);
                cs.train_seconds += t.elapsed().as_secs_f64();
                cs.loss_sum += loss;
                cs.q_sum += mean_q;
                cs.steps += 1;
                st.train_steps += 1;
                if st.train_steps.is_multiple_of(c.train.target_update) {
                    *target = learner.inference_net();
                }
                stepped = true;
            }
            if stepped {
                actor = learner.inference_net();
            }
        }
        cs
    }

    /// One optimiser step on a minibatch drawn uniformly (with replacement) from `buffer`.
    fn train_step(
        &self,
        learner: &mut QLearner,
        target: &QNet,
        buffer: &TransitionBuffer,
        batch: &mut Batch,
        rng: &mut Rng,
    ) -> (f64, f64) {
        let c = &self.config;
        let spec = &self.spec;
        let n = c.train.batch;
        batch.states.clear();
        batch.next_states.clear();
        batch.targets.clear();
        batch.onehot.fill(0.0);
        batch.indices.clear();
        for row in 0..n {
            let i = rng.below(buffer.len());
            let t = buffer.get(i);
            batch.states.extend_from_slice(t.state);
            batch.next_states.extend_from_slice(t.next_state);
            batch.onehot[row * spec.policy_size + t.action as usize] = 1.0;
            batch.indices.push(i);
        }
        target.infer_into(spec, &batch.next_states, n, &mut batch.next_q);
        let gamma = c.gamma as f32;
        for (row, &i) in batch.indices.iter().enumerate() {
            let t = buffer.get(i);
            let next_q = &batch.next_q[row * spec.policy_size..(row + 1) * spec.policy_size];
            batch.targets.push(td_target(
                t.reward,
                t.done,
                next_q,
                c.masked.then_some(t.next_mask),
                gamma,
            ));
        }
        learner.step(spec, batch, n)
    }

    fn checkpoint(
        &self,
        st: &State,
        learner: &QLearner,
        target: &QNet,
        buffer: &TransitionBuffer,
    ) -> Result<(), NnError> {
        let online = learner.inference_net();
        self.checkpoint_dir.write(st, |new| {
            online.save(&self.spec, &new.join("net.ynn"))?;
            target.save(&self.spec, &new.join("target.ynn"))?;
            let optim = learner
                .optim
                .into_bytes()
                .map_err(|e| NnError::Record(e.to_string()))?;
            write_atomic(&new.join("optim.bpk"), &optim)?;
            buffer.save(&new.join("buffer.bin"))
        })?;
        self.publish(st, learner)
    }

    /// Writes the files users read outside the checkpoint: `qnet.ynn`, then `log.csv` and
    /// `log.png`. `log.csv` goes after the network, so a current log means a current
    /// network.
    fn publish(&self, st: &State, learner: &QLearner) -> Result<(), NnError> {
        learner
            .inference_net()
            .save(&self.spec, &self.dir.join("qnet.ynn"))?;
        write_atomic(&self.dir.join("log.csv"), log_csv(&st.rows).as_bytes())?;
        if let Err(e) = crate::plot::plot_log(&plot_rows(&st.rows), &self.dir.join("log.png")) {
            // The plot is a convenience; the CSV and the checkpoint are what count.
            eprintln!("warning: {e}");
        }
        Ok(())
    }

    /// [`DqnTrainer::publish`] when `log.csv` is not the checkpoint's log: a kill between
    /// the checkpoint and the files outside it left them a cycle behind (or missing), and a
    /// rerun with no cycle left would otherwise never write them.
    fn publish_if_behind(&self, st: &State, learner: &QLearner) -> Result<(), NnError> {
        let current = std::fs::read(self.dir.join("log.csv")).ok();
        if current.as_deref() != Some(log_csv(&st.rows).as_bytes()) {
            self.publish(st, learner)?;
        }
        Ok(())
    }
}

/// Encodes `state` for its mover and lists the mover's legal moves.
fn observe<G: TensorGame>(
    game: &G,
    state: &G::State,
    planes: &mut [f32],
    legal: &mut LegalSet<G::Move>,
) {
    match game.turn(state) {
        Turn::Player(p) => {
            game.encode(state, p, planes);
            legal.fill(game, state);
        }
        _ => {
            planes.fill(0.0);
            legal.clear();
        }
    }
}

/// The log in the AlphaZero plot's shape: the TD loss as the "value loss", and the win,
/// win-or-draw and illegal-choice rates as three evaluation series.
fn plot_rows(rows: &[DqnLogRow]) -> Vec<LogRow> {
    rows.iter()
        .map(|r| LogRow {
            cycle: r.cycle,
            games: r.games_total,
            positions: r.transitions,
            buffer: r.buffer,
            value_loss: r.td_loss,
            policy_loss: 0.0,
            selfplay_positions_per_s: r.transitions_per_s,
            train_samples_per_s: r.train_samples_per_s,
            gate_score: None,
            accepted: true,
            evals: r
                .eval
                .iter()
                .flat_map(|e| {
                    [
                        ("win", e.win),
                        ("win+draw", e.win_draw),
                        ("illegal", e.illegal),
                    ]
                    .map(|(name, score)| EvalResult {
                        opponent: name.to_string(),
                        wdl: [e.stats.wins, e.stats.draws, e.stats.losses],
                        score,
                    })
                })
                .collect(),
        })
        .collect()
}

/// The training log as CSV, one row per cycle; evaluation columns are empty in cycles
/// without an evaluation.
pub fn log_csv(rows: &[DqnLogRow]) -> String {
    let mut out = String::from(
        "cycle,games_total,transitions,buffer,train_steps,epsilon,td_loss,mean_q,\
         first_wins,draws,second_wins,illegal_endings,mean_plies,transitions_per_s,\
         train_samples_per_s,seconds,eval_games,wins,eval_draws,losses,win,win_low,win_high,\
         win_draw,win_draw_low,win_draw_high,decisions,illegal,illegal_rate,illegal_low,\
         illegal_high,argmax_illegal_rate\n",
    );
    for r in rows {
        let _ = write!(
            out,
            "{},{},{},{},{},{:.4},{:.5},{:.4},{},{},{},{},{:.2},{:.1},{:.1},{:.2}",
            r.cycle,
            r.games_total,
            r.transitions,
            r.buffer,
            r.train_steps,
            r.epsilon,
            r.td_loss,
            r.mean_q,
            r.outcomes[0],
            r.outcomes[1],
            r.outcomes[2],
            r.illegal_endings,
            r.mean_plies,
            r.transitions_per_s,
            r.train_samples_per_s,
            r.seconds
        );
        match &r.eval {
            Some(e) => {
                let s = &e.stats;
                let _ = write!(
                    out,
                    ",{},{},{},{},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{},{},{:.5},{:.5},{:.5},{:.5}",
                    s.games,
                    s.wins,
                    s.draws,
                    s.losses,
                    e.win[0],
                    e.win[1],
                    e.win[2],
                    e.win_draw[0],
                    e.win_draw[1],
                    e.win_draw[2],
                    s.decisions,
                    s.illegal,
                    e.illegal[0],
                    e.illegal[1],
                    e.illegal[2],
                    e.argmax_illegal
                );
            }
            None => out.push_str(",,,,,,,,,,,,,,,,"),
        }
        out.push('\n');
    }
    out
}
