//! Helpers for plugins' native unit tests: build an env the way the host does, and replay
//! episodes recorded from GEM. Not part of the plugin API.

use crate::{Config, Environment, EpisodeStart, Error, Reset, Rng, Step};
use serde_json::Value;

/// The env `E` for `id`, configured like the host does it: the id's default configuration
/// with `overrides` (a JSON object) merged over it.
pub fn make<E: Environment>(id: &str, overrides: &Value) -> Result<E, Error> {
    let spec = E::specs()
        .into_iter()
        .find(|s| s.id == id)
        .unwrap_or_else(|| panic!("no spec for `{id}`"));
    let mut config = spec
        .default_config
        .as_object()
        .expect("a default configuration is a JSON object")
        .clone();
    let overrides = overrides.as_object().expect("overrides are a JSON object");
    config.extend(overrides.clone());
    E::create(id, Config::new(config))
}

/// The env `E` for `id` (see [`make`]), reset as the host resets it with `seed`
/// ([`EpisodeStart::Seeded`]): the env, the generator and the reset.
pub fn start<E: Environment>(id: &str, overrides: &Value, seed: u64) -> (E, Rng, Reset) {
    start_as(id, overrides, EpisodeStart::Seeded(seed))
}

/// The env `E` for `id` (see [`make`]), reset as the host resets it for an episode that starts
/// as `start` (the generator prepared the way the SDK prepares it): the env, the generator and
/// the reset. [`EpisodeStart::Unseeded`] gets a generator seeded with 0.
pub fn start_as<E: Environment>(
    id: &str,
    overrides: &Value,
    start: EpisodeStart,
) -> (E, Rng, Reset) {
    let mut env: E = make(id, overrides).unwrap();
    let mut rng = match start {
        EpisodeStart::Seeded(seed) => Rng::seeded(seed),
        EpisodeStart::Continued { stream, number } => Rng::continued(stream, number),
        EpisodeStart::Unseeded => Rng::seeded(0),
    };
    env.before_reset(&start);
    let reset = env.reset(&mut rng).unwrap();
    (env, rng, reset)
}

/// Replays episodes recorded from GEM's own game and asserts that `E` gives the same
/// observations, rewards, flags and infos. `golden` is the text of a `tests/golden.json`: a
/// list of `{"id", "config", "seed", "reset": [observation, info], "steps": [[action,
/// observation, reward, terminated, truncated, info], ...]}`.
pub fn replay_golden<E: Environment>(golden: &str) {
    let cases: Vec<Value> = serde_json::from_str(golden).expect("golden episodes are JSON");
    for case in cases {
        let id = case["id"].as_str().expect("an episode names its id");
        let seed = case["seed"].as_u64().expect("an episode has a seed");
        let (mut env, mut rng, reset) = start::<E>(id, &case["config"], seed);
        let at = format!("{id}, seed {seed}");
        assert_eq!(
            reset.observation,
            case["reset"][0].as_str().unwrap(),
            "{at}"
        );
        assert_eq!(Value::Object(reset.info.to_map()), case["reset"][1], "{at}");
        for step in case["steps"]
            .as_array()
            .expect("an episode lists its steps")
        {
            let got = env.step(step[0].as_str().unwrap(), &mut rng).unwrap();
            assert_eq!(got.observation, step[1].as_str().unwrap(), "{at}: {step}");
            let reward = step[2].as_f64().unwrap();
            assert!((got.reward - reward).abs() < 1e-12, "{at}: {step}");
            assert_eq!(got.terminated, step[3].as_bool().unwrap(), "{at}: {step}");
            assert_eq!(got.truncated, step[4].as_bool().unwrap(), "{at}: {step}");
            assert_eq!(Value::Object(got.info.to_map()), step[5], "{at}: {step}");
        }
    }
}

/// Plays each of `actions` as the first step of a fresh episode of `id` (default configuration,
/// reset with `seed`) and asserts GEM's answer to an action it cannot parse: `observation`,
/// −0.1, the episode terminated but not truncated. Returns the steps, for game-specific checks.
pub fn assert_format_errors<E: Environment>(
    id: &str,
    seed: u64,
    actions: &[&str],
    observation: &str,
) -> Vec<Step> {
    let steps = actions.iter().map(|action| {
        let (mut env, mut rng, _) = start::<E>(id, &Value::Object(Default::default()), seed);
        let step = env.step(action, &mut rng).unwrap();
        let shown: String = action.chars().take(80).collect();
        assert_eq!(step.observation, observation, "{shown:?}");
        assert_eq!(step.reward, -0.1, "{shown:?}");
        assert!(step.terminated && !step.truncated, "{shown:?}");
        step
    });
    steps.collect()
}

/// Asserts that `step` is GEM's end at the turn limit: its observation, the episode terminated
/// and truncated.
pub fn assert_turn_limit(step: &Step) {
    assert_eq!(
        step.observation,
        "You have reached the maximum number of turns."
    );
    assert!(step.terminated && step.truncated);
}

/// Asserts that `id` configured with each of `overrides` is refused as a bad configuration.
pub fn assert_bad_configs<E: Environment>(id: &str, overrides: &[Value]) {
    for bad in overrides {
        let made = make::<E>(id, bad).map(|_| ());
        assert!(matches!(made, Err(Error::BadConfig(_))), "{bad}: {made:?}");
    }
}
