//! # geode-games
//!
//! Helpers that text games and dataset envs ported from GEM share, apart from the contract glue
//! in `geode-sdk`: GEM's reward table and end-of-episode rules, `\boxed{...}` answers, the parts
//! of Python's behaviour the games rely on, grid directions, word grids and word lists.
//!
//! A plugin that uses them imports `geode_games::prelude::*` (which includes
//! `geode_sdk::prelude::*`).

#![deny(missing_docs)]

pub mod answer;
pub mod direction;
pub mod game;
pub mod parse;
pub mod pycompat;
pub mod word_grid;
pub mod word_list;

/// The SDK's prelude plus the game helpers most plugins use.
pub mod prelude {
    pub use crate::game::{GameReward, REWARD};
    pub use crate::parse::{last_boxed, last_boxed_int, last_boxed_int_text};
    pub use geode_sdk::prelude::*;
}
