//! An OpenAI-compatible chat server that plays the model in geode's tests and benches.
//!
//! Replies come from a scripted [`policy::Policy`], a deterministic function of the request;
//! failures (rate limits, server errors, slow or malformed replies, dropped connections,
//! context-length errors) are injected by the request's sequence number ([`failures`]).
//! It serves plain HTTP (HTTP/1.1 and h2c) or HTTPS (HTTP/1.1 and HTTP/2 by ALPN).

pub mod app;
pub mod bisect;
pub mod ca;
pub mod cli;
pub mod completion;
pub mod errors;
pub mod failures;
pub mod math;
pub mod policy;
pub mod script;
pub mod server;
pub mod shutdown;
pub mod stats;
pub mod stream;
pub mod tau_user;
pub mod tls;
pub mod tokens;
pub mod wire;
