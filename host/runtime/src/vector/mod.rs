//! Vectorized stepping: one engine (`engine.rs`: the slots unit by unit, stepped with one guest
//! call per unit through the one autoreset machine, `advance`) behind two faces: [`VectorEnv`]
//! (synchronous: every step is the engine's whole-batch step) and [`AsyncPool`] (EnvPool-style
//! send/recv: queues and workers around the same units; `step_all_now` is the same whole-batch
//! step).

mod advance;
mod engine;
mod gang;
mod parallel;
mod pool;
mod share;
mod slot;
mod step;
mod sync;
mod unit_step;
mod units;

pub use pool::{AsyncPool, Completed};
pub use slot::{AutoresetMode, Slot, SlotStep};
pub(crate) use slot::{Plan, SlotState};
pub use step::VectorStep;
pub use sync::{Actions, VectorEnv};
pub use unit_step::UnitStep;
pub use units::Units;
