//! The synchronous vector env: autoreset modes, partial steps, seeding, failing slots.

use geode_runtime::{Actions, AutoresetMode, Env, Error, VecSpec, VectorEnv};
use geode_tests::registry;
use serde_json::json;

fn healthy_vec(n: usize, mode: AutoresetMode) -> VectorEnv {
    let spec = VecSpec {
        autoreset: mode,
        ..VecSpec::uniform("hostile:healthy", n, 0)
    };
    registry().make_vec(&spec).unwrap()
}

fn actions(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// (observation, reward, terminated, truncated) of slot 0 for each action, one env.
fn trace(
    mode: AutoresetMode,
    acts: &[&str],
) -> Vec<(String, f64, bool, bool, Option<String>, bool)> {
    let mut vec = healthy_vec(1, mode);
    let (obs, _) = vec.reset(None).unwrap();
    assert_eq!(obs, vec!["hostile:healthy ready"]);
    acts.iter()
        .map(|a| {
            let s = vec.step(Actions::All(&actions(&[a]))).unwrap();
            let error = s.error(0).is_some();
            (
                s.observation(0).to_owned(),
                s.rewards[0],
                s.terminated[0],
                s.truncated[0],
                s.final_observation(0).map(str::to_owned),
                error,
            )
        })
        .collect()
}

fn row(
    obs: &str,
    reward: f64,
    term: bool,
    fin: Option<&str>,
) -> (String, f64, bool, bool, Option<String>, bool) {
    (
        obs.to_owned(),
        reward,
        term,
        false,
        fin.map(str::to_owned),
        false,
    )
}

#[test]
fn same_step_resets_in_the_ending_step() {
    let got = trace(AutoresetMode::SameStep, &["a", "b", "c", "d"]);
    let want = vec![
        row("step 1 got a", 1.0, false, None),
        row("step 2 got b", 1.0, false, None),
        row("hostile:healthy ready", 1.0, true, Some("step 3 got c")),
        row("step 1 got d", 1.0, false, None),
    ];
    assert_eq!(got, want);
}

#[test]
fn next_step_resets_on_the_following_step() {
    let got = trace(AutoresetMode::NextStep, &["a", "b", "c", "ignored", "e"]);
    let want = vec![
        row("step 1 got a", 1.0, false, None),
        row("step 2 got b", 1.0, false, None),
        row("step 3 got c", 1.0, true, None),
        row("hostile:healthy ready", 0.0, false, None),
        row("step 1 got e", 1.0, false, None),
    ];
    assert_eq!(got, want);
}

#[test]
fn disabled_autoreset_refuses_finished_slots_until_reset() {
    let got = trace(AutoresetMode::Disabled, &["a", "b", "c", "d"]);
    assert_eq!(got[2], row("step 3 got c", 1.0, true, None));
    assert!(got[3].5, "stepping a finished slot must report an error");
    let mut vec = healthy_vec(2, AutoresetMode::Disabled);
    vec.reset(None).unwrap();
    for a in ["a", "b", "c"] {
        vec.step(Actions::All(&actions(&[a, a]))).unwrap();
    }
    let s = vec.step(Actions::Some(&[(1, "x")])).unwrap();
    let error = s.error(0).unwrap();
    assert!(
        error.to_string().contains("autoreset is disabled"),
        "{error}"
    );
    vec.reset_some(&[1], &[None]).unwrap();
    let s = vec.step(Actions::Some(&[(1, "x")])).unwrap();
    assert_eq!(s.observations().collect::<Vec<_>>(), vec!["step 1 got x"]);
}

#[test]
fn partial_steps_touch_only_the_named_slots() {
    let mut vec = healthy_vec(4, AutoresetMode::SameStep);
    vec.reset(None).unwrap();
    let s = vec.step(Actions::Some(&[(3, "y"), (1, "x")])).unwrap();
    assert_eq!(s.indices, vec![3, 1]);
    assert_eq!(
        s.observations().collect::<Vec<_>>(),
        vec!["step 1 got y", "step 1 got x"]
    );
    let s = vec
        .step(Actions::All(&actions(&["p", "q", "r", "s"])))
        .unwrap();
    assert_eq!(
        s.observations().collect::<Vec<_>>(),
        vec![
            "step 1 got p",
            "step 2 got q",
            "step 1 got r",
            "step 2 got s"
        ]
    );
    let err = vec.step(Actions::Some(&[(1, "a"), (1, "b")])).unwrap_err();
    assert!(
        err.to_string().contains("env index 1 is given twice"),
        "{err}"
    );
    let err = vec.step(Actions::Some(&[(4, "a")])).unwrap_err();
    assert!(
        err.to_string()
            .contains("env index 4 is out of range (num_envs = 4)"),
        "{err}"
    );
    let err = vec.step(Actions::All(&actions(&["a"]))).unwrap_err();
    assert!(err.to_string().contains("1 actions for 4 envs"), "{err}");
}

#[test]
fn env_i_is_seeded_with_seed_plus_i() {
    let spec = VecSpec::uniform("game:GuessTheNumber-v0-hard", 6, 100);
    let mut vec = registry().make_vec(&spec).unwrap();
    let (observations, _) = vec.reset(None).unwrap();
    for (i, obs) in observations.iter().enumerate() {
        let mut single = registry()
            .make("game:GuessTheNumber-v0-hard", json!({}))
            .unwrap();
        assert_eq!(
            obs,
            &single.reset(Some(100 + i as u64)).unwrap().observation,
            "slot {i}"
        );
    }
    // A later unseeded reset continues each slot's randomness instead of replaying.
    let (again, _) = vec.reset(None).unwrap();
    assert_ne!(again, observations);
    // An explicit seed applies seed + i again.
    let (explicit, _) = vec.reset(Some(100)).unwrap();
    assert_eq!(explicit, observations);
}

#[test]
fn each_slot_takes_its_own_seed_on_its_first_reset_however_it_is_reset() {
    let id = "game:GuessTheNumber-v0-hard";
    let lone = |seed| {
        let mut env = registry().make(id, json!({})).unwrap();
        env.reset(Some(seed)).unwrap().observation
    };
    // Slot seeds given one by one (GEM's vec_kwargs seeds) replace seed + i; a slot without
    // one starts unseeded.
    let spec = VecSpec {
        seeds: vec![Some(5), None, Some(5), Some(9)],
        ..VecSpec::uniform(id, 4, 100)
    };
    let mut vec = registry().make_vec(&spec).unwrap();
    // A partial reset takes the first seeds of the slots it resets, and only theirs.
    let (first, _) = vec.reset_some(&[2, 3], &[None, None]).unwrap();
    assert_eq!(first, [lone(5), lone(9)]);
    let (all, _) = vec.reset(None).unwrap();
    assert_eq!(all[0], lone(5), "slot 0 takes its first seed now");
    assert_ne!(
        all[2], first[0],
        "slot 2 used its first seed already and goes on"
    );
    // The same seeds through a pool's queued resets.
    let pool = registry()
        .make_vec(&spec.clone().for_pool())
        .unwrap()
        .into_pool(1);
    pool.send_reset(vec![(0, None), (3, Some(5))]).unwrap();
    let mut done = pool.recv(2, Some(std::time::Duration::from_secs(10)));
    done.sort_by_key(|d| d.index);
    assert_eq!(done[0].step.observation, lone(5));
    assert_eq!(
        done[1].step.observation,
        lone(5),
        "a named seed wins over the first seed"
    );
    // A count of seeds that does not match the ids is named.
    let wrong = VecSpec {
        seeds: vec![Some(1)],
        ..VecSpec::uniform(id, 2, 0)
    };
    let error = registry().make_vec(&wrong).err().expect("refused");
    assert!(error.to_string().contains("1 seeds for 2 envs"), "{error}");
}

#[test]
fn parallel_steps_match_sequential_ones() {
    let spec = VecSpec::uniform("game:GuessTheNumber-v0-hard", 64, 7);
    let mut vec = registry().make_vec(&spec).unwrap();
    let mut singles: Vec<_> = (0..64)
        .map(|_| {
            registry()
                .make("game:GuessTheNumber-v0-hard", json!({}))
                .unwrap()
        })
        .collect();
    vec.reset(None).unwrap();
    for (i, env) in singles.iter_mut().enumerate() {
        env.reset(Some(7 + i as u64)).unwrap();
    }
    for round in 0..30 {
        let acts: Vec<String> = (0..64)
            .map(|i| format!("\\boxed{{{}}}", 1 + (i * 7 + round * 13) % 50))
            .collect();
        let s = vec.step(Actions::All(&acts)).unwrap();
        for (i, env) in singles.iter_mut().enumerate() {
            let one = env.step(&acts[i]).unwrap();
            assert_eq!(
                (s.rewards[i], s.terminated[i], s.truncated[i]),
                (one.reward, one.terminated, one.truncated)
            );
            if one.done() {
                let reset = env.reset(None).unwrap();
                assert_eq!(s.final_observation(i), Some(one.observation.as_str()));
                assert_eq!(s.observation(i), reset.observation);
            } else {
                assert_eq!(s.observation(i), one.observation);
            }
        }
    }
}

#[test]
fn a_trapping_slot_fails_alone_and_is_rebuilt() {
    let spec = VecSpec {
        ids: vec![
            "hostile:healthy".into(),
            "hostile:panic".into(),
            "hostile:healthy".into(),
        ],
        ..VecSpec::uniform("hostile:healthy", 3, 0)
    };
    let mut vec = registry().make_vec(&spec).unwrap();
    vec.reset(None).unwrap();
    for round in 1..=2 {
        let s = vec.step(Actions::All(&actions(&["a", "b", "c"]))).unwrap();
        assert_eq!(s.observation(0), format!("step {round} got a"));
        assert_eq!(s.observation(2), format!("step {round} got c"));
        assert!(s.error(0).is_none() && s.error(2).is_none());
        let error = s.error(1).expect("slot 1 fails");
        assert!(matches!(error, Error::GuestTrap { .. }), "{error}");
        // The slot was rebuilt: a fresh episode, reported as truncated.
        assert_eq!(s.observation(1), "hostile:panic ready");
        assert!(s.truncated[1] && s.rewards[1] == 0.0);
    }
}

#[test]
fn spawn_copies_state_when_asked() {
    let mut vec = healthy_vec(1, AutoresetMode::SameStep);
    vec.reset(None).unwrap();
    vec.step(Actions::All(&actions(&["a"]))).unwrap();
    let mut twin = vec.with_slot(0, |slot| slot.env_mut().spawn(true)).unwrap();
    assert_eq!(twin.step("b").unwrap().observation, "step 2 got b");
}

#[test]
fn the_autoreset_mode_changes_without_rebuilding_the_envs() {
    let mut vec = healthy_vec(1, AutoresetMode::SameStep);
    vec.reset(None).unwrap();
    vec.step(Actions::All(&actions(&["a"]))).unwrap();
    vec.set_autoreset_mode(AutoresetMode::NextStep);
    assert_eq!(vec.autoreset_mode(), AutoresetMode::NextStep);
    // The episode goes on where it was: this is its second step, not a fresh one.
    let s = vec.step(Actions::All(&actions(&["b"]))).unwrap();
    assert_eq!(s.observations().collect::<Vec<_>>(), vec!["step 2 got b"]);
    let s = vec.step(Actions::All(&actions(&["c"]))).unwrap();
    assert_eq!((s.observation(0), s.terminated[0]), ("step 3 got c", true));
    let s = vec.step(Actions::All(&actions(&["ignored"]))).unwrap();
    assert_eq!(
        s.observations().collect::<Vec<_>>(),
        vec!["hostile:healthy ready"]
    );
}

#[test]
fn a_slot_can_be_driven_directly_like_gems_envs_list() {
    let mut vec = healthy_vec(2, AutoresetMode::NextStep);
    vec.with_slot(1, |slot| slot.reset(Some(5))).unwrap();
    for action in ["a", "b"] {
        vec.with_slot(1, |slot| slot.step_direct(action)).unwrap();
    }
    let last = vec.with_slot(1, |slot| slot.step_direct("c")).unwrap();
    assert!(last.terminated, "the healthy env ends after three steps");
    assert!(
        vec.with_slot(1, |slot| slot.env_mut().sample_random_action())
            .is_ok()
    );
    // The vector knows the directly-stepped episode ended: NextStep resets it.
    let s = vec.step(Actions::Some(&[(1, "x")])).unwrap();
    assert_eq!(
        s.observations().collect::<Vec<_>>(),
        vec!["hostile:healthy ready"]
    );
    let error = vec.with_slot(9, |slot| slot.reset(None)).unwrap_err();
    assert!(error.to_string().contains("out of range"), "{error}");
}
