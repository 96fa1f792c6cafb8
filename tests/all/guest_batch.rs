//! The Python, JavaScript and C SDKs serve the `batch` export as the Rust SDK does: their
//! components export it, so a unit of several envs steps with one guest call per step, and
//! each env of a unit gives exactly what it gives stepped alone in an instance of its own
//! (seeded and unseeded episodes, autoresets in the same call, refusals, texts beyond ASCII).
//! An unseeded episode is a function of the host's (stream, number) alone: instances whose
//! WASI randomness differs play it alike, and a unit replays it faithfully after a fault. A
//! guest that traps inside a batch call is blamed alone, as it is stepped alone.

use crate::guest_sdks::{build, example, load, workspace};
use geode_cli::guest_build::manifest;
use geode_runtime::{
    Actions, AutoresetMode, Env, Error, Info, Registry, VecSpec, VectorEnv, VectorStep,
};
use serde_json::{Value, json};
use std::path::PathBuf;

/// Each SDK's language, the prefix of its hostile guest's ids and the id that crashes.
const LANGUAGES: [(&str, &str, &str); 3] = [
    ("python", "hostile-py", "raise"),
    ("js", "hostile-js", "throw"),
    ("c", "hostile-c", "abort"),
];

/// The hostile test guest in `language`.
fn hostile(language: &str) -> PathBuf {
    workspace()
        .join("tests/guests")
        .join(format!("hostile-{language}"))
}

/// Each language's example and its id.
fn example_id(language: &str) -> &'static str {
    match language {
        "python" => "example:TwentyFour-v0",
        "js" => "example:Nim-v0",
        _ => "example:TicTacToe-v0",
    }
}

#[test]
fn sdk_components_export_batch_and_share_units() {
    for (language, prefix, _) in LANGUAGES {
        for dir in [example(language), hostile(language)] {
            let wasm = std::fs::read(build(&dir)).unwrap();
            let exports = manifest::exports(&wasm).unwrap();
            for want in ["geode:env/env@0.1.0", "geode:env/batch@0.1.0"] {
                assert!(
                    exports.iter().any(|e| e == want),
                    "{}: exports {exports:?}",
                    dir.display()
                );
            }
        }
        // Several envs share one instance only through `batch`.
        let registry = load(&hostile(language));
        let vec = registry
            .make_vec(&VecSpec {
                group_size: 8,
                ..VecSpec::uniform(&format!("{prefix}:dice"), 8, 0)
            })
            .unwrap();
        assert_eq!(vec.num_units(), 1, "{language}");
    }
}

/// What a step gives one env (a vector slot, or an env stepped alone and autoreset by hand),
/// comparable across the two.
#[derive(Debug, PartialEq)]
struct Turn {
    observation: String,
    info: Value,
    reward: String,
    terminated: bool,
    truncated: bool,
    /// The ended episode's last observation and info, when the step autoreset.
    last: Option<(String, Value)>,
    error: Option<String>,
}

fn info(info: &Info) -> Value {
    Value::Object(info.to_map())
}

impl Turn {
    fn of(step: &VectorStep, k: usize) -> Turn {
        Turn {
            observation: step.observation(k).to_owned(),
            info: Value::Object(step.info(k).to_map()),
            reward: format!("{:?}", step.rewards[k]),
            terminated: step.terminated[k],
            truncated: step.truncated[k],
            last: step.final_observation(k).map(|o| {
                (
                    o.to_owned(),
                    Value::Object(step.final_info(k).unwrap().to_map()),
                )
            }),
            error: step.error(k).map(ToString::to_string),
        }
    }

    /// `env` stepped with `action` as a vector's slot is: an error restarts the episode
    /// (unseeded; the step counts as truncated), and with `autoreset` so does an ended one.
    fn alone(env: &mut dyn Env, action: &str, autoreset: bool) -> Turn {
        let step = match env.step(action) {
            Ok(step) => step,
            Err(error) => {
                let reset = env.reset(None).unwrap();
                return Turn {
                    observation: reset.observation,
                    info: info(&reset.info),
                    reward: format!("{:?}", 0.0),
                    terminated: false,
                    truncated: true,
                    last: None,
                    error: Some(error.to_string()),
                };
            }
        };
        let mut turn = Turn {
            observation: step.observation.clone(),
            info: info(&step.info),
            reward: format!("{:?}", step.reward),
            terminated: step.terminated,
            truncated: step.truncated,
            last: None,
            error: None,
        };
        if autoreset && step.done() {
            let reset = env.reset(None).unwrap();
            turn.last = Some((turn.observation, turn.info));
            turn.observation = reset.observation;
            turn.info = info(&reset.info);
        }
        turn
    }
}

/// The actions of one round: each env's own random action, drawn alike from the vector's slot
/// and from the env alone (`sample`), else the dice script (refusals and non-ASCII text).
fn round_actions(
    vec: &mut VectorEnv,
    alone: &mut [Box<dyn Env>],
    round: usize,
    sample: bool,
) -> Vec<String> {
    (0..alone.len())
        .map(|i| {
            if !sample {
                return match (round * 7 + i * 3) % 5 {
                    0 => "refuse".to_owned(),
                    1 => "é ✓".to_owned(),
                    _ => format!("go {i}"),
                };
            }
            let action = vec
                .with_slot(i, |s| s.env_mut().sample_random_action())
                .unwrap();
            assert_eq!(alone[i].sample_random_action().unwrap(), action, "slot {i}");
            action
        })
        .collect()
}

/// `n` envs of `id` in one unit against the same envs each in an instance of its own, stepped
/// one by one: first episodes seeded (`seed + i`), the next ones unseeded, under `mode`.
fn unit_matches_envs_alone(registry: &Registry, id: &str, mode: AutoresetMode, sample: bool) {
    const N: usize = 6;
    const SEED: u64 = 40;
    let mut vec = registry
        .make_vec(&VecSpec {
            group_size: N,
            autoreset: mode,
            ..VecSpec::uniform(id, N, SEED)
        })
        .unwrap();
    assert_eq!(vec.num_units(), 1);
    let mut alone: Vec<Box<dyn Env>> = (0..N)
        .map(|_| registry.make(id, json!({})).unwrap())
        .collect();
    let (observations, infos) = vec.reset(None).unwrap();
    for (i, env) in alone.iter_mut().enumerate() {
        let reset = env.reset(Some(SEED + i as u64)).unwrap();
        assert_eq!(reset.observation, observations[i], "{id}: slot {i}");
        assert_eq!(info(&reset.info), info(&infos[i]), "{id}: slot {i}");
    }
    let autoreset = mode == AutoresetMode::SameStep;
    let mut episodes = 0;
    let mut refusals = 0;
    for round in 0..30 {
        let actions = round_actions(&mut vec, &mut alone, round, sample);
        let step = vec.step(Actions::All(&actions)).unwrap();
        let mut ended = Vec::new();
        for (i, env) in alone.iter_mut().enumerate() {
            let expected = Turn::alone(&mut **env, &actions[i], autoreset);
            assert_eq!(
                Turn::of(&step, i),
                expected,
                "{id} {mode:?}: round {round}, slot {i}"
            );
            refusals += usize::from(expected.error.is_some());
            if expected.error.is_none() && (expected.terminated || expected.truncated) {
                episodes += 1;
                ended.push(i);
            }
        }
        if !autoreset && !ended.is_empty() {
            // The ended episodes restart unseeded, in one call.
            let (observations, infos) = vec.reset_some(&ended, &vec![None; ended.len()]).unwrap();
            for (k, &i) in ended.iter().enumerate() {
                let reset = alone[i].reset(None).unwrap();
                assert_eq!(
                    (reset.observation, info(&reset.info)),
                    (observations[k].clone(), info(&infos[k])),
                    "{id} {mode:?}: round {round}, slot {i}"
                );
            }
        }
    }
    assert!(episodes >= N, "{id}: only {episodes} episodes ended");
    assert_eq!(refusals > 0, !sample, "{id}: {refusals} refusals");
    // Every env starts its next unseeded episode, all in one call.
    let (observations, _) = vec.reset(None).unwrap();
    for (i, env) in alone.iter_mut().enumerate() {
        assert_eq!(
            env.reset(None).unwrap().observation,
            observations[i],
            "{id}"
        );
    }
}

#[test]
fn units_in_every_sdk_step_exactly_like_envs_stepped_one_by_one() {
    for (language, prefix, _) in LANGUAGES {
        let examples = load(&example(language));
        let hostile = load(&hostile(language));
        for mode in [AutoresetMode::SameStep, AutoresetMode::Disabled] {
            unit_matches_envs_alone(&examples, example_id(language), mode, true);
            unit_matches_envs_alone(&hostile, &format!("{prefix}:dice"), mode, false);
        }
    }
}

#[test]
fn unseeded_episodes_in_every_sdk_depend_on_the_hosts_numbers_alone() {
    for (language, prefix, _) in LANGUAGES {
        let registry = load(&hostile(language));
        let id = format!("{prefix}:dice");
        // Two instances (their WASI randomness seeded apart) play the same unseeded episodes
        // after the same seed, and those differ from one another.
        let play = || {
            let mut env = registry.make(&id, json!({})).unwrap();
            env.reset(Some(3)).unwrap();
            (0..12)
                .map(|_| {
                    let first = env.reset(None).unwrap().observation;
                    let steps: Vec<String> = (0..3)
                        .map(|_| env.step("go").unwrap().observation)
                        .collect();
                    format!("{first} | {}", steps.join(" | "))
                })
                .collect::<Vec<_>>()
        };
        let episodes = play();
        assert_eq!(episodes, play(), "{language}");
        let distinct: std::collections::HashSet<&String> = episodes.iter().collect();
        assert!(distinct.len() >= 8, "{language}: {episodes:?}");
    }
}

/// The ids of a unit under attack, and which slots attack (with what they must end in).
fn attack_ids(prefix: &str, crash: &str) -> Vec<String> {
    [
        "dice",
        "dice",
        "healthy",
        crash,
        "dice",
        "spin",
        "healthy",
        "memory-bomb",
    ]
    .iter()
    .map(|kind| format!("{prefix}:{kind}"))
    .collect()
}

const ATTACKERS: [usize; 3] = [3, 5, 7];

/// One round of actions: every slot that does not attack, plus `attacker` with `go`.
fn attack_round(round: usize, attacker: Option<usize>) -> Vec<(usize, String)> {
    let mut pairs: Vec<(usize, String)> = (0..8)
        .filter(|i| !ATTACKERS.contains(i))
        .map(|i| (i, format!("go {round}")))
        .collect();
    pairs.extend(attacker.map(|a| (a, "go".to_owned())));
    pairs
}

/// Checks the error of `attacker` (the slot of `id`) in `step` at position `k`.
fn assert_attack_failed(step: &VectorStep, k: usize, id: &str, words: &str) {
    let error = step.error(k).unwrap_or_else(|| panic!("{id} did not fail"));
    let fits = match id.rsplit(':').next().unwrap() {
        "spin" => matches!(error, Error::OutOfFuel { .. } | Error::Deadline { .. }),
        "memory-bomb" => matches!(error, Error::MemoryLimit { .. } | Error::GuestTrap { .. }),
        _ => matches!(error, Error::GuestTrap { message, .. } if message.contains(words)),
    };
    assert!(fits, "{id}: {error}");
}

#[test]
fn a_guest_that_traps_in_a_batch_call_of_any_sdk_is_blamed_alone() {
    for (language, prefix, crash) in LANGUAGES {
        let registry = load(&hostile(language));
        let words = format!(
            "the {} guest gave up",
            if language == "js" {
                "javascript"
            } else {
                language
            }
        );
        let ids = attack_ids(prefix, crash);
        let spec = |group_size, seed| VecSpec {
            ids: ids.clone(),
            group_size,
            seed,
            ..VecSpec::uniform(&ids[0], ids.len(), 0)
        };
        // Seeded: the unit's slots see what envs alone see, the attacker only fails.
        let mut lone = registry.make_vec(&spec(1, Some(9))).unwrap();
        let mut unit = registry.make_vec(&spec(8, Some(9))).unwrap();
        // Unseeded (streams from host entropy): healthy episodes replay faithfully.
        let mut unseeded = registry.make_vec(&spec(8, None)).unwrap();
        assert_eq!(unit.num_units(), 1);
        for vec in [&mut lone, &mut unit, &mut unseeded] {
            vec.reset(None).unwrap();
        }
        for round in 0..12 {
            let attacker = (round % 4 == 2).then(|| ATTACKERS[round / 4]);
            let pairs = attack_round(round, attacker);
            let a = lone.step(Actions::Some(&pairs)).unwrap();
            let b = unit.step(Actions::Some(&pairs)).unwrap();
            let c = unseeded.step(Actions::Some(&pairs)).unwrap();
            for (k, &(i, _)) in pairs.iter().enumerate() {
                if Some(i) == attacker {
                    for step in [&a, &b, &c] {
                        assert_attack_failed(step, k, &ids[i], &words);
                    }
                    continue;
                }
                let what = format!("{language} round {round}: slot {i}");
                assert_eq!(Turn::of(&a, k), Turn::of(&b, k), "{what}");
                assert!(b.error(k).is_none(), "{what}: {:?}", b.error(k));
                assert!(c.error(k).is_none(), "{what}: {:?}", c.error(k));
            }
        }
        // A healthy member counted every step of its episode, the attacks' rounds too.
        let healthy = unit.with_slot(2, |s| s.step_direct("x")).unwrap();
        assert_eq!(healthy.observation, "step 13 got x", "{language}");
    }
}
