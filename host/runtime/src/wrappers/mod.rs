//! Wrappers: envs that wrap envs, in GEM's stacking order (tool → observation → episode
//! tracking). Native wrappers are Rust; [`ComponentWrapper`] runs a wrapper plugin.

mod component;
mod episode_tracking;
mod observation;
mod state;
mod tool_env;

pub use component::ComponentWrapper;
pub use episode_tracking::EpisodeTracking;
pub use observation::{ObservationHistory, ObservationMode};
pub use tool_env::{MAX_TOOL_USE_MESSAGE, ToolEnv, ToolRewards};
