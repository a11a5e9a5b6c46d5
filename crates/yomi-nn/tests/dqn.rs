//! DQN self-play on tic-tac-toe and the 5×4 Geister board: masked self-play never plays an
//! illegal index, an unmasked illegal index ends the game as a loss, evaluation counts
//! illegal choices, and a run stopped after a cycle resumes exactly.

use yomi_classic::TicTacToe;
use yomi_core::{ActionSpace, Game, TensorGame};
use yomi_nn::dqn::{
    evaluate_vs_random, DqnConfig, DqnTrainer, QNet, QNetConfig, QNetSpec, TransitionBuffer,
};
use yomi_nn::net::build_seeded;
use yomi_nn::NnError;

/// A scratch directory removed on drop.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(tag: &str) -> Self {
        let p = std::env::temp_dir().join(format!("yomi-dqn-test-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn tiny(masked: bool, extra: &str) -> DqnConfig {
    DqnConfig::from_toml(&format!(
        "seed = 5\ncycles = 3\nmasked = {masked}\n{extra}\n\
         [net]\nfilters = [4, 4, 8]\n\
         [selfplay]\ngames = 40\nenvs = 8\n\
         [explore]\nepsilon_start = 1.0\nepsilon_end = 0.2\ndecay_games = 80\n\
         [train]\nbuffer = 300\nbatch = 16\ntrain_every = 4\nwarmup = 32\ntarget_update = 7\n\
         [eval]\ngames = 20\nevery = 2\nfinal_games = 30\n"
    ))
    .unwrap()
}

/// Tic-tac-toe planes: 9 own cells, then 9 of the opponent's.
fn occupied(planes: &[f32], cell: usize) -> bool {
    planes[cell] != 0.0 || planes[9 + cell] != 0.0
}

fn buffer_of(dir: &std::path::Path) -> TransitionBuffer {
    TransitionBuffer::load(&dir.join("checkpoint/buffer.bin"), 18, 1, 9).unwrap()
}

#[test]
fn unmasked_illegal_choices_end_games_as_losses() {
    let dir = TempDir::new("unmasked");
    // ε = 1 throughout and no learning: uniformly random indices, many of them illegal.
    let mut c = tiny(false, "");
    c.cycles = 1;
    c.explore.epsilon_end = 1.0;
    c.train.warmup = 10_000;
    let mut t = DqnTrainer::new(&TicTacToe, c, &dir.0).unwrap();
    t.progress = false;
    let rows = t.run(None).unwrap();
    let r = &rows[0];
    assert_eq!(r.outcomes.iter().sum::<usize>(), 40);
    assert!(r.illegal_endings > 5, "{r:?}");
    let b = buffer_of(&dir.0);
    assert_eq!(b.len(), r.transitions);
    let mut losses = 0;
    for i in 0..b.len() {
        let t = b.get(i);
        let illegal = occupied(t.state, t.action as usize);
        // In tic-tac-toe no legal move loses for its mover, so −1 marks exactly the
        // illegal choices, each of which ends the game with nothing after it.
        assert_eq!(illegal, t.reward == -1.0, "transition {i}: {t:?}");
        if illegal {
            assert!(t.done && t.next_state.iter().all(|&v| v == 0.0));
            losses += 1;
        }
    }
    assert_eq!(losses, r.illegal_endings);
}

#[test]
fn masked_self_play_never_chooses_an_illegal_index() {
    let dir = TempDir::new("masked");
    let mut c = tiny(true, "");
    c.cycles = 1;
    let mut t = DqnTrainer::new(&TicTacToe, c, &dir.0).unwrap();
    t.progress = false;
    let rows = t.run(None).unwrap();
    assert_eq!(rows[0].illegal_endings, 0);
    assert!(rows[0].train_steps > 0, "{:?}", rows[0]);
    let b = buffer_of(&dir.0);
    for i in 0..b.len() {
        let t = b.get(i);
        assert!(
            !occupied(t.state, t.action as usize),
            "transition {i}: {t:?}"
        );
        assert!(
            t.reward >= 0.0,
            "a legal tic-tac-toe move never loses: {t:?}"
        );
    }
    let e = rows[0].eval.as_ref().expect("the last cycle is evaluated");
    assert_eq!(e.stats.games, 30);
    assert_eq!(e.stats.illegal, 0);
}

#[test]
fn evaluation_counts_and_replaces_illegal_choices() {
    let game = yomi_geister::Geister::mini();
    let spec = QNetSpec::for_game(QNetConfig { filters: [4, 4, 4] }, &game);
    let device = burn::tensor::Device::flex();
    let net = build_seeded(&device, 9, || QNet::new(&spec, &device)).unwrap();
    let unmasked = evaluate_vs_random(&game, &net, &spec, false, 40, 16, 3);
    assert_eq!(unmasked.games, 40);
    assert_eq!(unmasked.wins + unmasked.draws + unmasked.losses, 40);
    // An untrained network's argmax over 64 outputs is mostly an illegal index.
    assert!(unmasked.illegal * 2 > unmasked.decisions, "{unmasked:?}");
    assert_eq!(unmasked.illegal, unmasked.argmax_illegal);
    let masked = evaluate_vs_random(&game, &net, &spec, true, 40, 16, 3);
    assert_eq!(masked.illegal, 0);
    assert!(masked.argmax_illegal > 0, "{masked:?}");
    // The result does not depend on how many games run side by side.
    assert_eq!(
        evaluate_vs_random(&game, &net, &spec, true, 40, 5, 3),
        masked
    );
    let r = unmasked.illegal_rate();
    assert!(r[1] <= r[0] && r[0] <= r[2]);
}

#[test]
fn a_stopped_run_resumes_exactly() {
    let (a, b) = (TempDir::new("resume-a"), TempDir::new("resume-b"));
    let game = yomi_geister::Geister::mini();
    // The log without its timing columns (rows read back from a checkpoint's JSON may
    // differ from the in-memory ones in the last bit of a float; the CSV rounds).
    let log = |rows: &[yomi_nn::dqn::DqnLogRow]| {
        let csv = yomi_nn::dqn::train::log_csv(rows);
        csv.lines()
            .map(|l| {
                let cells: Vec<&str> = l.split(',').collect();
                [&cells[..13], &cells[16..]].concat().join(",")
            })
            .collect::<Vec<_>>()
    };
    let mut t = DqnTrainer::new(&game, tiny(false, ""), &a.0).unwrap();
    t.progress = false;
    let full = t.run(None).unwrap();
    let mut t = DqnTrainer::new(&game, tiny(false, ""), &b.0).unwrap();
    t.progress = false;
    assert_eq!(t.run(Some(1)).unwrap().len(), 1);
    // A half-written next checkpoint left behind by a kill is ignored.
    std::fs::create_dir_all(b.0.join("checkpoint.new")).unwrap();
    let mut t = DqnTrainer::new(&game, tiny(false, ""), &b.0).unwrap();
    t.progress = false;
    let resumed = t.run(None).unwrap();
    assert_eq!(log(&resumed), log(&full));
    assert!(full[2].train_steps > 0 && full[1].eval.is_some() && full[0].eval.is_none());
    for (x, y) in full.iter().zip(&resumed) {
        assert_eq!(
            x.eval.as_ref().map(|e| e.stats),
            y.eval.as_ref().map(|e| e.stats)
        );
    }
    // Parameter ids are random per process, so compare what the networks compute.
    let outputs = |d: &std::path::Path| {
        let (net, spec) = QNet::load(&d.join("qnet.ynn"), &burn::tensor::Device::flex()).unwrap();
        let mut state = game.initial_state();
        let mut input = vec![0.0; 3 * spec.plane_len()];
        let mut moves = Vec::new();
        for k in 0..3 {
            let p = yomi_core::Player(k as u8 % 2);
            game.encode(&state, p, &mut input[k * 75..(k + 1) * 75]);
            game.legal_moves(&state, &mut moves);
            game.apply(&mut state, moves[k]);
        }
        let mut q = Vec::new();
        net.infer_into(&spec, &input, 3, &mut q);
        q
    };
    assert_eq!(outputs(&a.0), outputs(&b.0), "resumed weights differ");
    // A finished run does nothing more.
    assert_eq!(t.run(None).unwrap().len(), 3);
    // Another seed or mode does not resume from this directory.
    let mut other = tiny(true, "");
    other.cycles = 4;
    let mut t = DqnTrainer::new(&game, other, &b.0).unwrap();
    assert!(matches!(t.run(None), Err(NnError::Mismatch(_))));
    assert!(a.0.join("log.csv").exists() && a.0.join("log.png").exists());
}

#[test]
fn geister_mini_shapes_fit_the_paper() {
    let game = yomi_geister::Geister::mini();
    let s = game.tensor_shape();
    assert_eq!(
        (s.channels, s.height, s.width, game.num_actions()),
        (3, 5, 5, 64)
    );
}

/// Issue 15: as for the dual network, a Q-network file whose header describes more weights
/// than the limit or than its record holds is refused before anything is allocated.
#[test]
fn q_network_headers_describing_huge_networks_are_refused() {
    let device = burn::tensor::Device::flex();
    for header in [
        r#"{"config":{"filters":[4096,4096,4096]},"channels":65536,"height":65536,"width":65536,"policy_size":65536}"#,
        r#"{"config":{"filters":[64,64,64]},"channels":3,"height":100,"width":100,"policy_size":10000}"#,
    ] {
        let mut b = b"YOMIDQN\x01".to_vec();
        b.extend_from_slice(&1u32.to_le_bytes());
        b.extend_from_slice(&(header.len() as u32).to_le_bytes());
        b.extend_from_slice(header.as_bytes());
        b.extend_from_slice(&[0u8; 64]);
        match QNet::from_bytes(&b, &device) {
            Err(NnError::Config(_)) | Err(NnError::Format(_)) => {}
            Err(e) => panic!("{header}: unexpected error {e}"),
            Ok(_) => panic!("{header}: loaded"),
        }
    }
}
