//! Bad input from users gets a clear, typed error whose text names what was wrong.

use geode_runtime::{
    ComponentEnv, Env, Error, Limits, MakeOptions, PluginSource, RefusalKind, Registry,
};
use geode_tests::{registry, runtime};
use serde_json::json;

const HARD: &str = "game:GuessTheNumber-v0-hard";

#[test]
fn unknown_id_suggests_close_ids() {
    let error = registry()
        .make("game:GuessTheNumbr-v0-hard", json!({}))
        .unwrap_err();
    assert!(matches!(error, Error::UnknownEnv { .. }));
    assert_eq!(
        error.to_string(),
        "unknown env id `game:GuessTheNumbr-v0-hard`; did you mean `game:GuessTheNumber-v0-hard`?"
    );
    let error = registry().make("nothing:like-it", json!({})).unwrap_err();
    assert!(error.to_string().contains("run `geode list`"), "{error}");
}

#[test]
fn an_id_the_build_leaves_out_is_refused_with_the_reason() {
    // What a `geode` built without a feature does for the ids that feature adds.
    let mut registry = Registry::empty(runtime());
    registry.leave_out("tool:search", "the `search` feature");
    let error = registry
        .make_tool("tool:search", &json!({}), &Limits::default())
        .err()
        .expect("a left-out id is refused");
    assert!(matches!(
        error,
        Error::UnknownEnv {
            left_out: Some(_),
            ..
        }
    ));
    assert_eq!(
        error.to_string(),
        "unknown env id `tool:search`: this build leaves it out (the `search` feature)"
    );
}

#[test]
fn unknown_config_key_is_named() {
    let error = registry().make(HARD, json!({"max_turn": 3})).unwrap_err();
    assert_eq!(
        error.to_string(),
        "env `game:GuessTheNumber-v0-hard`: bad config key `max_turn`: unknown key; known keys are max_number, max_turns, min_number"
    );
}

#[test]
fn wrong_config_type_is_named() {
    let error = registry()
        .make(HARD, json!({"max_turns": "seven"}))
        .unwrap_err();
    assert!(matches!(&error, Error::BadConfig { key, .. } if key == "max_turns"));
    assert!(
        error
            .to_string()
            .contains("expected an integer, got a string (\"seven\")"),
        "{error}"
    );
    let error = registry().make(HARD, json!([1, 2])).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("overrides must be a JSON object"),
        "{error}"
    );
}

#[test]
fn plugin_rejects_inconsistent_config() {
    let error = registry()
        .make(HARD, json!({"min_number": 60}))
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Refused {
                kind: RefusalKind::BadConfig,
                call: "create",
                ..
            }
        ),
        "{error}"
    );
    assert!(error.to_string().contains("max_number"), "{error}");
}

#[test]
fn overrides_apply() {
    let mut env = registry()
        .make(HARD, json!({"max_number": 100, "max_turns": 12}))
        .unwrap();
    let obs = env.reset(Some(0)).unwrap().observation;
    assert!(
        obs.contains("between 1 and 100 (inclusive) within 12 turns"),
        "{obs}"
    );
}

fn load(bytes: &[u8]) -> Error {
    let mut registry = Registry::empty(runtime());
    registry
        .add_bytes(PluginSource::File("bad.wasm".into()), bytes)
        .unwrap_err()
}

#[test]
fn random_bytes_are_not_a_plugin() {
    let noise: Vec<u8> = (0u32..4096)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let error = load(&noise);
    assert!(matches!(error, Error::NotAPlugin { .. }));
    assert!(
        error
            .to_string()
            .starts_with("bad.wasm is not a geode plugin: not a valid WebAssembly component"),
        "{error}"
    );
}

#[test]
fn core_module_and_empty_component_are_not_plugins() {
    // The binary encodings of `(module)` and `(component)`.
    let error = load(b"\0asm\x01\0\0\0");
    assert!(
        error
            .to_string()
            .contains("not a valid WebAssembly component"),
        "{error}"
    );
    let error = load(b"\0asm\x0d\0\x01\0");
    assert!(
        error
            .to_string()
            .contains("it exports nothing; a geode plugin exports `geode:env/env@0.1.0`, `geode:env/tool@0.1.0`, `geode:env/wrapper@0.1.0` or `geode:env/multiagent@0.1.0`"),
        "{error}"
    );
}

#[test]
fn missing_file_names_the_path() {
    let mut registry = Registry::empty(runtime());
    let error = registry
        .add_file("/no/such/plugin.wasm".as_ref())
        .unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("reading plugin /no/such/plugin.wasm"),
        "{error}"
    );
}

#[test]
fn duplicate_ids_are_refused() {
    let mut registry = geode_builtins::registry(runtime()).unwrap();
    let (_, wasm) = geode_builtins::plugins()
        .iter()
        .find(|(n, _)| *n == "guess-the-number")
        .unwrap();
    let error = registry
        .add_bytes(PluginSource::File("copy.wasm".into()), wasm)
        .unwrap_err();
    assert!(matches!(error, Error::DuplicateId { .. }), "{error}");
}

#[test]
fn oversized_action_is_refused_before_the_guest_sees_it() {
    let limits = Limits {
        max_action_bytes: 1024,
        ..Limits::default()
    };
    let mut env = registry()
        .make(HARD, MakeOptions::default().with_limits(limits))
        .unwrap();
    env.reset(Some(0)).unwrap();
    let error = env.step(&"9".repeat(2048)).unwrap_err();
    assert_eq!(
        error.to_string(),
        "env `game:GuessTheNumber-v0-hard`: action is 2048 bytes, over the limit of 1024 bytes"
    );
    // The env is untouched and keeps playing.
    assert!(env.step("\\boxed{3}").is_ok());
}

#[test]
fn step_before_reset_and_garbage_state_are_refused() {
    let mut env = ComponentEnv::make(&registry(), HARD, &json!({}), &Limits::default()).unwrap();
    let error = env.step("\\boxed{3}").unwrap_err();
    assert!(
        error.to_string().contains("step called before reset"),
        "{error}"
    );
    let error = env.set_state(b"not a snapshot").unwrap_err();
    assert!(
        matches!(
            error,
            Error::Refused {
                kind: RefusalKind::BadState,
                ..
            }
        ),
        "{error}"
    );
    // A refusal is not a trap: the instance stays live.
    assert!(env.is_live());
}
