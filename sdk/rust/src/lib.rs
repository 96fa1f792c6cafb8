//! # geode-sdk: environment plugins in plain Rust
//!
//! Implement [`Environment`] for a struct and call [`export_env!`] once; the SDK turns it into a
//! component implementing the `geode:env/env@0.1.0` contract. No WIT, no bindings, no JSON plumbing:
//!
//! ```ignore
//! use geode_sdk::prelude::*;
//!
//! #[derive(Serialize, Deserialize)]
//! struct Coin { flips: u32 }
//!
//! impl Environment for Coin {
//!     fn specs() -> Vec<Spec> { vec![Spec::new("demo:Coin-v0", "Call the coin flip", json!({}))] }
//!     fn create(_id: &str, _config: Config) -> Result<Self, Error> { Ok(Coin { flips: 0 }) }
//!     fn reset(&mut self, _rng: &mut Rng) -> Result<Reset, Error> { Ok(Reset::new("heads or tails?")) }
//!     fn step(&mut self, action: &str, rng: &mut Rng) -> Result<Step, Error> {
//!         let heads = rng.below(2) == 0;
//!         let won = (action.trim() == "heads") == heads;
//!         Ok(Step::new("flipped", if won { 1.0 } else { 0.0 }).terminated())
//!     }
//!     fn sample_random_action(&mut self, rng: &mut Rng) -> String {
//!         if rng.below(2) == 0 { "heads".into() } else { "tails".into() }
//!     }
//! }
//! export_env!(Coin);
//! ```
//!
//! ## Randomness, seeds and batches
//!
//! The SDK owns each instance's [`Rng`] and prepares it before every `reset` from the
//! episode's [`EpisodeStart`]: a user seed gives CPython's `random` after `random.seed(seed)`
//! (so seeded episodes are GEM's episodes), an unseeded episode the host numbered gives a fast
//! generator keyed by `(stream, number)` alone, and a plain unseeded `reset` goes on with the
//! generator as it was. The host steps a vector env's instances in units through the `batch`
//! export ([`batch`]), and recovers from a faulting member by replaying its neighbours'
//! episodes in a fresh instance. So an env must draw everything random from the `rng` it is
//! handed and keep no state outside `self`: the same start and the same actions must give the
//! same results.

#![deny(missing_docs)]

pub mod batch;
pub mod config;
pub mod dataset;
pub mod episode;
pub mod error;
pub mod json_text;
mod members;
pub mod multiagent;
mod plugin;
pub mod records;
pub mod rng;
pub mod sandbox;
pub mod size_classes;
#[doc(hidden)]
pub mod testing;
pub mod text;
pub mod tool;

/// Single-threaded wasm guests allocate from size-class free lists (see [`size_classes`]).
/// The SDK's size-class allocator, unless the plugin turns off the `allocator` feature to
/// choose its own.
#[cfg(all(
    feature = "allocator",
    target_family = "wasm",
    not(target_feature = "atomics")
))]
#[global_allocator]
static ALLOCATOR: size_classes::SizeClasses = size_classes::SizeClasses::new();
pub mod wrapper;

#[doc(hidden)]
pub mod bindings {
    wit_bindgen::generate!({
        path: "../../wit/v0.1.0",
        world: "batched-env-plugin",
        pub_export_macro: true,
        export_macro_name: "export_env_plugin",
        default_bindings_module: "geode_sdk::bindings",
        generate_all,
    });
}

pub use config::Config;
pub use episode::EpisodeStart;
pub use error::Error;
#[doc(hidden)]
pub use plugin::{Plugin, Slot};
pub use records::{Info, Reset, Spec, Step};
pub use rng::Rng;

/// The trait a plugin's environment implements. Only `specs`, `create`, `reset`, `step` and
/// `sample_random_action` are required; state snapshots come from serde.
pub trait Environment: serde::Serialize + serde::de::DeserializeOwned + Sized + 'static {
    /// Every id this plugin provides, each with its default configuration.
    fn specs() -> Vec<Spec>;

    /// Builds the env for `id` from its configuration (defaults merged with the user's overrides).
    fn create(id: &str, config: Config) -> Result<Self, Error>;

    /// Starts a new episode. `rng` is already prepared for how the episode starts (see
    /// [`EpisodeStart`]): reseeded like CPython's `random` for a user seed, a fresh generator
    /// keyed by the episode's number for an episode the host numbered, or the generator as the
    /// last episode left it. Draw everything random from `rng` and nothing else, so the host
    /// can replay the episode.
    fn reset(&mut self, rng: &mut Rng) -> Result<Reset, Error>;

    /// Sees how the `reset` that follows starts. Most envs need only the prepared `rng`;
    /// dataset envs choose their row here: a seeded pick for [`EpisodeStart::Seeded`], row
    /// `number` of the walk for [`EpisodeStart::Continued`], the walk's next row for
    /// [`EpisodeStart::Unseeded`].
    fn before_reset(&mut self, _start: &EpisodeStart) {}

    /// Applies one action. Unparsable actions are format errors in the reward, never `Err`.
    fn step(&mut self, action: &str, rng: &mut Rng) -> Result<Step, Error>;

    /// A random action valid in the current state.
    fn sample_random_action(&mut self, rng: &mut Rng) -> String;
}

/// Exports an [`Environment`] as the plugin's env implementation. Call it once per plugin crate.
/// It expands to nothing outside wasm, so plugin crates also build natively for unit tests.
#[macro_export]
macro_rules! export_env {
    ($env:ty) => {
        #[cfg(target_arch = "wasm32")]
        #[doc(hidden)]
        type __GeodeEnvPlugin = $crate::Plugin<$env>;
        #[cfg(target_arch = "wasm32")]
        $crate::bindings::export_env_plugin!(__GeodeEnvPlugin with_types_in $crate::bindings);
        // Natively (unit tests) nothing is exported; keep the implementation "used".
        #[cfg(not(target_arch = "wasm32"))]
        const _: () = {
            let _ = <$env as $crate::Environment>::specs;
            let _ = <$env as $crate::Environment>::create;
            let _ = <$env as $crate::Environment>::reset;
            let _ = <$env as $crate::Environment>::step;
            let _ = <$env as $crate::Environment>::sample_random_action;
        };
    };
}

/// Logs a message to the host's log (shown by `geode` with `RUST_LOG`-style verbosity).
pub fn log_info(message: &str) {
    bindings::geode::env::log::log(bindings::geode::env::log::Level::Info, message);
}

/// Everything a plugin usually needs, in one import.
pub mod prelude {
    pub use crate::{
        Config, Environment, EpisodeStart, Error, Info, Reset, Rng, Spec, Step, export_env, text,
    };
    pub use serde::{Deserialize, Serialize};
    pub use serde_json::json;
}
