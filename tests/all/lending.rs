//! Lent envs (what `geode serve` gives its sessions): envs of one id sharing component
//! instances must each play exactly as a lone env would, a fault must reach only the env that
//! caused it, and an env given back must be new to its next holder (no episode, nothing of the
//! last holder's state readable).

use geode_runtime::{EnvLender, Error, Limits, MakeOptions, WrapperSpec};
use geode_tests::registry;
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;

const POISON: &str = "poison:Counter-v0";

fn limits() -> Limits {
    Limits {
        fuel_per_call: Some(200_000_000),
        deadline_per_call: Some(Duration::from_secs(5)),
        max_memory_bytes: 16 << 20,
        ..Limits::default()
    }
}

fn lender(id: &str, per_instance: usize, spread: usize) -> EnvLender {
    let options = MakeOptions::default().with_limits(limits());
    EnvLender::new(Arc::new(registry()), id, options, per_instance, spread).expect("a lender")
}

/// What one step gave, comparable between a lent env and a lone one.
fn outcome(env: &mut dyn geode_runtime::Env, action: &str) -> String {
    match env.step(action) {
        Ok(out) => format!(
            "{}|{}|{}|{}|{}",
            out.observation,
            out.info.as_json(),
            out.reward,
            out.terminated,
            out.truncated
        ),
        Err(error) => format!("error: {error}"),
    }
}

#[test]
fn lent_envs_share_instances_and_each_plays_as_a_lone_env_would() {
    let lender = lender(POISON, 8, 1);
    assert!(lender.shares_instances());
    let mut lent: Vec<_> = (0..20).map(|_| lender.lend().unwrap()).collect();
    assert_eq!(lender.instances(), 3, "20 envs, 8 to an instance");
    let mut lone: Vec<_> = (0..20)
        .map(|_| {
            registry()
                .make(POISON, MakeOptions::default().with_limits(limits()))
                .unwrap()
        })
        .collect();
    for (i, (a, b)) in lent.iter_mut().zip(&mut lone).enumerate() {
        let seed = Some(100 + i as u64);
        assert_eq!(
            a.reset(seed).unwrap().observation,
            b.reset(seed).unwrap().observation
        );
    }
    // Steps interleaved across envs, one env poisoned now and then: only it fails, and every
    // other result is the lone env's.
    let mut poisoned = 0;
    for round in 0..60 {
        for (i, (a, b)) in lent.iter_mut().zip(&mut lone).enumerate() {
            let action = match (round * 7 + i * 3) % 41 {
                0 => "poison:panic".to_owned(),
                1 => "poison:bad-info".to_owned(),
                n => format!("\\boxed{{{}}}", 1 + n % 20),
            };
            let (got, want) = (outcome(&mut **a, &action), outcome(&mut **b, &action));
            if action.starts_with("poison:") {
                poisoned += 1;
                assert!(got.starts_with("error: "), "{got}");
                a.reset(Some(7)).unwrap();
                b.reset(Some(7)).unwrap();
            } else {
                assert_eq!(got, want, "round {round}, env {i}, {action}");
            }
            if got.contains("|true|") {
                a.reset(Some(round as u64)).unwrap();
                b.reset(Some(round as u64)).unwrap();
            }
        }
    }
    assert!(poisoned > 20, "{poisoned} poisoned steps");
}

#[test]
fn an_env_given_back_is_new_to_its_next_holder() {
    let lender = lender(POISON, 4, 1);
    let mut first = lender.lend().unwrap();
    first.reset(Some(3)).unwrap();
    first.step("\\boxed{5}").unwrap();
    drop(first);
    // One instance, one env lent at a time: the next holder gets the same member back.
    let mut next = lender.lend().unwrap();
    assert_eq!(lender.instances(), 1);
    for (call, error) in [
        ("step", next.step("\\boxed{5}").map(|_| ())),
        ("get_state", next.get_state().map(|_| ())),
        (
            "sample_random_action",
            next.sample_random_action().map(|_| ()),
        ),
    ] {
        match error {
            Err(Error::InvalidState { message, .. }) => {
                assert!(message.contains("reset"), "{call}: {message}")
            }
            other => panic!("{call} before reset: {other:?}"),
        }
    }
    next.reset(Some(3)).unwrap();
    next.step("\\boxed{5}").unwrap();
    assert!(!next.get_state().unwrap().is_empty());
}

#[test]
fn instances_go_when_their_envs_are_given_back() {
    let lender = lender(POISON, 8, 2);
    let lent: Vec<_> = (0..40).map(|_| lender.lend().unwrap()).collect();
    assert_eq!(lender.instances(), 5);
    drop(lent);
    assert_eq!(
        lender.instances(),
        1,
        "one instance stays for the next holder"
    );
    // Until `spread` instances are open, a new holder gets an instance of its own.
    let a = lender.lend().unwrap();
    let b = lender.lend().unwrap();
    assert_eq!(lender.instances(), 2);
    let c = lender.lend().unwrap();
    assert_eq!(lender.instances(), 2, "the third joins one");
    drop((a, b, c));
}

#[test]
fn envs_that_cannot_share_get_an_instance_each_and_wrappers_apply() {
    // One to an instance: plain lone envs.
    let single = lender(POISON, 1, 1);
    assert!(!single.shares_instances());
    let mut env = single.lend().unwrap();
    env.reset(Some(1)).unwrap();
    assert_eq!(single.instances(), 0);
    // Wrappers wrap each lent env.
    let options = MakeOptions::default()
        .with_limits(limits())
        .with_wrappers(vec![
            WrapperSpec::from_name("episode_tracking", Value::Null).unwrap(),
        ]);
    let wrapped = EnvLender::new(Arc::new(registry()), POISON, options.clone(), 8, 1).unwrap();
    let mut lent = wrapped.lend().unwrap();
    let mut lone = registry().make(POISON, options).unwrap();
    lent.reset(Some(1)).unwrap();
    lone.reset(Some(1)).unwrap();
    for action in ["\\boxed{3}", "\\boxed{9}"] {
        assert_eq!(outcome(&mut *lent, action), outcome(&mut *lone, action));
    }
    // An unknown id fails when the lender is made, not at its first holder.
    let unknown = EnvLender::new(
        Arc::new(registry()),
        "poison:Nope-v0",
        MakeOptions::default(),
        8,
        1,
    );
    assert!(unknown.is_err());
}
