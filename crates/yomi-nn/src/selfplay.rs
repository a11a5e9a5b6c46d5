//! Self-play: game threads play the network-guided search against itself, all asking one
//! [`EvalService`], and record a training [`Sample`] per position.
//!
//! Games are numbered; game `i` uses seeds derived from the cycle seed and `i`, and its
//! samples are stored under `i`, so the output does not depend on thread timing (given a
//! deterministic network).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use burn::module::Module;

use yomi_core::rng::derive_seed;
use yomi_core::{Game, Player, Rng, TensorGame, Turn};

use crate::az::{visit_policy, AzParams};
pub use crate::config::GameBounds;
use crate::config::TrainConfig;
use crate::net::{DualNet, NetSpec};
use crate::replay::Sample;
use crate::service::EvalService;
use crate::NnError;

/// What a self-play batch produced.
#[derive(Clone, Debug)]
pub struct SelfPlayOutput {
    /// Samples of every game, game by game in game order.
    pub samples: Vec<Sample>,
    /// Games played.
    pub games: usize,
    /// Wins of the first player, draws, wins of the second player (by sign of returns).
    pub outcomes: [usize; 3],
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl SelfPlayOutput {
    /// Positions (searches) per second.
    pub fn positions_per_second(&self) -> f64 {
        self.samples.len() as f64 / self.seconds.max(1e-9)
    }
}

/// The outcome for `p` mapped from the game's reward bounds to `[-1, 1]`.
pub fn outcome_for<G: Game>(game: &G, state: &G::State, p: Player) -> f32 {
    let (lo, hi) = game.facts().reward_bounds;
    let r = game.returns(state).get(p);
    (((r - lo) / (hi - lo)) * 2.0 - 1.0).clamp(-1.0, 1.0) as f32
}

/// Plays one self-play game with seed `seed`; returns its samples and the final state.
pub fn play_game<G: TensorGame>(
    game: &G,
    service: &EvalService,
    params: &AzParams,
    bounds: GameBounds,
    seed: u64,
) -> (Vec<Sample>, G::State) {
    let mut mcts = params.search::<G>(service.client(), derive_seed(seed, 1));
    let mut rng = Rng::seed_from_u64(derive_seed(seed, 2));
    // A stream of its own, so that adding random plies leaves the search's draws alone.
    let mut opening = Rng::seed_from_u64(derive_seed(seed, 3));
    let mut state = game.initial_state();
    let len = game.tensor_shape().len();
    let mut history: Vec<HistoryEntry> = Vec::new();
    let mut legal = Vec::new();
    let limit = if bounds.max_plies == 0 {
        usize::MAX
    } else {
        bounds.max_plies
    };
    let mut ply = 0;
    while let Turn::Player(p) = game.turn(&state) {
        if ply >= limit {
            break;
        }
        if ply < bounds.random_plies {
            legal.clear();
            game.legal_moves(&state, &mut legal);
            if legal.is_empty() {
                break;
            }
            let mv = legal[opening.below(legal.len())];
            game.apply(&mut state, mv);
            ply += 1;
            continue;
        }
        let result = mcts.search_for(game, &state, p);
        let Some(mv) = result.choose(params.final_move(ply), &mut rng) else {
            break;
        };
        let mut planes = vec![0.0; len];
        game.encode(&state, p, &mut planes);
        history.push((planes, visit_policy(game, &state, &result), p));
        game.apply(&mut state, mv);
        ply += 1;
    }
    let terminal = game.is_terminal(&state);
    let samples = history
        .into_iter()
        .map(|(planes, policy, p)| Sample {
            planes,
            policy,
            z: if terminal {
                outcome_for(game, &state, p)
            } else {
                0.0
            },
        })
        .collect();
    (samples, state)
}

/// One position of a game in progress: its encoding, the search's visit distribution
/// (policy index, probability) and the player to move.
type HistoryEntry = (Vec<f32>, Vec<(u32, f32)>, Player);

/// One finished game: its samples and the outcome for the first player (+1, 0, -1).
type GameResult = (Vec<Sample>, i8);

/// Plays `games` self-play games on `threads` threads; game `i` has seed
/// `derive_seed(seed, i)`. Thread `t` asks `services[t % services.len()]`: one batching
/// thread runs the network for every game thread it serves, so a many-core machine needs
/// several services (each with its own copy of the network) to keep its cores busy. The
/// games do not depend on the thread or service counts. Progress goes to stderr when
/// `progress` is set.
///
/// # Panics
/// If `services` is empty.
#[allow(clippy::too_many_arguments)] // the cycle's settings, passed through from the config
pub fn self_play<G: TensorGame>(
    game: &G,
    services: &[EvalService],
    params: &AzParams,
    games: usize,
    threads: usize,
    bounds: GameBounds,
    seed: u64,
    progress: bool,
) -> SelfPlayOutput {
    let all: Vec<usize> = (0..games).collect();
    self_play_games(
        game, services, params, &all, threads, bounds, seed, progress,
    )
}

/// Plays the self-play games numbered `indices` of a batch with seed `seed` (game `i` has
/// seed `derive_seed(seed, i)`, as in [`self_play`]); their samples come game by game in
/// the order of `indices`. A batch split into chunks of indices, played anywhere (other
/// processes or machines) with the same network, gives the same games as [`self_play`]
/// of the whole batch: the samples of the chunks put one after another in index order are
/// its samples.
///
/// # Panics
/// If `services` is empty.
#[allow(clippy::too_many_arguments)] // the cycle's settings, passed through from the config
pub fn self_play_games<G: TensorGame>(
    game: &G,
    services: &[EvalService],
    params: &AzParams,
    indices: &[usize],
    threads: usize,
    bounds: GameBounds,
    seed: u64,
    progress: bool,
) -> SelfPlayOutput {
    let games = indices.len();
    let start = Instant::now();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<GameResult>>> = Mutex::new(vec![None; games]);
    assert!(
        !services.is_empty(),
        "self-play needs an evaluation service"
    );
    std::thread::scope(|scope| {
        for t in 0..threads.clamp(1, games.max(1)) {
            let service = &services[t % services.len()];
            let (next, done, results) = (&next, &done, &results);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= games {
                    break;
                }
                let (samples, end) = play_game(
                    game,
                    service,
                    params,
                    bounds,
                    derive_seed(seed, indices[i] as u64),
                );
                let r0 = if game.is_terminal(&end) {
                    outcome_for(game, &end, Player(0))
                } else {
                    0.0
                };
                let sign = if r0 > 0.0 {
                    1
                } else if r0 < 0.0 {
                    -1
                } else {
                    0
                };
                results.lock().expect("results lock")[i] = Some((samples, sign));
                let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                if progress && (d.is_multiple_of((games / 10).max(1)) || d == games) {
                    eprintln!(
                        "  self-play {d}/{games} games, {:.1} s",
                        start.elapsed().as_secs_f64()
                    );
                }
            });
        }
    });
    let mut samples = Vec::new();
    let mut outcomes = [0usize; 3];
    for (s, sign) in results
        .into_inner()
        .expect("results lock")
        .into_iter()
        .flatten()
    {
        samples.extend(s);
        outcomes[(1 - sign) as usize] += 1;
    }
    SelfPlayOutput {
        samples,
        games,
        outcomes,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// One cycle's self-play as the [`Trainer`](crate::Trainer) asks for it: `games` games
/// numbered `0..games`, game `i` with seed `derive_seed(seed, i)`, searched with
/// `network` (the best network so far).
pub struct SelfPlayBatch<'n> {
    /// The training cycle (1-based).
    pub cycle: usize,
    /// The network every search asks.
    pub network: &'n DualNet,
    /// Its shapes.
    pub spec: NetSpec,
    /// The batch seed.
    pub seed: u64,
    /// Games in the batch.
    pub games: usize,
}

impl SelfPlayBatch<'_> {
    /// The network as a weights file's bytes, for workers elsewhere
    /// ([`self_play_chunk`]).
    ///
    /// # Errors
    /// [`NnError::Record`] when burn cannot serialise the record.
    pub fn network_bytes(&self) -> Result<Vec<u8>, NnError> {
        self.network.to_bytes(&self.spec)
    }
}

/// Where a trainer's self-play games are played: [`LocalSelfPlay`] on this machine's
/// threads, or a runner that sends chunks of the batch to other processes or machines
/// (the Python package's Ray runner does). A runner must return the batch's samples game
/// by game in game order; then the training that follows does not depend on where the
/// games were played.
pub trait SelfPlayRunner<G: TensorGame> {
    /// Plays `batch` with the self-play settings of `config`.
    ///
    /// # Errors
    /// Whatever stopped the games from being played; the trainer stops with it and the
    /// run resumes from its last checkpoint.
    fn play(
        &mut self,
        game: &G,
        config: &TrainConfig,
        batch: &SelfPlayBatch<'_>,
    ) -> Result<SelfPlayOutput, NnError>;
}

/// Self-play in this process: `config.selfplay.threads` game threads asking
/// `config.selfplay.services` batching services.
#[derive(Clone, Copy, Debug, Default)]
pub struct LocalSelfPlay {
    /// Print progress to stderr.
    pub progress: bool,
}

impl<G: TensorGame> SelfPlayRunner<G> for LocalSelfPlay {
    fn play(
        &mut self,
        game: &G,
        config: &TrainConfig,
        batch: &SelfPlayBatch<'_>,
    ) -> Result<SelfPlayOutput, NnError> {
        let sp = &config.selfplay;
        let services: Vec<EvalService> = (0..sp.services.max(1))
            .map(|_| EvalService::start(batch.network.valid(), batch.spec, sp.max_batch))
            .collect();
        Ok(self_play(
            game,
            &services,
            &config.search,
            batch.games,
            sp.threads,
            sp.bounds(),
            batch.seed,
            self.progress,
        ))
    }
}

/// Plays the games numbered `indices` of a self-play batch away from the trainer (a
/// worker process, another machine): loads the network from a weights file's bytes
/// (checked against `game`) onto `config`'s device and plays with `config`'s self-play
/// settings. With the batch's seed, the chunks of a batch give exactly the games of
/// [`LocalSelfPlay`] (see [`self_play_games`]).
///
/// # Errors
/// [`NnError::Config`] for an unusable configuration or device, and the errors of
/// [`DualNet::from_bytes_for`] for network bytes that are not a network for `game`.
pub fn self_play_chunk<G: TensorGame>(
    game: &G,
    config: &TrainConfig,
    network: &[u8],
    seed: u64,
    indices: &[usize],
) -> Result<SelfPlayOutput, NnError> {
    config.validate()?;
    let device = config.device.device()?;
    let (net, spec) = DualNet::from_bytes_for(network, "the self-play network", game, &device)?;
    let sp = &config.selfplay;
    let services: Vec<EvalService> = (0..sp.services.max(1))
        .map(|_| EvalService::start(net.clone(), spec, sp.max_batch))
        .collect();
    Ok(self_play_games(
        game,
        &services,
        &config.search,
        indices,
        sp.threads,
        sp.bounds(),
        seed,
        false,
    ))
}
