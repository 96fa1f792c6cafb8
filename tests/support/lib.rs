//! Shared helpers for the integration tests: one runtime per test binary, the built-in and test
//! plugins (hostile, poison) loaded from this repo's own builds.

use geode_runtime::{PluginSource, Registry, Runtime};
use std::path::PathBuf;
use std::sync::OnceLock;

/// The hostile test plugin's component file (built by `tests/build.rs`).
pub fn hostile_wasm() -> PathBuf {
    PathBuf::from(env!("GEODE_TEST_PLUGIN_HOSTILE"))
}

/// The poison test plugin's component file (fault isolation in units).
pub fn poison_wasm() -> PathBuf {
    PathBuf::from(env!("GEODE_TEST_PLUGIN_POISON"))
}

/// The multi-agent test plugin's component file (multi-agent limits and isolation).
pub fn ma_poison_wasm() -> PathBuf {
    PathBuf::from(env!("GEODE_TEST_PLUGIN_MA_POISON"))
}

/// One runtime shared by all tests of a binary (as a trainer would share it), with geode's
/// Python runner for the code sandbox.
pub fn runtime() -> Runtime {
    static RUNTIME: OnceLock<Runtime> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            let runtime = Runtime::new().expect("runtime starts");
            geode_builtins::install(&runtime);
            runtime
        })
        .clone()
}

/// Loads the sandbox's numpy runner once (compiling it the first time on a machine takes
/// seconds), so timed tests measure runs, not the compile; panics if numpy does not import.
pub fn numpy_ready() {
    static READY: OnceLock<()> = OnceLock::new();
    READY.get_or_init(|| {
        let sandbox = runtime().sandbox().expect("the code sandbox loads");
        let request = geode_runtime::sandbox::RunRequest::python(
            "import numpy\nprint(numpy.__version__)",
            "",
        )
        .with_timeout(std::time::Duration::from_secs(600));
        let outcome = sandbox.run(&request);
        assert_eq!(
            outcome.status,
            geode_runtime::sandbox::RunStatus::Ok,
            "numpy imports: {}",
            outcome.stderr
        );
    });
}

/// The built-in plugins plus the hostile test plugin.
pub fn registry() -> Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY
        .get_or_init(|| {
            let mut registry = geode_builtins::registry(runtime()).expect("built-in plugins load");
            let wasm = std::fs::read(hostile_wasm()).expect("hostile plugin was built");
            registry
                .add_bytes(PluginSource::File(hostile_wasm()), &wasm)
                .expect("hostile plugin loads");
            let wasm = std::fs::read(poison_wasm()).expect("poison plugin was built");
            registry
                .add_bytes(PluginSource::File(poison_wasm()), &wasm)
                .expect("poison plugin loads");
            let wasm = std::fs::read(ma_poison_wasm()).expect("ma-poison plugin was built");
            registry
                .add_bytes(PluginSource::File(ma_poison_wasm()), &wasm)
                .expect("ma-poison plugin loads");
            registry
        })
        .clone()
}

/// Serializes the tests whose assertions include a wall-clock bound: held for the timed part,
/// so a bound measures the runtime, not how many CPU-burning tests share the cores (or the
/// rayon pool) at that moment.
pub fn timed_section() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Steps `env` on a thread pool of its own: a code answer's tests run on the rayon pool of
/// the thread that steps, and the global pool is kept busy for seconds at a time by other tests
/// of the binary (the conformance suite), which a wall-clock bound must not measure.
pub fn step_alone(env: &mut dyn geode_runtime::Env, action: &str) -> geode_runtime::StepOutput {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a thread pool");
    pool.install(|| env.step(action).expect("step"))
}

/// The workspace binary `name` (of package `package`), which `cargo test` builds next to the
/// test binary's directory; a readable failure says how to build it when it is missing.
pub fn workspace_binary(name: &str, package: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let binary = exe
        .parent()
        .and_then(std::path::Path::parent)
        .expect("the test binary sits in target/<profile>/deps")
        .join(name);
    assert!(
        binary.is_file(),
        "{} is missing: build it with `cargo build --release -p {package}`",
        binary.display()
    );
    binary
}
