//! The same env in four guest languages: `geode new`'s Parity game built in Rust, Python,
//! JavaScript and C, measured side by side. Prints one table row per language: component size,
//! cold compile (no compile cache), instance creation (instantiate + `create`), a warm step of
//! one env, an empty step (a guest that only answers: the cost of the call itself, which tells
//! the interpreter's share of a step), and steps per second of a 64-env vector env (sync,
//! every core).
//!
//! `cargo bench -p geode-benches --bench guest_languages -- [--steps N] [--langs rust,python]`
//! Toolchains install into `target/geode-toolchains` on first use; components are cached.

use geode_cli::guest_build::{self, Language, manifest::Kind, toolchains::Toolchains};
use geode_runtime::{
    Actions, CompileCache, ComponentEnv, EngineSettings, Env, Limits, Registry, Runtime, VecSpec,
};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// One language's numbers.
struct Row {
    language: Language,
    bytes: u64,
    compile: Duration,
    instance: Duration,
    step: Duration,
    /// A step that only answers (the hostile guest's `healthy` id): the cost of the call itself.
    empty_step: Option<Duration>,
    vector_rate: f64,
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The Parity project in `language`, built (reused when it already is).
fn component(language: Language) -> PathBuf {
    let name = format!("{language:?}").to_lowercase();
    let dir = workspace()
        .join("target/tmp/guest-languages")
        .join(name)
        .join("parity");
    if !dir.exists() {
        geode_cli::new::create(&dir, language, Kind::Env).expect("geode new");
    }
    let tools = Toolchains::at(&workspace().join("target/geode-toolchains")).expect("toolchains");
    guest_build::build_with(&dir, false, &tools).expect("geode build")
}

/// The mean step of the `healthy` id of the language's hostile test guest, which does no work:
/// what crossing into the guest and back costs in that language.
fn empty_step(language: Language, n: u32) -> Option<Duration> {
    let (dir, id) = match language {
        Language::Rust => return None,
        Language::Python => ("hostile-python", "hostile-py:healthy"),
        Language::Js => ("hostile-js", "hostile-js:healthy"),
        Language::C => ("hostile-c", "hostile-c:healthy"),
    };
    let tools = Toolchains::at(&workspace().join("target/geode-toolchains")).ok()?;
    let wasm =
        guest_build::build_with(&workspace().join("tests/guests").join(dir), false, &tools).ok()?;
    let mut registry = Registry::empty(Runtime::new().ok()?);
    registry.add_file(&wasm).ok()?;
    let mut env = registry.make(id, json!({})).ok()?;
    env.reset(Some(0)).ok()?;
    Some(mean(n, || {
        env.step("x").expect("step");
    }))
}

/// Mean time of `f` over `n` runs.
fn mean(n: u32, mut f: impl FnMut()) -> Duration {
    let started = Instant::now();
    for _ in 0..n {
        f();
    }
    started.elapsed() / n
}

fn measure(language: Language, steps: usize) -> Row {
    let wasm = component(language);
    let bytes = std::fs::metadata(&wasm).expect("component").len();
    let id = "parity:Parity-v0-long";
    let cold = Runtime::with_settings(&EngineSettings::default(), CompileCache::new(None))
        .expect("runtime");
    let started = Instant::now();
    let mut registry = Registry::empty(cold);
    registry.add_file(&wasm).expect("load");
    let compile = started.elapsed();

    let limits = Limits::default();
    let instance = mean(20, || {
        ComponentEnv::make(&registry, id, &json!({}), &limits).expect("make");
    });

    let mut env = registry.make(id, json!({})).expect("make");
    env.reset(Some(0)).expect("reset");
    let mut answer = 0usize;
    let mut next = || {
        answer += 1;
        if answer.is_multiple_of(2) {
            "\\boxed{even}"
        } else {
            "\\boxed{odd}"
        }
    };
    for _ in 0..20 {
        if env.step(next()).expect("step").done() {
            env.reset(None).expect("reset");
        }
    }
    let n = (steps / 10).max(100) as u32;
    let step = mean(n, || {
        if env.step(next()).expect("step").done() {
            env.reset(None).expect("reset");
        }
    });

    let empty_step = empty_step(language, n);
    let mut vec = registry
        .make_vec(&VecSpec::uniform(id, 64, 0))
        .expect("make_vec");
    vec.reset(None).expect("reset");
    let even = vec!["\\boxed{even}".to_owned(); 64];
    let odd = vec!["\\boxed{odd}".to_owned(); 64];
    let rounds = (steps / 64).max(10);
    let started = Instant::now();
    for r in 0..rounds {
        let batch = if r.is_multiple_of(2) { &even } else { &odd };
        vec.step(Actions::All(batch)).expect("vector step");
    }
    let vector_rate = (rounds * 64) as f64 / started.elapsed().as_secs_f64();
    Row {
        language,
        bytes,
        compile,
        instance,
        step,
        empty_step,
        vector_rate,
    }
}

fn main() {
    let mut steps = 20_000usize;
    let mut languages = Language::ALL.to_vec();
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--steps" => steps = args.next().and_then(|s| s.parse().ok()).unwrap_or(steps),
            "--langs" => {
                let wanted = args.next().unwrap_or_default();
                languages.retain(|l| {
                    wanted
                        .split(',')
                        .any(|w| w == format!("{l:?}").to_lowercase())
                });
            }
            _ => {} // cargo bench passes --bench
        }
    }
    println!(
        "| language | component | cold compile | instance creation | warm step | empty step | 64-env vector steps/s |"
    );
    println!("|---|---|---|---|---|---|---|");
    for language in languages {
        let row = measure(language, steps);
        println!(
            "| {:?} | {:.2} MB | {:.2} s | {:.0} µs | {:.1} µs | {} | {:.0} |",
            row.language,
            row.bytes as f64 / 1e6,
            row.compile.as_secs_f64(),
            row.instance.as_secs_f64() * 1e6,
            row.step.as_secs_f64() * 1e6,
            row.empty_step.map_or("-".to_owned(), |d| format!(
                "{:.1} µs",
                d.as_secs_f64() * 1e6
            )),
            row.vector_rate,
        );
    }
}
