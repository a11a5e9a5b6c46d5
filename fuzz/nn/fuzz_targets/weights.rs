//! yomi-nn's weights-file readers: `DualNet::from_bytes` (the AlphaZero dual network's
//! `.ynn` files) and `QNet::from_bytes` (the DQN Q-network's files). Any bytes must give
//! a network or an error: no panic, no hang, no allocation beyond the loader's
//! `MAX_WEIGHTS` check and the record's own size.
//!
//! A dual network whose header matches tic-tac-toe, connect four or perfect-information
//! Geister (the shipped `az-perfect.ynn`) is also read with `DualNet::from_bytes_for` for
//! that game, which must accept it, and run on the game's start position: a record that
//! loads must give a network whose layers fit the spec. The same for a Q-network whose
//! header matches tic-tac-toe or connect four. Headers of other shapes are not run (their
//! inputs could be as large as the weight limit allows).
//!
//! Seeds: with `YOMI_FUZZ_NN_SEEDS=<dir>` set, the target first writes small weights files
//! made by yomi-nn's own writers (`to_bytes`) into `<dir>` (`fuzz/run.sh weights` does this
//! for the corpus), so no binary seed is committed; `run.sh` adds the shipped network too.
#![no_main]

use burn::tensor::Device;
use libfuzzer_sys::fuzz_target;
use yomi_classic::{ConnectFour, TicTacToe};
use yomi_core::{Player, TensorGame};
use yomi_geister::{Geister, Variant};
use yomi_nn::dqn::{QNet, QNetConfig, QNetSpec};
use yomi_nn::{DeviceKind, DualNet, NetConfig, NetSpec};

fn device() -> Device {
    DeviceKind::Flex
        .device()
        .expect("the flex backend is always built")
}

/// Writes the seed weights files into `dir`: tiny dual networks and Q-networks for
/// tic-tac-toe and connect four.
fn write_seeds(dir: &str) {
    let device = device();
    let tiny = NetConfig {
        filters: 4,
        blocks: 1,
        value_hidden: 4,
    };
    let qtiny = QNetConfig { filters: [2, 3, 2] };
    let mut seeds = Vec::new();
    let ttt = NetSpec::for_game(tiny, &TicTacToe);
    let c4 = NetSpec::for_game(tiny, &ConnectFour);
    for (name, spec) in [("dual-tictactoe", ttt), ("dual-connect4", c4)] {
        let net = DualNet::new(&spec, &device).expect("a valid tiny spec");
        seeds.push((name, net.to_bytes(&spec).expect("serialises")));
    }
    let qttt = QNetSpec::for_game(qtiny, &TicTacToe);
    let qc4 = QNetSpec::for_game(qtiny, &ConnectFour);
    for (name, spec) in [("qnet-tictactoe", qttt), ("qnet-connect4", qc4)] {
        let net = QNet::new(&spec, &device).expect("a valid tiny spec");
        seeds.push((name, net.to_bytes(&spec).expect("serialises")));
    }
    std::fs::create_dir_all(dir).expect("seed directory");
    for (name, bytes) in seeds {
        std::fs::write(format!("{dir}/seed-{name}.bin"), bytes).expect("seed file");
    }
}

/// The start position of `game` encoded for its first player.
fn start_planes<G: TensorGame>(game: &G) -> Vec<f32> {
    let mut planes = vec![0.0; game.tensor_shape().len()];
    game.encode(&game.initial_state(), Player(0), &mut planes);
    planes
}

/// When `spec` is `game`'s shape: `from_bytes_for` must accept the bytes, and the network
/// must run on the start position.
fn check_dual_for<G: TensorGame>(data: &[u8], spec: &NetSpec, game: &G, device: &Device) {
    if NetSpec::for_game(spec.config, game) != *spec {
        return;
    }
    let (net, spec) = DualNet::from_bytes_for(data, "fuzz input", game, device)
        .expect("a file from_bytes accepts, with the game's shape, is accepted for the game");
    let (logits, values) = net.infer(&spec, &start_planes(game), 1);
    assert_eq!(logits.len(), spec.policy_size);
    assert_eq!(values.len(), 1);
}

fn check_qnet_for<G: TensorGame>(net: &QNet, spec: &QNetSpec, game: &G) {
    if QNetSpec::for_game(spec.config, game) != *spec {
        return;
    }
    let mut q = Vec::new();
    net.infer_into(spec, &start_planes(game), 1, &mut q);
    assert_eq!(q.len(), spec.policy_size);
}

fuzz_target!(
    init: {
        if let Ok(dir) = std::env::var("YOMI_FUZZ_NN_SEEDS") {
            write_seeds(&dir);
        }
    },
    |data: &[u8]| {
        thread_local! {
            static DEVICE: Device = device();
        }
        DEVICE.with(|device| {
            if let Ok((_, spec)) = DualNet::from_bytes(data, device) {
                check_dual_for(data, &spec, &TicTacToe, device);
                check_dual_for(data, &spec, &ConnectFour, device);
                check_dual_for(data, &spec, &Geister::new(Variant::Perfect), device);
            }
            if let Ok((net, spec)) = QNet::from_bytes(data, device) {
                check_qnet_for(&net, &spec, &TicTacToe);
                check_qnet_for(&net, &spec, &ConnectFour);
            }
        });
    }
);
