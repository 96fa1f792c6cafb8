//! Env groups: several envs sharing one component instance, stepped with one call per group.
//! A grouped vector env must behave exactly like an ungrouped one, except that a failure ends
//! the episodes of the whole group.

use geode_runtime::{Actions, AutoresetMode, Error, VecSpec, VectorEnv, VectorStep, WrapperSpec};
use geode_tests::registry;
use std::time::Duration;

const GUESS: &str = "game:GuessTheNumber-v0-hard";

fn guess_vec(n: usize, group_size: usize, mode: AutoresetMode) -> VectorEnv {
    let spec = VecSpec {
        autoreset: mode,
        group_size,
        ..VecSpec::uniform(GUESS, n, 7)
    };
    registry().make_vec(&spec).unwrap()
}

/// Guesses drawn from a fixed LCG, some of them malformed.
fn guesses(n: usize, round: u64) -> Vec<String> {
    (0..n as u64)
        .map(|i| {
            let x = (round * 131 + i * 17).wrapping_mul(2_654_435_761) >> 7;
            match x % 23 {
                0 => "no guess".to_owned(),
                k => format!("\\boxed{{{}}}", 1 + (x + k) % 50),
            }
        })
        .collect()
}

/// Everything a step returns that users can see, per slot.
fn visible(s: &VectorStep) -> Vec<String> {
    (0..s.indices.len())
        .map(|i| {
            format!(
                "{}|{}|{}|{}|{}|{:?}|{:?}|{}",
                s.observation(i),
                s.rewards[i],
                s.terminated[i],
                s.truncated[i],
                s.info(i).as_json(),
                s.final_observation(i),
                s.final_info(i).map(|i| i.as_json()),
                s.errors[i].is_some()
            )
        })
        .collect()
}

#[test]
fn grouped_vectors_step_exactly_like_ungrouped_ones() {
    for mode in [AutoresetMode::SameStep, AutoresetMode::NextStep] {
        // 10 envs in groups of 4: two full groups and one of 2.
        let mut plain = guess_vec(10, 1, mode);
        let mut grouped = guess_vec(10, 4, mode);
        assert_eq!(plain.reset(None).unwrap(), grouped.reset(None).unwrap());
        let mut episodes_ended = 0;
        for round in 0..200 {
            let actions = guesses(10, round);
            let a = plain.step(Actions::All(&actions)).unwrap();
            let b = grouped.step(Actions::All(&actions)).unwrap();
            assert_eq!(visible(&a), visible(&b), "{mode:?}, round {round}");
            episodes_ended += a.terminated.iter().filter(|t| **t).count();
        }
        assert!(episodes_ended > 50, "the trace covers many autoresets");
    }
}

/// A streamed step's results, put back in slot order as one [`VectorStep`].
fn streamed(vec: &mut VectorEnv, actions: &[impl AsRef<str> + Sync]) -> VectorStep {
    let mut all = VectorStep::default();
    vec.step_streamed(actions, &mut |ready| all.append(ready))
        .unwrap();
    all.sort_by_index();
    assert_eq!(
        all.indices,
        (0..actions.len()).collect::<Vec<_>>(),
        "each slot once"
    );
    all
}

#[test]
fn whole_batch_pool_steps_return_what_vector_steps_return() {
    for group_size in [1, 4] {
        let spec = VecSpec {
            group_size,
            ..VecSpec::uniform(GUESS, 10, 7)
        };
        let mut vec = registry().make_vec(&spec).unwrap();
        let pool = registry().make_pool(&spec, 2).unwrap();
        vec.reset(None).unwrap();
        pool.send_reset((0..10).map(|i| (i, Some(7 + i as u64))).collect())
            .unwrap();
        assert_eq!(pool.recv(10, Some(Duration::from_secs(30))).len(), 10);
        for round in 0..100 {
            let actions = guesses(10, round);
            let a = vec.step(Actions::All(&actions)).unwrap();
            let mut b = VectorStep::default();
            pool.step_all_now(&actions, &mut |ready| b.append(ready))
                .unwrap();
            b.sort_by_index();
            assert_eq!(
                visible(&a),
                visible(&b),
                "group {group_size}, round {round}"
            );
        }
    }
}

#[test]
fn streamed_steps_return_what_plain_steps_return() {
    // Groups of 1 and 4, and a vector too small to share out among threads.
    for (n, group_size) in [(10, 1), (10, 4), (3, 1)] {
        let mut plain = guess_vec(n, group_size, AutoresetMode::SameStep);
        let mut streaming = guess_vec(n, group_size, AutoresetMode::SameStep);
        plain.reset(None).unwrap();
        streaming.reset(None).unwrap();
        for round in 0..100 {
            let actions = guesses(n, round);
            let a = plain.step(Actions::All(&actions)).unwrap();
            let b = streamed(&mut streaming, &actions);
            assert_eq!(
                visible(&a),
                visible(&b),
                "group {group_size}, round {round}"
            );
        }
    }
    let mut vec = guess_vec(3, 1, AutoresetMode::SameStep);
    let error = vec.step_streamed(&["x"], &mut |_| {}).unwrap_err();
    assert!(
        error.to_string().contains("1 actions for 3 envs"),
        "{error}"
    );
}

#[test]
fn a_trap_in_a_streamed_step_ends_its_group_only() {
    let spec = VecSpec {
        group_size: 3,
        ..VecSpec::uniform("hostile:healthy", 6, 0)
    };
    let mut vec = registry().make_vec(&spec).unwrap();
    vec.reset(None).unwrap();
    let s = streamed(&mut vec, &["a", "b", "c", "d", "trap", "f"]);
    assert!(s.errors[..3].iter().all(Option::is_none));
    assert_eq!(
        s.observations().collect::<Vec<_>>()[..3],
        ["step 1 got a", "step 1 got b", "step 1 got c"]
    );
    for i in 3..6 {
        let error = s.errors[i].as_ref().expect("the whole group fails");
        assert!(matches!(error, Error::GuestTrap { .. }), "{error}");
        assert_eq!(s.observation(i), "hostile:healthy ready");
    }
    let s = streamed(&mut vec, &["a", "b", "c", "d", "e", "f"]);
    assert!(s.errors.iter().all(Option::is_none));
    assert_eq!(
        s.observations().collect::<Vec<_>>()[3..],
        ["step 1 got d", "step 1 got e", "step 1 got f"]
    );
}

#[test]
fn partial_steps_and_single_slot_calls_reach_group_members() {
    let mut plain = guess_vec(6, 1, AutoresetMode::SameStep);
    let mut grouped = guess_vec(6, 3, AutoresetMode::SameStep);
    plain.reset(None).unwrap();
    grouped.reset(None).unwrap();
    for round in 0..30 {
        let pairs: Vec<(usize, String)> = [4, 1].into_iter().zip(guesses(2, round)).collect();
        let a = plain.step(Actions::Some(&pairs)).unwrap();
        let b = grouped.step(Actions::Some(&pairs)).unwrap();
        assert_eq!(visible(&a), visible(&b), "round {round}");
    }
    let state = grouped.env_mut(4).unwrap().get_state().unwrap();
    let mut twin = grouped.env_mut(4).unwrap().spawn(true).unwrap();
    assert_eq!(twin.get_state().unwrap(), state);
    let sampled = grouped.env_mut(2).unwrap().sample_random_action().unwrap();
    assert!(sampled.starts_with("\\boxed{"), "{sampled}");
}

#[test]
fn a_trap_ends_every_episode_of_its_group_and_no_other() {
    let spec = VecSpec {
        group_size: 3,
        ..VecSpec::uniform("hostile:healthy", 4, 0)
    };
    // Slots 0-2 share an instance; slot 3 is a group of its own.
    let mut vec = registry().make_vec(&spec).unwrap();
    vec.reset(None).unwrap();
    let s = vec
        .step(Actions::All(&["a", "trap", "c", "d"].map(String::from)))
        .unwrap();
    for i in 0..3 {
        let error = s.errors[i].as_ref().expect("the whole group fails");
        assert!(matches!(error, Error::GuestTrap { .. }), "{error}");
        assert!(error.to_string().contains("asked to trap"), "{error}");
        // Rebuilt on a fresh instance: a new episode, reported as truncated.
        assert_eq!(s.observation(i), "hostile:healthy ready");
        assert!(s.truncated[i] && s.rewards[i] == 0.0);
    }
    assert!(s.errors[3].is_none());
    assert_eq!(s.observation(3), "step 1 got d");
    let s = vec
        .step(Actions::All(&["a", "b", "c", "d"].map(String::from)))
        .unwrap();
    assert!(s.errors.iter().all(Option::is_none));
    assert_eq!(
        s.observations().collect::<Vec<_>>()[..3],
        ["step 1 got a", "step 1 got b", "step 1 got c"]
    );
    assert_eq!(s.observation(3), "step 2 got d");
}

#[test]
fn a_member_reset_alone_after_a_failure_leaves_its_siblings_told() {
    let spec = VecSpec {
        group_size: 2,
        ..VecSpec::uniform("hostile:healthy", 2, 0)
    };
    let mut vec = registry().make_vec(&spec).unwrap();
    vec.reset(None).unwrap();
    // A trap through a single-slot call discards the shared instance...
    let error = vec.env_mut(0).unwrap().step("trap").unwrap_err();
    assert!(matches!(error, Error::GuestTrap { .. }), "{error}");
    vec.env_mut(0).unwrap().reset(None).unwrap();
    // ...so the sibling's episode is gone: it reports that, and restarts.
    let s = vec
        .step(Actions::All(&["a", "b"].map(String::from)))
        .unwrap();
    assert_eq!(s.observation(0), "step 1 got a");
    let error = s.errors[1].as_ref().expect("the sibling lost its episode");
    assert!(
        error.to_string().contains("env group was rebuilt"),
        "{error}"
    );
    assert_eq!(s.observation(1), "hostile:healthy ready");
}

#[test]
fn groups_refuse_wrappers_and_budgets_scale_with_the_group() {
    let spec = VecSpec {
        group_size: 4,
        wrappers: vec![WrapperSpec::EpisodeTracking],
        ..VecSpec::uniform(GUESS, 4, 0)
    };
    let error = registry().make_vec(&spec).err().expect("refused");
    assert!(
        matches!(&error, Error::InvalidArgument(m) if m.contains("group_size")),
        "{error}"
    );
    // An endless loop in one member still ends: the group's fuel is the members' budgets summed.
    let spec = VecSpec {
        group_size: 2,
        ids: vec!["hostile:spin".into(), "hostile:spin".into()],
        ..VecSpec::uniform("hostile:spin", 2, 0)
    };
    let mut vec = registry().make_vec(&spec).unwrap();
    vec.reset(None).unwrap();
    let started = std::time::Instant::now();
    let s = vec
        .step(Actions::All(&["a", "b"].map(String::from)))
        .unwrap();
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    for error in &s.errors {
        let error = error.as_ref().expect("out of fuel");
        assert!(
            matches!(error, Error::OutOfFuel { budget, .. } if *budget == 2_000_000_000),
            "{error}"
        );
    }
}

/// Per slot, everything its results showed, in order.
fn pool_trace(group_size: usize, threads: usize) -> Vec<Vec<String>> {
    use std::time::Duration;
    let n = 10;
    let spec = VecSpec {
        group_size,
        ..VecSpec::uniform(GUESS, n, 7)
    };
    let pool = registry().make_pool(&spec, threads).unwrap();
    pool.send_reset((0..n).map(|i| (i, Some(7 + i as u64))).collect())
        .unwrap();
    let mut trace: Vec<Vec<String>> = vec![Vec::new(); n];
    let mut record = |done: Vec<geode_runtime::Completed>| {
        for c in done {
            let s = &c.step;
            trace[c.index].push(format!(
                "{}|{}|{}|{}|{}|{:?}|{}",
                s.observation,
                s.reward,
                s.terminated,
                s.truncated,
                s.info.as_json(),
                s.final_observation,
                s.error.is_some()
            ));
        }
    };
    record(pool.recv(n, Some(Duration::from_secs(30))));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    for round in 0..60 {
        let actions = guesses(n, round);
        // Uneven pieces, so batches cover parts of groups and several groups at once.
        let mut pairs: Vec<(usize, String)> = actions.into_iter().enumerate().collect();
        let last = pairs.pop().unwrap();
        let tail = pairs.split_off(3);
        pool.send(pairs).unwrap();
        pool.send(tail).unwrap();
        // Slot 9 (in a group of 2 when grouped by 4) goes through the per-episode API.
        let single = runtime.block_on(pool.step_one(last.0, last.1)).unwrap();
        record(vec![geode_runtime::Completed {
            index: 9,
            step: single,
        }]);
        record(pool.recv(n - 1, Some(Duration::from_secs(30))));
    }
    trace
}

#[test]
fn grouped_async_pools_give_each_slot_the_results_of_an_ungrouped_one() {
    let plain = pool_trace(1, 2);
    for (group_size, threads) in [(4, 2), (4, 1), (10, 3)] {
        assert_eq!(
            plain,
            pool_trace(group_size, threads),
            "groups of {group_size}"
        );
    }
    assert!(plain.iter().all(|t| t.len() == 61));
}

#[test]
fn a_trap_in_an_async_group_ends_that_group_only() {
    use std::time::Duration;
    let spec = VecSpec {
        group_size: 3,
        ..VecSpec::uniform("hostile:healthy", 6, 0)
    };
    let pool = registry().make_pool(&spec, 2).unwrap();
    pool.send_reset((0..6).map(|i| (i, None)).collect())
        .unwrap();
    assert_eq!(pool.recv(6, Some(Duration::from_secs(30))).len(), 6);
    let actions = |trap_at: Option<usize>| -> Vec<(usize, String)> {
        (0..6)
            .map(|i| (i, if Some(i) == trap_at { "trap" } else { "go" }.to_owned()))
            .collect()
    };
    pool.send(actions(Some(1))).unwrap();
    let mut done = pool.recv(6, Some(Duration::from_secs(30)));
    assert_eq!(done.len(), 6);
    done.sort_by_key(|c| c.index);
    for c in &done[..3] {
        // Stepped with the trap, or after the instance it shared was rebuilt: an error either way.
        assert!(c.step.error.is_some(), "slot {} kept going", c.index);
    }
    for c in &done[3..] {
        assert!(c.step.error.is_none(), "{:?}", c.step.error);
        assert_eq!(c.step.observation, "step 1 got go");
    }
    // The group restarted: its members step again like new.
    for _ in 0..2 {
        pool.send(actions(None)).unwrap();
        let done = pool.recv(6, Some(Duration::from_secs(30)));
        assert!(done.iter().all(|c| c.step.error.is_none()));
    }
}
