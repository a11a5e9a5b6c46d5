//! The Q-network of the paper's preliminary experiment: three 3×3 convolutions with same
//! padding and ReLU, then one fully connected layer from the last planes to one Q-value per
//! policy index. No batch norm: DQN's online and target networks are plain functions of
//! their weights, so acting, target computation and training agree.
//!
//! Weights are saved as a small versioned file ([`QNet::save`]): magic bytes, the format
//! version, the [`QNetSpec`] as JSON and burn's burnpack record, so a file cannot be loaded
//! into a network of another shape.
//!
//! Thread safety: plain data, owned by the training loop.

use std::path::Path;

use burn::module::Module;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{Linear, LinearConfig, PaddingConfig2d, Relu};
use burn::tensor::{Device, Tensor, TensorData};
use serde::{Deserialize, Serialize};
use yomi_core::TensorGame;

use super::config::QNetConfig;
use crate::net::{check_weight_count, pack_module, unpack_module, write_atomic, ModuleSpec};
use crate::NnError;

/// Everything that fixes a Q-network's parameter shapes; stored in every weights file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QNetSpec {
    /// The network's size.
    pub config: QNetConfig,
    /// Input planes.
    pub channels: usize,
    /// Board rows.
    pub height: usize,
    /// Board columns.
    pub width: usize,
    /// Q outputs (the game's policy size).
    pub policy_size: usize,
}

impl QNetSpec {
    /// The spec of a `config`-sized network for `game`.
    pub fn for_game<G: TensorGame>(config: QNetConfig, game: &G) -> Self {
        let s = game.tensor_shape();
        QNetSpec {
            config,
            channels: s.channels,
            height: s.height,
            width: s.width,
            policy_size: game.num_actions(),
        }
    }

    /// Values in one encoded state.
    pub fn plane_len(&self) -> usize {
        self.channels * self.height * self.width
    }

    /// Checks that the sizes are usable.
    ///
    /// # Errors
    /// [`NnError::Config`] naming the zero or oversized dimension.
    pub fn validate(&self) -> Result<(), NnError> {
        for (name, v) in [
            ("channels", self.channels),
            ("height", self.height),
            ("width", self.width),
            ("policy_size", self.policy_size),
        ] {
            if v == 0 || v > 65_536 {
                return Err(NnError::Config(format!(
                    "Q-network {name} must be in 1..=65536, not {v}"
                )));
            }
        }
        if self.config.filters.iter().any(|&f| f == 0 || f > 4096) {
            return Err(NnError::Config(format!(
                "Q-network filters {:?} must each be in 1..=4096",
                self.config.filters
            )));
        }
        check_weight_count("Q-network", self.weight_count())
    }
}

impl ModuleSpec for QNetSpec {
    fn weight_count(&self) -> Option<u64> {
        let [f1, f2, f3] = self.config.filters.map(|f| f as u64);
        let cells = (self.height as u64).checked_mul(self.width as u64)?;
        let terms = [
            (self.channels as u64).checked_mul(f1)?.checked_mul(9)?,
            f1.checked_mul(f2)?.checked_mul(9)?,
            f2.checked_mul(f3)?.checked_mul(9)?,
            f3.checked_mul(cells)?
                .checked_mul(self.policy_size as u64)?,
        ];
        terms.iter().try_fold(0u64, |a, &t| a.checked_add(t))
    }
}

/// The Q-network. See the [module documentation](self).
#[derive(Module, Debug)]
pub struct QNet {
    conv1: Conv2d,
    conv2: Conv2d,
    conv3: Conv2d,
    fc: Linear,
    relu: Relu,
}

/// The magic bytes that open a Q-network weights file.
pub const QNET_MAGIC: &[u8; 8] = b"YOMIDQN\x01";
/// The weights file format version this crate writes and reads.
pub const QNET_VERSION: u32 = 1;

impl QNet {
    /// A freshly initialised network of `spec`'s shape on `device` (burn's initialisers draw
    /// from `device`'s generator: seed it first for reproducible weights).
    ///
    /// # Errors
    /// [`NnError::Config`] when the spec has an unusable size.
    pub fn new(spec: &QNetSpec, device: &Device) -> Result<Self, NnError> {
        spec.validate()?;
        let [f1, f2, f3] = spec.config.filters;
        let conv = |i: usize, o: usize| {
            Conv2dConfig::new([i, o], [3, 3])
                .with_padding(PaddingConfig2d::Same)
                .init(device)
        };
        Ok(QNet {
            conv1: conv(spec.channels, f1),
            conv2: conv(f1, f2),
            conv3: conv(f2, f3),
            fc: LinearConfig::new(f3 * spec.height * spec.width, spec.policy_size).init(device),
            relu: Relu::new(),
        })
    }

    /// Q-values `[batch, policy_size]` of a batch of encoded states
    /// `[batch, channels, height, width]`.
    pub fn forward(&self, x: Tensor<4>) -> Tensor<2> {
        let [batch, _, _, _] = x.dims();
        let x = self.relu.forward(self.conv1.forward(x));
        let x = self.relu.forward(self.conv2.forward(x));
        let x = self.relu.forward(self.conv3.forward(x));
        let [_, c, h, w] = x.dims();
        self.fc.forward(x.reshape([batch, c * h * w]))
    }

    /// Runs the network on the `n` encoded states laid out one after another in `input`
    /// (`n · spec.plane_len()` values) and writes the `n · policy_size` Q-values row by row
    /// into `out` (cleared first). Uses the module's device: call it on a plain (not
    /// autodiff) network.
    pub fn infer_into(&self, spec: &QNetSpec, input: &[f32], n: usize, out: &mut Vec<f32>) {
        out.clear();
        if n == 0 {
            return;
        }
        let device = self.conv1.weight.val().device();
        let x = Tensor::<4>::from_data(
            TensorData::new(
                input[..n * spec.plane_len()].to_vec(),
                [n, spec.channels, spec.height, spec.width],
            ),
            &device,
        );
        let q = self.forward(x).into_data();
        out.extend_from_slice(q.as_slice::<f32>().expect("network outputs are f32"));
    }

    /// The weights file's bytes: magic, version, spec (JSON), burnpack record.
    ///
    /// # Errors
    /// [`NnError::Record`] when burn cannot serialise the record.
    pub fn to_bytes(&self, spec: &QNetSpec) -> Result<Vec<u8>, NnError> {
        pack_module(QNET_MAGIC, QNET_VERSION, spec, self.clone())
    }

    /// Saves the weights to `path` (through a temporary file and a rename).
    ///
    /// # Errors
    /// [`NnError::Io`] or [`NnError::Record`].
    pub fn save(&self, spec: &QNetSpec, path: &Path) -> Result<(), NnError> {
        write_atomic(path, &self.to_bytes(spec)?)
    }

    /// Reads a network from a weights file's bytes onto `device`; returns it with its spec.
    ///
    /// # Errors
    /// [`NnError::Format`] for bytes that are not a Q-network file, [`NnError::Version`]
    /// for another format version, [`NnError::Record`] when the record does not fit.
    pub fn from_bytes(bytes: &[u8], device: &Device) -> Result<(Self, QNetSpec), NnError> {
        unpack_module(
            bytes,
            QNET_MAGIC,
            QNET_VERSION,
            "Q-network",
            |spec: &QNetSpec| QNet::new(spec, device),
        )
    }

    /// Loads a weights file onto `device`.
    ///
    /// # Errors
    /// [`NnError::Io`] naming the file, or as [`QNet::from_bytes`].
    pub fn load(path: &Path, device: &Device) -> Result<(Self, QNetSpec), NnError> {
        let bytes = std::fs::read(path).map_err(|e| NnError::Io {
            path: path.to_path_buf(),
            source: e,
        })?;
        Self::from_bytes(&bytes, device)
    }
}
