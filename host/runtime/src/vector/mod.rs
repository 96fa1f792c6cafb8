//! Vectorized stepping: [`VectorEnv`] (synchronous, parallel on rayon) and [`AsyncPool`]
//! (EnvPool-style send/recv), sharing GEM's and Gymnasium's autoreset semantics.

mod gang;
mod grouped;
mod packed;
mod parallel;
mod pool;
mod runs;
mod share;
mod slot;
mod step;
mod sync;

pub(crate) use packed::{TextReset, TextStep};
pub use pool::{AsyncPool, Completed};
pub use slot::{AutoresetMode, Slot, SlotStep};
pub use step::VectorStep;
pub use sync::{Actions, VectorEnv};
