//! On-disk cache of compiled components.
//!
//! Files are keyed by the component's SHA-256 and the engine's compatibility hash (compiler
//! settings such as fuel change the machine code). Only files this host wrote are loaded: the
//! cache directory is private to the user, and every file carries a checksum of its payload that
//! is verified before `Component::deserialize` sees a byte.

use sha2::{Digest, Sha256};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use wasmtime::Engine;
use wasmtime::component::Component;

const MAGIC: &[u8; 8] = b"geodeC01";

/// A directory of precompiled components.
#[derive(Debug, Clone)]
pub struct CompileCache {
    dir: Option<PathBuf>,
}

/// Where the cache lives: `$GEODE_CACHE_DIR`, else `$XDG_CACHE_HOME/geode`, else `~/.cache/geode`.
pub fn default_cache_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("GEODE_CACHE_DIR") {
        return Some(PathBuf::from(dir));
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME") {
        return Some(PathBuf::from(dir).join("geode"));
    }
    std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache/geode"))
}

/// The SHA-256 of `bytes`, as hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

fn engine_hash(engine: &Engine) -> String {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    engine.precompile_compatibility_hash().hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

impl CompileCache {
    /// A cache in `dir`; `None` disables caching.
    pub fn new(dir: Option<PathBuf>) -> Self {
        CompileCache { dir }
    }

    /// Loads `wasm` as a component: from the cache when a valid entry exists, otherwise compiled
    /// and stored. Cache failures never fail the load; they only cost a compile.
    pub fn load(&self, engine: &Engine, wasm: &[u8]) -> wasmtime::Result<Component> {
        let Some(dir) = &self.dir else {
            return on_compile_pool(|| Component::new(engine, wasm));
        };
        let path = dir.join(format!(
            "{}-{}.cwasm",
            sha256_hex(wasm),
            engine_hash(engine)
        ));
        if let Some(payload) = read_verified(dir, &path) {
            // SAFETY: the payload was produced by `Engine::precompile_component` of an engine with
            // the same compatibility hash, written by this user into a private directory, and its
            // checksum matches, so it is not truncated or altered.
            if let Ok(component) = unsafe { Component::deserialize(engine, &payload) } {
                return Ok(component);
            }
        }
        let payload = on_compile_pool(|| engine.precompile_component(wasm))?;
        write_entry(dir, &path, &payload);
        // SAFETY: `payload` was just produced by this engine.
        unsafe { Component::deserialize(engine, &payload) }
    }
}

/// Runs a compile on a rayon pool of its own, from a plain thread. wasmtime compiles functions
/// in parallel on the current rayon pool; on the global one, a compile started while every
/// global worker waits for its result (envs made in a `par_iter` that all need the sandbox it
/// builds) would find no thread to run on. And a rayon worker that waited for another pool
/// would steal work of its own pool meanwhile, which may wait for this very compile. The
/// caller's thread therefore just blocks on a thread that waits for the compile pool.
fn on_compile_pool<T: Send>(compile: impl FnOnce() -> T + Send) -> T {
    static POOL: std::sync::LazyLock<Option<rayon::ThreadPool>> = std::sync::LazyLock::new(|| {
        rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("geode-compile-{i}"))
            .build()
            .ok()
    });
    let Some(pool) = &*POOL else {
        return compile();
    };
    std::thread::scope(|scope| {
        scope
            .spawn(|| pool.install(compile))
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

fn private_dir(dir: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let Ok(meta) = std::fs::metadata(dir) else {
            return false;
        };
        // SAFETY: geteuid has no preconditions and cannot fail.
        let me = unsafe { libc::geteuid() };
        meta.uid() == me && meta.permissions().mode() & 0o022 == 0
    }
    #[cfg(not(unix))]
    {
        dir.is_dir()
    }
}

fn read_verified(dir: &Path, path: &Path) -> Option<Vec<u8>> {
    if !private_dir(dir) {
        return None;
    }
    let bytes = std::fs::read(path).ok()?;
    let (header, payload) = bytes.split_at_checked(MAGIC.len() + 32)?;
    if &header[..MAGIC.len()] != MAGIC || header[MAGIC.len()..] != Sha256::digest(payload)[..] {
        return None;
    }
    Some(payload.to_vec())
}

fn write_entry(dir: &Path, path: &Path, payload: &[u8]) {
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
    }
    let mut bytes = Vec::with_capacity(MAGIC.len() + 32 + payload.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&Sha256::digest(payload));
    bytes.extend_from_slice(payload);
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    if std::fs::write(&tmp, &bytes).is_ok() && std::fs::rename(&tmp, path).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}
