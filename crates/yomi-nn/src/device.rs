//! Which burn backend runs the network, chosen at run time (burn 0.22 tensors carry their
//! backend in their [`Device`]): `flex` (pure-Rust CPU, always built), `tch` / `tch-cuda`
//! (LibTorch, cargo feature `tch`) and `cuda` (CubeCL, cargo feature `cuda`).

use std::fmt;
use std::str::FromStr;

use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use crate::NnError;

/// A backend choice, as written in configs and agent specs (`device=flex`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeviceKind {
    /// burn's pure-Rust CPU backend (SIMD kernels, rayon threads). The default.
    #[default]
    Flex,
    /// LibTorch on the CPU (cargo feature `tch`).
    Tch,
    /// LibTorch on CUDA device 0 (cargo feature `tch`).
    TchCuda,
    /// CubeCL CUDA device 0 (cargo feature `cuda`).
    Cuda,
}

impl DeviceKind {
    /// The names accepted by [`DeviceKind::from_str`].
    pub const NAMES: &'static str = "flex | tch | tch-cuda | cuda";

    /// The burn device.
    ///
    /// # Errors
    /// [`NnError::Config`] when this build lacks the backend's cargo feature.
    pub fn device(self) -> Result<Device, NnError> {
        match self {
            DeviceKind::Flex => Ok(Device::flex()),
            #[cfg(feature = "tch")]
            #[allow(deprecated)]
            DeviceKind::Tch => Ok(Device::libtorch()),
            #[cfg(feature = "tch")]
            #[allow(deprecated)]
            DeviceKind::TchCuda => Ok(Device::libtorch_cuda(0)),
            #[cfg(feature = "cuda")]
            DeviceKind::Cuda => Ok(Device::cuda(0)),
            #[allow(unreachable_patterns)]
            other => Err(NnError::Config(format!(
                "device {other} needs yomi-nn built with the cargo feature `{}`",
                if other == DeviceKind::Cuda {
                    "cuda"
                } else {
                    "tch"
                }
            ))),
        }
    }
}

impl fmt::Display for DeviceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DeviceKind::Flex => "flex",
            DeviceKind::Tch => "tch",
            DeviceKind::TchCuda => "tch-cuda",
            DeviceKind::Cuda => "cuda",
        })
    }
}

impl FromStr for DeviceKind {
    type Err = NnError;
    fn from_str(s: &str) -> Result<Self, NnError> {
        match s {
            "flex" => Ok(DeviceKind::Flex),
            "tch" => Ok(DeviceKind::Tch),
            "tch-cuda" => Ok(DeviceKind::TchCuda),
            "cuda" => Ok(DeviceKind::Cuda),
            _ => Err(NnError::Config(format!(
                "unknown device {s:?}: expected {}",
                Self::NAMES
            ))),
        }
    }
}
