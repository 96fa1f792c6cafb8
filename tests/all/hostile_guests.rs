//! Hostile guests: each attack ends in its typed error within a time bound, the attacked env
//! works again after `reset`, and a healthy sibling on the same host is never disturbed.

use geode_runtime::{ComponentEnv, Env, Error, Limits};
use geode_tests::{registry, timed_section};
use serde_json::json;
use std::time::{Duration, Instant};

fn make(id: &str, limits: Limits) -> ComponentEnv {
    ComponentEnv::make(&registry(), id, &json!({}), &limits).expect("make hostile env")
}

/// Runs one step of `id` under `limits`, checks it fails within `bound`, then checks the
/// attacked env and a sibling are both healthy afterwards. Returns the error.
fn attack(id: &str, limits: Limits, bound: Duration) -> Error {
    let _timed = timed_section(); // the attacks burn CPU on purpose
    let mut sibling = make("hostile:healthy", Limits::default());
    sibling.reset(Some(0)).unwrap();
    sibling.step("before").unwrap();

    let mut env = make(id, limits);
    env.reset(Some(0)).unwrap();
    let started = Instant::now();
    let error = env.step("go").expect_err("the attack must fail");
    let elapsed = started.elapsed();
    assert!(
        elapsed <= bound,
        "{id}: took {elapsed:?}, bound {bound:?} ({error})"
    );
    assert!(
        error.is_trap(),
        "{id}: expected a trap-class error, got {error}"
    );

    // The failed instance was discarded: stepping it is refused until a reset rebuilds it.
    assert!(!env.is_live());
    let refused = env.step("again").unwrap_err();
    assert!(matches!(refused, Error::InvalidState { .. }), "{refused}");
    assert!(refused.to_string().contains("call reset"), "{refused}");
    let again = env.reset(Some(1)).unwrap();
    assert!(again.observation.ends_with("ready"));
    assert!(env.is_live());

    // The sibling continues its episode where it was.
    let step = sibling.step("after").unwrap();
    assert_eq!(step.observation, "step 2 got after");
    error
}

#[test]
fn infinite_loop_runs_out_of_fuel() {
    let limits = Limits {
        fuel_per_call: Some(50_000_000),
        deadline_per_call: Some(Duration::from_secs(30)),
        ..Limits::default()
    };
    let error = attack("hostile:spin", limits, Duration::from_secs(10));
    assert!(
        matches!(
            error,
            Error::OutOfFuel {
                budget: 50_000_000,
                ..
            }
        ),
        "{error}"
    );
    assert!(error.to_string().contains("ran out of fuel"), "{error}");
}

#[test]
fn busy_loop_without_fuel_limit_hits_the_deadline_in_time() {
    let deadline = Duration::from_millis(200);
    let limits = Limits {
        fuel_per_call: None,
        deadline_per_call: Some(deadline),
        ..Limits::default()
    };
    let error = attack("hostile:spin", limits, deadline.mul_f64(1.5));
    assert!(
        matches!(error, Error::Deadline { limit, .. } if limit == deadline),
        "{error}"
    );
    assert!(
        error.to_string().contains("exceeded its deadline"),
        "{error}"
    );
}

#[test]
fn memory_bomb_hits_the_memory_limit() {
    let limits = Limits {
        max_memory_bytes: 32 << 20,
        ..Limits::default()
    };
    let error = attack("hostile:memory-bomb", limits, Duration::from_secs(10));
    assert!(
        matches!(error, Error::MemoryLimit { limit_bytes, .. } if limit_bytes == 32 << 20),
        "{error}"
    );
}

#[test]
fn unbounded_recursion_overflows_the_stack() {
    let error = attack(
        "hostile:stack-overflow",
        Limits::default(),
        Duration::from_secs(10),
    );
    assert!(matches!(error, Error::StackOverflow { .. }), "{error}");
}

#[test]
fn panic_message_reaches_the_error() {
    let error = attack("hostile:panic", Limits::default(), Duration::from_secs(10));
    let text = error.to_string();
    assert!(matches!(error, Error::GuestTrap { .. }), "{text}");
    assert!(
        text.contains("hostile plugin panicked on purpose at step 1"),
        "{text}"
    );
}

#[test]
fn huge_observation_is_a_contract_violation() {
    let limits = Limits {
        max_memory_bytes: 512 << 20,
        fuel_per_call: Some(5_000_000_000),
        ..Limits::default()
    };
    let error = attack("hostile:huge-observation", limits, Duration::from_secs(20));
    assert!(matches!(error, Error::Contract { .. }), "{error}");
    assert!(
        error.to_string().contains("observation is 104857600 bytes"),
        "{error}"
    );
}

#[test]
fn info_that_is_not_json_is_a_contract_violation() {
    let error = attack(
        "hostile:bad-info",
        Limits::default(),
        Duration::from_secs(10),
    );
    assert!(matches!(error, Error::Contract { .. }), "{error}");
    assert!(
        error.to_string().contains("info must be a JSON object"),
        "{error}"
    );
    let error = attack(
        "hostile:array-info",
        Limits::default(),
        Duration::from_secs(10),
    );
    assert!(
        error
            .to_string()
            .contains("info must be a JSON object, got `[1, 2]`"),
        "{error}"
    );
}

#[test]
fn nan_reward_is_a_contract_violation() {
    let error = attack(
        "hostile:nan-reward",
        Limits::default(),
        Duration::from_secs(10),
    );
    assert!(
        error.to_string().contains("reward must be a finite number"),
        "{error}"
    );
}

#[test]
fn file_env_and_network_access_are_denied() {
    let mut env = make("hostile:escape", Limits::default());
    env.reset(None).unwrap();
    for attempt in ["read-file", "write-file", "list-dir", "env-vars", "socket"] {
        let started = Instant::now();
        let step = env.step(attempt).unwrap();
        assert!(
            step.observation.starts_with("denied: "),
            "{attempt}: {}",
            step.observation
        );
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{attempt} took {:?}",
            started.elapsed()
        );
    }
    assert!(!std::path::Path::new("/tmp/geode-escape").exists());
}

#[test]
fn guest_clock_is_virtual() {
    let mut env = make("hostile:escape", Limits::default());
    env.reset(Some(0)).unwrap();
    let step = env.step("clock").unwrap();
    // 2025-01-01T00:00:00Z: the guest never sees the host's time.
    assert_eq!(step.observation, "clock 1735689600");
}

#[test]
fn trapping_reset_is_typed_and_retried_fresh() {
    let _timed = timed_section(); // the attacks burn CPU on purpose
    let limits = Limits {
        fuel_per_call: Some(10_000_000),
        ..Limits::default()
    };
    let mut env =
        ComponentEnv::make(&registry(), "hostile:slow-reset", &json!({}), &limits).unwrap();
    for _ in 0..2 {
        let error = env.reset(None).unwrap_err();
        assert!(
            matches!(error, Error::OutOfFuel { call: "reset", .. }),
            "{error}"
        );
        assert!(!env.is_live());
    }
}

#[test]
fn many_failures_do_not_leak_instances() {
    let _timed = timed_section(); // the attacks burn CPU on purpose
    // More trapping instances than the pooling allocator would hold if slots leaked.
    let limits = Limits {
        fuel_per_call: Some(200_000),
        ..Limits::default()
    };
    let mut env = make("hostile:spin", limits);
    for _ in 0..3_000 {
        env.reset(None).unwrap();
        assert!(matches!(
            env.step("go").unwrap_err(),
            Error::OutOfFuel { .. }
        ));
    }
}

#[test]
fn sleeping_costs_no_wall_clock_time() {
    let limits = Limits {
        deadline_per_call: Some(Duration::from_secs(1)),
        ..Limits::default()
    };
    let mut env = make("hostile:sleep", limits);
    env.reset(Some(0)).unwrap();
    let started = Instant::now();
    let step = env.step("nap").unwrap();
    assert!(
        started.elapsed() < Duration::from_millis(500),
        "a guest sleep blocked the host for {:?}",
        started.elapsed()
    );
    // An hour passed in guest time only: the clock started at 2025-01-01T00:00:00Z.
    assert_eq!(step.observation, "clock 1735693200");
}
