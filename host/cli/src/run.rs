//! `geode run`: random-policy episodes and their statistics.

use anyhow::Result;
use clap::Args;
use geode_runtime::Registry;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::Instant;

/// Arguments of `geode run`.
#[derive(Args)]
pub struct RunArgs {
    /// The env id, e.g. game:GuessTheNumber-v0-hard.
    id: String,
    /// How many episodes to play.
    #[arg(long, default_value_t = 100)]
    episodes: u64,
    /// Seed of the first episode; episode i uses seed + i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Configuration overrides, a JSON object (e.g. '{"max_turns": 10}').
    #[arg(long)]
    config: Option<String>,
    /// Safety cap on steps per episode.
    #[arg(long, default_value_t = 10_000)]
    max_steps: u64,
}

/// Totals over all episodes.
#[derive(Default)]
struct Totals {
    episodes: u64,
    successes: u64,
    steps: u64,
    return_sum: f64,
}

/// Plays `args.episodes` random-policy episodes and prints a summary table.
pub fn run(registry: &Registry, args: &RunArgs) -> Result<()> {
    let overrides = crate::parse_overrides(args.config.as_deref())?;
    let mut env = registry.make(&args.id, &overrides)?;
    let progress = progress_bar(args.episodes);
    let mut totals = Totals::default();
    let started = Instant::now();
    for episode in 0..args.episodes {
        env.reset(Some(args.seed + episode))?;
        let mut episode_return = 0.0;
        let mut last_reward = 0.0;
        for _ in 0..args.max_steps {
            let action = env.sample_random_action()?;
            let step = env.step(&action)?;
            totals.steps += 1;
            episode_return += step.reward;
            last_reward = step.reward;
            if step.done() {
                break;
            }
        }
        totals.episodes += 1;
        totals.return_sum += episode_return;
        totals.successes += u64::from(last_reward >= 1.0);
        progress.inc(1);
    }
    progress.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    print_summary(&args.id, &totals, seconds);
    Ok(())
}

fn progress_bar(episodes: u64) -> ProgressBar {
    if episodes < 500 || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(episodes);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} episodes  {per_sec}  eta {eta}")
            .expect("valid progress template"),
    );
    bar
}

fn print_summary(id: &str, totals: &Totals, seconds: f64) {
    let n = totals.episodes.max(1) as f64;
    println!("env            {id}");
    println!("policy         random (sample_random_action)");
    println!("episodes       {}", totals.episodes);
    println!("success rate   {:.3}", totals.successes as f64 / n);
    println!("mean return    {:.4}", totals.return_sum / n);
    println!("mean length    {:.2}", totals.steps as f64 / n);
    println!(
        "steps/s        {:.0}",
        totals.steps as f64 / seconds.max(1e-9)
    );
    println!("wall time      {seconds:.3} s");
}
