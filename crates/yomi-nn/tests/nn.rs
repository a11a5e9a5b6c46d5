//! yomi-nn on tic-tac-toe and connect four: shapes, masking, weights files, the search
//! plug-ins, training, resume after a kill, and that training lowers the loss.

use burn::module::Module;
use burn::tensor::{Device, Tensor, TensorData};
use yomi_classic::{ConnectFour, TicTacToe};
use yomi_core::search::mcts::{EdgeSlot, Expander, LeafEvaluator};
use yomi_core::{ActionSpace, Game, Player, Rng, TensorGame};
use yomi_nn::az::{masked_softmax, register_az, NetExpander, NetLeaf};
use yomi_nn::learner::Learner;
use yomi_nn::net::build_seeded;
use yomi_nn::replay::{samples_from_bytes, samples_to_bytes, ReplayBuffer, Sample};
use yomi_nn::selfplay::{
    self_play, self_play_chunk, self_play_games, GameBounds, SelfPlayBatch, SelfPlayOutput,
    SelfPlayRunner,
};
use yomi_nn::{
    AzParams, DualNet, EvalService, NetClient, NetConfig, NetSpec, NnError, TrainConfig, Trainer,
};

/// A scratch directory removed on drop (no `tempfile`: its dependencies would change the
/// features of burn's and force a second build of burn for the tests).
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new() -> Self {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let p = std::env::temp_dir().join(format!("yomi-nn-test-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
    fn path(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn tiny() -> NetConfig {
    NetConfig {
        filters: 8,
        blocks: 1,
        value_hidden: 8,
    }
}

fn net_for<G: TensorGame>(game: &G, seed: u64) -> (DualNet, NetSpec) {
    let device = Device::flex();
    let spec = NetSpec::for_game(tiny(), game);
    let net = build_seeded(&device, seed, || DualNet::new(&spec, &device)).unwrap();
    (net.valid(), spec)
}

#[test]
fn output_shapes_and_value_range() {
    let game = ConnectFour;
    let (net, spec) = net_for(&game, 1);
    let len = spec.shape().len();
    let mut input = vec![0.0; 3 * len];
    let mut state = game.initial_state();
    let mut moves = Vec::new();
    for k in 0..3 {
        game.encode(&state, Player(0), &mut input[k * len..(k + 1) * len]);
        game.legal_moves(&state, &mut moves);
        game.apply(&mut state, moves[k]);
    }
    let (logits, values) = net.infer(&spec, &input, 3);
    assert_eq!(logits.len(), 3 * game.num_actions());
    assert_eq!(values.len(), 3);
    assert!(values.iter().all(|v| (-1.0..=1.0).contains(v)));
    assert!(logits.iter().all(|v| v.is_finite()));
    // The forward pass on tensors gives the same shapes.
    let x = Tensor::<4>::from_data(
        TensorData::new(input, [3, spec.channels, spec.height, spec.width]),
        &Device::flex(),
    );
    let (l, v) = net.forward(x);
    assert_eq!(l.dims(), [3, 7]);
    assert_eq!(v.dims(), [3]);
}

#[test]
fn masking_puts_all_prior_mass_on_legal_moves() {
    let logits = [5.0, 1.0, 0.0, 9.0, -2.0];
    let mut out = [0.0; 2];
    masked_softmax(&logits, &[1, 2], &mut out);
    let e = 1f32.exp();
    assert!((out[0] - e / (e + 1.0)).abs() < 1e-6);
    assert!((out.iter().sum::<f32>() - 1.0).abs() < 1e-6);

    // The expander gives only the legal moves of a mid-game position their priors.
    let game = TicTacToe;
    let (net, spec) = net_for(&game, 2);
    let client = NetClient::direct(net, spec);
    let mut state = game.initial_state();
    let mut moves = Vec::new();
    for _ in 0..3 {
        game.legal_moves(&state, &mut moves);
        game.apply(&mut state, moves[0]);
    }
    game.legal_moves(&state, &mut moves);
    let mut slots: Vec<EdgeSlot<_>> = moves
        .iter()
        .map(|&mv| EdgeSlot {
            mv,
            prior: 0.0,
            eval: 0.0,
        })
        .collect();
    let mut x = NetExpander::<TicTacToe>::new(client.clone());
    x.expand(
        &game,
        &state,
        Player(1),
        &mut slots,
        &mut Rng::seed_from_u64(0),
    );
    let sum: f32 = slots.iter().map(|s| s.prior).sum();
    assert_eq!(slots.len(), 6);
    assert!((sum - 1.0).abs() < 1e-5, "{sum}");
    assert!(slots.iter().all(|s| s.prior > 0.0));
    // The leaf evaluator reuses the cached call and gives zero-sum rewards.
    let key = game.hash(&state);
    assert!(client.cached(key).is_some());
    let mut leaf = NetLeaf::<TicTacToe>::new(client);
    let mut s2 = state;
    let r = leaf.evaluate(&game, &mut s2, &mut Rng::seed_from_u64(0), &mut moves);
    assert!((r.get(Player(0)) + r.get(Player(1))).abs() < 1e-9);
}

#[test]
fn weights_round_trip_and_bad_files_are_errors() {
    let game = TicTacToe;
    let (net, spec) = net_for(&game, 3);
    let dir = TempDir::new();
    let path = dir.path().join("w.ynn");
    net.save(&spec, &path).unwrap();
    let (back, spec2) = DualNet::load_for(&path, &game, &Device::flex()).unwrap();
    assert_eq!(spec, spec2);
    let mut input = vec![0.0; spec.shape().len()];
    game.encode(&game.initial_state(), Player(0), &mut input);
    assert_eq!(net.infer(&spec, &input, 1), back.infer(&spec, &input, 1));
    // Small file: a tiny network is a few kilobytes.
    assert!(std::fs::metadata(&path).unwrap().len() < 100_000);

    let bytes = std::fs::read(&path).unwrap();
    let dev = Device::flex();
    assert!(matches!(
        DualNet::from_bytes(b"hello", &dev),
        Err(NnError::Format(_))
    ));
    let mut v2 = bytes.clone();
    v2[8] = 99;
    assert!(matches!(
        DualNet::from_bytes(&v2, &dev),
        Err(NnError::Version { found: 99, .. })
    ));
    assert!(DualNet::from_bytes(&bytes[..bytes.len() / 2], &dev).is_err());
    let mut garbled = bytes.clone();
    let n = garbled.len();
    garbled[n - 40..].fill(0xAB);
    let _ = DualNet::from_bytes(&garbled, &dev); // must not panic (error or tolerated)
    assert!(matches!(
        DualNet::load_for(&path, &ConnectFour, &dev),
        Err(NnError::Mismatch(_))
    ));
    assert!(matches!(
        DualNet::load(&dir.path().join("missing.ynn"), &dev),
        Err(NnError::Io { .. })
    ));
}

#[test]
fn az_agent_spec_builds_and_plays() {
    let game = TicTacToe;
    let (net, spec) = net_for(&game, 4);
    let dir = TempDir::new();
    let path = dir.path().join("w.ynn");
    net.save(&spec, &path).unwrap();
    let mut registry = yomi_classic::tictactoe::registry();
    register_az(&mut registry);
    let spec_text = format!("az:net={},sims=30", path.display());
    let mut agent = registry.build(&game, &spec_text, 1).unwrap();
    let state = game.initial_state();
    let mv = agent.select_move(&game, &state, Player(0)).unwrap();
    let mut legal = Vec::new();
    game.legal_moves(&state, &mut legal);
    assert!(legal.contains(&mv));
    // Errors, not panics: a missing file, a file for another game, a bad device.
    assert!(registry.build(&game, "az:net=/nonexistent.ynn", 1).is_err());
    assert!(registry.build(&game, "az", 1).is_err());
    assert!(registry
        .build(&game, &format!("az:net={},device=tpu", path.display()), 1)
        .is_err());
    let mut c4 = yomi_classic::connect_four::registry();
    register_az(&mut c4);
    assert!(c4.build(&ConnectFour, &spec_text, 1).is_err());
}

#[test]
fn self_play_through_the_batching_service_is_deterministic() {
    let game = TicTacToe;
    let params = AzParams {
        simulations: 16,
        noise_alpha: 0.5,
        noise_fraction: 0.25,
        temperature_moves: 4,
        ..AzParams::default()
    };
    let run = |threads, services: usize| {
        let (net, spec) = net_for(&game, 5);
        let services: Vec<EvalService> = (0..services)
            .map(|_| EvalService::start(net.clone(), spec, 8))
            .collect();
        let out = self_play(
            &game,
            &services,
            &params,
            6,
            threads,
            GameBounds::default(),
            77,
            false,
        );
        let calls: u64 = services
            .iter()
            .map(|s| {
                s.stats()
                    .positions
                    .load(std::sync::atomic::Ordering::Relaxed)
            })
            .sum();
        (out, calls)
    };
    let (a, calls) = run(1, 1);
    let (b, _) = run(3, 1);
    let (c, _) = run(3, 2);
    assert_eq!(a.games, 6);
    assert!(a.samples.len() >= 6 * 5);
    assert_eq!(a.samples, b.samples, "thread count changed the games");
    assert_eq!(a.samples, c.samples, "service count changed the games");
    // The batch in chunks of game numbers, in any order (as workers elsewhere play them),
    // gives the same games: the chunks' samples in game order are the batch's.
    let (net, spec) = net_for(&game, 5);
    let service = [EvalService::start(net, spec, 8)];
    let late = self_play_games(
        &game,
        &service,
        &params,
        &[4, 5],
        1,
        GameBounds::default(),
        77,
        false,
    );
    let early = self_play_games(
        &game,
        &service,
        &params,
        &[0, 1, 2, 3],
        2,
        GameBounds::default(),
        77,
        false,
    );
    assert_eq!((early.games, late.games), (4, 2));
    let chunked: Vec<_> = early.samples.into_iter().chain(late.samples).collect();
    assert_eq!(chunked, a.samples, "chunks changed the games");
    // One network call per new node, not two (expander and leaf share the cache).
    assert!(calls as usize <= a.samples.len() * 16, "{calls} calls");
    for s in &a.samples {
        let total: f32 = s.policy.iter().map(|p| p.1).sum();
        assert!((total - 1.0).abs() < 1e-4);
        assert!([-1.0, 0.0, 1.0].contains(&s.z));
    }
}

#[test]
fn random_opening_plies_are_played_without_search_or_sample() {
    let game = TicTacToe;
    let params = AzParams {
        simulations: 8,
        ..AzParams::default()
    };
    let (net, spec) = net_for(&game, 5);
    let service = EvalService::start(net, spec, 8);
    let bounds = GameBounds {
        random_plies: 2,
        max_plies: 0,
    };
    let mut openings = std::collections::HashSet::new();
    for seed in 0..12 {
        let (samples, end) = yomi_nn::selfplay::play_game(&game, &service, &params, bounds, seed);
        let mut planes = vec![0.0; game.tensor_shape().len()];
        game.encode(&end, Player(0), &mut planes);
        let plies = planes.iter().sum::<f32>() as usize;
        assert_eq!(
            samples.len() + 2,
            plies,
            "seed {seed}: a random ply made a sample"
        );
        // The first sample is the position after the two random plies (one mark each).
        let marks: f32 = samples[0].planes.iter().sum();
        assert_eq!(marks, 2.0, "seed {seed}");
        openings.insert(
            samples[0]
                .planes
                .iter()
                .map(|&v| v as u8)
                .collect::<Vec<_>>(),
        );
    }
    // Greedy search from the empty board would open alike every time; random plies do not.
    assert!(
        openings.len() > 3,
        "{} openings in 12 games",
        openings.len()
    );
    // Without random plies the first sample is the empty board.
    let (samples, _) =
        yomi_nn::selfplay::play_game(&game, &service, &params, GameBounds::default(), 1);
    assert_eq!(samples[0].planes.iter().sum::<f32>(), 0.0);
}

#[test]
fn epochs_and_random_plies_are_capped_in_a_configuration() {
    // epochs > 0 replaces steps; both are capped.
    let with = |extra: &str| {
        TrainConfig::from_toml(&format!("[train]\nsteps = 7\n{extra}")).map(|c| c.train)
    };
    assert_eq!(with("").unwrap().epochs, 0);
    assert_eq!(with("epochs = 100").unwrap().epochs, 100);
    let err = with("epochs = 1000000").unwrap_err().to_string();
    assert!(err.contains("train.epochs"), "{err}");
    let err = TrainConfig::from_toml("[selfplay]\nrandom_plies = 1000000000")
        .unwrap_err()
        .to_string();
    assert!(err.contains("selfplay.random_plies"), "{err}");
}

fn tiny_config(cycles: usize) -> TrainConfig {
    TrainConfig::from_toml(&format!(
        r#"
        seed = 9
        cycles = {cycles}
        [net]
        filters = 8
        blocks = 1
        value_hidden = 8
        [selfplay]
        games = 4
        threads = 1
        max_batch = 4
        [search]
        simulations = 12
        noise_alpha = 0.5
        noise_fraction = 0.25
        temperature_moves = 3
        [train]
        buffer = 200
        batch = 16
        steps = 5
        [gate]
        games = 2
        threshold = 0.5
        simulations = 4
        [eval]
        opponents = ["random"]
        games = 2
        simulations = 4
        threads = 1
        "#
    ))
    .unwrap()
}

#[test]
fn training_cycles_checkpoint_and_resume_exactly() {
    let game = TicTacToe;
    let mut registry = yomi_classic::tictactoe::registry();
    register_az(&mut registry);
    let a = TempDir::new();
    let b = TempDir::new();

    let mut t = Trainer::new(&game, &registry, tiny_config(2), a.path()).unwrap();
    t.progress = false;
    let rows_a = t.run(None).unwrap();
    assert_eq!(rows_a.len(), 2);
    for f in [
        "log.csv",
        "log.png",
        "best.ynn",
        "checkpoint/state.json",
        "checkpoint/buffer.bin",
    ] {
        assert!(a.path().join(f).exists(), "{f} missing");
    }
    let csv = std::fs::read_to_string(a.path().join("log.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3);
    assert!(csv.lines().next().unwrap().contains("random score"));

    // Killed after one cycle (a fresh trainer stands for a new process), then resumed.
    let mut t = Trainer::new(&game, &registry, tiny_config(2), b.path()).unwrap();
    t.progress = false;
    assert_eq!(t.run(Some(1)).unwrap().len(), 1);
    // A half-written next checkpoint left behind by the kill is ignored.
    std::fs::create_dir_all(b.path().join("checkpoint.new")).unwrap();
    let mut t = Trainer::new(&game, &registry, tiny_config(2), b.path()).unwrap();
    t.progress = false;
    assert_eq!(t.cycles_done().unwrap(), 1);
    let rows_b = t.run(None).unwrap();
    assert_eq!(rows_b.len(), 2);
    for (x, y) in rows_a.iter().zip(&rows_b) {
        assert_eq!(x.positions, y.positions);
        assert_eq!(x.value_loss, y.value_loss);
        assert_eq!(x.policy_loss, y.policy_loss);
        assert_eq!(x.gate_score, y.gate_score);
        assert_eq!(x.evals, y.evals);
    }
    // Parameter ids are random per process, so compare what the networks compute.
    let outputs = |d: &std::path::Path| {
        let (net, spec) = DualNet::load(&d.join("checkpoint/net.ynn"), &Device::flex()).unwrap();
        let mut input = vec![0.0; 3 * spec.shape().len()];
        let mut state = game.initial_state();
        let mut moves = Vec::new();
        for k in 0..3 {
            game.encode(
                &state,
                Player(k as u8 % 2),
                &mut input[k * 18..(k + 1) * 18],
            );
            game.legal_moves(&state, &mut moves);
            game.apply(&mut state, moves[k]);
        }
        net.infer(&spec, &input, 3)
    };
    assert_eq!(
        outputs(a.path()),
        outputs(b.path()),
        "resumed weights differ"
    );
    // A finished run does nothing more.
    assert_eq!(t.run(None).unwrap().len(), 2);

    // A run directory made with another network size is refused.
    let mut other = tiny_config(3);
    other.net.filters = 4;
    let t = Trainer::new(&game, &registry, other, a.path()).unwrap();
    assert!(matches!(t.cycles_done(), Err(NnError::Mismatch(_))));

    // A checkpoint copied without its replay buffer resumes with only the new cycle's games.
    std::fs::remove_file(b.path().join("checkpoint/buffer.bin")).unwrap();
    let mut t = Trainer::new(&game, &registry, tiny_config(3), b.path()).unwrap();
    t.progress = false;
    let rows = t.run(None).unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[2].buffer, rows[2].positions);
}

#[test]
fn bad_configs_are_errors() {
    assert!(matches!(
        TrainConfig::from_toml("cycles = 2\n[net]\nfilterz = 3\n"),
        Err(NnError::Config(_))
    ));
    assert!(TrainConfig::from_toml("[train]\nlr = -1.0\n").is_err());
    assert!(TrainConfig::from_toml("device = \"tpu\"\n").is_err());
    assert!(TrainConfig::from_toml("[selfplay]\ngames = 0\n").is_err());
    assert!(TrainConfig::from_toml("[selfplay]\nthreads = 2\nservices = 3\n").is_err());
    assert!(TrainConfig::from_toml("[selfplay]\nthreads = 4\nservices = 2\n").is_ok());
    assert!(TrainConfig::from_toml("").is_ok());
}

#[test]
fn replay_buffer_file_round_trip_and_validation() {
    let mut b = ReplayBuffer::new(3);
    for k in 0..5 {
        b.extend([Sample {
            planes: vec![k as f32; 4],
            policy: vec![(1, 0.25), (2, 0.75)],
            z: if k % 2 == 0 { 1.0 } else { -1.0 },
        }]);
    }
    assert_eq!(b.len(), 3);
    assert_eq!(b.get(0).unwrap().planes[0], 2.0);
    let dir = TempDir::new();
    let p = dir.path().join("b.bin");
    b.save(&p).unwrap();
    assert_eq!(ReplayBuffer::load(&p, 4, 9).unwrap(), b);
    assert!(ReplayBuffer::load(&p, 5, 9).is_err());
    assert!(ReplayBuffer::load(&p, 4, 2).is_err());
    let bytes = std::fs::read(&p).unwrap();
    std::fs::write(&p, &bytes[..bytes.len() - 3]).unwrap();
    assert!(matches!(
        ReplayBuffer::load(&p, 4, 9),
        Err(NnError::Format(_))
    ));
}

#[test]
fn training_lowers_the_loss_on_tictactoe() {
    let game = TicTacToe;
    let (net, spec) = net_for(&game, 6);
    let params = AzParams {
        simulations: 24,
        noise_alpha: 0.5,
        noise_fraction: 0.25,
        temperature_moves: 4,
        ..AzParams::default()
    };
    let service = EvalService::start(net.clone(), spec, 8);
    let out = self_play(
        &game,
        std::slice::from_ref(&service),
        &params,
        24,
        2,
        GameBounds::default(),
        11,
        false,
    );
    drop(service);
    let mut buffer = ReplayBuffer::new(10_000);
    buffer.extend(out.samples);
    let all: Vec<usize> = (0..buffer.len()).collect();
    let device = Device::flex();
    // Minibatches drawn with replacement (`steps`), then whole passes over the buffer in a
    // new order each (`epochs`, the Geister paper's E), each from the same fresh network.
    for epochs in [0, 20] {
        let mut learner = Learner::new(net.clone(), spec, &device, 3e-3, 1e-4);
        let before = learner.evaluate(&buffer, &all);
        let mut rng = Rng::seed_from_u64(1);
        let losses = if epochs == 0 {
            learner.train(&buffer, 150, 32, &mut rng)
        } else {
            assert_eq!(
                learner.train_epochs(&buffer, 0, 16, &mut rng),
                Default::default()
            );
            learner.train_epochs(&buffer, epochs, 16, &mut rng)
        };
        let after = learner.evaluate(&buffer, &all);
        assert!(losses.samples_per_second > 0.0);
        assert!(
            after.total() < 0.8 * before.total(),
            "epochs {epochs}: loss {:.4} -> {:.4}",
            before.total(),
            after.total()
        );
        assert!(after.value < before.value, "{before:?} -> {after:?}");
    }
}

#[test]
fn the_shipped_experiment_files_are_valid_configs() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../experiments");
    for f in [
        "tictactoe-az.toml",
        "geister-az.toml",
        "geister-az-2core.toml",
        "geister-az-paper.toml",
    ] {
        TrainConfig::load(&dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
    }
    for f in ["geister-dqn-masked.toml", "geister-dqn-unmasked.toml"] {
        yomi_nn::dqn::DqnConfig::load(&dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
    }
}

/// Self-play as a cluster runner does it: the batch cut into chunks of game numbers, each
/// played from the network's bytes ([`self_play_chunk`], as a worker elsewhere would), its
/// samples sent through their byte form, and put back together in game order.
struct Chunked {
    size: usize,
    chunks: usize,
}

impl SelfPlayRunner<TicTacToe> for Chunked {
    fn play(
        &mut self,
        game: &TicTacToe,
        config: &TrainConfig,
        batch: &SelfPlayBatch<'_>,
    ) -> Result<SelfPlayOutput, NnError> {
        let network = batch.network_bytes()?;
        let (plane_len, policy_size) = (batch.spec.shape().len(), batch.spec.policy_size);
        let games: Vec<usize> = (0..batch.games).collect();
        let mut samples = Vec::new();
        let mut outcomes = [0; 3];
        // Chunks played last-first: only the order they are put back in matters.
        for chunk in games
            .chunks(self.size)
            .rev()
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
        {
            let out = self_play_chunk(game, config, &network, batch.seed, chunk)?;
            let wire = samples_to_bytes(&out.samples);
            samples.extend(samples_from_bytes(&wire, "chunk", plane_len, policy_size)?);
            for (t, x) in outcomes.iter_mut().zip(out.outcomes) {
                *t += x;
            }
            self.chunks += 1;
        }
        Ok(SelfPlayOutput {
            samples,
            games: batch.games,
            outcomes,
            seconds: 0.0,
        })
    }
}

#[test]
fn chunked_self_play_from_network_bytes_trains_exactly_as_local_self_play() {
    let game = TicTacToe;
    let mut registry = yomi_classic::tictactoe::registry();
    register_az(&mut registry);
    let local = TempDir::new();
    let chunked = TempDir::new();
    let mut t = Trainer::new(&game, &registry, tiny_config(2), local.path()).unwrap();
    t.progress = false;
    let rows_local = t.run(None).unwrap();
    let mut runner = Chunked { size: 3, chunks: 0 };
    let mut t = Trainer::new(&game, &registry, tiny_config(2), chunked.path()).unwrap();
    t.progress = false;
    let rows_chunked = t.run_with(None, &mut runner).unwrap();
    assert_eq!(
        runner.chunks,
        2 * 2,
        "two chunks of the four games per cycle"
    );
    assert_eq!(rows_local.len(), rows_chunked.len());
    for (x, y) in rows_local.iter().zip(&rows_chunked) {
        assert_eq!(
            (x.games, x.positions, x.buffer),
            (y.games, y.positions, y.buffer)
        );
        assert_eq!((x.value_loss, x.policy_loss), (y.value_loss, y.policy_loss));
        assert_eq!((x.gate_score, x.accepted), (y.gate_score, y.accepted));
        assert_eq!(x.evals, y.evals);
    }
    let buffer = |d: &std::path::Path| std::fs::read(d.join("checkpoint/buffer.bin")).unwrap();
    assert_eq!(buffer(local.path()), buffer(chunked.path()));

    // Chunk bytes that are cut, or a network for another game, are refused with errors.
    let out = self_play_chunk(
        &game,
        &tiny_config(1),
        &std::fs::read(local.path().join("best.ynn")).unwrap(),
        5,
        &[0, 1],
    )
    .unwrap();
    assert_eq!(out.outcomes.iter().sum::<usize>(), 2);
    let wire = samples_to_bytes(&out.samples);
    let len = game.tensor_shape().len();
    let policy = game.num_actions();
    assert_eq!(
        samples_from_bytes(&wire, "w", len, policy).unwrap(),
        out.samples
    );
    for cut in [0, 7, wire.len() / 2, wire.len() - 1] {
        assert!(
            samples_from_bytes(&wire[..cut], "w", len, policy).is_err(),
            "{cut}"
        );
    }
    assert!(samples_from_bytes(&wire, "w", len + 1, policy).is_err());
    let err = self_play_chunk(
        &ConnectFour,
        &tiny_config(1),
        &std::fs::read(local.path().join("best.ynn")).unwrap(),
        5,
        &[0],
    )
    .unwrap_err();
    assert!(matches!(err, NnError::Mismatch(_)), "{err}");
    assert!(self_play_chunk(&game, &tiny_config(1), b"junk", 5, &[0]).is_err());
}

/// Issue 15: a weights file's header fixes the network that is built (allocated) before
/// the record is read, so a header describing a huge network over a few bytes of record
/// made the loader try to allocate terabytes. Such files are now errors, found before any
/// allocation; so are configs of networks over the weight limit.
#[test]
fn weights_headers_describing_huge_networks_are_refused_before_allocating() {
    let dev = Device::flex();
    let file = |header: &str, record: &[u8]| {
        let mut b = b"YOMINN\x00\x01".to_vec();
        b.extend_from_slice(&1u32.to_le_bytes());
        b.extend_from_slice(&(header.len() as u32).to_le_bytes());
        b.extend_from_slice(header.as_bytes());
        b.extend_from_slice(record);
        b
    };
    let cases = [
        // The tower limits alone allow 256 blocks of 4096 filters: 77 G weights.
        r#"{"config":{"filters":4096,"blocks":256,"value_hidden":64},"channels":3,"height":3,"width":3,"policy_size":9}"#,
        // Board dimensions without a limit: the heads' products overflow.
        r#"{"config":{"filters":8,"blocks":1,"value_hidden":65536},"channels":3,"height":4294967296,"width":4294967296,"policy_size":9}"#,
        // Within the weight limit, but far more than the record holds.
        r#"{"config":{"filters":256,"blocks":20,"value_hidden":64},"channels":3,"height":9,"width":9,"policy_size":82}"#,
    ];
    for header in cases {
        let t0 = std::time::Instant::now();
        match DualNet::from_bytes(&file(header, &[0u8; 64]), &dev) {
            Err(NnError::Config(m)) | Err(NnError::Format(m)) => {
                assert!(m.contains("weights") || m.contains("large"), "{m}")
            }
            Err(e) => panic!("{header}: unexpected error {e}"),
            Ok(_) => panic!("{header}: loaded"),
        }
        assert!(t0.elapsed() < std::time::Duration::from_secs(2), "{header}");
    }
    let spec = NetSpec {
        config: NetConfig {
            filters: 4096,
            blocks: 256,
            value_hidden: 64,
        },
        channels: 3,
        height: 3,
        width: 3,
        policy_size: 9,
    };
    assert!(matches!(DualNet::new(&spec, &dev), Err(NnError::Config(_))));
}
