//! The compile cache: a second load reads the precompiled file; a tampered file is never used.
//! Directories of components compiled ahead (`geode precompile`) are read first, and only when
//! nobody else can write to them.

use geode_runtime::{CompileCache, EngineSettings};
use geode_runtime::{PluginSource, Registry, Runtime};
use serde_json::json;

fn wasm() -> &'static [u8] {
    geode_builtins::plugins()
        .iter()
        .find(|(n, _)| *n == "guess-the-number")
        .unwrap()
        .1
}

fn registry_with_cache(dir: &std::path::Path) -> Registry {
    registry_with_dirs(dir, &[])
}

/// A registry of the test plugin on a runtime caching in `dir` that reads components compiled
/// ahead from `precompiled` only (not from the environment's default directories).
fn registry_with_dirs(dir: &std::path::Path, precompiled: &[std::path::PathBuf]) -> Registry {
    let settings = EngineSettings {
        max_instances: 64,
        ..EngineSettings::default()
    };
    let cache =
        CompileCache::new(Some(dir.to_path_buf())).with_precompiled_dirs(precompiled.to_vec());
    let runtime = Runtime::with_settings(&settings, cache).unwrap();
    let mut registry = Registry::empty(runtime);
    registry
        .add_bytes(PluginSource::Builtin("guess-the-number".into()), wasm())
        .unwrap();
    registry
}

fn cached_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "cwasm"))
        .collect()
}

#[test]
fn cache_is_written_reused_and_verified() {
    let dir = std::env::temp_dir().join(format!("geode-cache-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    registry_with_cache(&dir);
    let files = cached_files(&dir);
    assert_eq!(files.len(), 1, "one entry per component and engine");
    let name = files[0].file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with(&plugin_sha256()), "{name}");
    let written = std::fs::metadata(&files[0]).unwrap().modified().unwrap();

    // Reused: loading again does not rewrite the entry.
    registry_with_cache(&dir);
    assert_eq!(
        std::fs::metadata(&files[0]).unwrap().modified().unwrap(),
        written
    );

    // Tampered: the checksum fails, the component is recompiled, and it still plays.
    let mut bytes = std::fs::read(&files[0]).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xff;
    std::fs::write(&files[0], &bytes).unwrap();
    let registry = registry_with_cache(&dir);
    let mut env = registry
        .make("game:GuessTheNumber-v0-hard", json!({}))
        .unwrap();
    env.reset(Some(1)).unwrap();
    assert!(env.step("\\boxed{10}").is_ok());
    assert_ne!(
        std::fs::read(&files[0]).unwrap(),
        bytes,
        "the tampered entry was replaced"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The SHA-256 of the test plugin, as the registry reports it.
fn plugin_sha256() -> String {
    let mut registry = Registry::empty(Runtime::new().unwrap());
    let plugin = registry
        .add_bytes(PluginSource::File("guess.wasm".into()), wasm())
        .unwrap();
    plugin.sha256().to_owned()
}

/// A compile that every worker of the global rayon pool is waiting for still finishes: the
/// first `sandbox()` compiles the Python runner while all the workers of a `par_iter` ask for
/// it too (they block on its result, so the compile needs threads of its own).
#[test]
fn a_compile_awaited_by_every_rayon_worker_finishes() {
    use rayon::prelude::*;
    let dir = std::env::temp_dir().join(format!("geode-cache-rayon-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let runtime = Runtime::with_settings(
        &EngineSettings::default(),
        CompileCache::new(Some(dir.clone())).with_precompiled_dirs(vec![]),
    )
    .unwrap();
    geode_builtins::install(&runtime);
    let started = std::time::Instant::now();
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let outputs: Vec<String> = (0..8)
            .into_par_iter()
            .map(|i| {
                let sandbox = runtime.sandbox().expect("the sandbox loads");
                let code = format!("print({i} * 2)");
                let request = geode_runtime::sandbox::RunRequest::python(code, "");
                sandbox.run(&request).stdout
            })
            .collect();
        let _ = done_tx.send(outputs);
    });
    let outputs = done_rx
        .recv_timeout(std::time::Duration::from_secs(300))
        .expect("the compile finished (no deadlock)");
    assert_eq!(outputs[3], "6\n");
    assert!(started.elapsed() < std::time::Duration::from_secs(300));
    std::fs::remove_dir_all(&dir).ok();
}

/// A fresh temporary directory named after `what` and this process.
fn temp_dir(what: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("geode-{what}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn components_compiled_ahead_load_without_a_compile() {
    let ahead = temp_dir("ahead");
    let cache = temp_dir("ahead-cache");
    let engine = Runtime::new().unwrap().engine().clone();
    let first = CompileCache::precompile_into(&engine, wasm(), &ahead).unwrap();
    assert!(first.compiled && first.bytes > 0 && first.path.starts_with(&ahead));
    let again = CompileCache::precompile_into(&engine, wasm(), &ahead).unwrap();
    assert!(!again.compiled, "a valid file is kept, not compiled again");

    let registry = registry_with_dirs(&cache, std::slice::from_ref(&ahead));
    let mut env = registry
        .make("game:GuessTheNumber-v0-hard", json!({}))
        .unwrap();
    env.reset(Some(1)).unwrap();
    assert!(env.step("\\boxed{10}").is_ok());
    assert!(
        !cache.exists() || cached_files(&cache).is_empty(),
        "nothing was compiled into the cache"
    );
    std::fs::remove_dir_all(&ahead).unwrap();
    std::fs::remove_dir_all(&cache).ok();
}

#[test]
fn a_precompiled_directory_others_can_write_to_is_ignored() {
    use std::os::unix::fs::PermissionsExt;
    let ahead = temp_dir("ahead-open");
    let cache = temp_dir("ahead-open-cache");
    let engine = Runtime::new().unwrap().engine().clone();
    CompileCache::precompile_into(&engine, wasm(), &ahead).unwrap();
    std::fs::set_permissions(&ahead, std::fs::Permissions::from_mode(0o777)).unwrap();
    registry_with_dirs(&cache, std::slice::from_ref(&ahead));
    assert_eq!(
        cached_files(&cache).len(),
        1,
        "compiled again, into the cache"
    );

    // A tampered file in a trusted directory is not used either.
    std::fs::set_permissions(&ahead, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::remove_dir_all(&cache).unwrap();
    let file = &cached_files(&ahead)[0];
    let mut bytes = std::fs::read(file).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xff;
    std::fs::write(file, &bytes).unwrap();
    let registry = registry_with_dirs(&cache, std::slice::from_ref(&ahead));
    assert_eq!(
        cached_files(&cache).len(),
        1,
        "compiled again, into the cache"
    );
    let mut env = registry
        .make("game:GuessTheNumber-v0-hard", json!({}))
        .unwrap();
    env.reset(Some(1)).unwrap();
    std::fs::remove_dir_all(&ahead).unwrap();
    std::fs::remove_dir_all(&cache).unwrap();
}

#[test]
fn precompiling_again_removes_what_an_earlier_build_left() {
    let ahead = temp_dir("ahead-prune");
    let engine = Runtime::new().unwrap().engine().clone();
    let kept = CompileCache::precompile_into(&engine, wasm(), &ahead).unwrap();
    let stale = ahead.join("0000-0000.cwasm");
    std::fs::write(&stale, b"an older build's machine code").unwrap();
    let readme = ahead.join("README");
    std::fs::write(&readme, b"not machine code").unwrap();
    assert_eq!(
        CompileCache::prune_precompiled(&ahead, std::slice::from_ref(&kept.path)),
        1
    );
    assert!(!stale.exists() && kept.path.exists() && readme.exists());
    std::fs::remove_dir_all(&ahead).unwrap();
}

#[test]
fn every_shipped_component_is_listed_for_precompiling() {
    let names: Vec<String> = geode_builtins::shipped_components()
        .into_iter()
        .map(|(name, wasm)| {
            assert!(!wasm.is_empty(), "{name}");
            name
        })
        .collect();
    for name in [
        "guess-the-number",
        "python-runner",
        "python-runner-numpy",
        "math-grader",
    ] {
        assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
    }
    assert_eq!(names.len(), geode_builtins::plugins().len() + 3);
}
