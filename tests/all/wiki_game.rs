//! WikiGame over the real built-in component and the built-in `wiki-game/articles` dataset:
//! winning along a shortest path, invalid moves, format errors, the turn limit, seeding and the
//! conformance suite.

use geode_runtime::conformance::{CheckOptions, check_env};
use geode_runtime::{Env, StepOutput};
use geode_tests::registry;
use serde_json::{Value, json};
use std::collections::{HashMap, VecDeque};

const EASY: &str = "game:WikiGame-v0-easy";
const HARD: &str = "game:WikiGame-v0-hard";

/// The shipped article graph, read natively to plan moves: title -> links.
fn articles() -> HashMap<String, Vec<String>> {
    let rows = include_str!("../../plugins/wiki-game/data/articles.jsonl");
    rows.lines()
        .map(|line| {
            let row: Value = serde_json::from_str(line).unwrap();
            let links = row["links"].as_array().unwrap();
            let links = links.iter().map(|l| l.as_str().unwrap().to_owned());
            (row["title"].as_str().unwrap().to_owned(), links.collect())
        })
        .collect()
}

/// The titles of a shortest click path from `start` to `target` (excluding `start`).
fn shortest_path(graph: &HashMap<String, Vec<String>>, start: &str, target: &str) -> Vec<String> {
    let mut parent: HashMap<&str, &str> = HashMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(page) = queue.pop_front() {
        if page == target {
            break;
        }
        for link in &graph[page] {
            if link != start && !parent.contains_key(link.as_str()) {
                parent.insert(link, page);
                queue.push_back(link);
            }
        }
    }
    let mut path = vec![target.to_owned()];
    while let Some(&before) = parent.get(path.last().unwrap().as_str()) {
        if before == start {
            break;
        }
        path.push(before.to_owned());
    }
    path.reverse();
    path
}

fn make(id: &str, overrides: Value) -> Box<dyn Env> {
    registry().make(id, &overrides).expect("make")
}

fn suffix(info: &geode_runtime::Info) -> String {
    info.get("suffix").unwrap().as_str().unwrap().to_owned()
}

/// (current page, target page) read from a `suffix` info.
fn position(suffix: &str) -> (String, String) {
    let rest = suffix.strip_prefix("You are currently on the '").unwrap();
    let (current, rest) = rest.split_once("' page. Your target page is '").unwrap();
    let (target, _) = rest.split_once("'.\n").unwrap();
    (current.to_owned(), target.to_owned())
}

fn go(env: &mut dyn Env, title: &str) -> StepOutput {
    env.step(&format!("The best next page is \\boxed{{{title}}}."))
        .unwrap()
}

#[test]
fn both_ids_have_gems_turn_limits() {
    for (id, turns) in [(EASY, 30), (HARD, 15)] {
        let mut env = make(id, json!({}));
        let reset = env.reset(Some(0)).unwrap();
        assert!(
            reset.observation.starts_with(&format!(
                "You are playing the Wikipedia Game, and must reach the target Wikipedia page \
                 within {turns} turns.\n"
            )),
            "{}",
            reset.observation
        );
        let (start, target) = position(&suffix(&reset.info));
        assert!(
            reset.observation.contains(&format!(
                "You started at '{start}' and your target page is '{target}'.\n"
            )),
            "{}",
            reset.observation
        );
        assert_ne!(start, target);
    }
}

#[test]
fn following_a_shortest_path_wins() {
    let graph = articles();
    let mut env = make(HARD, json!({}));
    for seed in 0..8 {
        let reset = env.reset(Some(seed)).unwrap();
        let (start, target) = position(&suffix(&reset.info));
        let path = shortest_path(&graph, &start, &target);
        assert!((1..=15).contains(&path.len()), "seed {seed}: {path:?}");
        for (turn, title) in path.iter().enumerate().map(|(i, t)| (i + 1, t)) {
            let step = go(&mut env, title);
            if title == &target {
                assert_eq!(step.reward, 1.0);
                assert!(step.terminated && !step.truncated);
                assert_eq!(
                    step.observation,
                    format!(
                        "Congratulations! You have reached the target page '{target}' in {turn} \
                         turns."
                    )
                );
            } else {
                assert_eq!(step.reward, -0.05, "{}", step.observation);
                assert!(!step.done());
                assert!(step.observation.starts_with(&format!(
                    "At turn {turn}, you navigated to the '{title}' page. Here is a summary of \
                     the page:\n"
                )));
                assert_eq!(position(&suffix(&step.info)).0, *title);
            }
        }
    }
}

#[test]
fn a_title_not_on_the_page_is_an_invalid_move() {
    let graph = articles();
    let mut env = make(EASY, json!({}));
    let reset = env.reset(Some(5)).unwrap();
    let (start, _) = position(&suffix(&reset.info));
    let elsewhere = graph
        .keys()
        .find(|t| **t != start && !graph[&start].contains(t))
        .unwrap();
    let step = go(&mut env, elsewhere);
    assert_eq!(step.reward, -0.2);
    assert!(!step.done());
    assert!(
        step.observation.starts_with(&format!(
            "At turn 1, you guessed '{elsewhere}', which is neither a neighboring page of \
             '{start}', "
        )),
        "{}",
        step.observation
    );
    assert!(step.observation.ends_with(
        "You must match **exactly** one of the neighboring page titles to navigate there."
    ));
    assert_eq!(
        position(&suffix(&step.info)).0,
        start,
        "still on the start page"
    );
    let step = go(&mut env, "<PREV_PAGE>");
    assert_eq!(step.reward, -0.2);
    assert_eq!(
        step.observation,
        "At turn 2, you attempted to backtrack to the previous page, but backtracking is not \
         allowed in this variant of the Wikipedia Game."
    );
}

#[test]
fn an_action_without_a_title_is_a_format_error() {
    let mut env = make(EASY, json!({}));
    env.reset(Some(1)).unwrap();
    for (turn, action) in [
        (1, "I would go to hacker"),
        (2, "\\boxed{   }"),
        (3, "\\boxed{"),
    ] {
        let step = env.step(action).unwrap();
        assert_eq!(step.reward, -0.2);
        assert!(!step.terminated && !step.truncated);
        assert_eq!(
            step.observation,
            format!("At turn {turn}, you did not provide a valid page title.")
        );
    }
}

#[test]
fn the_turn_limit_ends_the_episode() {
    let mut env = make(EASY, json!({ "max_turns": 3 }));
    let reset = env.reset(Some(2)).unwrap();
    let (_, target) = position(&suffix(&reset.info));
    for _ in 0..2 {
        assert!(!go(&mut env, "Not A Page").done());
    }
    let step = go(&mut env, "Not A Page");
    assert_eq!(step.reward, 0.0);
    assert!(step.terminated && step.truncated);
    assert_eq!(
        step.observation,
        format!(
            "At turn 3, you have reached the maximum number of turns without reaching the target \
             page '{target}'."
        )
    );
    // A format error on the last turn truncates without terminating, as in GEM.
    env.reset(Some(2)).unwrap();
    env.step("a").unwrap();
    env.step("b").unwrap();
    let step = env.step("c").unwrap();
    assert!(!step.terminated && step.truncated);
}

#[test]
fn the_same_seed_gives_the_same_start() {
    let first = make(HARD, json!({})).reset(Some(42)).unwrap();
    let second = make(HARD, json!({})).reset(Some(42)).unwrap();
    assert_eq!(first.observation, second.observation);
    assert_eq!(first.info, second.info);
    let starts: std::collections::BTreeSet<_> = (0..10)
        .map(|seed| {
            let reset = make(HARD, json!({})).reset(Some(seed)).unwrap();
            position(&suffix(&reset.info))
        })
        .collect();
    assert!(starts.len() > 5, "seeds barely matter: {starts:?}");
}

#[test]
fn oneback_allows_one_step_back() {
    let graph = articles();
    let mut env = make(EASY, json!({ "variant": "oneback" }));
    let reset = env.reset(Some(3)).unwrap();
    assert!(reset.observation.contains("\\boxed{<PREV_PAGE>}"));
    let (start, target) = position(&suffix(&reset.info));
    let next = graph[&start].iter().find(|t| **t != target).unwrap();
    go(&mut env, next);
    let step = go(&mut env, "<PREV_PAGE>");
    assert_eq!(step.reward, -0.05);
    assert_eq!(position(&suffix(&step.info)).0, start);
    let step = go(&mut env, "<PREV_PAGE>");
    assert_eq!(step.reward, -0.2);
}

#[test]
fn random_actions_are_links_of_the_current_page() {
    let graph = articles();
    let mut env = make(HARD, json!({}));
    let reset = env.reset(Some(9)).unwrap();
    let (start, _) = position(&suffix(&reset.info));
    let action = env.sample_random_action().unwrap();
    let title = action
        .strip_prefix("\\boxed{")
        .and_then(|a| a.strip_suffix('}'))
        .unwrap();
    assert!(graph[&start].iter().any(|t| t == title), "{action}");
}

#[test]
fn configuration_is_checked() {
    let err = registry()
        .make(EASY, json!({ "dataset": "nowhere" }))
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("dataset `nowhere` is not loaded on this host"),
        "{err}"
    );
    let err = registry()
        .make(EASY, json!({ "variant": "teleport" }))
        .unwrap_err();
    assert!(err.to_string().contains("variant"), "{err}");
    let err = registry()
        .make(EASY, json!({ "page_summary_length": [3, "pages"] }))
        .unwrap_err();
    assert!(err.to_string().contains("page_summary_length"), "{err}");
    let mut env = make(EASY, json!({ "page_summary_length": [2, "words"] }));
    let reset = env.reset(Some(4)).unwrap();
    let summary = suffix(&reset.info);
    let line = summary.lines().nth(2).unwrap();
    assert_eq!(line.split(' ').count(), 2, "{line}");
}

#[test]
fn both_ids_pass_the_conformance_suite() {
    for id in [EASY, HARD] {
        let report = check_env(&registry(), id, &CheckOptions::default());
        assert!(report.passed(), "{report}");
    }
}
