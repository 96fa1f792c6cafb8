//! Integration tests: the built `geode-model-server` binary on 127.0.0.1, driven over HTTP(S).

mod failures;
mod formats;
mod harness;
mod policies;
mod tls;
