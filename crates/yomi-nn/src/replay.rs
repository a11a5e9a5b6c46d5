//! Training samples and the replay buffer (first in, first out), with a small binary file
//! format for checkpoints.

use std::collections::VecDeque;
use std::path::Path;

use crate::NnError;

/// One training position: the encoded state (from the mover's perspective), the search's
/// visit distribution as `(policy index, probability)` pairs, and the game's outcome for
/// the mover in `[-1, 1]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The encoded state.
    pub planes: Vec<f32>,
    /// The policy target, sparse.
    pub policy: Vec<(u32, f32)>,
    /// The outcome for the player to move.
    pub z: f32,
}

/// The most recent `capacity` samples.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayBuffer {
    capacity: usize,
    samples: VecDeque<Sample>,
}

const MAGIC: &[u8; 8] = b"YOMIRB\x00\x01";
const VERSION: u32 = 1;

impl ReplayBuffer {
    /// An empty buffer keeping at most `capacity` samples.
    pub fn new(capacity: usize) -> Self {
        ReplayBuffer {
            capacity: capacity.max(1),
            samples: VecDeque::new(),
        }
    }

    /// Samples held.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// The sample at `i` (0 = oldest).
    pub fn get(&self, i: usize) -> Option<&Sample> {
        self.samples.get(i)
    }

    /// Adds samples, dropping the oldest beyond the capacity.
    pub fn extend(&mut self, samples: impl IntoIterator<Item = Sample>) {
        for s in samples {
            if self.samples.len() == self.capacity {
                self.samples.pop_front();
            }
            self.samples.push_back(s);
        }
    }

    /// Writes the buffer to `path` (through a temporary file and a rename).
    ///
    /// # Errors
    /// [`NnError::Io`].
    pub fn save(&self, path: &Path) -> Result<(), NnError> {
        crate::net::write_atomic(path, &self.to_bytes())
    }

    /// The buffer in the file format of [`ReplayBuffer::save`]: a header (magic, version,
    /// capacity, sample count, values per state), then each sample's planes, policy pairs
    /// and outcome, little-endian.
    pub fn to_bytes(&self) -> Vec<u8> {
        let plane_len = self.samples.front().map_or(0, |s| s.planes.len());
        let mut out = Vec::with_capacity(
            32 + self
                .samples
                .iter()
                .map(|s| 4 * (s.planes.len() + 2 + 2 * s.policy.len()))
                .sum::<usize>(),
        );
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.capacity as u64).to_le_bytes());
        out.extend_from_slice(&(self.samples.len() as u64).to_le_bytes());
        out.extend_from_slice(&(plane_len as u32).to_le_bytes());
        for s in &self.samples {
            for v in &s.planes {
                out.extend_from_slice(&v.to_le_bytes());
            }
            out.extend_from_slice(&(s.policy.len() as u32).to_le_bytes());
            for (i, p) in &s.policy {
                out.extend_from_slice(&i.to_le_bytes());
                out.extend_from_slice(&p.to_le_bytes());
            }
            out.extend_from_slice(&s.z.to_le_bytes());
        }
        out
    }

    /// Reads a buffer written by [`ReplayBuffer::save`], checking that every state has
    /// `plane_len` values and every policy index is below `policy_size`.
    ///
    /// # Errors
    /// [`NnError::Io`], [`NnError::Version`], or [`NnError::Format`] naming the problem.
    pub fn load(path: &Path, plane_len: usize, policy_size: usize) -> Result<Self, NnError> {
        let bytes = std::fs::read(path).map_err(|e| NnError::Io {
            path: path.to_path_buf(),
            source: e,
        })?;
        Self::from_bytes(&bytes, &path.display().to_string(), plane_len, policy_size)
    }

    /// Reads a buffer from the bytes of [`ReplayBuffer::to_bytes`] (`origin` names them in
    /// errors), with the checks of [`ReplayBuffer::load`]. The bytes may come from another
    /// process or machine: every count is checked against the bytes before anything is
    /// allocated for it.
    ///
    /// # Errors
    /// [`NnError::Version`], or [`NnError::Format`] naming the problem.
    pub fn from_bytes(
        bytes: &[u8],
        origin: &str,
        plane_len: usize,
        policy_size: usize,
    ) -> Result<Self, NnError> {
        let bad = |what: &str| NnError::Format(format!("{origin}: {what}"));
        let mut r = Reader { bytes, at: 0 };
        if r.take(8).ok_or_else(|| bad("truncated"))? != MAGIC {
            return Err(bad("not a replay buffer file"));
        }
        let version = r.u32().ok_or_else(|| bad("truncated"))?;
        if version != VERSION {
            return Err(NnError::Version {
                found: version,
                expected: VERSION,
            });
        }
        let capacity = r.u64().ok_or_else(|| bad("truncated"))? as usize;
        let count = r.u64().ok_or_else(|| bad("truncated"))? as usize;
        let file_plane_len = r.u32().ok_or_else(|| bad("truncated"))? as usize;
        if count > 0 && file_plane_len != plane_len {
            return Err(bad(&format!(
                "states have {file_plane_len} values, the network reads {plane_len}"
            )));
        }
        if count > capacity || capacity == 0 || count > bytes.len() {
            return Err(bad("sample count exceeds the capacity or the file"));
        }
        // Each sample takes at least its planes, a policy length and an outcome.
        if count.saturating_mul(4 * (plane_len + 2)) > bytes.len() {
            return Err(bad("truncated: fewer bytes than the sample count needs"));
        }
        let mut buffer = ReplayBuffer::new(capacity);
        for _ in 0..count {
            let mut planes = Vec::with_capacity(plane_len);
            for _ in 0..plane_len {
                planes.push(r.f32().ok_or_else(|| bad("truncated sample"))?);
            }
            let k = r.u32().ok_or_else(|| bad("truncated sample"))? as usize;
            if k > policy_size {
                return Err(bad("policy target longer than the policy"));
            }
            let mut policy = Vec::with_capacity(k);
            for _ in 0..k {
                let i = r.u32().ok_or_else(|| bad("truncated sample"))?;
                let p = r.f32().ok_or_else(|| bad("truncated sample"))?;
                if i as usize >= policy_size || !p.is_finite() {
                    return Err(bad("policy index out of range or probability not finite"));
                }
                policy.push((i, p));
            }
            let z = r.f32().ok_or_else(|| bad("truncated sample"))?;
            if !(-1.0..=1.0).contains(&z) {
                return Err(bad("outcome outside [-1, 1]"));
            }
            buffer.samples.push_back(Sample { planes, policy, z });
        }
        if r.at != bytes.len() {
            return Err(bad("trailing bytes"));
        }
        Ok(buffer)
    }
}

/// `samples` as bytes, to send self-play samples from one process or machine to another:
/// the replay-buffer format of [`ReplayBuffer::to_bytes`] holding exactly these samples.
pub fn samples_to_bytes(samples: &[Sample]) -> Vec<u8> {
    let mut buffer = ReplayBuffer::new(samples.len());
    buffer.extend(samples.iter().cloned());
    buffer.to_bytes()
}

/// The samples of [`samples_to_bytes`], in order, checked as [`ReplayBuffer::from_bytes`].
///
/// # Errors
/// As [`ReplayBuffer::from_bytes`].
pub fn samples_from_bytes(
    bytes: &[u8],
    origin: &str,
    plane_len: usize,
    policy_size: usize,
) -> Result<Vec<Sample>, NnError> {
    Ok(
        ReplayBuffer::from_bytes(bytes, origin, plane_len, policy_size)?
            .samples
            .into(),
    )
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }
    fn u32(&mut self) -> Option<u32> {
        self.take(4)
            .map(|b| u32::from_le_bytes(b.try_into().expect("4")))
    }
    fn u64(&mut self) -> Option<u64> {
        self.take(8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("8")))
    }
    fn f32(&mut self) -> Option<f32> {
        self.take(4)
            .map(|b| f32::from_le_bytes(b.try_into().expect("4")))
    }
}
