//! geode's integration tests, one binary (one link of wasmtime): real components built from
//! this repo (`tests/plugins`, `examples/plugins`, `plugins/`), hostile guests and bad input.
//! Run one area with a filter: `cargo test --release -p geode-tests --test all -- code_env::`.

mod async_pool;
mod bad_input;
mod code_env;
mod code_recall;
mod compile_cache;
mod conformance;
mod datasets;
mod example_plugin;
mod guess_the_number;
mod guest_batch;
mod guest_sdks;
mod hostile_guests;
mod lending;
mod math_env;
mod math_grader;
mod mcp_tool;
mod multiagent;
mod qa_env;
mod sandbox_escapes;
mod sandbox_numpy;
mod sdk_sandbox;
mod search_tool;
mod serve;
mod serve_fuzz;
mod swe_env;
mod units;
mod vector;
mod wiki_game;
mod wrappers;
