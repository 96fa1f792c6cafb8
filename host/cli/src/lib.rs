//! The parts of the `geode` command line that tests and tools reuse: making plugin projects in
//! every guest language (`geode new`), building them into components (`geode build`) and
//! playing their scripted episodes (`geode test`).

pub mod episodes;
pub mod expect;
pub mod guest_build;
pub mod multiagent_episodes;
pub mod new;
