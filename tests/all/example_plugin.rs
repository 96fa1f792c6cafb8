//! The example plugin (`examples/plugins/coin-flip`), loaded from its file like any third-party
//! plugin: the SDK path works end to end out of the tree.

use geode_runtime::{Error, RefusalKind, Registry};
use geode_tests::runtime;
use serde_json::json;

fn registry() -> Registry {
    let mut registry = Registry::empty(runtime());
    registry
        .add_file(env!("GEODE_TEST_PLUGIN_COIN_FLIP").as_ref())
        .expect("coin-flip loads");
    registry
}

#[test]
fn coin_flip_plays_and_replays() {
    let registry = registry();
    assert_eq!(
        registry.ids().collect::<Vec<_>>(),
        vec!["example:CoinFlip-v0"]
    );
    let play = |seed| {
        let mut env = registry
            .make("example:CoinFlip-v0", json!({"rounds": 5}))
            .unwrap();
        env.reset(Some(seed)).unwrap();
        (0..5)
            .map(|_| env.step("\\boxed{heads}").unwrap())
            .collect::<Vec<_>>()
    };
    let a = play(3);
    assert_eq!(a, play(3));
    assert!(a[..4].iter().all(|s| !s.done()) && a[4].terminated);
    assert!(a.iter().all(|s| s.reward == 0.0 || s.reward == 1.0));
    assert_eq!(a[2].info.get("round"), Some(json!(3)));
    let flips: Vec<Vec<f64>> = (0..8)
        .map(|seed| play(seed).iter().map(|s| s.reward).collect())
        .collect();
    assert!(
        flips.iter().any(|f| f != &flips[0]),
        "different seeds must flip differently"
    );
}

#[test]
fn coin_flip_reports_format_errors_and_bad_config() {
    let registry = registry();
    let mut env = registry.make("example:CoinFlip-v0", json!({})).unwrap();
    env.reset(None).unwrap();
    let step = env.step("edge").unwrap();
    assert_eq!((step.reward, step.terminated), (-0.1, true));
    let error = registry
        .make("example:CoinFlip-v0", json!({"rounds": 0}))
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::Refused {
                kind: RefusalKind::BadConfig,
                ..
            }
        ),
        "{error}"
    );
    assert!(
        error
            .to_string()
            .contains("config key `rounds`: must be at least 1"),
        "{error}"
    );
}
