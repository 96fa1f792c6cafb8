//! The compile cache: a second load reads the precompiled file; a tampered file is never used.

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
    let settings = EngineSettings {
        max_instances: 64,
        ..EngineSettings::default()
    };
    let runtime =
        Runtime::with_settings(&settings, CompileCache::new(Some(dir.to_path_buf()))).unwrap();
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
        CompileCache::new(Some(dir.clone())),
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
