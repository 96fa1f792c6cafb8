//! Plugins in Python, JavaScript and C (and Rust, from `geode new`), built by the `geode build`
//! code from this repo's SDKs: projects made by `geode new` build and pass the conformance
//! suite and their scripted episodes; the examples replay exactly per seed; hostile guests in
//! each language end in typed errors and leave the host working. Multi-agent projects
//! (`geode new --kind multiagent`) build in every language, load as multi-agent plugins, take
//! turns, replay per seed and see bad actions refused and a raising guest trapped.
//!
//! Toolchains are installed once into `target/geode-toolchains`; built components are cached by
//! their stamps, so only the fresh `geode new` projects are rebuilt on every run.

use geode_cli::episodes;
use geode_cli::guest_build::{self, Language, manifest::Kind, toolchains::Toolchains};
use geode_runtime::conformance::{CheckOptions, check_env};
use geode_runtime::multiagent::AgentOutput;
use geode_runtime::{
    ComponentEnv, Env, Error, Limits, MultiAgentEnv, PluginKind, Registry, Runtime,
};
use geode_tests::runtime;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The repository root.
pub(crate) fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Builds the project in `dir`, or says why not. Builds run one at a time: each one uses both
/// cores.
fn try_build(dir: &Path) -> anyhow::Result<PathBuf> {
    static BUILDS: Mutex<()> = Mutex::new(());
    let _one = BUILDS.lock().unwrap_or_else(|p| p.into_inner());
    let tools = Toolchains::at(&workspace().join("target/geode-toolchains")).unwrap();
    guest_build::build_with(dir, false, &tools)
}

/// Builds the project in `dir`.
pub(crate) fn build(dir: &Path) -> PathBuf {
    try_build(dir).unwrap_or_else(|e| panic!("building {}: {e:#}", dir.display()))
}

/// A registry holding only the component of the project in `dir`.
pub(crate) fn load(dir: &Path) -> Registry {
    let mut registry = Registry::empty(runtime());
    registry.add_file(&build(dir)).expect("the component loads");
    registry
}

/// Every env id of `registry` passes the conformance suite, and every scripted episode of the
/// project in `dir` plays as written.
fn conforms(registry: &Registry, dir: &Path) {
    let ids: Vec<String> = registry
        .ids_of(PluginKind::Env)
        .map(str::to_owned)
        .collect();
    assert!(ids.len() >= 2, "{}: ids {ids:?}", dir.display());
    for id in &ids {
        let report = check_env(registry, id, &CheckOptions::default());
        assert!(report.passed(), "{id}:\n{report}");
    }
    let scripted = episodes::scripted(dir).unwrap();
    assert!(
        !scripted.is_empty(),
        "{}: no scripted episodes",
        dir.display()
    );
    for (file, episode) in &scripted {
        if let Err(why) = episodes::play(registry, episode) {
            panic!("{} ({}): {why}", episode.name(), file.display());
        }
    }
}

#[test]
fn new_projects_build_and_pass_in_every_language() {
    let root = workspace().join(format!("target/tmp/guest-sdks-{}", std::process::id()));
    for language in Language::ALL {
        let dir = root.join(format!("{language:?}").to_lowercase()).join("x");
        geode_cli::new::create(&dir, language, Kind::Env).unwrap();
        let registry = load(&dir);
        conforms(&registry, &dir);
        let ids: Vec<&str> = registry.ids().collect();
        assert_eq!(ids, ["x:Parity-v0", "x:Parity-v0-long"], "{language:?}");
    }
    std::fs::remove_dir_all(&root).ok();
}

/// The example plugin project in `language` (`python`, `js`, `c`).
pub(crate) fn example(language: &str) -> PathBuf {
    workspace().join("examples/plugins").join(language)
}

#[test]
fn examples_pass_conformance_and_their_scripts() {
    for language in ["python", "js", "c"] {
        let dir = example(language);
        conforms(&load(&dir), &dir);
    }
}

/// The transcript of one episode of `id` from `seed`, with the env's own random actions.
fn transcript(registry: &Registry, id: &str, seed: u64) -> Vec<String> {
    let mut env = registry.make(id, json!({})).unwrap();
    let mut lines = vec![env.reset(Some(seed)).unwrap().observation];
    for _ in 0..40 {
        let action = env.sample_random_action().unwrap();
        let step = env.step(&action).unwrap();
        lines.push(format!("{action} -> {} {}", step.observation, step.reward));
        if step.done() {
            break;
        }
    }
    lines
}

#[test]
fn examples_replay_each_seed_and_differ_across_seeds() {
    for (language, id) in [
        ("python", "example:TwentyFour-v0"),
        ("js", "example:Nim-v0"),
        ("c", "example:TicTacToe-v0"),
    ] {
        let registry = load(&example(language));
        let first: Vec<Vec<String>> = (0..100).map(|s| transcript(&registry, id, s)).collect();
        let again: Vec<Vec<String>> = (0..100).map(|s| transcript(&registry, id, s)).collect();
        assert_eq!(first, again, "{id}: a seed gave two episodes");
        let distinct: std::collections::HashSet<&Vec<String>> = first.iter().collect();
        assert!(
            distinct.len() >= 90,
            "{id}: {} distinct episodes of 100",
            distinct.len()
        );
    }
}

/// Steps `id` with `go`, expecting a trap-class error, then checks the env recovers on reset
/// and a healthy env of the same plugin never noticed.
fn attack(registry: &Registry, id: &str, healthy: &str) -> Error {
    let limits = Limits::default();
    let mut sibling = ComponentEnv::make(registry, healthy, &json!({}), &limits).unwrap();
    sibling.reset(Some(0)).unwrap();
    sibling.step("before").unwrap();
    let mut env = ComponentEnv::make(registry, id, &json!({}), &limits).unwrap();
    env.reset(Some(0)).unwrap();
    let error = env.step("go").expect_err("the attack must fail");
    assert!(error.is_trap(), "{id}: {error}");
    assert_eq!(env.reset(Some(1)).unwrap().observation, "ready", "{id}");
    assert_eq!(
        sibling.step("after").unwrap().observation,
        "step 2 got after"
    );
    error
}

#[test]
fn hostile_guests_in_every_language_end_in_typed_errors() {
    let root = workspace().join("tests/guests");
    for (language, prefix, crash, words) in [
        ("python", "hostile-py", "raise", "the python guest gave up"),
        ("js", "hostile-js", "throw", "the javascript guest gave up"),
        ("c", "hostile-c", "abort", "the c guest gave up"),
    ] {
        let registry = load(&root.join(format!("hostile-{language}")));
        let healthy = format!("{prefix}:healthy");
        let spin = attack(&registry, &format!("{prefix}:spin"), &healthy);
        assert!(
            matches!(spin, Error::OutOfFuel { .. } | Error::Deadline { .. }),
            "{language} spin: {spin}"
        );
        let bomb = attack(&registry, &format!("{prefix}:memory-bomb"), &healthy);
        assert!(
            matches!(bomb, Error::MemoryLimit { .. } | Error::GuestTrap { .. }),
            "{language} memory bomb: {bomb}"
        );
        let crashed = attack(&registry, &format!("{prefix}:{crash}"), &healthy);
        assert!(
            matches!(&crashed, Error::GuestTrap { message, .. } if message.contains(words)),
            "{language} {crash}: {crashed}"
        );
    }
    // The host is unaffected: a fresh runtime still loads and runs a plugin.
    let mut registry = Registry::empty(Runtime::new().unwrap());
    registry.add_file(&build(&example("c"))).unwrap();
    let mut env = registry.make("example:TicTacToe-v0", json!({})).unwrap();
    env.reset(Some(0)).unwrap();
}

/// Where the hostile line goes in each language's `geode new --kind multiagent` project (the
/// start of the step's move parsing), and the line: the action `boom` raises (panics, aborts).
fn hostile_multiagent(language: Language) -> (&'static str, &'static str, &'static str) {
    match language {
        Language::Rust => (
            "src/lib.rs",
            "        match last_boxed(action) {\n",
            "        assert!(action != \"boom\", \"boom on purpose\");\n",
        ),
        Language::Python => (
            "plugin.py",
            "        move = last_boxed(action)\n",
            "        if action == \"boom\":\n            raise RuntimeError(\"boom on purpose\")\n",
        ),
        Language::Js => (
            "plugin.js",
            "    const move = lastBoxed(action);\n",
            "    if (action === \"boom\") throw new Error(\"boom on purpose\");\n",
        ),
        Language::C => (
            "plugin.c",
            "    char move[8];\n",
            "    if (!strcmp(actions[0].action, \"boom\")) geode_panic(\"boom on purpose\");\n",
        ),
    }
}

fn acts(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

fn rewards(out: &[AgentOutput]) -> Vec<f64> {
    out.iter().map(|o| o.reward).collect()
}

/// One episode of a multi-agent env from `seed`, each agent playing the env's random actions.
fn multiagent_transcript(env: &mut dyn MultiAgentEnv, seed: u64) -> Vec<String> {
    let mut lines: Vec<String> = env
        .reset(Some(seed))
        .unwrap()
        .into_iter()
        .map(|o| o.observation)
        .collect();
    for _ in 0..40 {
        let Some(agent) = env.active_agents().first().cloned() else {
            break;
        };
        let action = env.sample_random_action(&agent).unwrap();
        for o in env.step(&[(agent.clone(), action.clone())]).unwrap() {
            lines.push(format!(
                "{agent} {action} -> {} {}",
                o.observation, o.reward
            ));
        }
    }
    lines
}

#[test]
fn new_multiagent_projects_build_and_play_in_every_language() {
    // Named like the single-agent projects (`x`): Rust plugins share one cargo target
    // directory, and a crate of the same name from another project must not stand in for this
    // one's component.
    let root = workspace().join(format!("target/tmp/guest-sdks-ma-{}", std::process::id()));
    let limits = Limits::default();
    for language in Language::ALL {
        let dir = root.join(format!("{language:?}").to_lowercase()).join("x");
        geode_cli::new::create(&dir, language, Kind::MultiAgent).unwrap();
        let (file, anchor, line) = hostile_multiagent(language);
        let source = std::fs::read_to_string(dir.join(file)).unwrap();
        assert!(
            source.contains(anchor),
            "{language:?}: the template changed"
        );
        let source = source.replacen(anchor, &format!("{line}{anchor}"), 1);
        std::fs::write(dir.join(file), source).unwrap();
        let registry = load(&dir);
        let ids: Vec<&str> = registry.ids_of(PluginKind::MultiAgent).collect();
        assert!(
            ids.contains(&"x:Race-v0") && ids.contains(&"x:Race-v0-long"),
            "{language:?}: {ids:?}"
        );
        let make = |id: &str| registry.make_multiagent(id, &json!({}), &limits).unwrap();
        let scripted = episodes::scripted(&dir).unwrap();
        assert!(
            scripted.len() >= 5,
            "{language:?}: {} scripts",
            scripted.len()
        );
        for (file, episode) in &scripted {
            if let Err(why) = episodes::play(&registry, episode) {
                panic!(
                    "{language:?} {} ({}): {why}",
                    episode.name(),
                    file.display()
                );
            }
        }

        // Seeded episodes replay, and seeds give different games.
        let mut env = make("x:Race-v0");
        let first: Vec<_> = (0..12)
            .map(|s| multiagent_transcript(&mut *env, s))
            .collect();
        let again: Vec<_> = (0..12)
            .map(|s| multiagent_transcript(&mut *env, s))
            .collect();
        assert_eq!(first, again, "{language:?}: a seed gave two episodes");
        let distinct: std::collections::HashSet<_> = first.iter().collect();
        assert!(
            distinct.len() >= 6,
            "{language:?}: {} distinct",
            distinct.len()
        );

        // Sequential turns; the host refuses unknown and inactive agents before the guest.
        let out = env.reset(Some(5)).unwrap();
        assert_eq!(out.len(), 2, "{language:?}");
        assert_eq!(env.possible_agents(), ["player_0", "player_1"]);
        assert_eq!(env.active_agents(), ["player_0"], "{language:?}");
        assert!(
            out[0].observation.contains("Your turn"),
            "{language:?}: {out:?}"
        );
        env.step(&acts(&[("player_0", "\\boxed{1}")])).unwrap();
        assert_eq!(env.active_agents(), ["player_1"], "{language:?}");
        for (bad, words) in [
            (acts(&[("nobody", "\\boxed{1}")]), "unknown agent `nobody`"),
            (acts(&[("player_0", "\\boxed{1}")]), "is not active"),
        ] {
            let err = env.step(&bad).unwrap_err();
            assert!(
                matches!(err, Error::InvalidArgument(_)) && err.to_string().contains(words),
                "{language:?}: {err}"
            );
        }
        // Messages reach their receiver's observation; a broadcast reaches every other agent.
        env.send_message("player_1", "player_0", "hello").unwrap();
        let seen = |env: &mut Box<dyn MultiAgentEnv>, agent: &str| env.observe(agent).unwrap();
        assert!(seen(&mut env, "player_0").contains("player_1 says: hello"));
        env.broadcast_message("player_0", "hi all").unwrap();
        assert!(seen(&mut env, "player_1").contains("player_0 says: hi all"));
        assert!(!seen(&mut env, "player_0").contains("hi all"));
        // The roster changes from outside: agents come and go, the turn stays.
        env.add_agent("referee").unwrap();
        assert_eq!(env.agents(), ["player_0", "player_1", "referee"]);
        env.remove_agent("referee").unwrap();
        assert_eq!(env.agents(), ["player_0", "player_1"], "{language:?}");
        assert_eq!(env.active_agents(), ["player_1"], "{language:?}");
        // An illegal move forfeits: both agents end with opposite rewards and leave.
        let out = env.step(&acts(&[("player_1", "pass")])).unwrap();
        assert_eq!(rewards(&out), [1.0, -1.0], "{language:?}: {out:?}");
        assert!(out.iter().all(|o| o.terminated), "{language:?}");
        assert!(env.agents().is_empty() && env.active_agents().is_empty());
        let err = env.step(&acts(&[("player_0", "\\boxed{1}")])).unwrap_err();
        assert!(
            matches!(err, Error::InvalidState { .. }),
            "{language:?}: {err}"
        );

        // A guest that raises is a trap of its own env; a sibling goes on, and the trapped env
        // starts over on reset.
        let mut sibling = make("x:Race-v0");
        sibling.reset(Some(2)).unwrap();
        env.reset(Some(1)).unwrap();
        let err = env.step(&acts(&[("player_0", "boom")])).unwrap_err();
        assert!(
            matches!(&err, Error::GuestTrap { message, .. } if message.contains("boom on purpose")),
            "{language:?}: {err}"
        );
        sibling.step(&acts(&[("player_0", "\\boxed{3}")])).unwrap();
        // Snapshots hold the roster and the turn.
        let snapshot = sibling.get_state().unwrap();
        sibling.step(&acts(&[("player_1", "\\boxed{1}")])).unwrap();
        sibling.set_state(&snapshot).unwrap();
        assert_eq!(sibling.active_agents(), ["player_1"], "{language:?}");
        let out = sibling.step(&acts(&[("player_1", "\\boxed{1}")])).unwrap();
        assert!(
            out[1].observation.contains("Waiting for player_0"),
            "{language:?}: {out:?}"
        );
        env.reset(Some(1)).unwrap();
        env.step(&acts(&[("player_0", "\\boxed{2}")])).unwrap();
    }
    // geode.json and the code must agree: a single-agent crate declared multi-agent fails.
    let wrong = root.join("wrong");
    geode_cli::new::create(&wrong, Language::Rust, Kind::Env).unwrap();
    std::fs::write(
        wrong.join(guest_build::manifest::FILE),
        Kind::MultiAgent.manifest(),
    )
    .unwrap();
    let error = format!("{:#}", try_build(&wrong).unwrap_err());
    assert!(error.contains("the kind is `multiagent`"), "{error}");
    std::fs::remove_dir_all(&root).ok();
}

/// The C SDK's parallel mode (`.parallel = true`): every live agent is active at once, a step
/// must carry an action of each, and the roster stays whole between steps. (The Python and
/// JavaScript SDKs test their parallel mode natively, in tests/python/test_sdk_multiagent.py.)
#[test]
fn the_c_sdk_steps_every_live_agent_at_once_in_parallel_mode() {
    let root = workspace().join(format!("target/tmp/guest-sdks-par-{}", std::process::id()));
    let dir = root.join("par");
    geode_cli::new::create(&dir, Language::C, Kind::MultiAgent).unwrap();
    let plugin = dir.join("plugin.c");
    let anchor = "    .create = race_create,";
    let source = std::fs::read_to_string(&plugin).unwrap();
    assert!(source.contains(anchor), "the C template changed");
    let source = source.replacen(anchor, &format!("    .parallel = true,\n{anchor}"), 1);
    std::fs::write(&plugin, source).unwrap();
    let registry = load(&dir);
    let mut env = registry
        .make_multiagent("par:Race-v0-long", &json!({}), &Limits::default())
        .unwrap();
    env.reset(Some(3)).unwrap();
    let both = ["player_0", "player_1"];
    assert_eq!(env.active_agents(), both);
    let err = env.step(&acts(&[("player_0", "\\boxed{1}")])).unwrap_err();
    assert!(
        matches!(err, Error::InvalidArgument(_)) && err.to_string().contains("player_1"),
        "{err}"
    );
    for _ in 0..3 {
        let out = env
            .step(&acts(&[
                ("player_0", "\\boxed{1}"),
                ("player_1", "\\boxed{2}"),
            ]))
            .unwrap();
        assert_eq!(out.len(), 2, "{out:?}");
        assert!(out.iter().all(|o| !o.terminated && !o.truncated), "{out:?}");
        assert_eq!(env.active_agents(), both);
        assert!(env.observe("player_1").unwrap().contains("Your turn"));
    }
    std::fs::remove_dir_all(&root).ok();
}
