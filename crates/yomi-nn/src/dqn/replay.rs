//! The DQN replay buffer: a ring of the most recent transitions
//! `(s, a, r, done, s′, legal(s′))` in flat arrays (no allocation per transition once
//! full), with a small binary file format for checkpoints.
//!
//! `s` is encoded for the player who chose `a`, `s′` for the player to move next (the
//! opponent), so the target is `r` for a terminal transition and `−γ·max Q(s′)` otherwise.
//!
//! Thread safety: plain data, owned by the training loop.

use std::io::{BufWriter, Write};
use std::path::Path;

use crate::NnError;

/// The most recent `capacity` transitions.
#[derive(Clone, Debug, PartialEq)]
pub struct TransitionBuffer {
    capacity: usize,
    plane_len: usize,
    mask_words: usize,
    /// Transitions held.
    len: usize,
    /// The slot the next transition overwrites.
    next: usize,
    states: Vec<f32>,
    next_states: Vec<f32>,
    actions: Vec<u32>,
    rewards: Vec<f32>,
    done: Vec<u8>,
    next_masks: Vec<u64>,
}

/// One transition, borrowed from the buffer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transition<'a> {
    /// The state, encoded for the mover.
    pub state: &'a [f32],
    /// The policy index chosen.
    pub action: u32,
    /// The mover's reward (non-zero only at the end of a game).
    pub reward: f32,
    /// True when the game ended with this move.
    pub done: bool,
    /// The next state, encoded for the next mover.
    pub next_state: &'a [f32],
    /// The legal policy indices of the next state, as bits.
    pub next_mask: &'a [u64],
}

const MAGIC: &[u8; 8] = b"YOMIDQRB";
const VERSION: u32 = 1;

/// 64-bit words of a legal-move mask over `policy_size` indices.
pub fn mask_words(policy_size: usize) -> usize {
    policy_size.div_ceil(64)
}

impl TransitionBuffer {
    /// An empty buffer for states of `plane_len` values and masks of `mask_words` words,
    /// keeping at most `capacity` transitions.
    pub fn new(capacity: usize, plane_len: usize, mask_words: usize) -> Self {
        TransitionBuffer {
            capacity: capacity.max(1),
            plane_len,
            mask_words,
            len: 0,
            next: 0,
            states: Vec::new(),
            next_states: Vec::new(),
            actions: Vec::new(),
            rewards: Vec::new(),
            done: Vec::new(),
            next_masks: Vec::new(),
        }
    }

    /// Transitions held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The most transitions kept.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Adds a transition, overwriting the oldest one when full.
    ///
    /// # Panics
    /// When `state`, `next_state` or `next_mask` have the wrong length (a caller bug).
    pub fn push(&mut self, t: Transition<'_>) {
        assert_eq!(t.state.len(), self.plane_len, "state length");
        assert_eq!(t.next_state.len(), self.plane_len, "next state length");
        assert_eq!(t.next_mask.len(), self.mask_words, "mask length");
        let i = self.next;
        if self.len < self.capacity {
            // Still growing: slots are appended in order.
            self.states.extend_from_slice(t.state);
            self.next_states.extend_from_slice(t.next_state);
            self.actions.push(t.action);
            self.rewards.push(t.reward);
            self.done.push(u8::from(t.done));
            self.next_masks.extend_from_slice(t.next_mask);
            self.len += 1;
        } else {
            let p = i * self.plane_len;
            self.states[p..p + self.plane_len].copy_from_slice(t.state);
            self.next_states[p..p + self.plane_len].copy_from_slice(t.next_state);
            self.actions[i] = t.action;
            self.rewards[i] = t.reward;
            self.done[i] = u8::from(t.done);
            let m = i * self.mask_words;
            self.next_masks[m..m + self.mask_words].copy_from_slice(t.next_mask);
        }
        self.next = (i + 1) % self.capacity;
    }

    /// The transition in slot `i` (slots are in insertion order until the buffer is full,
    /// then reused; sampling does not care which is oldest).
    ///
    /// # Panics
    /// When `i >= len()`.
    pub fn get(&self, i: usize) -> Transition<'_> {
        assert!(i < self.len, "transition {i} of {}", self.len);
        let p = i * self.plane_len;
        let m = i * self.mask_words;
        Transition {
            state: &self.states[p..p + self.plane_len],
            action: self.actions[i],
            reward: self.rewards[i],
            done: self.done[i] != 0,
            next_state: &self.next_states[p..p + self.plane_len],
            next_mask: &self.next_masks[m..m + self.mask_words],
        }
    }

    /// Writes the buffer to `path` (through a temporary file and a rename).
    ///
    /// # Errors
    /// [`NnError::Io`].
    pub fn save(&self, path: &Path) -> Result<(), NnError> {
        let io = |e| NnError::Io {
            path: path.to_path_buf(),
            source: e,
        };
        let tmp = path.with_extension("tmp");
        let f = std::fs::File::create(&tmp).map_err(io)?;
        let mut w = BufWriter::new(f);
        let mut head = Vec::with_capacity(56);
        head.extend_from_slice(MAGIC);
        head.extend_from_slice(&VERSION.to_le_bytes());
        for v in [
            self.capacity,
            self.plane_len,
            self.mask_words,
            self.len,
            self.next,
        ] {
            head.extend_from_slice(&(v as u64).to_le_bytes());
        }
        w.write_all(&head).map_err(io)?;
        let mut buf = Vec::with_capacity(1 << 16);
        let flush = |buf: &mut Vec<u8>, w: &mut BufWriter<std::fs::File>| {
            let r = w.write_all(buf);
            buf.clear();
            r
        };
        for v in self.states.iter().chain(&self.next_states) {
            buf.extend_from_slice(&v.to_le_bytes());
            if buf.len() >= 1 << 16 {
                flush(&mut buf, &mut w).map_err(io)?;
            }
        }
        for v in &self.actions {
            buf.extend_from_slice(&v.to_le_bytes());
        }
        for v in &self.rewards {
            buf.extend_from_slice(&v.to_le_bytes());
        }
        buf.extend_from_slice(&self.done);
        for v in &self.next_masks {
            buf.extend_from_slice(&v.to_le_bytes());
        }
        flush(&mut buf, &mut w).map_err(io)?;
        let f = w.into_inner().map_err(|e| io(e.into_error()))?;
        f.sync_all().map_err(io)?;
        drop(f);
        std::fs::rename(&tmp, path).map_err(io)
    }

    /// Reads a buffer written by [`TransitionBuffer::save`], checking that its states have
    /// `plane_len` values, its masks `mask_words` words, its actions are below
    /// `policy_size` and its rewards are finite.
    ///
    /// # Errors
    /// [`NnError::Io`], [`NnError::Version`], or [`NnError::Format`] naming the problem.
    pub fn load(
        path: &Path,
        plane_len: usize,
        mask_words: usize,
        policy_size: usize,
    ) -> Result<Self, NnError> {
        let bytes = std::fs::read(path).map_err(|e| NnError::Io {
            path: path.to_path_buf(),
            source: e,
        })?;
        let bad = |what: &str| NnError::Format(format!("{}: {what}", path.display()));
        if bytes.len() < 52 || &bytes[..8] != MAGIC {
            return Err(bad("not a DQN replay buffer file"));
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version != VERSION {
            return Err(NnError::Version {
                found: version,
                expected: VERSION,
            });
        }
        let word = |k: usize| {
            let at = 12 + 8 * k;
            u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes")) as usize
        };
        let (capacity, file_plane_len, file_mask_words, len, next) =
            (word(0), word(1), word(2), word(3), word(4));
        if file_plane_len != plane_len || file_mask_words != mask_words {
            return Err(bad(&format!(
                "transitions of {file_plane_len} values and {file_mask_words} mask words; \
                 the network needs {plane_len} and {mask_words}"
            )));
        }
        if capacity == 0 || len > capacity || next >= capacity || (len < capacity && next != len) {
            return Err(bad("inconsistent length, capacity and write position"));
        }
        let need = len
            .checked_mul(plane_len * 8 + 4 + 4 + 1 + mask_words * 8)
            .and_then(|n| n.checked_add(52));
        if need != Some(bytes.len()) {
            return Err(bad("file length does not match its header"));
        }
        let mut at = 52;
        let mut take = |n: usize| {
            let s = &bytes[at..at + n];
            at += n;
            s
        };
        let f32s = |b: &[u8]| -> Vec<f32> {
            b.chunks_exact(4)
                .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")))
                .collect()
        };
        let states = f32s(take(4 * len * plane_len));
        let next_states = f32s(take(4 * len * plane_len));
        let actions: Vec<u32> = take(4 * len)
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")))
            .collect();
        let rewards = f32s(take(4 * len));
        let done = take(len).to_vec();
        let next_masks: Vec<u64> = take(8 * len * mask_words)
            .chunks_exact(8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
            .collect();
        if actions.iter().any(|&a| a as usize >= policy_size) {
            return Err(bad("action index beyond the policy size"));
        }
        if rewards.iter().any(|r| !r.is_finite())
            || states.iter().chain(&next_states).any(|v| !v.is_finite())
        {
            return Err(bad("reward or state value not finite"));
        }
        if done.iter().any(|&d| d > 1) {
            return Err(bad("bad end-of-game flag"));
        }
        Ok(TransitionBuffer {
            capacity,
            plane_len,
            mask_words,
            len,
            next,
            states,
            next_states,
            actions,
            rewards,
            done,
            next_masks,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn push(b: &mut TransitionBuffer, k: u32) {
        let s = [k as f32, 0.5];
        let n = [-(k as f32), 1.0];
        b.push(Transition {
            state: &s,
            action: k % 3,
            reward: if k.is_multiple_of(2) { 1.0 } else { 0.0 },
            done: k.is_multiple_of(2),
            next_state: &n,
            next_mask: &[u64::from(k)],
        });
    }

    #[test]
    fn ring_overwrites_the_oldest_and_files_round_trip() {
        let mut b = TransitionBuffer::new(3, 2, 1);
        for k in 0..5 {
            push(&mut b, k);
        }
        assert_eq!(b.len(), 3);
        // Slots 0 and 1 now hold transitions 3 and 4, slot 2 still transition 2.
        let got: Vec<f32> = (0..3).map(|i| b.get(i).state[0]).collect();
        assert_eq!(got, [3.0, 4.0, 2.0]);
        assert_eq!(b.get(1).next_mask, &[4]);
        assert!(b.get(2).done && !b.get(0).done);

        let dir = std::env::temp_dir().join(format!("yomi-dqn-rb-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("b.bin");
        b.save(&path).unwrap();
        let back = TransitionBuffer::load(&path, 2, 1, 3).unwrap();
        assert_eq!(back, b);
        assert!(TransitionBuffer::load(&path, 3, 1, 3).is_err());
        assert!(TransitionBuffer::load(&path, 2, 1, 2).is_err());
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        assert!(matches!(
            TransitionBuffer::load(&path, 2, 1, 3),
            Err(NnError::Format(_))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
