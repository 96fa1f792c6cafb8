//! The asynchronous pool: results in completion order, a slow slot does not hold back the
//! others, in-flight slots refuse new sends, failures stay with their slot, usable from tokio
//! and from plain threads.

use geode_runtime::{AsyncPool, AutoresetMode, Error, Limits, VecSpec, VectorStep};
use geode_tests::registry;
use std::time::{Duration, Instant};

/// A pool of one env per unit: a slow step holds back only the slots of its own unit, and these
/// tests watch single slots move at their own pace (`tests/units.rs` covers shared units).
fn pool(ids: &[&str], threads: usize) -> AsyncPool {
    let spec = VecSpec {
        group_size: 1,
        ids: ids.iter().map(|s| s.to_string()).collect(),
        limits: Limits {
            fuel_per_call: None,
            deadline_per_call: Some(Duration::from_secs(20)),
            ..Limits::default()
        },
        ..VecSpec::uniform("hostile:healthy", 1, 0)
    };
    registry()
        .make_vec(&spec.for_pool())
        .unwrap()
        .into_pool(threads)
}

fn reset_all(pool: &AsyncPool) {
    pool.send_reset((0..pool.num_envs()).map(|i| (i, None)).collect())
        .unwrap();
    let done = pool.recv(pool.num_envs(), Some(Duration::from_secs(10)));
    assert_eq!(done.len(), pool.num_envs());
    assert!(done.iter().all(|d| d.step.error.is_none()));
}

#[test]
fn a_slow_slot_finishes_last_while_the_others_return() {
    let mut ids = vec!["hostile:slow"];
    ids.extend(["hostile:healthy"; 8]);
    let pool = pool(&ids, 2);
    reset_all(&pool);
    let started = Instant::now();
    // About a second of spinning in slot 0; the eight quick slots share the other worker.
    let mut actions = vec![(0, "400000000".to_string())];
    actions.extend((1..9).map(|i| (i, format!("go {i}"))));
    pool.send(actions).unwrap();
    assert!(pool.is_in_flight(0));
    let error = pool.send(vec![(0, "again".into())]).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("env 0 still has a step in flight"),
        "{error}"
    );

    let quick = pool.recv(8, Some(Duration::from_secs(30)));
    let quick_time = started.elapsed();
    let mut indices: Vec<usize> = quick.iter().map(|d| d.index).collect();
    indices.sort();
    assert_eq!(
        indices,
        (1..9).collect::<Vec<_>>(),
        "the slow slot must not be among the first eight"
    );
    for done in &quick {
        assert_eq!(
            done.step.observation,
            format!("step 1 got go {}", done.index)
        );
    }
    let slow = pool.recv(1, Some(Duration::from_secs(60)));
    let slow_time = started.elapsed();
    assert_eq!(slow.len(), 1);
    assert_eq!(slow[0].index, 0);
    assert!(
        slow[0].step.observation.starts_with("spun 400000000"),
        "{}",
        slow[0].step.observation
    );
    assert!(
        quick_time * 4 < slow_time,
        "quick slots waited for the slow one: {quick_time:?} vs {slow_time:?}"
    );
}

#[test]
fn recv_times_out_with_what_is_ready() {
    let pool = pool(&["hostile:healthy"; 2], 1);
    reset_all(&pool);
    pool.send(vec![(1, "a".into())]).unwrap();
    let started = Instant::now();
    let done = pool.recv(2, Some(Duration::from_millis(200)));
    assert_eq!(done.len(), 1);
    assert!(started.elapsed() < Duration::from_secs(5));
    let error = pool
        .send(vec![(0, "a".into()), (9, "b".into())])
        .unwrap_err();
    assert!(
        error.to_string().contains("env index 9 is out of range"),
        "{error}"
    );
    assert!(
        !pool.is_in_flight(0),
        "a refused send must not leave slots claimed"
    );
}

#[test]
fn a_trapping_slot_reports_its_own_error() {
    let pool = pool(&["hostile:healthy", "hostile:panic", "hostile:healthy"], 2);
    reset_all(&pool);
    pool.send(vec![(0, "a".into()), (1, "b".into()), (2, "c".into())])
        .unwrap();
    let mut done = pool.recv(3, Some(Duration::from_secs(10)));
    done.sort_by_key(|d| d.index);
    assert!(done[0].step.error.is_none() && done[2].step.error.is_none());
    assert!(matches!(done[1].step.error, Some(Error::GuestTrap { .. })));
    // The failed slot was rebuilt and takes steps again.
    pool.send(vec![(1, "b".into())]).unwrap();
    let again = pool.recv(1, Some(Duration::from_secs(10)));
    assert!(matches!(again[0].step.error, Some(Error::GuestTrap { .. })));
}

#[test]
fn a_trapping_slot_in_a_whole_batch_step_reports_its_own_error() {
    let ids = [
        "hostile:healthy",
        "hostile:panic",
        "hostile:healthy",
        "hostile:healthy",
    ];
    let pool = pool(&ids, 2);
    reset_all(&pool);
    for round in 1..=2 {
        let all = std::sync::Mutex::new(VectorStep::default());
        pool.step_all_now(&["a", "b", "c", "d"], &|part| {
            all.lock().unwrap().push_unit(part)
        })
        .unwrap();
        let mut all = all.into_inner().unwrap();
        all.sort_by_index();
        assert!(
            matches!(all.error(1), Some(Error::GuestTrap { .. })),
            "round {round}"
        );
        // The failed slot restarted; its siblings' episodes went on.
        assert_eq!(all.observation(1), "hostile:panic ready");
        for i in [0, 2, 3] {
            assert!(all.error(i).is_none(), "round {round}, slot {i}");
            let action = ["a", "b", "c", "d"][i];
            assert_eq!(all.observation(i), format!("step {round} got {action}"));
        }
    }
}

#[test]
fn autoreset_applies_in_the_pool() {
    let spec = VecSpec {
        autoreset: AutoresetMode::SameStep,
        ..VecSpec::uniform("hostile:healthy", 1, 0)
    };
    let pool = registry().make_vec(&spec.for_pool()).unwrap().into_pool(1);
    reset_all(&pool);
    let mut last = None;
    for a in ["a", "b", "c"] {
        pool.send(vec![(0, a.into())]).unwrap();
        last = pool.recv(1, Some(Duration::from_secs(5))).pop();
    }
    let last = last.unwrap().step;
    assert!(last.terminated);
    assert_eq!(last.observation, "hostile:healthy ready");
    assert_eq!(last.final_observation.as_deref(), Some("step 3 got c"));
}

#[test]
fn each_episode_steps_independently_under_tokio() {
    let pool = std::sync::Arc::new(pool(&["hostile:healthy"; 8], 2));
    reset_all(&pool);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap();
    let observations = runtime.block_on(async {
        let tasks: Vec<_> = (0..8)
            .map(|i| {
                let pool = pool.clone();
                tokio::spawn(async move {
                    let mut seen = Vec::new();
                    for turn in 0..2 {
                        let step = pool.step_one(i, format!("e{i}t{turn}")).await.unwrap();
                        seen.push(step.observation);
                    }
                    seen
                })
            })
            .collect();
        let mut all = Vec::new();
        for task in tasks {
            all.push(task.await.unwrap());
        }
        all
    });
    for (i, seen) in observations.iter().enumerate() {
        assert_eq!(
            seen,
            &vec![format!("step 1 got e{i}t0"), format!("step 2 got e{i}t1")]
        );
    }
}

#[test]
fn recv_waits_for_a_whole_batch_in_sync_and_async_code() {
    let pool = pool(&["hostile:healthy"; 6], 2);
    reset_all(&pool);
    pool.send((0..6).map(|i| (i, format!("a{i}"))).collect())
        .unwrap();
    let first = pool.recv(6, Some(Duration::from_secs(10)));
    assert_eq!(
        first.len(),
        6,
        "recv returned before its batch was complete"
    );
    pool.send((0..6).map(|i| (i, format!("b{i}"))).collect())
        .unwrap();
    let second = futures_lite_block_on(pool.recv_async(6));
    assert_eq!(second.len(), 6);
    let mut indices: Vec<usize> = second.iter().map(|c| c.index).collect();
    indices.sort_unstable();
    assert_eq!(indices, (0..6).collect::<Vec<_>>());
    for done in &second {
        assert_eq!(done.step.observation, format!("step 2 got b{}", done.index));
    }
}

#[test]
fn plain_threads_share_one_pool() {
    let pool = pool(&["hostile:healthy"; 4], 2);
    reset_all(&pool);
    std::thread::scope(|scope| {
        for i in 0..4 {
            let pool = &pool;
            scope.spawn(move || {
                let step = futures_lite_block_on(pool.step_one(i, format!("t{i}")));
                assert_eq!(step.unwrap().observation, format!("step 1 got t{i}"));
            });
        }
    });
}

/// Drives a future to completion on the current thread.
fn futures_lite_block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(future)
}

#[test]
fn slots_are_reachable_between_jobs_and_the_mode_can_change() {
    let pool = pool(&["hostile:healthy"; 2], 2);
    reset_all(&pool);
    pool.set_autoreset_mode(AutoresetMode::NextStep);
    assert_eq!(pool.autoreset_mode(), AutoresetMode::NextStep);
    let out = pool
        .with_slot(0, |slot| slot.step_direct("direct"))
        .unwrap();
    assert_eq!(out.observation, "step 1 got direct");
    pool.send(vec![(0, "queued".into())]).unwrap();
    let busy = pool.with_slot(0, |slot| slot.step_direct("x"));
    let done = pool.recv(1, Some(Duration::from_secs(10)));
    assert_eq!(done[0].step.observation, "step 2 got queued");
    if let Err(error) = busy {
        assert!(error.to_string().contains("in flight"), "{error}");
    }
}

#[test]
fn a_whole_batch_step_refuses_while_a_slot_is_in_flight() {
    // Slot 2 spins for about a second when sent a big number, so it is surely in flight when
    // the whole-batch step below looks.
    let ids = [
        "hostile:healthy",
        "hostile:healthy",
        "hostile:slow",
        "hostile:healthy",
    ];
    let pool = pool(&ids, 2);
    reset_all(&pool);
    let actions = ["a", "b", "c", "d"];
    let error = pool
        .step_all_now(&actions[..1], &|_| panic!("nothing may step"))
        .unwrap_err();
    assert!(
        error.to_string().contains("1 actions for 4 envs"),
        "{error}"
    );

    pool.send(vec![(2, "500000000".into())]).unwrap();
    let error = pool
        .step_all_now(&actions, &|_| panic!("nothing may step"))
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("env 2 still has a step in flight"),
        "{error}"
    );
    assert_eq!(pool.recv(1, Some(Duration::from_secs(30))).len(), 1);

    // Nothing stepped above, and every slot was released: slot 0 takes its first step.
    let all = std::sync::Mutex::new(VectorStep::default());
    pool.step_all_now(&actions, &|ready| all.lock().unwrap().push_unit(ready))
        .unwrap();
    let mut all = all.into_inner().unwrap();
    all.sort_by_index();
    assert_eq!(
        all.observations().collect::<Vec<_>>(),
        ["step 1 got a", "step 1 got b", "spun 0 (0)", "step 1 got d"]
    );
    assert!((0..4).all(|i| !pool.is_in_flight(i)));
    pool.send(vec![(0, "e".into())]).unwrap();
    let done = pool.recv(1, Some(Duration::from_secs(30)));
    assert_eq!(done[0].step.observation, "step 2 got e");
}

#[test]
fn a_vector_env_turned_pool_keeps_its_episodes_and_starts_workers_only_for_sent_jobs() {
    let spec = VecSpec::uniform("game:GuessTheNumber-v0-hard", 4, 7);
    let mut vec = registry().make_vec(&spec).unwrap();
    let (observations, _) = vec.reset(None).unwrap();
    let pool = vec.into_pool(3);
    // Whole-batch calls run on the caller: the same episodes go on, and no worker starts.
    let guesses = ["\\boxed{1}", "\\boxed{2}", "\\boxed{3}", "\\boxed{4}"];
    let steps = std::sync::Mutex::new(Vec::new());
    pool.step_all_now(&guesses, &|part| steps.lock().unwrap().push(part))
        .unwrap();
    assert_eq!(
        steps.into_inner().unwrap().len(),
        1,
        "four envs make one unit"
    );
    let (again, _) = pool.reset_some_now(&[2], &[Some(9)]).unwrap();
    assert_eq!(again.len(), 1);
    assert_ne!(observations[2], "", "reset gave a first observation");
    assert_eq!(pool.running_workers(), 0, "no worker started");
    // A sent job starts the workers, once.
    pool.send(vec![(0, "\\boxed{5}".into())]).unwrap();
    let done = pool.recv(1, Some(Duration::from_secs(10)));
    assert_eq!((done.len(), done[0].step.error.is_none()), (1, true));
    pool.send(vec![(1, "\\boxed{6}".into())]).unwrap();
    pool.recv(1, Some(Duration::from_secs(10)));
    assert_eq!(pool.running_workers(), 3);
    // A partial step refuses a slot that is in use (here: visited) and steps nothing then.
    let refused = pool
        .with_slot(3, |_| {
            let refused = pool.step_some_now(&[(2, "\\boxed{8}"), (3, "\\boxed{8}")], &|_| {
                panic!("nothing steps")
            });
            Ok(refused.unwrap_err())
        })
        .unwrap();
    assert!(
        refused
            .to_string()
            .contains("env 3 still has a step in flight"),
        "{refused}"
    );
    drop(pool);
}
