//! Multi-agent envs through the host: the built-in `ma:TicTacToe-v0` and `ma:FactRelay-v0`
//! plugins and the `ma-poison` test plugin. Turn-based and parallel selection, agents leaving
//! when they end, messages, refused actions, seeded replay, and a trapping agent action that
//! stays the error of its own env.

use geode_runtime::multiagent::AgentOutput;
use geode_runtime::{Error, Limits, MultiAgentEnv, MultiAgentVec};
use geode_tests::registry;
use serde_json::json;

fn make(id: &str) -> Box<dyn MultiAgentEnv> {
    registry()
        .make_multiagent(id, &json!({}), &Limits::default())
        .unwrap()
}

fn acts(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

fn rewards(out: &[AgentOutput]) -> Vec<f64> {
    out.iter().map(|o| o.reward).collect()
}

#[test]
fn tic_tac_toe_takes_turns_and_finished_agents_leave() {
    let mut env = make("ma:TicTacToe-v0");
    let first = env.reset(Some(1)).unwrap();
    assert_eq!(first.len(), 2);
    assert_eq!(env.possible_agents(), ["player_0", "player_1"]);
    assert_eq!(env.active_agents(), ["player_0"]);
    for (agent, cell) in [
        ("player_0", "1"),
        ("player_1", "4"),
        ("player_0", "2"),
        ("player_1", "5"),
    ] {
        env.step(&acts(&[(agent, &format!("\\boxed{{{cell}}}"))]))
            .unwrap();
    }
    assert_eq!(env.active_agents(), ["player_0"]);
    let out = env.step(&acts(&[("player_0", "\\boxed{3}")])).unwrap();
    assert_eq!(rewards(&out), [1.0, -1.0]);
    assert!(out.iter().all(|o| o.terminated));
    assert!(env.agents().is_empty() && env.active_agents().is_empty());
    let err = env.step(&acts(&[("player_1", "\\boxed{9}")])).unwrap_err();
    assert!(matches!(err, Error::InvalidState { .. }), "{err}");
}

#[test]
fn actions_for_unknown_inactive_or_missing_agents_are_refused() {
    let mut env = make("ma:TicTacToe-v0");
    env.reset(Some(0)).unwrap();
    let message = |actions: &[(&str, &str)], env: &mut Box<dyn MultiAgentEnv>| {
        let err = env.step(&acts(actions)).unwrap_err();
        assert!(matches!(err, Error::InvalidArgument(_)), "{err}");
        err.to_string()
    };
    assert!(message(&[("nobody", "1")], &mut env).contains("unknown agent `nobody`"));
    assert!(
        message(&[("player_1", "1")], &mut env)
            .contains("`player_1` provided an action but is not active")
    );
    assert!(message(&[], &mut env).contains("missing action for active agent `player_0`"));
    // Refused actions change nothing: the episode goes on.
    assert_eq!(
        env.step(&acts(&[("player_0", "\\boxed{5}")]))
            .unwrap()
            .len(),
        2
    );
    assert!(
        env.observe("ghost")
            .unwrap_err()
            .to_string()
            .contains("unknown agent")
    );
}

#[test]
fn parallel_agents_act_together_and_leave_one_by_one() {
    let mut env = make("ma-poison:Echo-v0");
    env.reset(Some(3)).unwrap();
    assert_eq!(env.active_agents(), ["a", "b", "c"]);
    let out = env
        .step(&acts(&[("a", "hi"), ("b", "leave"), ("c", "quit")]))
        .unwrap();
    assert_eq!(out.len(), 3);
    assert!(out[1].terminated && out[2].truncated);
    assert_eq!(env.agents(), ["a"]);
    assert_eq!(env.active_agents(), ["a"]);
    let err = env.step(&acts(&[("a", "x"), ("b", "y")])).unwrap_err();
    assert!(
        err.to_string().contains("`b` is no longer in the episode"),
        "{err}"
    );
    env.add_agent("d").unwrap();
    assert_eq!(env.active_agents(), ["a", "d"]);
    env.remove_agent("a").unwrap();
    assert_eq!(env.step(&acts(&[("d", "x")])).unwrap()[0].agent, "d");
}

#[test]
fn sequential_turns_skip_agents_that_left() {
    let mut env = make("ma-poison:Turns-v0");
    env.reset(Some(0)).unwrap();
    env.step(&acts(&[("a", "x")])).unwrap();
    assert_eq!(env.active_agents(), ["b"]);
    env.step(&acts(&[("b", "leave")])).unwrap();
    assert_eq!(env.agents(), ["a", "c"]);
    assert_eq!(env.active_agents(), ["c"]);
    env.step(&acts(&[("c", "x")])).unwrap();
    assert_eq!(env.active_agents(), ["a"]);
}

#[test]
fn messages_reach_their_receivers_only() {
    let mut env = make("ma-poison:Echo-v0");
    env.reset(Some(0)).unwrap();
    env.send_message("a", "b", "psst").unwrap();
    env.broadcast_message("c", "hello all").unwrap();
    assert!(
        env.observe("b")
            .unwrap()
            .contains("inbox=[a>psst;c>hello all]")
    );
    assert!(env.observe("a").unwrap().contains("inbox=[c>hello all]"));
    assert!(!env.observe("c").unwrap().contains("hello all"));
    let err = env.send_message("a", "zed", "x").unwrap_err();
    assert!(err.to_string().contains("unknown agent `zed`"), "{err}");
    env.step(&acts(&[("a", "leave"), ("b", "x"), ("c", "x")]))
        .unwrap();
    let err = env.send_message("a", "b", "from beyond").unwrap_err();
    assert!(err.to_string().contains("not in the episode"), "{err}");
}

#[test]
fn fact_relay_succeeds_only_through_messages() {
    let mut env = make("ma:FactRelay-v0");
    env.reset(Some(11)).unwrap();
    let facts = env.observe("informant").unwrap();
    let question = env.observe("answerer").unwrap();
    let item = question
        .split("Where is the ")
        .nth(1)
        .unwrap()
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    let told: Vec<&str> = facts.lines().filter(|l| l.starts_with("The ")).collect();
    env.step(&acts(&[
        ("informant", &told.join(" ")),
        ("answerer", "what do you see?"),
    ]))
    .unwrap();
    let inbox = env.observe("answerer").unwrap();
    let place = inbox
        .split(&format!("The {item} is in the "))
        .nth(1)
        .unwrap()
        .split('.')
        .next()
        .unwrap()
        .to_owned();
    let out = env
        .step(&acts(&[
            ("informant", ""),
            ("answerer", &format!("\\boxed{{{place}}}")),
        ]))
        .unwrap();
    assert_eq!(rewards(&out), [1.0, 1.0]);
}

fn random_game(env: &mut dyn MultiAgentEnv, seed: u64) -> Vec<String> {
    env.reset(Some(seed)).unwrap();
    let mut log = Vec::new();
    while let Some(agent) = env.active_agents().first().cloned() {
        let action = env.sample_random_action(&agent).unwrap();
        let out = env.step(&[(agent, action.clone())]).unwrap();
        log.push(format!("{action} {:?}", rewards(&out)));
    }
    log
}

#[test]
fn seeded_episodes_replay() {
    let mut env = make("ma:TicTacToe-v0");
    let mut twin = env.spawn().unwrap();
    assert_eq!(random_game(env.as_mut(), 5), random_game(twin.as_mut(), 5));
    let mut echo = make("ma-poison:Echo-v0");
    let run = |env: &mut Box<dyn MultiAgentEnv>| {
        let first = env.reset(Some(9)).unwrap();
        let out = env
            .step(&acts(&[("a", "x"), ("b", "y"), ("c", "z")]))
            .unwrap();
        (first, out)
    };
    let once = run(&mut echo);
    assert_eq!(once, run(&mut echo));
    let state = echo.get_state().unwrap();
    let after = echo
        .step(&acts(&[("a", "x"), ("b", "y"), ("c", "z")]))
        .unwrap();
    echo.set_state(&state).unwrap();
    assert_eq!(
        echo.step(&acts(&[("a", "x"), ("b", "y"), ("c", "z")]))
            .unwrap(),
        after
    );
}

#[test]
fn a_trapping_agent_action_is_the_error_of_its_env_alone() {
    let limits = Limits {
        fuel_per_call: Some(50_000_000),
        ..Limits::default()
    };
    let first = registry()
        .make_multiagent("ma-poison:Echo-v0", &json!({}), &limits)
        .unwrap();
    let mut vec = MultiAgentVec::new(first, 4).unwrap();
    let mut lone = make("ma-poison:Echo-v0");
    vec.reset(Some(100)).unwrap();
    lone.reset(Some(101)).unwrap();
    let calm = acts(&[("a", "x"), ("b", "y"), ("c", "z")]);
    let mut actions = vec![calm.clone(); 4];
    for (i, poison) in [(0, "poison:panic"), (2, "poison:loop"), (3, "poison:nan")] {
        actions[i] = acts(&[("a", poison), ("b", "y"), ("c", "z")]);
    }
    let steps = vec.step(&actions).unwrap();
    match &steps[0].outputs {
        Err(Error::GuestTrap { message, .. }) => assert!(message.contains("poisoned on purpose")),
        other => panic!("{other:?}"),
    }
    assert!(
        matches!(steps[2].outputs, Err(Error::OutOfFuel { .. })),
        "{:?}",
        steps[2].outputs
    );
    assert!(
        matches!(steps[3].outputs, Err(Error::Contract { .. })),
        "{:?}",
        steps[3].outputs
    );
    // Env 1 (seed 101) is untouched and gives what a lone env of the same seed gives.
    assert_eq!(
        steps[1].outputs.as_ref().unwrap(),
        &lone.step(&calm).unwrap()
    );
    assert!(steps[1].reset.is_none());
    // The faulted envs started over in fresh instances.
    for i in [0, 2, 3] {
        assert_eq!(steps[i].reset.as_ref().unwrap().as_ref().unwrap().len(), 3);
    }
    let again = vec.step(&vec![calm; 4]).unwrap();
    assert!(again.iter().all(|s| s.outputs.is_ok()));
}

#[test]
fn huge_outputs_break_the_contract_and_discard_the_instance() {
    let mut env = make("ma-poison:Echo-v0");
    env.reset(Some(0)).unwrap();
    let err = env
        .step(&acts(&[("a", "poison:huge"), ("b", "y"), ("c", "z")]))
        .unwrap_err();
    assert!(matches!(err, Error::Contract { .. }), "{err}");
    assert!(env.agents().is_empty());
    assert_eq!(env.reset(Some(0)).unwrap().len(), 3);
}

#[test]
fn self_play_with_random_legal_moves_finishes_games() {
    let first = make("ma:TicTacToe-v0");
    let mut vec = MultiAgentVec::new(first, 8).unwrap();
    vec.reset(Some(0)).unwrap();
    let mut finished = 0;
    for _ in 0..40 {
        let actions = vec.sample_random_actions().unwrap();
        for step in vec.step(&actions).unwrap() {
            let out = step.outputs.unwrap();
            assert!(out.iter().all(|o| o.info.get("illegal_move").is_none()));
            finished += usize::from(step.reset.is_some());
        }
    }
    assert!(finished >= 8 * 40 / 9, "{finished} games finished");
}

/// Steps a self-play vector with random legal moves until env 0's game ends; returns that step.
fn play_until_env_0_ends(vec: &mut MultiAgentVec) -> geode_runtime::multiagent::VecEnvStep {
    for _ in 0..20 {
        let actions = vec.sample_random_actions().unwrap();
        let mut steps = vec.step(&actions).unwrap();
        if vec.env(0).agents().is_empty() {
            return steps.swap_remove(0);
        }
    }
    panic!("no game of tic-tac-toe lasts 20 moves");
}

#[test]
fn the_self_play_vector_follows_the_single_agent_autoreset_rules() {
    use geode_runtime::AutoresetMode;
    let refusal = |step: &geode_runtime::multiagent::VecEnvStep| match &step.outputs {
        Err(Error::InvalidState { message, .. }) => message.clone(),
        other => panic!("expected a refusal, got {other:?}"),
    };
    // Before any reset, a step is refused (no env is touched).
    let mut vec = MultiAgentVec::new(make("ma:TicTacToe-v0"), 2).unwrap();
    let steps = vec.step(&[vec![], vec![]]).unwrap();
    assert!(refusal(&steps[0]).contains("before reset"));

    // NextStep: the step that ends a game returns its last outputs and no reset; the next step
    // ignores its actions and starts a new game (reward 0).
    let mut vec = MultiAgentVec::new(make("ma:TicTacToe-v0"), 2)
        .unwrap()
        .with_mode(AutoresetMode::NextStep);
    vec.reset(Some(3)).unwrap();
    let last = play_until_env_0_ends(&mut vec);
    assert!(last.reset.is_none());
    assert!(
        last.outputs
            .unwrap()
            .iter()
            .any(|o| o.terminated || o.truncated)
    );
    let ignored = acts(&[("player_0", "\\boxed{5}")]);
    let next = vec.step(&[ignored, vec![]]).unwrap();
    let first = next[0].outputs.as_ref().unwrap();
    assert_eq!(first.len(), 2);
    assert!(first.iter().all(|o| o.reward == 0.0 && !o.terminated));
    assert!(next[0].reset.is_none());
    assert_eq!(vec.env(0).active_agents(), ["player_0"]);

    // Disabled: a finished game stays finished until the caller resets it.
    let mut vec = MultiAgentVec::new(make("ma:TicTacToe-v0"), 2)
        .unwrap()
        .with_mode(AutoresetMode::Disabled);
    vec.reset(Some(3)).unwrap();
    assert!(play_until_env_0_ends(&mut vec).reset.is_none());
    let steps = vec.step(&[vec![], vec![]]).unwrap();
    assert!(refusal(&steps[0]).contains("autoreset is disabled"));
    assert_eq!(vec.reset_one(0, Some(4)).unwrap().len(), 2);
    let actions = vec.sample_random_actions().unwrap();
    assert!(vec.step(&actions).unwrap()[0].outputs.is_ok());
    assert!(vec.reset_one(2, None).is_err());
}

#[test]
fn multiagent_ids_are_listed_as_such_and_not_made_as_single_agent_envs() {
    let registry = registry();
    let entry = registry.lookup("ma:FactRelay-v0").unwrap();
    assert_eq!(entry.kind, geode_runtime::PluginKind::MultiAgent);
    let err = registry.make("ma:TicTacToe-v0", json!({})).unwrap_err();
    assert!(
        err.to_string().contains("is a multi-agent env, not an env"),
        "{err}"
    );
    let err = registry
        .make_multiagent(
            "game:GuessTheNumber-v0-hard",
            &json!({}),
            &Limits::default(),
        )
        .unwrap_err();
    assert!(err.to_string().contains("not a multi-agent env"), "{err}");
    let err = registry
        .make_multiagent(
            "ma:FactRelay-v0",
            &json!({"num_facts": 0}),
            &Limits::default(),
        )
        .unwrap_err();
    assert!(err.to_string().contains("num_facts"), "{err}");
}

#[test]
fn tau_episodes_in_one_vector_never_see_each_others_records() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../plugins/tau/data/retail.jsonl"
    );
    let first_task: serde_json::Value = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|row| row["table"] == "tasks")
        .unwrap()["value"]
        .clone();
    let cancel = first_task["actions"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(cancel["name"], "cancel_pending_order");
    let order = cancel["kwargs"]["order_id"].as_str().unwrap().to_owned();
    let call = |name: &str, args: &serde_json::Value| {
        format!("<tool_call><tool_name>{name}</tool_name><arguments>{args}</arguments></tool_call>")
    };
    let mut vec = MultiAgentVec::new(make("tau:Retail-v0"), 2).unwrap();
    vec.reset(Some(0)).unwrap();
    let both = |a: &str, b: &str| vec![acts(&[("user", a)]), acts(&[("user", b)])];
    vec.step(&both("Hi", "Hi")).unwrap();
    let look = call("get_order_details", &json!({"order_id": order}));
    let steps = vec
        .step(&[
            acts(&[(
                "assistant",
                &call("cancel_pending_order", &cancel["kwargs"]),
            )]),
            acts(&[("assistant", &look)]),
        ])
        .unwrap();
    let seen: Vec<String> = steps
        .iter()
        .map(|s| s.outputs.as_ref().unwrap()[0].observation.clone())
        .collect();
    assert!(seen[0].contains("\"status\":\"cancelled\""), "{}", seen[0]);
    assert!(seen[1].contains("\"status\":\"pending\""), "{}", seen[1]);
    // The other way round: env 1's view is still its own after env 0 wrote.
    let steps = vec
        .step(&[acts(&[("assistant", &look)]), acts(&[("assistant", &look)])])
        .unwrap();
    let seen: Vec<String> = steps
        .iter()
        .map(|s| s.outputs.as_ref().unwrap()[0].observation.clone())
        .collect();
    assert!(seen[0].contains("\"status\":\"cancelled\""));
    assert!(seen[1].contains("\"status\":\"pending\""));
}
