//! The network evaluation service (KataGo style): search threads submit encoded positions
//! over a channel; one batching thread runs the network on everything queued (up to
//! `max_batch` positions) in one call and answers each request. A [`NetClient`] is the
//! search side's handle; its clones share a small cache keyed by state hash, so the
//! expander (priors) and the leaf evaluator (value) of one new node cost one network call.
//!
//! A client can also run the network directly on the calling thread
//! ([`NetClient::direct`]), which is what a single playing agent wants.
//!
//! Thread safety: [`NetClient`] is `Clone + Send + Sync`; the network itself lives on the
//! batching thread (service) or behind a mutex (direct).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crate::net::{DualNet, NetSpec};

/// What the network says about one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// Policy logits, `policy_size` long (unmasked: callers mask to the legal moves).
    pub logits: Vec<f32>,
    /// The value for the player to move, in `[-1, 1]`.
    pub value: f32,
}

enum Request {
    Eval {
        input: Vec<f32>,
        reply: Sender<Arc<Evaluation>>,
    },
    SetNet(Box<DualNet>),
}

/// Counters of a service (read while it runs).
#[derive(Debug, Default)]
pub struct ServiceStats {
    /// Network calls made.
    pub batches: AtomicU64,
    /// Positions evaluated.
    pub positions: AtomicU64,
}

/// The batching thread and its channel. Dropping the service stops the thread once every
/// client is gone.
pub struct EvalService {
    tx: Option<Sender<Request>>,
    thread: Option<JoinHandle<()>>,
    spec: NetSpec,
    stats: Arc<ServiceStats>,
}

impl EvalService {
    /// Starts the batching thread with `net` (a network on a plain, non-autodiff device:
    /// see [`burn::module::Module::valid`]); each network call takes at most `max_batch`
    /// positions.
    pub fn start(net: DualNet, spec: NetSpec, max_batch: usize) -> Self {
        let (tx, rx) = channel();
        let stats = Arc::new(ServiceStats::default());
        let st = stats.clone();
        let thread = std::thread::Builder::new()
            .name("yomi-nn-eval".into())
            .spawn(move || batch_loop(net, spec, max_batch.max(1), rx, st))
            .expect("spawning the evaluation thread");
        EvalService {
            tx: Some(tx),
            thread: Some(thread),
            spec,
            stats,
        }
    }

    /// A client with its own (empty) cache.
    pub fn client(&self) -> NetClient {
        NetClient {
            backend: Backend::Service(self.tx.clone().expect("service running")),
            spec: self.spec,
            cache: Arc::new(Mutex::new(Cache::new(CACHE_SLOTS))),
        }
    }

    /// Replaces the network; requests already queued may still see the old one.
    pub fn set_net(&self, net: DualNet) {
        let _ = self
            .tx
            .as_ref()
            .expect("service running")
            .send(Request::SetNet(Box::new(net)));
    }

    /// The service's counters.
    pub fn stats(&self) -> &ServiceStats {
        &self.stats
    }
}

impl Drop for EvalService {
    fn drop(&mut self) {
        self.tx.take();
        if let Some(t) = self.thread.take() {
            // Clients still alive keep the thread running; it ends when they are dropped.
            if t.is_finished() {
                let _ = t.join();
            }
        }
    }
}

fn batch_loop(
    mut net: DualNet,
    spec: NetSpec,
    max_batch: usize,
    rx: Receiver<Request>,
    stats: Arc<ServiceStats>,
) {
    let len = spec.shape().len();
    let mut input = Vec::with_capacity(max_batch * len);
    let mut replies: Vec<Sender<Arc<Evaluation>>> = Vec::with_capacity(max_batch);
    while let Ok(first) = rx.recv() {
        let mut pending = Some(first);
        input.clear();
        replies.clear();
        loop {
            let req = match pending.take() {
                Some(r) => r,
                None => match rx.try_recv() {
                    Ok(r) => r,
                    Err(_) => break,
                },
            };
            match req {
                Request::SetNet(n) => {
                    if !replies.is_empty() {
                        run_batch(&net, &spec, &input, &mut replies, &stats);
                        input.clear();
                    }
                    net = *n;
                }
                Request::Eval { input: x, reply } => {
                    input.extend_from_slice(&x);
                    replies.push(reply);
                    if replies.len() >= max_batch {
                        break;
                    }
                }
            }
        }
        if !replies.is_empty() {
            run_batch(&net, &spec, &input, &mut replies, &stats);
        }
    }
}

fn run_batch(
    net: &DualNet,
    spec: &NetSpec,
    input: &[f32],
    replies: &mut Vec<Sender<Arc<Evaluation>>>,
    stats: &ServiceStats,
) {
    let n = replies.len();
    let (logits, values) = net.infer(spec, input, n);
    let p = spec.policy_size;
    for (i, reply) in replies.drain(..).enumerate() {
        let _ = reply.send(Arc::new(Evaluation {
            logits: logits[i * p..(i + 1) * p].to_vec(),
            value: values[i],
        }));
    }
    stats.batches.fetch_add(1, Ordering::Relaxed);
    stats.positions.fetch_add(n as u64, Ordering::Relaxed);
}

const CACHE_SLOTS: usize = 4096;

/// A direct-mapped cache of evaluations by state hash.
struct Cache {
    slots: Vec<Option<(u64, Arc<Evaluation>)>>,
}

impl Cache {
    fn new(n: usize) -> Self {
        Cache {
            slots: vec![None; n],
        }
    }
    fn get(&self, key: u64) -> Option<Arc<Evaluation>> {
        match &self.slots[(key % self.slots.len() as u64) as usize] {
            Some((k, e)) if *k == key => Some(e.clone()),
            _ => None,
        }
    }
    fn put(&mut self, key: u64, e: Arc<Evaluation>) {
        let n = self.slots.len() as u64;
        self.slots[(key % n) as usize] = Some((key, e));
    }
}

#[derive(Clone)]
enum Backend {
    Service(Sender<Request>),
    Direct(Arc<Mutex<DualNet>>),
}

/// The search side's handle on a network. See the [module documentation](self).
#[derive(Clone)]
pub struct NetClient {
    backend: Backend,
    spec: NetSpec,
    cache: Arc<Mutex<Cache>>,
}

impl NetClient {
    /// A client that runs `net` on the calling thread, one position at a time.
    pub fn direct(net: DualNet, spec: NetSpec) -> Self {
        NetClient {
            backend: Backend::Direct(Arc::new(Mutex::new(net))),
            spec,
            cache: Arc::new(Mutex::new(Cache::new(CACHE_SLOTS))),
        }
    }

    /// The network's spec.
    pub fn spec(&self) -> &NetSpec {
        &self.spec
    }

    /// The cached evaluation of the state with hash `key`, if any.
    pub fn cached(&self, key: u64) -> Option<Arc<Evaluation>> {
        self.cache.lock().expect("cache lock").get(key)
    }

    /// Evaluates one encoded state (`spec().shape().len()` values) and caches the result
    /// under `key`.
    ///
    /// # Panics
    /// When the service's batching thread has died (the network panicked).
    pub fn evaluate(&self, key: u64, input: Vec<f32>) -> Arc<Evaluation> {
        let e = match &self.backend {
            Backend::Service(tx) => {
                let (reply, rx) = channel();
                tx.send(Request::Eval { input, reply })
                    .expect("the network evaluation thread has stopped");
                rx.recv()
                    .expect("the network evaluation thread has stopped")
            }
            Backend::Direct(net) => {
                let net = net.lock().expect("network lock");
                let (logits, values) = net.infer(&self.spec, &input, 1);
                Arc::new(Evaluation {
                    logits,
                    value: values[0],
                })
            }
        };
        self.cache.lock().expect("cache lock").put(key, e.clone());
        e
    }
}
