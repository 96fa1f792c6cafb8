//! Wrappers: GEM's stacking order, the tool wrapper's counters and limits, observation history,
//! episode tracking, and a wrapper plugin over component and native envs.

use geode_runtime::wrappers::{
    EpisodeTracking, MAX_TOOL_USE_MESSAGE, ObservationHistory, ObservationMode, ToolRewards,
};
use geode_runtime::{Env, Error, Limits, MakeOptions, WrapperSpec};
use geode_tests::registry;
use serde_json::json;

fn tools(rewards: ToolRewards) -> WrapperSpec {
    WrapperSpec::Tools {
        tools: vec![("tool:calculator".into(), json!({}))],
        rewards,
    }
}

fn healthy() -> Box<dyn Env> {
    Box::new(registry().make("hostile:healthy", json!({})).unwrap())
}

#[test]
fn gem_stack_tool_then_observation_then_tracking() {
    let rewards = ToolRewards {
        tool_reward: 0.05,
        tool_success_reward: 0.25,
        ..ToolRewards::default()
    };
    let stack = [
        tools(rewards),
        WrapperSpec::from_name("concat_with_action", serde_json::Value::Null).unwrap(),
        WrapperSpec::EpisodeTracking,
    ];
    let mut env = registry()
        .make(
            "hostile:healthy",
            MakeOptions::from(&json!({})).with_wrappers(stack.clone()),
        )
        .unwrap();
    let reset = env.reset(None).unwrap();
    assert!(
        reset
            .observation
            .starts_with("hostile:healthy ready\nYou can use a calculator"),
        "{}",
        reset.observation
    );
    assert_eq!(reset.info.get("prev_ep_step_counter"), Some(json!(0)));

    let step = env
        .step("let me compute <calculator>(2 + 3) * 4</calculator>")
        .unwrap();
    assert!(
        (step.reward - 0.30).abs() < 1e-12,
        "tool reward + success reward, got {}",
        step.reward
    );
    assert!(!step.done());
    let info = step.info.to_map();
    assert_eq!(info["tool_use_counter"], 1);
    assert_eq!(info["tool_success_counter"], 1);
    assert_eq!(info["use_tool"], true);
    assert_eq!(info["step_counter"], 1);
    // The observation wrapper sits outside the tool wrapper: it folds the tool's reply and
    // records the parsed tool call as the action.
    assert!(
        step.observation
            .ends_with("<calculator>(2 + 3) * 4</calculator>\nCalculator result: 20\n"),
        "{}",
        step.observation
    );

    let step = env.step("done").unwrap();
    assert_eq!(step.reward, 1.0);
    assert!(
        step.observation
            .ends_with("Calculator result: 20\ndone\nstep 1 got done\n"),
        "{}",
        step.observation
    );
    assert_eq!(step.info.get("use_tool"), Some(json!(false)));
    assert_eq!(step.info.get("cumulative_rewards"), Some(json!(1.3)));

    let reset = env.reset(None).unwrap();
    assert_eq!(reset.info.get("prev_ep_step_counter"), Some(json!(2)));
    assert_eq!(reset.info.get("prev_ep_tool_use_counter"), Some(json!(1)));
}

#[test]
fn tool_limits_errors_and_counters() {
    let rewards = ToolRewards {
        tool_reward: 0.1,
        tool_success_reward: 0.2,
        tool_execute_error_reward: -0.3,
        max_tool_uses: Some(2),
    };
    let mut env = registry()
        .wrap(healthy(), &tools(rewards), &Limits::default())
        .unwrap();
    env.reset(None).unwrap();
    let failed = env.step("<calculator>1 / 0</calculator>").unwrap();
    assert_eq!(failed.observation, "Calculator error: division by zero");
    assert!((failed.reward - (0.1 - 0.3)).abs() < 1e-12);
    assert_eq!(failed.info.get("tool_success_counter"), Some(json!(0)));
    let last = env.step("<calculator>6 * 7</calculator>").unwrap();
    assert_eq!(
        last.observation,
        format!("Calculator result: 42\n\n{MAX_TOOL_USE_MESSAGE}")
    );
    assert_eq!(last.info.get("tool_use_counter"), Some(json!(2)));
    // Out of tool uses: the action goes to the env.
    let to_env = env.step("<calculator>1 + 1</calculator>").unwrap();
    assert_eq!(
        to_env.observation,
        "step 1 got <calculator>1 + 1</calculator>"
    );
    assert_eq!(to_env.info.get("tool_use_counter"), Some(json!(2)));
    // Actions no tool understands step the env too.
    assert_eq!(env.step("plain").unwrap().observation, "step 2 got plain");
}

#[test]
fn observation_history_concat_and_max_history() {
    let mut env = ObservationHistory::new(healthy(), ObservationMode::Concat, None);
    assert_eq!(
        env.reset(None).unwrap().observation,
        "hostile:healthy ready\n"
    );
    env.step("a").unwrap();
    assert_eq!(
        env.step("b").unwrap().observation,
        "hostile:healthy ready\nstep 1 got a\nstep 2 got b\n"
    );

    let mut env = ObservationHistory::new(healthy(), ObservationMode::ConcatWithAction, Some(1));
    env.reset(None).unwrap();
    env.step("a").unwrap();
    assert_eq!(
        env.step("b").unwrap().observation,
        "step 1 got a\nb\nstep 2 got b\n"
    );
}

#[test]
fn episode_tracking_counts_and_snapshots() {
    let mut env = EpisodeTracking::new(healthy());
    env.reset(None).unwrap();
    env.step("a").unwrap();
    let mut twin = env.spawn(true).unwrap();
    let step = twin.step("b").unwrap();
    assert_eq!(step.info.get("step_counter"), Some(json!(2)));
    assert_eq!(step.info.get("cumulative_rewards"), Some(json!(2.0)));
    let state = env.get_state().unwrap();
    let mut other = EpisodeTracking::new(healthy());
    other.set_state(&state).unwrap();
    assert_eq!(
        other.step("c").unwrap().info.get("step_counter"),
        Some(json!(2))
    );
    assert!(other.set_state(b"xx").is_err());
}

#[test]
fn wrapper_plugin_over_a_component_env() {
    let inner: Box<dyn Env> = Box::new(
        registry()
            .make("game:GuessTheNumber-v0-hard", json!({}))
            .unwrap(),
    );
    let mut env = registry()
        .wrap(
            inner,
            &WrapperSpec::Plugin {
                id: "wrapper:answer-format".into(),
                config: json!({"bonus": 0.5}),
            },
            &Limits::default(),
        )
        .unwrap();
    env.reset(Some(42)).unwrap();
    let blocked = env.step("forty-one").unwrap();
    assert_eq!(
        blocked.observation,
        "Your answer must be written as \\boxed{...}. Try again."
    );
    assert_eq!((blocked.reward, blocked.done()), (-0.1, false));
    assert_eq!(blocked.info.get("format_ok"), Some(json!(false)));
    // The blocked turn never reached the game: this is its turn 1, and seed 42 hides 41.
    let win = env.step("\\boxed{41}").unwrap();
    assert_eq!(
        win.observation,
        "Congratulations! You guessed the correct number 41 in 1 turns."
    );
    assert_eq!(win.reward, 1.5);
    assert_eq!(
        win.info.get("suffix"),
        Some(json!("Enter your next guess."))
    );
    let error = registry()
        .wrap(
            healthy(),
            &WrapperSpec::Plugin {
                id: "wrapper:answer-format".into(),
                config: json!({"penalty": "x"}),
            },
            &Limits::default(),
        )
        .unwrap_err();
    assert!(
        error.to_string().contains("bad config key `penalty`"),
        "{error}"
    );
}

#[test]
fn wrapper_plugin_stacks_with_native_wrappers() {
    // native over plugin over native over component
    let stack = [
        WrapperSpec::EpisodeTracking,
        WrapperSpec::Plugin {
            id: "wrapper:answer-format".into(),
            config: json!({"end_episode": true}),
        },
        WrapperSpec::from_name("concat", serde_json::Value::Null).unwrap(),
    ];
    let mut env = registry()
        .make(
            "game:GuessTheNumber-v0-easy",
            MakeOptions::from(&json!({})).with_wrappers(stack.clone()),
        )
        .unwrap();
    env.reset(Some(0)).unwrap();
    let step = env.step("\\boxed{3}").unwrap();
    assert_eq!(
        step.info.get("step_counter"),
        Some(json!(1)),
        "the tracking wrapper's info passes through the plugin"
    );
    assert!(
        step.observation
            .starts_with("You are playing Guess The Number."),
        "{}",
        step.observation
    );
    let ended = env.step("no box").unwrap();
    assert!(ended.terminated && ended.reward == -0.1);
    let mut twin = env.spawn(false).unwrap();
    assert!(twin.reset(Some(0)).is_ok());
}

#[test]
fn inner_failures_surface_with_their_own_type() {
    let inner: Box<dyn Env> = Box::new(registry().make("hostile:panic", json!({})).unwrap());
    let mut env = registry()
        .wrap(
            inner,
            &WrapperSpec::Plugin {
                id: "wrapper:answer-format".into(),
                config: json!({}),
            },
            &Limits::default(),
        )
        .unwrap();
    env.reset(None).unwrap();
    let error = env.step("\\boxed{1}").unwrap_err();
    assert!(matches!(error, Error::GuestTrap { .. }), "{error}");
    assert!(
        error
            .to_string()
            .contains("hostile plugin panicked on purpose"),
        "{error}"
    );
    // The wrapper instance survives its inner env's failure; a reset rebuilds the inner env.
    assert_eq!(env.reset(None).unwrap().observation, "hostile:panic ready");
}

#[test]
fn unknown_wrapper_names_and_kind_mismatches_are_clear() {
    let error = WrapperSpec::from_name("concat_chat_typo", serde_json::Value::Null).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("unknown wrapper `concat_chat_typo`"),
        "{error}"
    );
    let error = registry().make("tool:calculator", json!({})).unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid argument: `tool:calculator` is a tool, not an env"
    );
}

#[test]
fn wrapper_names_take_options_over_gems_defaults_and_name_a_bad_one() {
    let spec = WrapperSpec::from_name("python_tool", json!({"max_tool_uses": 3})).unwrap();
    let WrapperSpec::Tools { tools, rewards } = spec else {
        panic!("python_tool is a tools layer");
    };
    assert_eq!(
        tools,
        vec![("tool:python".to_owned(), json!({"timeout": 5}))]
    );
    assert_eq!(
        (rewards.tool_reward, rewards.tool_success_reward),
        (0.05, 0.25)
    );
    assert_eq!(rewards.max_tool_uses, Some(3));
    let spec = WrapperSpec::from_name("concat", json!({"max_history_length": 2})).unwrap();
    assert!(matches!(
        spec,
        WrapperSpec::Observation {
            max_history: Some(2),
            ..
        }
    ));
    let error = WrapperSpec::from_name("concat", json!({"max_histroy_length": 2})).unwrap_err();
    assert!(
        matches!(&error, Error::BadConfig { key, .. } if key == "concat.max_histroy_length"),
        "{error}"
    );
    let error = WrapperSpec::from_name("tools", json!({"tools": [3]})).unwrap_err();
    assert!(error.to_string().contains("expected a tool id"), "{error}");
    let error = WrapperSpec::from_name("tools", json!({})).unwrap_err();
    assert!(error.to_string().contains("needs `tools`"), "{error}");
}
