//! Vectorized stepping: [`VectorEnv`] (synchronous, parallel) and [`AsyncPool`] (EnvPool-style
//! send/recv), over one data path: slots are members of units ([`Units`]), and every step of a
//! unit's slots goes through the one autoreset machine (`advance`) and one guest call per unit.

mod advance;
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
pub use step::VectorStep;
pub use sync::{Actions, VectorEnv};
pub use unit_step::UnitStep;
pub use units::Units;
