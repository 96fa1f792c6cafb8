//! `summary.json`: a run's numbers per env and overall, computed from its episode records.
//!
//! Everything but the latencies is a function of the records' contents alone: the records are
//! sorted by key first and the bootstrap draws from a fixed seed, so a resumed run's summary
//! equals an uninterrupted one's (compare them with [`Summary::without_timings`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::record::{Ending, EpisodeRecord, Usage};
use crate::settings::RunSettings;
use crate::stats::{bootstrap_mean_ci, pass_at_k, pass_hat_k, percentile, pooled_mean};

/// Bootstrap draws per confidence interval.
const BOOTSTRAP_RESAMPLES: usize = 1000;
/// The seed of every bootstrap ("geode" in ASCII).
const BOOTSTRAP_SEED: u64 = 0x0067_656f_6465;
/// Bins of the reward histogram when the rewards are not all equal.
const REWARD_BINS: usize = 10;

/// A run's summary: its settings, one [`Group`] per env and one for all envs pooled.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Summary {
    /// geode's version, as in the settings.
    pub geode_version: String,
    /// The model name, as in the settings.
    pub model: String,
    /// The server's base URL, as in the settings.
    pub base_url: String,
    /// The run's whole settings.
    pub settings: RunSettings,
    /// One group per env id: every env of the settings (even without episodes), plus any env
    /// that only the records name.
    pub envs: BTreeMap<String, Group>,
    /// All episodes of all envs; tasks are told apart by `(env, task)`.
    pub overall: Group,
}

/// The numbers of a set of episodes (one env's, or all of them).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Group {
    /// Episodes counted.
    pub episodes: u64,
    /// Distinct tasks among them.
    pub tasks: u64,
    /// Episodes per task the run asked for (`settings.samples`).
    pub samples: u32,
    /// Mean episode reward (0.0 without episodes).
    pub mean_reward: f64,
    /// 95% interval of `mean_reward`, bootstrapped over tasks.
    pub mean_reward_ci95: [f64; 2],
    /// Share of successful episodes.
    pub success_rate: f64,
    /// 95% interval of `success_rate`, bootstrapped over tasks.
    pub success_rate_ci95: [f64; 2],
    /// pass@k by k (`"1"`, `"2"`...): the mean over the tasks with at least k episodes of the
    /// unbiased estimator; a k no task has k episodes for is left out.
    pub pass_at_k: BTreeMap<String, f64>,
    /// pass^k by k (TAU-bench's reliability: all of k tries succeed), the mean over the tasks
    /// with at least k episodes, like `pass_at_k`.
    #[serde(default)]
    pub pass_hat_k: BTreeMap<String, f64>,
    /// Mean turns per episode.
    pub mean_turns: f64,
    /// Episodes by how they ended (`terminated`, `max_turns`...).
    pub endings: BTreeMap<String, u64>,
    /// Episodes ended by a failure, by its kind (`unknown` for an error ending without one).
    pub errors: BTreeMap<String, u64>,
    /// Retried requests by kind, summed over the episodes.
    pub retries: BTreeMap<String, u64>,
    /// Token counts summed over the episodes.
    pub usage: Usage,
    /// Episode wall-clock times: the only timing-dependent numbers.
    pub latency_ms: Latency,
    /// `(bin low, episodes)` of the rewards: 10 equal bins from the lowest reward to the
    /// highest (the highest falls in the last), one bin when all are equal, none without
    /// episodes.
    pub reward_histogram: Vec<(f64, u64)>,
    /// Episodes by number of turns.
    pub turns_histogram: BTreeMap<u32, u64>,
}

/// Mean and percentiles of episode wall-clock times, in milliseconds.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, Default, PartialEq)]
pub struct Latency {
    /// Mean.
    pub mean: f64,
    /// Median.
    pub p50: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 99th percentile.
    pub p99: f64,
}

impl Summary {
    /// This summary with every latency zeroed: what a resumed run and an uninterrupted one
    /// must agree on.
    pub fn without_timings(&self) -> Summary {
        let mut summary = self.clone();
        for group in summary.envs.values_mut() {
            group.latency_ms = Latency::default();
        }
        summary.overall.latency_ms = Latency::default();
        summary
    }
}

/// Summarizes a run's records; the result does not depend on the order they are given in.
pub fn summarize(settings: &RunSettings, records: &[EpisodeRecord]) -> Summary {
    let sorted = sorted_records(records);
    let mut env_ids: Vec<&str> = settings.envs.iter().map(|e| e.id.as_str()).collect();
    env_ids.extend(sorted.iter().map(|r| r.key.env.as_str()));
    env_ids.sort_unstable();
    env_ids.dedup();
    let envs = env_ids
        .into_iter()
        .map(|id| {
            let mine: Vec<&EpisodeRecord> =
                sorted.iter().copied().filter(|r| r.key.env == id).collect();
            (id.to_owned(), group(&mine, settings.samples))
        })
        .collect();
    Summary {
        geode_version: settings.geode_version.clone(),
        model: settings.model.clone(),
        base_url: settings.base_url.clone(),
        settings: settings.clone(),
        envs,
        overall: group(&sorted, settings.samples),
    }
}

/// The records sorted by key; duplicates of a key (which a run does not write) are ordered by
/// reward and latency so that even then the order given does not matter.
fn sorted_records(records: &[EpisodeRecord]) -> Vec<&EpisodeRecord> {
    let mut sorted: Vec<&EpisodeRecord> = records.iter().collect();
    sorted.sort_by(|a, b| {
        a.key
            .cmp(&b.key)
            .then(a.reward.total_cmp(&b.reward))
            .then(a.latency_ms.total_cmp(&b.latency_ms))
    });
    sorted
}

/// The numbers of `records` (sorted by key).
fn group(records: &[&EpisodeRecord], samples: u32) -> Group {
    let tasks = by_task(records);
    let rewards = per_task(&tasks, |r| r.reward);
    let successes = per_task(&tasks, |r| if r.success { 1.0 } else { 0.0 });
    let (reward_lo, reward_hi) = bootstrap_mean_ci(&rewards, BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED);
    let (success_lo, success_hi) =
        bootstrap_mean_ci(&successes, BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED);
    let turns: Vec<f64> = records.iter().map(|r| r.turns.len() as f64).collect();
    let all_rewards: Vec<f64> = records.iter().map(|r| r.reward).collect();
    Group {
        episodes: records.len() as u64,
        tasks: tasks.len() as u64,
        samples,
        mean_reward: pooled_mean(&rewards),
        mean_reward_ci95: [reward_lo, reward_hi],
        success_rate: pooled_mean(&successes),
        success_rate_ci95: [success_lo, success_hi],
        pass_at_k: per_k(&successes, samples, pass_at_k),
        pass_hat_k: per_k(&successes, samples, pass_hat_k),
        mean_turns: mean(&turns),
        endings: count_by(records, |r| Some(ending_name(r.ending))),
        errors: count_by(records, error_kind),
        retries: summed_retries(records),
        usage: summed_usage(records),
        latency_ms: latency(records),
        reward_histogram: histogram(&all_rewards),
        turns_histogram: turns_histogram(records),
    }
}

/// The records by task, a task being `(env, task)`; each task's records keep their order.
fn by_task<'a>(records: &[&'a EpisodeRecord]) -> BTreeMap<(&'a str, u64), Vec<&'a EpisodeRecord>> {
    let mut tasks: BTreeMap<(&str, u64), Vec<&EpisodeRecord>> = BTreeMap::new();
    for &record in records {
        tasks
            .entry((record.key.env.as_str(), record.key.task))
            .or_default()
            .push(record);
    }
    tasks
}

/// One value per episode, grouped by task.
fn per_task(
    tasks: &BTreeMap<(&str, u64), Vec<&EpisodeRecord>>,
    value: impl Fn(&EpisodeRecord) -> f64,
) -> Vec<Vec<f64>> {
    tasks
        .values()
        .map(|episodes| episodes.iter().map(|r| value(r)).collect())
        .collect()
}

/// `estimate` (pass@k or pass^k) for k in `1..=samples`, each the mean over the tasks with at
/// least k episodes.
fn per_k(
    successes: &[Vec<f64>],
    samples: u32,
    estimate: fn(u64, u64, u64) -> f64,
) -> BTreeMap<String, f64> {
    (1..=u64::from(samples))
        .filter_map(|k| {
            let per_task: Vec<f64> = successes
                .iter()
                .filter(|task| task.len() as u64 >= k)
                .map(|task| {
                    let passed = task.iter().filter(|&&s| s > 0.0).count() as u64;
                    estimate(task.len() as u64, passed, k)
                })
                .collect();
            (!per_task.is_empty()).then(|| (k.to_string(), mean(&per_task)))
        })
        .collect()
}

/// The mean of `values`, 0.0 for none.
fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    }
}

/// An ending's name as `trajectories.jsonl` spells it (`max_turns`...).
fn ending_name(ending: Ending) -> String {
    serde_json::to_value(ending)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{ending:?}"))
}

/// The kind of failure that ended an episode, if one did.
fn error_kind(record: &EpisodeRecord) -> Option<String> {
    match (&record.error, record.ending) {
        (Some(error), _) => Some(error.kind.clone()),
        (None, Ending::Error) => Some("unknown".to_owned()),
        (None, _) => None,
    }
}

/// How many records have each name `name` gives.
fn count_by(
    records: &[&EpisodeRecord],
    name: impl Fn(&EpisodeRecord) -> Option<String>,
) -> BTreeMap<String, u64> {
    let mut counts = BTreeMap::new();
    for name in records.iter().filter_map(|r| name(r)) {
        *counts.entry(name).or_insert(0) += 1;
    }
    counts
}

/// The records' retries, summed by kind.
fn summed_retries(records: &[&EpisodeRecord]) -> BTreeMap<String, u64> {
    let mut retries = BTreeMap::new();
    for (kind, count) in records.iter().flat_map(|r| &r.retries) {
        *retries.entry(kind.clone()).or_insert(0) += count;
    }
    retries
}

/// The records' token counts, summed.
fn summed_usage(records: &[&EpisodeRecord]) -> Usage {
    let mut usage = Usage::default();
    for record in records {
        usage.add(record.usage);
    }
    usage
}

/// Mean and percentiles of the records' latencies.
fn latency(records: &[&EpisodeRecord]) -> Latency {
    let mut times: Vec<f64> = records.iter().map(|r| r.latency_ms).collect();
    times.sort_by(f64::total_cmp);
    Latency {
        mean: mean(&times),
        p50: percentile(&times, 0.5),
        p90: percentile(&times, 0.9),
        p99: percentile(&times, 0.99),
    }
}

/// `(bin low, count)` of the finite `values` in 10 equal bins between their extremes, one bin
/// when they are all equal, none when there are none.
fn histogram(values: &[f64]) -> Vec<(f64, u64)> {
    let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    let (Some(min), Some(max)) = (
        finite.iter().copied().reduce(f64::min),
        finite.iter().copied().reduce(f64::max),
    ) else {
        return Vec::new();
    };
    let width = (max - min) / REWARD_BINS as f64;
    if width <= 0.0 || !width.is_finite() {
        return vec![(min, finite.len() as u64)];
    }
    let mut bins: Vec<(f64, u64)> = (0..REWARD_BINS)
        .map(|i| (min + width * i as f64, 0))
        .collect();
    for v in finite {
        let bin = (((v - min) / width).floor() as usize).min(REWARD_BINS - 1);
        if let Some(slot) = bins.get_mut(bin) {
            slot.1 += 1;
        }
    }
    bins
}

/// Episodes by number of turns.
fn turns_histogram(records: &[&EpisodeRecord]) -> BTreeMap<u32, u64> {
    let mut counts = BTreeMap::new();
    for record in records {
        let turns = u32::try_from(record.turns.len()).unwrap_or(u32::MAX);
        *counts.entry(turns).or_insert(0) += 1;
    }
    counts
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::record::{EpisodeError, EpisodeKey, Start, Turn};
    use crate::settings::{EnvSettings, Sampling};
    use serde_json::{Map, json};

    /// Settings with the given env ids, 4 tasks each.
    pub(crate) fn settings(envs: &[&str], samples: u32) -> RunSettings {
        RunSettings {
            geode_version: "0.1.0".into(),
            base_url: "http://localhost:8000/v1".into(),
            model: "test-model".into(),
            sampling: Sampling {
                temperature: Some(0.7),
                top_p: None,
                max_tokens: Some(256),
                seed: Some(1),
            },
            system: Some("Be brief.".into()),
            max_turns: 4,
            samples,
            concurrency: 2,
            success_threshold: 1.0,
            env_seed: 0,
            seat: None,
            opponent: "random".into(),
            user_model: None,
            envs: envs
                .iter()
                .map(|id| EnvSettings {
                    id: (*id).into(),
                    tasks: 4,
                    config: json!({}),
                    wrappers: vec![],
                    component_sha256: None,
                })
                .collect(),
        }
    }

    fn turn(reward: f64) -> Turn {
        Turn {
            action: "a".into(),
            observation: "o".into(),
            reward,
            terminated: false,
            truncated: false,
            info: Map::new(),
            latency_ms: 1.0,
            usage: Usage {
                prompt_tokens: 10,
                completion_tokens: 2,
            },
            finish_reason: Some("stop".into()),
            token_ids: None,
            logprobs: None,
        }
    }

    /// A record of `turns` turns whose reward is `reward` (success at 1.0).
    pub(crate) fn record(
        env: &str,
        task: u64,
        sample: u32,
        reward: f64,
        turns: usize,
    ) -> EpisodeRecord {
        EpisodeRecord {
            key: EpisodeKey {
                env: env.into(),
                task,
                sample,
            },
            start: Start::Seed(task),
            messages: vec![],
            first_observation: "start".into(),
            reset_info: Map::new(),
            turns: (0..turns)
                .map(|_| turn(reward / turns.max(1) as f64))
                .collect(),
            reward,
            success: reward >= 1.0,
            ending: Ending::Terminated,
            error: None,
            retries: BTreeMap::new(),
            usage: Usage {
                prompt_tokens: 10 * turns as u64,
                completion_tokens: 2 * turns as u64,
            },
            latency_ms: 100.0 + (task * 10 + u64::from(sample)) as f64,
        }
    }

    /// Two envs, 3 tasks each, 2 samples per task, with failures, errors and retries.
    pub(crate) fn sample_records() -> Vec<EpisodeRecord> {
        let mut records = Vec::new();
        for (env, offset) in [("alpha", 0.0), ("beta", 0.5)] {
            for task in 0..3 {
                for sample in 0..2 {
                    let reward = if (task + u64::from(sample)) % 2 == 0 {
                        1.0
                    } else {
                        offset
                    };
                    records.push(record(env, task, sample, reward, 1 + task as usize));
                }
            }
        }
        records[1].ending = Ending::Error;
        records[1].error = Some(EpisodeError {
            kind: "timeout".into(),
            message: "slow".into(),
        });
        records[3].ending = Ending::MaxTurns;
        records[4].retries.insert("rate_limited".into(), 2);
        records[7].retries.insert("rate_limited".into(), 1);
        records[7].retries.insert("timeout".into(), 3);
        records
    }

    #[test]
    fn counts_and_means() {
        let s = summarize(&settings(&["alpha", "beta"], 2), &sample_records());
        let alpha = &s.envs["alpha"];
        assert_eq!(alpha.episodes, 6);
        assert_eq!(alpha.tasks, 3);
        assert_eq!(alpha.samples, 2);
        // Rewards 1,0 | 0,1 | 1,0.
        assert_eq!(alpha.mean_reward, 0.5);
        assert_eq!(alpha.success_rate, 0.5);
        assert_eq!(alpha.pass_at_k["1"], 0.5);
        assert_eq!(alpha.pass_at_k["2"], 1.0);
        assert_eq!(alpha.pass_at_k.len(), 2);
        assert_eq!(alpha.pass_hat_k["1"], 0.5);
        assert_eq!(alpha.pass_hat_k["2"], 0.0);
        assert_eq!(alpha.mean_turns, 2.0);
        assert_eq!(alpha.endings["terminated"], 4);
        assert_eq!(alpha.endings["error"], 1);
        assert_eq!(alpha.endings["max_turns"], 1);
        assert_eq!(alpha.errors, BTreeMap::from([("timeout".into(), 1)]));
        assert_eq!(alpha.retries, BTreeMap::from([("rate_limited".into(), 2)]));
        assert_eq!(alpha.usage.prompt_tokens, 120);
        assert_eq!(
            alpha.turns_histogram,
            BTreeMap::from([(1, 2), (2, 2), (3, 2)])
        );
        let beta = &s.envs["beta"];
        assert_eq!(beta.mean_reward, 0.75);
        assert_eq!(beta.retries["timeout"], 3);
        assert_eq!(beta.reward_histogram.first(), Some(&(0.5, 3)));
        let (last_low, last_count) = beta.reward_histogram.last().copied().unwrap_or_default();
        assert!((last_low - 0.95).abs() < 1e-12 && last_count == 3);
        assert_eq!(beta.reward_histogram.len(), 10);
        let overall = &s.overall;
        assert_eq!(overall.episodes, 12);
        assert_eq!(overall.tasks, 6); // (env, task) pairs
        assert_eq!(overall.mean_reward, 0.625);
        assert_eq!(overall.retries["rate_limited"], 3);
        assert_eq!(overall.usage.completion_tokens, 48);
        let [lo, hi] = overall.mean_reward_ci95;
        assert!(lo <= 0.625 && 0.625 <= hi && lo < hi, "{lo} {hi}");
        assert_eq!(s.model, "test-model");
        assert_eq!(s.settings.samples, 2);
    }

    #[test]
    fn pass_at_k_skips_tasks_with_too_few_samples() {
        // Task 0: 3 samples, 1 success; task 1: 1 sample, a success.
        let records = vec![
            record("e", 0, 0, 1.0, 1),
            record("e", 0, 1, 0.0, 1),
            record("e", 0, 2, 0.0, 1),
            record("e", 1, 0, 1.0, 1),
        ];
        let s = summarize(&settings(&["e"], 3), &records);
        let p = &s.envs["e"].pass_at_k;
        assert!((p["1"] - (1.0 / 3.0 + 1.0) / 2.0).abs() < 1e-12);
        assert!((p["2"] - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(p["3"], 1.0);
    }

    #[test]
    fn order_does_not_matter() {
        let settings = settings(&["alpha", "beta"], 2);
        let records = sample_records();
        let expected = summarize(&settings, &records);
        let mut reversed = records.clone();
        reversed.reverse();
        assert_eq!(summarize(&settings, &reversed), expected);
        let mut rotated = records;
        rotated.rotate_left(5);
        assert_eq!(summarize(&settings, &rotated), expected);
    }

    #[test]
    fn empty_input_is_all_zeros() {
        let s = summarize(&settings(&["alpha", "beta"], 3), &[]);
        assert_eq!(s.envs.len(), 2);
        for group in s.envs.values().chain([&s.overall]) {
            assert_eq!(group.episodes, 0);
            assert_eq!(group.tasks, 0);
            assert_eq!(group.mean_reward, 0.0);
            assert_eq!(group.mean_reward_ci95, [0.0, 0.0]);
            assert_eq!(group.success_rate_ci95, [0.0, 0.0]);
            assert!(group.pass_at_k.is_empty());
            assert_eq!(group.latency_ms, Latency::default());
            assert!(group.reward_histogram.is_empty());
        }
        let json = serde_json::to_string(&s.overall).unwrap_or_default();
        assert!(!json.contains("null") && !json.is_empty(), "{json}");
    }

    #[test]
    fn envs_without_episodes_and_unknown_envs_are_listed() {
        let s = summarize(
            &settings(&["alpha", "idle"], 1),
            &[record("stray", 0, 0, 1.0, 1)],
        );
        assert_eq!(
            s.envs.keys().collect::<Vec<_>>(),
            ["alpha", "idle", "stray"]
        );
        assert_eq!(s.envs["idle"].episodes, 0);
        assert_eq!(s.overall.episodes, 1);
    }

    #[test]
    fn equal_rewards_make_one_bin() {
        let records = vec![record("e", 0, 0, 0.5, 1), record("e", 1, 0, 0.5, 2)];
        let s = summarize(&settings(&["e"], 1), &records);
        assert_eq!(s.envs["e"].reward_histogram, vec![(0.5, 2)]);
    }

    #[test]
    fn without_timings_zeroes_only_latencies() {
        let settings = settings(&["alpha", "beta"], 2);
        let mut slow = sample_records();
        for record in &mut slow {
            record.latency_ms *= 3.0;
        }
        let fast = summarize(&settings, &sample_records());
        let slow = summarize(&settings, &slow);
        assert_ne!(fast, slow);
        assert_eq!(fast.without_timings(), slow.without_timings());
        assert_eq!(
            fast.without_timings().overall.latency_ms,
            Latency::default()
        );
        assert_eq!(
            fast.without_timings().overall.mean_reward,
            fast.overall.mean_reward
        );
    }

    #[test]
    fn latency_percentiles() {
        let records: Vec<EpisodeRecord> = (0..11).map(|t| record("e", t, 0, 0.0, 1)).collect();
        let s = summarize(&settings(&["e"], 1), &records);
        // Latencies 100, 110, ..., 200.
        let l = s.overall.latency_ms;
        assert_eq!((l.mean, l.p50, l.p90), (150.0, 150.0, 190.0));
        assert!((l.p99 - 199.0).abs() < 1e-9);
    }

    #[test]
    fn json_round_trip() {
        let s = summarize(&settings(&["alpha", "beta"], 2), &sample_records());
        let json = serde_json::to_string(&s).unwrap_or_default();
        let back: Summary = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
        assert_eq!(back.without_timings().envs.keys().len(), 2);
        assert_eq!(back.overall.pass_at_k, s.overall.pass_at_k);
        assert_eq!(
            back.envs["alpha"].reward_histogram,
            s.envs["alpha"].reward_histogram
        );
    }
}
