//! Vectorized stepping: [`VectorEnv`] (synchronous, parallel on rayon) and [`AsyncPool`]
//! (EnvPool-style send/recv), sharing GEM's and Gymnasium's autoreset semantics.

mod gang;
mod grouped;
mod parallel;
mod pool;
mod share;
mod slot;
mod sync;

pub use pool::{AsyncPool, Completed};
pub use slot::{AutoresetMode, Slot, SlotStep};
pub use sync::{Actions, FinishedSlots, VectorEnv, VectorStep};
