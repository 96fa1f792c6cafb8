//! A conformance suite every env plugin must pass.
//!
//! [`check_env`] makes env `id` from a [`Registry`] and runs a fixed set of small checks on it:
//! seeded replay, episodes that end, random actions that are accepted, garbage actions handled
//! as ordinary steps, state snapshots that round-trip, and infos that are JSON objects. Each
//! check becomes one line of the [`CheckReport`]; the suite never panics, a failure names the
//! id, the check and what differed.
//!
//! ```no_run
//! use geode_runtime::conformance::{CheckOptions, check_env};
//! use geode_runtime::{Registry, Runtime};
//!
//! let mut registry = Registry::empty(Runtime::new()?);
//! registry.add_file(std::path::Path::new("my_env.wasm"))?;
//! let report = check_env(&registry, "my:Env-v0", &CheckOptions::default());
//! print!("{report}");
//! assert!(report.passed());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::{Env, Limits, Registry, ResetOutput, StepOutput};
use serde_json::{Map, Value};
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// How hard [`check_env`] pushes an env. The defaults take well under a second per text game.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// Seeds of the replay, episode, state and info checks (at least two to compare seeds).
    pub seeds: Vec<u64>,
    /// Random-action steps per seed in the replay and random-action checks.
    pub replay_steps: usize,
    /// Steps a random-action episode may take before it must have ended.
    pub max_steps: usize,
    /// Random steps taken before the state snapshot.
    pub state_prefix_steps: usize,
    /// Steps compared after restoring the snapshot.
    pub state_steps: usize,
    /// Limits every checked env runs under (the garbage action respects `max_action_bytes`).
    pub limits: Limits,
    /// Configuration overrides for every env made (a JSON object, or null).
    pub overrides: Value,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            seeds: vec![0, 1, 2, 3],
            replay_steps: 20,
            max_steps: 1000,
            state_prefix_steps: 2,
            state_steps: 4,
            limits: Limits::default(),
            overrides: Value::Null,
        }
    }
}

/// The outcome of one check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckOutcome {
    /// The env id checked.
    pub id: String,
    /// The check's name (`replay`, `garbage-actions`...).
    pub check: &'static str,
    /// `None` when the check passed, else what went wrong.
    pub failure: Option<String>,
}

impl CheckOutcome {
    /// True when the check passed.
    pub fn passed(&self) -> bool {
        self.failure.is_none()
    }
}

impl fmt::Display for CheckOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.failure {
            None => write!(f, "ok    {} {}", self.id, self.check),
            Some(reason) => write!(f, "FAIL  {} {}: {reason}", self.id, self.check),
        }
    }
}

/// Every check run on one env id, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckReport {
    /// The env id checked.
    pub id: String,
    /// One outcome per check.
    pub checks: Vec<CheckOutcome>,
}

impl CheckReport {
    /// True when every check passed.
    pub fn passed(&self) -> bool {
        self.checks.iter().all(CheckOutcome::passed)
    }

    /// The checks that failed.
    pub fn failures(&self) -> impl Iterator<Item = &CheckOutcome> {
        self.checks.iter().filter(|c| !c.passed())
    }
}

impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for check in &self.checks {
            writeln!(f, "{check}")?;
        }
        Ok(())
    }
}

/// What one check returns: `Err` carries the reason it failed.
type Verdict = Result<(), String>;

/// A check: its name and the function running it.
type Check = (&'static str, fn(&Ctx) -> Verdict);

/// The checks, in the order they run.
const CHECKS: &[Check] = &[
    ("replay", check_replay),
    ("episodes-end", check_episodes_end),
    ("random-actions", check_random_actions),
    ("garbage-actions", check_garbage_actions),
    ("state-round-trip", check_state_round_trip),
    ("info-objects", check_info_objects),
];

/// Runs every conformance check on env `id` and reports each as passed or failed.
///
/// If the env cannot even be made (unknown id, not an env, bad config, `create` fails), the
/// report holds that single failed `make` check.
pub fn check_env(registry: &Registry, id: &str, options: &CheckOptions) -> CheckReport {
    let ctx = Ctx {
        registry,
        id,
        options,
    };
    let outcome = |check: &'static str, verdict: Verdict| CheckOutcome {
        id: id.to_owned(),
        check,
        failure: verdict.err(),
    };
    let made = guarded(|| ctx.make().map(drop));
    if made.is_err() {
        return CheckReport {
            id: id.to_owned(),
            checks: vec![outcome("make", made)],
        };
    }
    let checks = CHECKS
        .iter()
        .map(|(name, run)| outcome(name, guarded(|| run(&ctx))))
        .collect();
    CheckReport {
        id: id.to_owned(),
        checks,
    }
}

/// Runs `check`, turning a host-side panic into a failure so the suite itself never panics.
fn guarded(check: impl FnOnce() -> Verdict) -> Verdict {
    catch_unwind(AssertUnwindSafe(check)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("a panic without a message");
        Err(format!("the check panicked on the host: {message}"))
    })
}

/// What every check needs: the registry, the id and the options.
struct Ctx<'a> {
    registry: &'a Registry,
    id: &'a str,
    options: &'a CheckOptions,
}

impl Ctx<'_> {
    /// A fresh env of the checked id (from a plugin, or one the host provides natively).
    fn make(&self) -> Result<Box<dyn Env>, String> {
        let options = crate::MakeOptions::overrides(self.options.overrides.clone())
            .with_limits(self.options.limits.clone());
        self.registry
            .make(self.id, options)
            .map_err(|e| format!("making a fresh env failed: {e}"))
    }
}

/// Labels an error with where it happened: `seed 3, step 2: <error>`.
fn at<E: fmt::Display>(place: impl fmt::Display) -> impl FnOnce(E) -> String {
    move |error| format!("{place}: {error}")
}

/// Shortens `text` for a failure message, escaping control characters.
fn preview(text: &str) -> String {
    const MAX: usize = 100;
    let escaped: String = text
        .chars()
        .take(MAX)
        .collect::<String>()
        .escape_debug()
        .to_string();
    if text.chars().nth(MAX).is_some() {
        format!("\"{escaped}\"… ({} bytes)", text.len())
    } else {
        format!("\"{escaped}\"")
    }
}

/// Which part of two step outputs differs, if any.
fn step_difference(a: &StepOutput, b: &StepOutput) -> Option<String> {
    if a.observation != b.observation {
        Some(format!(
            "observations differ: {} vs {}",
            preview(&a.observation),
            preview(&b.observation)
        ))
    } else if a.reward.to_bits() != b.reward.to_bits() {
        Some(format!("rewards differ: {} vs {}", a.reward, b.reward))
    } else if (a.terminated, a.truncated) != (b.terminated, b.truncated) {
        Some(format!(
            "flags differ: terminated {} truncated {} vs terminated {} truncated {}",
            a.terminated, a.truncated, b.terminated, b.truncated
        ))
    } else if a.info != b.info {
        Some(format!(
            "infos differ: {} vs {}",
            preview(a.info.as_json()),
            preview(b.info.as_json())
        ))
    } else {
        None
    }
}

/// One event of a random-action rollout.
#[derive(Debug, Clone, PartialEq)]
enum Event {
    Reset(ResetOutput),
    Action(String),
    Step(StepOutput),
}

/// Which part of two events differs, if any.
fn event_difference(a: &Event, b: &Event) -> Option<String> {
    match (a, b) {
        (Event::Reset(a), Event::Reset(b)) if a.observation != b.observation => Some(format!(
            "reset observations differ: {} vs {}",
            preview(&a.observation),
            preview(&b.observation)
        )),
        (Event::Reset(a), Event::Reset(b)) if a.info != b.info => Some(format!(
            "reset infos differ: {} vs {}",
            preview(a.info.as_json()),
            preview(b.info.as_json())
        )),
        (Event::Action(a), Event::Action(b)) if a != b => Some(format!(
            "sampled random actions differ: {} vs {}",
            preview(a),
            preview(b)
        )),
        (Event::Step(a), Event::Step(b)) => step_difference(a, b),
        (a, b) if a != b => Some(format!("events differ: {a:?} vs {b:?}")),
        _ => None,
    }
}

/// A fresh env reset with `seed`, then up to `steps` random-action steps (until the episode ends).
fn rollout(ctx: &Ctx, seed: u64, steps: usize) -> Result<Vec<Event>, String> {
    let mut env = ctx.make()?;
    let reset = env
        .reset(Some(seed))
        .map_err(at(format!("seed {seed}, reset")))?;
    let mut trace = vec![Event::Reset(reset)];
    for n in 1..=steps {
        let place = format!("seed {seed}, step {n}");
        let action = env.sample_random_action().map_err(at(&place))?;
        let step = env.step(&action).map_err(at(&place))?;
        let done = step.done();
        trace.extend([Event::Action(action), Event::Step(step)]);
        if done {
            break;
        }
    }
    Ok(trace)
}

/// The same seed replays exactly on two fresh envs; different seeds do not all play alike.
fn check_replay(ctx: &Ctx) -> Verdict {
    let steps = ctx.options.replay_steps;
    let mut traces = Vec::new();
    for &seed in &ctx.options.seeds {
        let first = rollout(ctx, seed, steps)?;
        let second = rollout(ctx, seed, steps)?;
        if first.len() != second.len() {
            return Err(format!(
                "seed {seed}: the first run has {} events, the replay {}",
                first.len(),
                second.len()
            ));
        }
        let differing = first.iter().zip(&second).enumerate();
        for (index, (a, b)) in differing {
            if let Some(what) = event_difference(a, b) {
                return Err(format!("seed {seed}, event {index} of the replay: {what}"));
            }
        }
        traces.push(first);
    }
    if traces.len() > 1 && traces.iter().all(|t| *t == traces[0]) {
        return Err(format!(
            "seeds {:?} all play exactly alike ({} events each): the seed never reaches the env",
            ctx.options.seeds,
            traces[0].len()
        ));
    }
    Ok(())
}

/// Random-action episodes end (terminated or truncated) within `max_steps` for every seed.
fn check_episodes_end(ctx: &Ctx) -> Verdict {
    let mut env = ctx.make()?;
    let max_steps = ctx.options.max_steps;
    for &seed in &ctx.options.seeds {
        env.reset(Some(seed))
            .map_err(at(format!("seed {seed}, reset")))?;
        let mut ended = false;
        for n in 1..=max_steps {
            let place = format!("seed {seed}, step {n}");
            let action = env.sample_random_action().map_err(at(&place))?;
            if env.step(&action).map_err(at(&place))?.done() {
                ended = true;
                break;
            }
        }
        if !ended {
            return Err(format!(
                "seed {seed}: a random-action episode was neither terminated nor truncated after \
                 {max_steps} steps"
            ));
        }
    }
    Ok(())
}

/// Stepping what `sample_random_action` returns never errors, across episodes started with
/// both seeded and unseeded resets.
fn check_random_actions(ctx: &Ctx) -> Verdict {
    let mut env = ctx.make()?;
    for &seed in &ctx.options.seeds {
        env.reset(Some(seed))
            .map_err(at(format!("seed {seed}, reset")))?;
        for n in 1..=ctx.options.replay_steps {
            let place = format!("seed {seed}, step {n}");
            let action = env.sample_random_action().map_err(at(&place))?;
            let step = env
                .step(&action)
                .map_err(at(format!("{place}, random action {}", preview(&action))))?;
            if step.done() {
                env.reset(None)
                    .map_err(at(format!("{place}, unseeded reset")))?;
            }
        }
    }
    Ok(())
}

/// The garbage actions, each with a label; the big ones are 1 MB or the action limit if smaller.
fn garbage_actions(max_action_bytes: usize) -> Vec<(&'static str, String)> {
    let big_len = (1 << 20).min(max_action_bytes);
    let pattern = "lorem ipsum 42 \\boxed{ [x] {} (7, 3) \u{0}\n";
    let big: String = pattern
        .bytes()
        .cycle()
        .take(big_len)
        .map(char::from)
        .collect();
    // A well-formed answer of huge size: games that echo a guess must not echo it whole.
    let big_boxed = format!("\\boxed{{{}}}", "e".repeat(big_len.saturating_sub(8)));
    let odd = "\u{0}\u{1}\u{7}\u{8}\u{1b}[31m\u{7f}\r\n\t\u{85}\u{a0}\u{ad}\u{200b}\u{200d}\
               \u{202e}\u{2028}\u{feff}\u{fffd}\u{fffe}\u{ffff}\u{1f600}\u{1f468}\u{200d}\u{1f469}\
               e\u{301}\u{10ffff}\\boxed{\u{0}\u{ff10}\u{0663}}";
    vec![
        ("empty", String::new()),
        ("random garbage", random_garbage(0x5eed, 512)),
        ("big", big),
        ("big \\boxed{} word", big_boxed),
        ("control characters and odd Unicode", odd.to_owned()),
        ("unclosed \\boxed{", "\\boxed{".to_owned()),
        (
            "unclosed \\boxed{ with content",
            "my answer is \\boxed{12 and".to_owned(),
        ),
    ]
}

/// `len` characters drawn from printable ASCII and a few multi-byte ones by a fixed xorshift.
fn random_garbage(seed: u64, len: usize) -> String {
    const EXTRA: [char; 6] = ['é', 'ß', '漢', '🦀', '\u{3000}', '\\'];
    let mut state = seed | 1;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            match state % 100 {
                k @ 0..6 => EXTRA[k as usize],
                k => char::from(b' ' + (k % 95) as u8),
            }
        })
        .collect()
}

/// Garbage actions are ordinary steps (never a trap or typed error), and the env still works
/// after each one (reset, then a random-action step).
fn check_garbage_actions(ctx: &Ctx) -> Verdict {
    let mut env = ctx.make()?;
    let seed = ctx.options.seeds.first().copied().unwrap_or(0);
    for (label, action) in garbage_actions(ctx.options.limits.max_action_bytes) {
        let what = format!("{label} action {}", preview(&action));
        env.reset(Some(seed))
            .map_err(at(format!("reset before the {what}")))?;
        env.step(&action)
            .map_err(at(format!("the {what} was not a normal step")))?;
        env.reset(Some(seed))
            .map_err(at(format!("reset after the {what}")))?;
        let random = env
            .sample_random_action()
            .map_err(at(format!("sampling after the {what}")))?;
        env.step(&random)
            .map_err(at(format!("a random step after the {what}")))?;
    }
    Ok(())
}

/// Random actions for one episode of `seed`, at most `steps` of them (fewer if it ends).
fn recorded_actions(ctx: &Ctx, seed: u64, steps: usize) -> Result<Vec<String>, String> {
    Ok(rollout(ctx, seed, steps)?
        .into_iter()
        .filter_map(|event| match event {
            Event::Action(action) => Some(action),
            _ => None,
        })
        .collect())
}

/// A snapshot taken mid-episode and restored into a fresh env (`set_state`) or a twin
/// (`spawn(true)`) gives the same next steps as the original for a fixed action sequence.
fn check_state_round_trip(ctx: &Ctx) -> Verdict {
    let (prefix, after) = (ctx.options.state_prefix_steps, ctx.options.state_steps);
    for &seed in &ctx.options.seeds {
        let actions = recorded_actions(ctx, seed, prefix + after)?;
        // Snapshot before the last action at the latest, so at least one step is compared.
        let cut = prefix.min(actions.len().saturating_sub(1));
        let mut original = play_prefix(ctx, seed, &actions[..cut])?;
        let state = original
            .get_state()
            .map_err(at(format!("seed {seed}, get_state after step {cut}")))?;
        let mut restored = ctx.make()?;
        restored
            .set_state(&state)
            .map_err(at(format!("seed {seed}, set_state into a fresh env")))?;
        let mut twin = original
            .spawn(true)
            .map_err(at(format!("seed {seed}, spawn(true)")))?;
        let mut copies: [(&str, &mut dyn Env); 2] =
            [("set_state", &mut *restored), ("spawn(true)", &mut *twin)];
        compare_continuations(seed, cut, &actions[cut..], &mut *original, &mut copies)?;
    }
    Ok(())
}

/// A fresh env reset with `seed` and stepped through `actions` exactly as [`rollout`] played
/// them (sampling before each step, since sampling may draw from the env's randomness).
fn play_prefix(ctx: &Ctx, seed: u64, actions: &[String]) -> Result<Box<dyn Env>, String> {
    let mut env = ctx.make()?;
    env.reset(Some(seed))
        .map_err(at(format!("seed {seed}, reset")))?;
    for (n, recorded) in (1..).zip(actions) {
        let place = format!("seed {seed}, step {n}");
        let sampled = env.sample_random_action().map_err(at(&place))?;
        if sampled != *recorded {
            return Err(format!(
                "{place}: the random action {} differs from {} sampled in an earlier run of the \
                 same seed",
                preview(&sampled),
                preview(recorded)
            ));
        }
        if env.step(recorded).map_err(at(&place))?.done() {
            return Err(format!(
                "{place}: the episode ended before the snapshot, though the same actions did \
                 not end it in an earlier run of the same seed"
            ));
        }
    }
    Ok(env)
}

/// Steps the original and its labelled copies (`set_state`, `spawn(true)`) with the same
/// actions and checks every step agrees.
fn compare_continuations(
    seed: u64,
    cut: usize,
    actions: &[String],
    original: &mut dyn Env,
    copies: &mut [(&str, &mut dyn Env)],
) -> Verdict {
    for (k, action) in actions.iter().enumerate() {
        let place = format!("seed {seed}, step {} after a snapshot at step {cut}", k + 1);
        let expected = original
            .step(action)
            .map_err(at(format!("{place}, original env")))?;
        for (how, copy) in copies.iter_mut() {
            let got = copy
                .step(action)
                .map_err(at(format!("{place}, env restored by {how}")))?;
            if let Some(what) = step_difference(&expected, &got) {
                return Err(format!(
                    "{place}: the env restored by {how} differs from the original: {what}"
                ));
            }
        }
        if expected.done() {
            break;
        }
    }
    Ok(())
}

/// Whether `json` parses as a JSON object (what [`crate::Info::to_map`] needs).
fn is_object(json: &str) -> Result<(), String> {
    serde_json::from_str::<Map<String, Value>>(json)
        .map(drop)
        .map_err(|e| format!("info is not a JSON object ({e}): {}", preview(json)))
}

/// Every info of random-action episodes (reset and step) is a JSON object.
fn check_info_objects(ctx: &Ctx) -> Verdict {
    for &seed in &ctx.options.seeds {
        for (index, event) in rollout(ctx, seed, ctx.options.max_steps)?
            .iter()
            .enumerate()
        {
            // Events run reset, action 1, step 1, action 2, step 2...
            let (place, info) = match event {
                Event::Reset(reset) => ("reset".to_owned(), &reset.info),
                Event::Step(step) => (format!("step {}", index / 2), &step.info),
                Event::Action(_) => continue,
            };
            is_object(info.as_json()).map_err(at(format!("seed {seed}, {place}")))?;
        }
    }
    Ok(())
}
