//! Units: by default a vector env's slots share component instances (units of several envs,
//! one guest call per unit and step), and a fault inside a unit must look exactly like a fault of
//! a lone env: the culprit reports its typed error and restarts, every other slot's results are
//! the ones it would have given alone.

use geode_runtime::{
    Actions, AsyncPool, AutoresetMode, Env, Error, Limits, UnitStep, VecSpec, VectorEnv, VectorStep,
};
use geode_tests::registry;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

const POISON: &str = "poison:Counter-v0";

/// The poisons `poison:Counter-v0` knows, each breaking a limit or the contract.
const POISONS: [&str; 7] = [
    "poison:loop",
    "poison:alloc",
    "poison:panic",
    "poison:stack",
    "poison:huge",
    "poison:bad-info",
    "poison:nan",
];

/// Small budgets, so that every poison ends fast. Memory runs out long before fuel: an
/// allocation bomb hits the memory limit alone and in a unit alike (in a unit, a member's turn
/// may grow the shared memory by its own limit).
fn tight_limits() -> Limits {
    Limits {
        fuel_per_call: Some(200_000_000),
        deadline_per_call: Some(Duration::from_secs(5)),
        max_memory_bytes: 16 << 20,
        ..Limits::default()
    }
}

fn spec(n: usize, group_size: usize, mode: AutoresetMode, limits: Limits) -> VecSpec {
    VecSpec {
        autoreset: mode,
        limits,
        group_size,
        ..VecSpec::uniform(POISON, n, 11)
    }
}

/// A deterministic stream of numbers (an LCG), for actions and poison injections.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// `rounds` batches of actions for `n` slots: guesses, with a poison for a random slot in
/// about a third of the rounds. Also the poisoned `(round, slot)` pairs.
fn script(n: usize, rounds: usize, seed: u64) -> (Vec<Vec<String>>, Vec<(usize, usize)>) {
    let mut dice = Dice(seed);
    let mut poisoned = Vec::new();
    let batches = (0..rounds)
        .map(|round| {
            let mut batch: Vec<String> = (0..n)
                .map(|_| format!("\\boxed{{{}}}", 1 + dice.below(20)))
                .collect();
            if dice.below(3) == 0 {
                let slot = dice.below(n as u64) as usize;
                batch[slot] = POISONS[dice.below(POISONS.len() as u64) as usize].to_owned();
                poisoned.push((round, slot));
            }
            batch
        })
        .collect();
    (batches, poisoned)
}

/// Everything a step gives for one slot, comparable across runs.
#[derive(Debug, PartialEq)]
struct SlotView {
    observation: String,
    info: Value,
    reward: String,
    terminated: bool,
    truncated: bool,
    final_observation: Option<String>,
    final_info: Option<Value>,
    error: Option<String>,
}

fn view(step: &VectorStep, k: usize) -> SlotView {
    SlotView {
        observation: step.observation(k).to_owned(),
        info: Value::Object(step.info(k).to_map()),
        reward: format!("{:?}", step.rewards[k]),
        terminated: step.terminated[k],
        truncated: step.truncated[k],
        final_observation: step.final_observation(k).map(str::to_owned),
        final_info: step.final_info(k).map(|i| Value::Object(i.to_map())),
        error: step.error(k).map(ToString::to_string),
    }
}

fn views(step: &VectorStep) -> Vec<SlotView> {
    (0..step.len()).map(|k| view(step, k)).collect()
}

/// Asserts that slot `culprit` alone failed, with an error that says `what`.
fn assert_only_failure(views: &[SlotView], culprit: usize, what: &str) {
    let error = views[culprit].error.as_ref();
    let error = error.unwrap_or_else(|| panic!("slot {culprit} fails"));
    assert!(error.contains(what), "{error}");
    let others_fine = views
        .iter()
        .enumerate()
        .all(|(i, v)| i == culprit || v.error.is_none());
    assert!(others_fine, "{views:?}");
}

fn assert_poison_error(error: Option<&String>, round: usize, slot: usize) {
    let error = error.unwrap_or_else(|| panic!("round {round}: slot {slot} was poisoned"));
    assert!(
        [
            "ran out of fuel",
            "memory limit",
            "poisoned on purpose",
            "overflowed the wasm stack",
            "contract violation"
        ]
        .iter()
        .any(|kind| error.contains(kind)),
        "round {round}, slot {slot}: {error}"
    );
}

#[test]
fn poisoned_slots_fail_alone_and_every_other_slot_matches_lone_envs() {
    let (batches, poisoned) = script(64, 1_000, 7);
    let mut lone = registry()
        .make_vec(&spec(64, 1, AutoresetMode::SameStep, tight_limits()))
        .unwrap();
    let mut grouped = registry()
        .make_vec(&spec(64, 16, AutoresetMode::SameStep, tight_limits()))
        .unwrap();
    assert_eq!((lone.num_units(), grouped.num_units()), (64, 4));
    assert_eq!(lone.reset(None).unwrap(), grouped.reset(None).unwrap());
    let mut errors = 0;
    for (round, batch) in batches.iter().enumerate() {
        let a = views(&lone.step(Actions::All(batch)).unwrap());
        let b = views(&grouped.step(Actions::All(batch)).unwrap());
        for slot in 0..64 {
            assert_eq!(a[slot], b[slot], "round {round}, slot {slot}");
            let is_poisoned = poisoned.contains(&(round, slot));
            match is_poisoned {
                true => assert_poison_error(b[slot].error.as_ref(), round, slot),
                false => assert_eq!(b[slot].error, None, "round {round}, slot {slot}"),
            }
            errors += usize::from(b[slot].error.is_some());
        }
    }
    assert!(
        errors > 250,
        "the script poisons about a third of the rounds ({errors})"
    );
}

#[test]
fn the_async_pool_recovers_units_the_same_way() {
    let (batches, poisoned) = script(32, 200, 3);
    let mut lone = registry()
        .make_vec(&spec(32, 1, AutoresetMode::SameStep, tight_limits()))
        .unwrap();
    let pool: AsyncPool = registry()
        .make_vec(&spec(32, 8, AutoresetMode::SameStep, tight_limits()).for_pool())
        .unwrap()
        .into_pool(2);
    assert_eq!(pool.num_units(), 4);
    lone.reset(None).unwrap();
    pool.send_reset((0..32).map(|i| (i, Some(11 + i as u64))).collect())
        .unwrap();
    assert_eq!(pool.recv(32, None).len(), 32);
    for (round, batch) in batches.iter().enumerate() {
        let expected = lone.step(Actions::All(batch)).unwrap();
        pool.send(batch.iter().cloned().enumerate().collect())
            .unwrap();
        let mut done = Vec::new();
        while done.len() < 32 {
            done.extend(pool.recv(1, None));
        }
        done.sort_by_key(|c| c.index);
        for c in done {
            let index = c.index;
            let got = UnitStep::from_slot(index, c.step);
            assert_eq!((got.len(), got.index(0)), (1, index));
            let got = unit_view(&got, 0);
            assert_eq!(got, view(&expected, index), "round {round}");
            if poisoned.contains(&(round, index)) {
                assert_poison_error(got.error.as_ref(), round, index);
            }
        }
    }
}

/// A unit's results as `step_streamed` hands them over, read through `UnitStep`.
fn unit_view(part: &UnitStep, k: usize) -> SlotView {
    SlotView {
        observation: part.observation(k).to_owned(),
        info: Value::Object(part.info(k).to_map()),
        reward: format!("{:?}", part.reward(k)),
        terminated: part.terminated(k),
        truncated: part.truncated(k),
        final_observation: part.final_observation(k).map(str::to_owned),
        final_info: part.final_info(k).map(|i| Value::Object(i.to_map())),
        error: part.error(k).map(ToString::to_string),
    }
}

#[test]
fn streamed_steps_hand_over_what_whole_steps_return() {
    let (batches, poisoned) = script(32, 200, 5);
    let make = || {
        registry()
            .make_vec(&spec(32, 8, AutoresetMode::SameStep, tight_limits()))
            .unwrap()
    };
    let (mut whole, mut streamed) = (make(), make());
    assert_eq!(whole.reset(None).unwrap(), streamed.reset(None).unwrap());
    for (round, batch) in batches.iter().enumerate() {
        let texts: Vec<&str> = batch.iter().map(String::as_str).collect();
        // Every fourth round is a partial step: a third of the slots, in reverse order.
        let named: Vec<(usize, &str)> = (0..32)
            .rev()
            .filter(|slot| (slot * 7 + round) % 3 == 0)
            .map(|slot| (slot, texts[slot]))
            .collect();
        let actions = match round % 4 {
            3 => Actions::Some(&named),
            _ => Actions::All(&texts),
        };
        let step = whole.step(actions.clone()).unwrap();
        let mut expected: Vec<Option<SlotView>> = (0..32).map(|_| None).collect();
        for k in 0..step.len() {
            expected[step.indices[k]] = Some(view(&step, k));
        }
        let got: std::sync::Mutex<Vec<Option<SlotView>>> = Default::default();
        got.lock().unwrap().resize_with(32, || None);
        streamed
            .step_streamed(actions, &|part| {
                let mut got = got.lock().unwrap();
                for k in 0..part.len() {
                    assert!(got[part.index(k)].is_none(), "one result per slot");
                    got[part.index(k)] = Some(unit_view(&part, k));
                }
                assert_eq!(
                    part.errors().count(),
                    (0..part.len()).filter(|&k| part.error(k).is_some()).count()
                );
            })
            .unwrap();
        for (slot, view) in got.into_inner().unwrap().into_iter().enumerate() {
            assert_eq!(view, expected[slot], "round {round}, slot {slot}");
            let stepped = view.is_some();
            assert_eq!(stepped, round % 4 != 3 || (slot * 7 + round) % 3 == 0);
            if stepped && poisoned.contains(&(round, slot)) {
                assert_poison_error(view.and_then(|v| v.error).as_ref(), round, slot);
            }
        }
    }
}

/// Budgets for heavy but legitimate steps: 40 M fuel per call, 16 MiB of memory per member.
fn heavy_limits() -> Limits {
    Limits {
        fuel_per_call: Some(40_000_000),
        ..tight_limits()
    }
}

/// The lone and the grouped (one unit of `n`) vector env, both reset.
fn lone_and_grouped(n: usize, limits: Limits) -> (VectorEnv, VectorEnv) {
    let mut lone = registry()
        .make_vec(&spec(n, 1, AutoresetMode::SameStep, limits.clone()))
        .unwrap();
    let mut grouped = registry()
        .make_vec(&spec(n, n, AutoresetMode::SameStep, limits))
        .unwrap();
    lone.reset(None).unwrap();
    grouped.reset(None).unwrap();
    (lone, grouped)
}

#[test]
fn a_busy_loop_without_fuel_limit_costs_its_unit_one_deadline() {
    let deadline = Duration::from_millis(300);
    let limits = Limits {
        fuel_per_call: None,
        deadline_per_call: Some(deadline),
        ..Limits::default()
    };
    let (mut lone, mut grouped) = lone_and_grouped(16, limits);
    let mut batch: Vec<String> = (0..16).map(|i| format!("\\boxed{{{}}}", i + 1)).collect();
    batch[5] = "poison:loop".into();
    let started = Instant::now();
    let b = views(&grouped.step(Actions::All(&batch)).unwrap());
    let elapsed = started.elapsed();
    let a = views(&lone.step(Actions::All(&batch)).unwrap());
    assert_eq!(a, b);
    assert_only_failure(&b, 5, "exceeded its deadline");
    assert!(
        elapsed < deadline * 2,
        "the unit waited {elapsed:?} for one deadline of {deadline:?}"
    );
}

#[test]
fn steps_heavier_than_a_shared_call_allows_give_lone_results() {
    // Each step uses about a quarter of a member's fuel, or holds 6 of its 16 MiB: every member
    // passes alone, while eight in one call need more than the call's shared budget (an eighth
    // of one member's fuel, one member's memory growth). Several rounds: the unit then steps
    // its members one by one for a while, and comes back.
    let (mut lone, mut grouped) = lone_and_grouped(8, heavy_limits());
    let rounds = [
        "work:2000000",
        "hold:6",
        "\\boxed{3}",
        "work:2000000",
        "\\boxed{4}",
    ];
    for (round, action) in rounds.iter().enumerate() {
        let batch = vec![action.to_string(); 8];
        let a = views(&lone.step(Actions::All(&batch)).unwrap());
        let b = views(&grouped.step(Actions::All(&batch)).unwrap());
        assert_eq!(a, b, "round {round}");
        assert!(b.iter().all(|v| v.error.is_none()), "round {round}: {b:?}");
    }
    for _ in 0..20 {
        let batch = vec!["7".to_owned(); 8];
        let a = views(&lone.step(Actions::All(&batch)).unwrap());
        assert_eq!(a, views(&grouped.step(Actions::All(&batch)).unwrap()));
    }
}

#[test]
fn a_member_over_its_own_fuel_fails_in_a_unit_as_it_does_alone() {
    // Member 3 needs about 1.5 times its own fuel: the eight members' budgets together would
    // cover it, one member's does not.
    let (mut lone, mut grouped) = lone_and_grouped(8, heavy_limits());
    let mut batch = vec!["\\boxed{5}".to_owned(); 8];
    batch[3] = "work:12000000".into();
    let a = views(&lone.step(Actions::All(&batch)).unwrap());
    let b = views(&grouped.step(Actions::All(&batch)).unwrap());
    assert_eq!(a, b);
    assert_only_failure(&b, 3, "ran out of fuel");
}

#[test]
fn autoreset_modes_partial_steps_and_state_work_on_shared_units() {
    for mode in [
        AutoresetMode::SameStep,
        AutoresetMode::NextStep,
        AutoresetMode::Disabled,
    ] {
        let mut lone = registry()
            .make_vec(&spec(12, 1, mode, Limits::default()))
            .unwrap();
        let mut grouped = registry()
            .make_vec(&spec(12, 4, mode, Limits::default()))
            .unwrap();
        lone.reset(None).unwrap();
        grouped.reset(None).unwrap();
        let mut dice = Dice(5);
        for round in 0..60 {
            // Every third round steps a few slots only, in a scrambled order.
            let pairs: Vec<(usize, String)> = match round % 3 {
                2 => vec![
                    (7, "3".into()),
                    (2, "poison:panic".into()),
                    (9, "11".into()),
                ],
                _ => (0..12)
                    .map(|i| (i, (1 + dice.below(20)).to_string()))
                    .collect(),
            };
            let a = views(&lone.step(Actions::Some(&pairs)).unwrap());
            let b = views(&grouped.step(Actions::Some(&pairs)).unwrap());
            assert_eq!(a, b, "{mode:?}, round {round}");
            if mode == AutoresetMode::Disabled {
                // Finished slots wait for a reset of their own.
                for (k, (index, _)) in pairs.iter().enumerate() {
                    if a[k].terminated || a[k].truncated {
                        lone.with_slot(*index, |s| s.reset(None)).unwrap();
                        grouped.with_slot(*index, |s| s.reset(None)).unwrap();
                    }
                }
            }
        }
        // A snapshot of a grouped slot restores into a lone env and goes on alike.
        let state = grouped.with_slot(4, |s| s.env_mut().get_state()).unwrap();
        let mut twin = registry().make(POISON, json!({})).unwrap();
        twin.set_state(&state).unwrap();
        let next = grouped.with_slot(4, |s| s.step_direct("7")).unwrap();
        assert_eq!(twin.step("7").unwrap(), next);
    }
}

#[test]
fn members_that_share_state_are_named_non_deterministic() {
    let mut vec: VectorEnv = registry()
        .make_vec(&VecSpec {
            configs: vec![json!({"leak": true}); 8],
            group_size: 8,
            ..VecSpec::uniform(POISON, 8, 0)
        })
        .unwrap();
    vec.reset(None).unwrap();
    for _ in 0..3 {
        vec.step(Actions::All(&vec!["5".to_owned(); 8])).unwrap();
    }
    let mut batch = vec!["5".to_owned(); 8];
    batch[0] = "poison:panic".into();
    let first = vec.step(Actions::All(&batch)).unwrap();
    // Finding the culprit replays every episode, the panicking one's too, and the shared state
    // makes replays come out differently: the panicking slot reports its panic, or the
    // plugin's non-determinism when its own replay diverged first.
    assert!(
        matches!(
            first.error(0),
            Some(Error::GuestTrap { .. } | Error::NonDeterministic { .. })
        ),
        "{:?}",
        first.error(0)
    );
    // Replaying the others' episodes gave other observations: they cannot be recovered.
    let lost: Vec<&Error> = (1..first.len()).filter_map(|k| first.error(k)).collect();
    assert!(!lost.is_empty(), "a leaking plugin is caught on replay");
    assert!(
        lost.iter()
            .all(|e| matches!(e, Error::NonDeterministic { .. })
                && e.to_string().contains("not deterministic")),
        "{lost:?}"
    );
    // Every slot steps on afterwards.
    let after = vec.step(Actions::All(&vec!["5".to_owned(); 8])).unwrap();
    assert_eq!(after.errors().len(), 0);
}

#[test]
fn default_vectors_share_units_and_scale_past_the_instance_pool() {
    let vec = registry()
        .make_vec(&VecSpec::uniform("game:Mastermind-v0-easy", 4_096, 0))
        .unwrap();
    assert_eq!(vec.num_envs(), 4_096);
    assert!(vec.num_units() <= 1_024, "{} units", vec.num_units());
    let small = registry()
        .make_vec(&VecSpec::uniform("game:Mastermind-v0-easy", 64, 0))
        .unwrap();
    assert!(
        small.num_units() < 64,
        "{} units for 64 envs",
        small.num_units()
    );
    // A few envs step fastest as one unit; a pool keeps a unit per core, so that a slow step
    // holds back fewer episodes.
    let spec = VecSpec::uniform("game:Mastermind-v0-easy", 16, 0);
    assert_eq!(registry().make_vec(&spec).unwrap().num_units(), 1);
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let pool = registry()
        .make_vec(&spec.clone().for_pool())
        .unwrap()
        .into_pool(1);
    assert_eq!(
        pool.num_units(),
        16_usize.div_ceil(16_usize.div_ceil(cores))
    );
}
