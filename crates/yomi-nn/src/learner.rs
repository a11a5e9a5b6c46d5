//! Optimisation of the dual network on replay samples: Adam on
//! `(z − v)² − π·log p + c‖θ‖²` (the L2 term as Adam's weight decay: `2c·θ` added to the
//! gradient, which is the gradient of `c‖θ‖²`).
//!
//! Thread safety: owned by the training loop.

use std::time::Instant;

use burn::module::Module;
use burn::optim::decay::WeightDecayConfig;
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::activation::log_softmax;
use burn::tensor::{Bytes, Device, Tensor, TensorData};
use yomi_core::Rng;

use crate::net::{DualNet, NetSpec};
use crate::replay::ReplayBuffer;
use crate::NnError;

/// Mean losses over some optimiser steps.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Losses {
    /// Mean `(z − v)²`.
    pub value: f64,
    /// Mean `−π·log p` (cross-entropy with the search policy).
    pub policy: f64,
    /// Samples per second of the steps.
    pub samples_per_second: f64,
}

impl Losses {
    /// Value plus policy loss (without the L2 term).
    pub fn total(&self) -> f64 {
        self.value + self.policy
    }

    /// Turns sums over `steps` steps into means, and the rate of `samples` since `start`.
    fn finish(&mut self, steps: usize, samples: usize, start: Instant) {
        self.value /= steps.max(1) as f64;
        self.policy /= steps.max(1) as f64;
        self.samples_per_second = samples as f64 / start.elapsed().as_secs_f64().max(1e-9);
    }
}

/// A network being trained and its optimiser.
pub struct Learner {
    /// Always `Some` between calls (taken while the optimiser consumes it).
    model: Option<DualNet>,
    optim: ModuleOptimizer,
    spec: NetSpec,
    device: Device,
    lr: f64,
}

impl Learner {
    /// Trains `model` (moved to `device`'s autodiff version) with learning rate `lr` and L2
    /// coefficient `l2`.
    pub fn new(model: DualNet, spec: NetSpec, device: &Device, lr: f64, l2: f64) -> Self {
        let device = device.clone().autodiff();
        let model = model.to_device(&device).train();
        let mut config = AdamConfig::new().with_epsilon(1e-8);
        if l2 > 0.0 {
            config = config.with_weight_decay(Some(WeightDecayConfig::new((2.0 * l2) as f32)));
        }
        Learner {
            model: Some(model),
            optim: config.init(),
            spec,
            device,
            lr,
        }
    }

    /// The network for inference (a copy on the plain device, batch norm from its running
    /// statistics).
    pub fn inference_net(&self) -> DualNet {
        self.model().valid()
    }

    /// The network being trained.
    pub fn model(&self) -> &DualNet {
        self.model.as_ref().expect("model present between steps")
    }

    /// The network's spec.
    pub fn spec(&self) -> &NetSpec {
        &self.spec
    }

    /// The optimiser state as bytes (burnpack).
    ///
    /// # Errors
    /// [`NnError::Record`].
    pub fn optimizer_bytes(&self) -> Result<Vec<u8>, NnError> {
        Ok(self
            .optim
            .into_bytes()
            .map_err(|e| NnError::Record(e.to_string()))?
            .to_vec())
    }

    /// Restores the optimiser state written by [`Learner::optimizer_bytes`].
    ///
    /// # Errors
    /// [`NnError::Record`].
    pub fn load_optimizer(&mut self, bytes: &[u8]) -> Result<(), NnError> {
        let optim = std::mem::replace(&mut self.optim, AdamConfig::new().init());
        self.optim = optim
            .from_bytes(Bytes::from_bytes_vec(bytes.to_vec()))
            .map_err(|e| NnError::Record(e.to_string()))?;
        Ok(())
    }

    /// Losses of the current network on `indices` of `buffer` (no update).
    pub fn evaluate(&self, buffer: &ReplayBuffer, indices: &[usize]) -> Losses {
        let net = self.model().valid();
        let device = self.device.clone().inner();
        let (x, pi, z) = self.batch(buffer, indices, &device);
        let (logits, v) = net.forward(x);
        let (vl, pl) = losses(logits, v, pi, z);
        Losses {
            value: vl.into_scalar::<f32>() as f64,
            policy: pl.into_scalar::<f32>() as f64,
            samples_per_second: 0.0,
        }
    }

    /// Runs `steps` Adam steps on minibatches of `batch` samples drawn uniformly (with
    /// replacement) from `buffer` by `rng`; returns the mean losses.
    pub fn train(
        &mut self,
        buffer: &ReplayBuffer,
        steps: usize,
        batch: usize,
        rng: &mut Rng,
    ) -> Losses {
        let start = Instant::now();
        let mut sum = Losses::default();
        if buffer.is_empty() || steps == 0 {
            return sum;
        }
        let mut indices = vec![0usize; batch];
        for _ in 0..steps {
            for i in indices.iter_mut() {
                *i = rng.below(buffer.len());
            }
            self.step(buffer, &indices, &mut sum);
        }
        sum.finish(steps, steps * batch, start);
        sum
    }

    /// Runs `epochs` passes over the whole of `buffer`, each in a new order shuffled by
    /// `rng` and cut into minibatches of `batch` samples (the last one smaller when
    /// `batch` does not divide the buffer): every sample is trained on exactly `epochs`
    /// times. Returns the mean losses over the steps.
    pub fn train_epochs(
        &mut self,
        buffer: &ReplayBuffer,
        epochs: usize,
        batch: usize,
        rng: &mut Rng,
    ) -> Losses {
        let start = Instant::now();
        let mut sum = Losses::default();
        if buffer.is_empty() || epochs == 0 || batch == 0 {
            return sum;
        }
        let mut order: Vec<usize> = (0..buffer.len()).collect();
        let mut steps = 0;
        for _ in 0..epochs {
            rng.shuffle(&mut order);
            for chunk in order.chunks(batch) {
                self.step(buffer, chunk, &mut sum);
                steps += 1;
            }
        }
        sum.finish(steps, epochs * buffer.len(), start);
        sum
    }

    /// One Adam step on the samples `indices` of `buffer`; adds its losses to `sum`.
    fn step(&mut self, buffer: &ReplayBuffer, indices: &[usize], sum: &mut Losses) {
        let (x, pi, z) = self.batch(buffer, indices, &self.device);
        let model = self.model.take().expect("model present between steps");
        let (logits, v) = model.forward(x);
        let (vl, pl) = losses(logits, v, pi, z);
        let loss = vl.clone() + pl.clone();
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        self.model = Some(self.optim.step(self.lr, model, grads));
        sum.value += vl.into_scalar::<f32>() as f64;
        sum.policy += pl.into_scalar::<f32>() as f64;
    }

    fn batch(
        &self,
        buffer: &ReplayBuffer,
        indices: &[usize],
        device: &Device,
    ) -> (Tensor<4>, Tensor<2>, Tensor<1>) {
        let s = &self.spec;
        let len = s.shape().len();
        let n = indices.len();
        let mut planes = Vec::with_capacity(n * len);
        let mut pi = vec![0.0f32; n * s.policy_size];
        let mut z = Vec::with_capacity(n);
        for (row, &i) in indices.iter().enumerate() {
            let sample = buffer.get(i).expect("index below the buffer length");
            planes.extend_from_slice(&sample.planes);
            for &(m, p) in &sample.policy {
                pi[row * s.policy_size + m as usize] = p;
            }
            z.push(sample.z);
        }
        (
            Tensor::from_data(
                TensorData::new(planes, [n, s.channels, s.height, s.width]),
                device,
            ),
            Tensor::from_data(TensorData::new(pi, [n, s.policy_size]), device),
            Tensor::from_data(TensorData::new(z, [n]), device),
        )
    }
}

/// The value and policy losses of a batch.
fn losses(logits: Tensor<2>, v: Tensor<1>, pi: Tensor<2>, z: Tensor<1>) -> (Tensor<1>, Tensor<1>) {
    let value = (v - z).square().mean();
    let policy = (pi * log_softmax(logits, 1)).sum_dim(1).mean().neg();
    (value, policy)
}
