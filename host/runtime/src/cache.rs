//! On-disk cache of compiled components, and the read-only directories of components compiled
//! ahead of time (`geode precompile`).
//!
//! Files are keyed by the component's SHA-256 and the engine's compatibility hash (compiler
//! settings such as fuel change the machine code). Only files a geode host wrote are loaded:
//! a directory is trusted only when it belongs to this user (or root) and nobody else may write
//! to it, and every file carries a checksum of its payload that is verified before
//! `Component::deserialize` sees a byte.

use sha2::{Digest, Sha256};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use wasmtime::Engine;
use wasmtime::component::Component;

const MAGIC: &[u8; 8] = b"geodeC01";

/// A directory of precompiled components, and the directories of components compiled ahead.
#[derive(Debug, Clone)]
pub struct CompileCache {
    dir: Option<PathBuf>,
    precompiled: Vec<PathBuf>,
}

/// What [`CompileCache::precompile_into`] did with one component.
#[derive(Debug, Clone)]
pub struct Precompiled {
    /// The file holding the machine code.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// False when a valid file was already there.
    pub compiled: bool,
}

/// The name of the directory of components compiled ahead, next to the file holding geode's
/// code (the `geode` binary, or the Python extension module).
pub const PRECOMPILED_DIR_NAME: &str = "geode-precompiled";

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

/// Where `geode precompile` writes by default: [`PRECOMPILED_DIR_NAME`] next to the file that
/// holds this code (the `geode` binary, or the Python extension module in its package).
pub fn shipped_precompiled_dir() -> Option<PathBuf> {
    module_dir().map(|dir| dir.join(PRECOMPILED_DIR_NAME))
}

/// The directories searched for components compiled ahead, before the cache:
/// `$GEODE_PRECOMPILED_DIR` (`:`-separated; set and empty: none) when set, else
/// [`shipped_precompiled_dir`].
pub fn default_precompiled_dirs() -> Vec<PathBuf> {
    match std::env::var_os("GEODE_PRECOMPILED_DIR") {
        Some(dirs) => std::env::split_paths(&dirs)
            .filter(|dir| !dir.as_os_str().is_empty())
            .collect(),
        None => shipped_precompiled_dir().into_iter().collect(),
    }
}

/// The directory of the executable or shared library this code was linked into.
#[cfg(unix)]
fn module_dir() -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    // SAFETY: `info` is plain data that `dladdr` fills in; `dli_fname`, when set, points to a
    // NUL-terminated path owned by the dynamic loader for as long as the module is loaded.
    let path = unsafe {
        let mut info: libc::Dl_info = std::mem::zeroed();
        let here = module_dir as *const libc::c_void;
        if libc::dladdr(here, &mut info) == 0 || info.dli_fname.is_null() {
            None
        } else {
            let name = std::ffi::CStr::from_ptr(info.dli_fname).to_bytes();
            Some(PathBuf::from(std::ffi::OsStr::from_bytes(name)))
        }
    };
    // The main program may be named as it was started (relative, or bare); its real path is
    // `current_exe`.
    let path = match path {
        Some(path) if path.is_absolute() => path,
        _ => std::env::current_exe().ok()?,
    };
    Some(path.canonicalize().unwrap_or(path).parent()?.to_path_buf())
}

#[cfg(not(unix))]
fn module_dir() -> Option<PathBuf> {
    Some(std::env::current_exe().ok()?.parent()?.to_path_buf())
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
    /// A cache in `dir` (`None` disables caching), searching the
    /// [default directories](default_precompiled_dirs) of components compiled ahead first.
    pub fn new(dir: Option<PathBuf>) -> Self {
        CompileCache {
            dir,
            precompiled: default_precompiled_dirs(),
        }
    }

    /// The same cache, searching `dirs` (instead of the defaults) for components compiled ahead.
    pub fn with_precompiled_dirs(mut self, dirs: Vec<PathBuf>) -> Self {
        self.precompiled = dirs;
        self
    }

    /// The directories searched for components compiled ahead, in order.
    pub fn precompiled_dirs(&self) -> &[PathBuf] {
        &self.precompiled
    }

    /// Loads `wasm` as a component: from a directory of components compiled ahead or from the
    /// cache when a valid entry exists, otherwise compiled and stored in the cache. Cache
    /// failures never fail the load; they only cost a compile.
    pub fn load(&self, engine: &Engine, wasm: &[u8]) -> wasmtime::Result<Component> {
        let name = entry_name(engine, wasm);
        for dir in self.precompiled.iter().chain(&self.dir) {
            if let Some(payload) = read_verified(dir, &dir.join(&name)) {
                // SAFETY: the payload was produced by `Engine::precompile_component` of an
                // engine with the same compatibility hash, written into a directory only this
                // user (or root) can write to, and its checksum matches, so it is not truncated
                // or altered.
                if let Ok(component) = unsafe { Component::deserialize(engine, &payload) } {
                    return Ok(component);
                }
            }
        }
        let payload = on_compile_pool(|| engine.precompile_component(wasm))?;
        if let Some(dir) = &self.dir {
            write_entry(dir, &dir.join(&name), &payload, 0o700);
        }
        // SAFETY: `payload` was just produced by this engine.
        unsafe { Component::deserialize(engine, &payload) }
    }

    /// Compiles `wasm` for `engine` into `dir` (created readable by all, writable by this user
    /// only), unless a valid file for it is already there.
    pub fn precompile_into(
        engine: &Engine,
        wasm: &[u8],
        dir: &Path,
    ) -> wasmtime::Result<Precompiled> {
        let path = dir.join(entry_name(engine, wasm));
        let compiled = read_verified(dir, &path).is_none();
        if compiled {
            let payload = on_compile_pool(|| engine.precompile_component(wasm))?;
            std::fs::create_dir_all(dir)
                .map_err(|e| wasmtime::format_err!("creating {}: {e}", dir.display()))?;
            if !write_entry(dir, &path, &payload, 0o755) {
                wasmtime::bail!("could not write {}", path.display());
            }
        }
        let bytes = std::fs::metadata(&path).map_or(0, |meta| meta.len());
        Ok(Precompiled {
            path,
            bytes,
            compiled,
        })
    }
}

impl CompileCache {
    /// Removes every `.cwasm` file of `dir` that is not in `keep`: what an earlier build
    /// compiled there. Returns how many files went.
    pub fn prune_precompiled(dir: &Path, keep: &[PathBuf]) -> usize {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return 0;
        };
        entries
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "cwasm"))
            .filter(|path| !keep.contains(path))
            .filter(|path| std::fs::remove_file(path).is_ok())
            .count()
    }
}

/// The file name of `wasm`'s machine code for `engine`.
fn entry_name(engine: &Engine, wasm: &[u8]) -> String {
    format!("{}-{}.cwasm", sha256_hex(wasm), engine_hash(engine))
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

/// True when `path` belongs to this user or root and nobody else may write to it.
fn trusted(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let Ok(meta) = std::fs::metadata(path) else {
            return false;
        };
        // SAFETY: geteuid has no preconditions and cannot fail.
        let me = unsafe { libc::geteuid() };
        (meta.uid() == me || meta.uid() == 0) && meta.permissions().mode() & 0o022 == 0
    }
    #[cfg(not(unix))]
    {
        path.exists()
    }
}

fn read_verified(dir: &Path, path: &Path) -> Option<Vec<u8>> {
    if !trusted(dir) || !trusted(path) {
        return None;
    }
    let mut bytes = std::fs::read(path).ok()?;
    let header_len = MAGIC.len() + 32;
    let (header, payload) = bytes.split_at_checked(header_len)?;
    if &header[..MAGIC.len()] != MAGIC || header[MAGIC.len()..] != Sha256::digest(payload)[..] {
        return None;
    }
    bytes.drain(..header_len);
    Some(bytes)
}

/// Writes `payload` with its header to `path` (through a temporary file, so a reader never
/// sees half a file), creating `dir` with permissions `mode`. True when the file is in place.
fn write_entry(dir: &Path, path: &Path, payload: &[u8], mode: u32) -> bool {
    if std::fs::create_dir_all(dir).is_err() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(mode));
    }
    #[cfg(not(unix))]
    let _ = mode;
    let mut bytes = Vec::with_capacity(MAGIC.len() + 32 + payload.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&Sha256::digest(payload));
    bytes.extend_from_slice(payload);
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    let written = std::fs::write(&tmp, &bytes).is_ok();
    // The file is never writable by others (a umask of 002 would make it so): `trusted` checks.
    #[cfg(unix)]
    let written = written && {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(mode & 0o644)).is_ok()
    };
    if written && std::fs::rename(&tmp, path).is_ok() {
        return true;
    }
    let _ = std::fs::remove_file(&tmp);
    false
}
