//! Examples of embedding geode from Rust; see `embed.rs` (`cargo run --release -p geode-examples --example embed`).
