//! The dual network: a residual convolutional tower with a policy head and a value head
//! (AlphaZero's shape; the Geister paper's network with the size as a parameter).
//!
//! - stem: 3×3 convolution to `filters` channels, batch norm, ReLU;
//! - `blocks` residual blocks: (3×3 conv, BN, ReLU, 3×3 conv, BN) + skip, ReLU;
//! - policy head: 1×1 conv to 2 channels, BN, ReLU, fully connected to `policy_size` logits;
//! - value head: 1×1 conv to 1 channel, BN, ReLU, fully connected to `value_hidden`, ReLU,
//!   fully connected to 1, tanh.
//!
//! Weights are saved as a small versioned file ([`DualNet::save`]): a header naming the
//! format version and the [`NetSpec`] (so a file cannot be loaded into a network of another
//! shape), then burn's burnpack record.
//!
//! Thread safety: a network is plain data; the evaluation service
//! ([`crate::service`]) owns one on its batching thread.

use std::io::Write;
use std::path::Path;

use burn::module::{Module, ModuleVisitor, Param};
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{BatchNorm, BatchNormConfig, Linear, LinearConfig, PaddingConfig2d, Relu};
use burn::tensor::{Bytes, Device, Tensor, TensorData};
use serde::{Deserialize, Serialize};
use yomi_core::{TensorGame, TensorShape};

use crate::NnError;

/// The size of a network, independent of the game (`[net]` in training configs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetConfig {
    /// Channels of the tower (the paper: 128).
    #[serde(default = "default_filters")]
    pub filters: usize,
    /// Residual blocks (the paper: 8).
    #[serde(default = "default_blocks")]
    pub blocks: usize,
    /// Width of the value head's hidden layer.
    #[serde(default = "default_value_hidden")]
    pub value_hidden: usize,
}

fn default_filters() -> usize {
    64
}
fn default_blocks() -> usize {
    4
}
fn default_value_hidden() -> usize {
    64
}

impl Default for NetConfig {
    fn default() -> Self {
        NetConfig {
            filters: default_filters(),
            blocks: default_blocks(),
            value_hidden: default_value_hidden(),
        }
    }
}

/// Everything that fixes a network's parameter shapes: its size and the game's tensor
/// shape and policy size. Stored in every weights file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetSpec {
    /// The network's size.
    pub config: NetConfig,
    /// Input planes.
    pub channels: usize,
    /// Board rows.
    pub height: usize,
    /// Board columns.
    pub width: usize,
    /// Policy outputs.
    pub policy_size: usize,
}

impl NetSpec {
    /// The spec of a `config`-sized network for `game`.
    pub fn for_game<G: TensorGame>(config: NetConfig, game: &G) -> Self {
        let s = game.tensor_shape();
        NetSpec {
            config,
            channels: s.channels,
            height: s.height,
            width: s.width,
            policy_size: game.num_actions(),
        }
    }

    /// The input shape.
    pub fn shape(&self) -> TensorShape {
        TensorShape {
            channels: self.channels,
            height: self.height,
            width: self.width,
        }
    }

    /// Checks that the sizes are usable.
    ///
    /// # Errors
    /// [`NnError::Config`] naming the zero size.
    pub fn validate(&self) -> Result<(), NnError> {
        let c = &self.config;
        for (name, v) in [
            ("filters", c.filters),
            ("value_hidden", c.value_hidden),
            ("channels", self.channels),
            ("height", self.height),
            ("width", self.width),
            ("policy_size", self.policy_size),
        ] {
            if v == 0 {
                return Err(NnError::Config(format!("network {name} must be positive")));
            }
        }
        if c.filters > 4096 || c.blocks > 256 || c.value_hidden > 65_536 {
            return Err(NnError::Config(format!(
                "network size {c:?} is unreasonably large"
            )));
        }
        check_weight_count("network", self.weight_count())
    }
}

impl ModuleSpec for NetSpec {
    fn weight_count(&self) -> Option<u64> {
        let c = &self.config;
        let f = c.filters as u64;
        let cells = (self.height as u64).checked_mul(self.width as u64)?;
        let terms = [
            (self.channels as u64).checked_mul(f)?.checked_mul(9)?, // stem
            (c.blocks as u64).checked_mul(f.checked_mul(f)?.checked_mul(18)?)?, // tower
            cells.checked_mul(2)?.checked_mul(self.policy_size as u64)?, // policy head
            cells.checked_mul(c.value_hidden as u64)?,              // value head
        ];
        terms.iter().try_fold(0u64, |a, &t| a.checked_add(t))
    }
}

/// Most weights a network may have (1 GiB of `f32`): far above any network yomi trains
/// (the Geister paper's 128 filters × 8 blocks have about 2.4 M), and a bound on what a
/// hostile weights file or config can make the loader allocate.
pub const MAX_WEIGHTS: u64 = 1 << 28;

/// A network's shape, as stored in a weights file's header.
pub(crate) trait ModuleSpec {
    /// The number of weights in the convolution and linear layers (biases and
    /// normalisation parameters left out), `None` when it overflows `u64`.
    fn weight_count(&self) -> Option<u64>;
}

/// `Err` when `count` (of a `what`) is unknown (overflow) or above [`MAX_WEIGHTS`].
pub(crate) fn check_weight_count(what: &str, count: Option<u64>) -> Result<(), NnError> {
    match count {
        Some(n) if n <= MAX_WEIGHTS => Ok(()),
        Some(n) => Err(NnError::Config(format!(
            "{what} of {n} weights is larger than the limit of {MAX_WEIGHTS}"
        ))),
        None => Err(NnError::Config(format!(
            "{what} size overflows: its dimensions are unreasonably large"
        ))),
    }
}

/// One residual block.
#[derive(Module, Debug)]
pub struct ResidualBlock {
    conv1: Conv2d,
    bn1: BatchNorm,
    conv2: Conv2d,
    bn2: BatchNorm,
    relu: Relu,
}

impl ResidualBlock {
    fn new(filters: usize, device: &Device) -> Self {
        let conv = || {
            Conv2dConfig::new([filters, filters], [3, 3])
                .with_padding(PaddingConfig2d::Same)
                .with_bias(false)
                .init(device)
        };
        ResidualBlock {
            conv1: conv(),
            bn1: BatchNormConfig::new(filters).init(device),
            conv2: conv(),
            bn2: BatchNormConfig::new(filters).init(device),
            relu: Relu::new(),
        }
    }

    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let y = self
            .relu
            .forward(self.bn1.forward(self.conv1.forward(x.clone())));
        let y = self.bn2.forward(self.conv2.forward(y));
        self.relu.forward(y + x)
    }
}

/// The dual (policy + value) network. See the [module documentation](self).
#[derive(Module, Debug)]
pub struct DualNet {
    stem: Conv2d,
    stem_bn: BatchNorm,
    blocks: Vec<ResidualBlock>,
    policy_conv: Conv2d,
    policy_bn: BatchNorm,
    policy_fc: Linear,
    value_conv: Conv2d,
    value_bn: BatchNorm,
    value_fc1: Linear,
    value_fc2: Linear,
    relu: Relu,
}

/// The magic bytes that open a weights file.
pub const WEIGHTS_MAGIC: &[u8; 8] = b"YOMINN\x00\x01";
/// The weights file format version this crate writes and reads.
pub const WEIGHTS_VERSION: u32 = 1;

impl DualNet {
    /// A freshly initialised network of `spec`'s shape on `device` (burn's initialisers draw
    /// from `device`'s generator: build it with [`build_seeded`] for reproducible weights).
    ///
    /// # Errors
    /// [`NnError::Config`] when the spec has a zero size.
    pub fn new(spec: &NetSpec, device: &Device) -> Result<Self, NnError> {
        spec.validate()?;
        let f = spec.config.filters;
        let cells = spec.height * spec.width;
        let conv1x1 = |out: usize| {
            Conv2dConfig::new([f, out], [1, 1])
                .with_bias(false)
                .init(device)
        };
        Ok(DualNet {
            stem: Conv2dConfig::new([spec.channels, f], [3, 3])
                .with_padding(PaddingConfig2d::Same)
                .with_bias(false)
                .init(device),
            stem_bn: BatchNormConfig::new(f).init(device),
            blocks: (0..spec.config.blocks)
                .map(|_| ResidualBlock::new(f, device))
                .collect(),
            policy_conv: conv1x1(2),
            policy_bn: BatchNormConfig::new(2).init(device),
            policy_fc: LinearConfig::new(2 * cells, spec.policy_size).init(device),
            value_conv: conv1x1(1),
            value_bn: BatchNormConfig::new(1).init(device),
            value_fc1: LinearConfig::new(cells, spec.config.value_hidden).init(device),
            value_fc2: LinearConfig::new(spec.config.value_hidden, 1).init(device),
            relu: Relu::new(),
        })
    }

    /// Policy logits `[batch, policy_size]` and values in `[-1, 1]` `[batch]` for a batch
    /// of encoded states `[batch, channels, height, width]`.
    pub fn forward(&self, x: Tensor<4>) -> (Tensor<2>, Tensor<1>) {
        let [batch, _, h, w] = x.dims();
        let mut x = self
            .relu
            .forward(self.stem_bn.forward(self.stem.forward(x)));
        for block in &self.blocks {
            x = block.forward(x);
        }
        let p = self
            .relu
            .forward(self.policy_bn.forward(self.policy_conv.forward(x.clone())));
        let logits = self.policy_fc.forward(p.reshape([batch, 2 * h * w]));
        let v = self
            .relu
            .forward(self.value_bn.forward(self.value_conv.forward(x)));
        let v = self
            .relu
            .forward(self.value_fc1.forward(v.reshape([batch, h * w])));
        let v = self.value_fc2.forward(v).tanh().reshape([batch]);
        (logits, v)
    }

    /// Runs the network on `n` encoded states laid out one after another in `input`
    /// (`n · shape.len()` values); returns the logits (`n · policy_size`, row-major) and the
    /// `n` values. Uses the module's device; call it on a network of a plain (not autodiff)
    /// device, e.g. from [`Module::valid`], for inference.
    pub fn infer(&self, spec: &NetSpec, input: &[f32], n: usize) -> (Vec<f32>, Vec<f32>) {
        let device = self.stem.weight.val().device();
        let x = Tensor::<4>::from_data(
            TensorData::new(input.to_vec(), [n, spec.channels, spec.height, spec.width]),
            &device,
        );
        let (logits, values) = self.forward(x);
        let logits = logits
            .into_data()
            .try_to_vec::<f32>()
            .expect("network outputs are f32");
        let values = values
            .into_data()
            .try_to_vec::<f32>()
            .expect("network outputs are f32");
        (logits, values)
    }

    /// The weights file's bytes: magic, version, spec (JSON), burnpack record.
    ///
    /// # Errors
    /// [`NnError::Record`] when burn cannot serialise the record.
    pub fn to_bytes(&self, spec: &NetSpec) -> Result<Vec<u8>, NnError> {
        pack_module(WEIGHTS_MAGIC, WEIGHTS_VERSION, spec, self.clone())
    }

    /// Saves the weights to `path` (written to a temporary file and renamed, so a kill never
    /// leaves a half-written file behind).
    ///
    /// # Errors
    /// [`NnError::Io`] or [`NnError::Record`].
    pub fn save(&self, spec: &NetSpec, path: &Path) -> Result<(), NnError> {
        write_atomic(path, &self.to_bytes(spec)?)
    }

    /// Reads a network from a weights file's bytes onto `device`; returns it with its spec.
    ///
    /// # Errors
    /// [`NnError::Format`] for bytes that are not a weights file, [`NnError::Version`] for
    /// another format version, [`NnError::Record`] when the record does not fit the spec.
    pub fn from_bytes(bytes: &[u8], device: &Device) -> Result<(Self, NetSpec), NnError> {
        unpack_module(
            bytes,
            WEIGHTS_MAGIC,
            WEIGHTS_VERSION,
            "weights",
            |spec: &NetSpec| DualNet::new(spec, device),
        )
    }

    /// Loads a weights file onto `device`.
    ///
    /// # Errors
    /// [`NnError::Io`] naming the file, or as [`DualNet::from_bytes`].
    pub fn load(path: &Path, device: &Device) -> Result<(Self, NetSpec), NnError> {
        let bytes = std::fs::read(path).map_err(|e| NnError::Io {
            path: path.to_path_buf(),
            source: e,
        })?;
        Self::from_bytes(&bytes, device)
    }

    /// Loads a weights file and checks that it was made for `game`.
    ///
    /// # Errors
    /// As [`DualNet::load`], and [`NnError::Mismatch`] when the file's shapes differ from
    /// the game's.
    pub fn load_for<G: TensorGame>(
        path: &Path,
        game: &G,
        device: &Device,
    ) -> Result<(Self, NetSpec), NnError> {
        let bytes = std::fs::read(path).map_err(|e| NnError::Io {
            path: path.to_path_buf(),
            source: e,
        })?;
        Self::from_bytes_for(&bytes, &path.display().to_string(), game, device)
    }

    /// Reads a network from a weights file's bytes (`origin` names them in errors) and
    /// checks that it was made for `game`.
    ///
    /// # Errors
    /// As [`DualNet::from_bytes`], and [`NnError::Mismatch`] when the shapes differ from
    /// the game's.
    pub fn from_bytes_for<G: TensorGame>(
        bytes: &[u8],
        origin: &str,
        game: &G,
        device: &Device,
    ) -> Result<(Self, NetSpec), NnError> {
        let (net, spec) = Self::from_bytes(bytes, device)?;
        let want = NetSpec::for_game(spec.config, game);
        if want != spec {
            return Err(NnError::Mismatch(format!(
                "{origin} holds a network for {}x{}x{} inputs and {} moves; {} needs {}x{}x{} and {}",
                spec.channels,
                spec.height,
                spec.width,
                spec.policy_size,
                game.facts().name,
                want.channels,
                want.height,
                want.width,
                want.policy_size
            )));
        }
        Ok((net, spec))
    }
}

/// A weights file's bytes: `magic`, `version`, the spec as JSON (length-prefixed), then
/// the module's burnpack record. Shared by every network type of the crate.
pub(crate) fn pack_module<S: serde::Serialize, M: Module>(
    magic: &[u8; 8],
    version: u32,
    spec: &S,
    module: M,
) -> Result<Vec<u8>, NnError> {
    let header = serde_json::to_vec(spec).map_err(|e| NnError::Format(e.to_string()))?;
    let record = module
        .into_record()
        .into_bytes()
        .map_err(|e| NnError::Record(e.to_string()))?;
    let mut out = Vec::with_capacity(16 + header.len() + record.len());
    out.extend_from_slice(magic);
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    out.extend_from_slice(&header);
    out.extend_from_slice(&record);
    Ok(out)
}

/// Reads what [`pack_module`] wrote: checks `magic` (`what` names the file kind in the
/// error) and `version`, builds the module from the spec with `build`, and loads the record.
pub(crate) fn unpack_module<S: serde::de::DeserializeOwned + ModuleSpec, M: Module>(
    bytes: &[u8],
    magic: &[u8; 8],
    version: u32,
    what: &str,
    build: impl FnOnce(&S) -> Result<M, NnError>,
) -> Result<(M, S), NnError> {
    if bytes.len() < 16 || &bytes[..8] != magic {
        return Err(NnError::Format(format!(
            "not a yomi-nn {what} file (bad magic bytes)"
        )));
    }
    let found = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if found != version {
        return Err(NnError::Version {
            found,
            expected: version,
        });
    }
    let len = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as usize;
    let header = bytes
        .get(16..16 + len)
        .ok_or_else(|| NnError::Format("truncated header".into()))?;
    let spec: S =
        serde_json::from_slice(header).map_err(|e| NnError::Format(format!("bad header: {e}")))?;
    // The network is built (allocated) before its record is read: a header claiming a huge
    // network over a small record must fail here, not in the allocator. Every weight takes
    // at least two bytes in the record (f16; yomi writes f32).
    let weights = spec.weight_count();
    check_weight_count(what, weights)?;
    let record_len = (bytes.len() - 16 - len) as u64;
    let needed = weights.unwrap_or(u64::MAX).saturating_mul(2);
    if record_len < needed {
        return Err(NnError::Format(format!(
            "the {what} file's record holds {record_len} bytes, but its header describes a \
             network of {} weights (at least {needed} bytes)",
            weights.unwrap_or(u64::MAX)
        )));
    }
    let module = build(&spec)?;
    let record =
        burn::store::ModuleRecord::from_bytes(Bytes::from_bytes_vec(bytes[16 + len..].to_vec()))
            .map_err(|e| NnError::Record(e.to_string()))?;
    let module = catch_record(move || module.load_record(record))?;
    Ok((module, spec))
}

/// burn validates records by panicking in places; a bad file must be an error instead.
pub(crate) fn catch_record<T>(f: impl FnOnce() -> T) -> Result<T, NnError> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    std::panic::set_hook(previous);
    result.map_err(|p| {
        let msg = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "record does not fit the network".into());
        NnError::Record(msg)
    })
}

/// Writes `bytes` to `path` through a temporary file and a rename.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), NnError> {
    let io = |e| NnError::Io {
        path: path.to_path_buf(),
        source: e,
    };
    let tmp = path.with_extension("tmp");
    let mut f = std::fs::File::create(&tmp).map_err(io)?;
    f.write_all(bytes).map_err(io)?;
    f.sync_all().map_err(io)?;
    drop(f);
    std::fs::rename(&tmp, path).map_err(io)
}

/// Builds a module whose initial weights depend only on `seed`: burn's initialisers draw
/// from `device`'s generator, which is shared by every user of the device, so this seeds it
/// under a process-wide lock and initialises every parameter before releasing the lock.
/// (burn initialises parameters lazily, at first use; without the forced initialisation
/// the draws would happen later, interleaved with other threads' — two trainers in one
/// process, or parallel tests.)
///
/// # Errors
/// Whatever `build` returns.
pub fn build_seeded<M: Module, E>(
    device: &Device,
    seed: u64,
    build: impl FnOnce() -> Result<M, E>,
) -> Result<M, E> {
    struct InitialiseAll;
    impl ModuleVisitor for InitialiseAll {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            let _ = param.val();
        }
    }
    static SEEDED: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = SEEDED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    device.seed(seed);
    let module = build()?;
    module.visit(&mut InitialiseAll);
    Ok(module)
}
