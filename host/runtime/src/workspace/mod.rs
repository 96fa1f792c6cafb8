//! Workspaces: private in-memory file trees that sandboxed programs see through WASI, for
//! agentic coding envs. A task's files are loaded once per process into a [`Tree`]; every
//! episode clones it (contents are shared and copied on the first write), so a reset costs
//! microseconds and nothing an episode writes reaches a sibling or the next episode.
//!
//! A run mounts trees at guest paths ([`Mount`]): `/workspace` (its cwd) and a scratch `/tmp`.
//! [`shadow_filesystem`] replaces wasmtime-wasi's filesystem, which serves host directories,
//! with one that serves only the mounted trees: no host path, no symlink, no hard link, and no
//! `..` above a preopen is reachable. Limits on total bytes and files ([`Quota`]) fail the
//! offending call with the `quota` error code (Python's `OSError: [Errno 73] Disk quota
//! exceeded`), and the run goes on.

mod streams;
mod tree;
mod wasi;

pub use tree::{Ino, Meta, NodeKind, Quota, ROOT, Tree};
pub use wasi::lock;
pub use wasi::{HasMounts, Mount, MountedFs, SharedTree, shadow_filesystem};
