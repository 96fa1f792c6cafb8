//! `geode play`: actions from stdin, observations to stdout.

use anyhow::Result;
use clap::Args;
use geode_runtime::{Env, Registry};
use std::io::{BufRead, Write};

/// Arguments of `geode play`.
#[derive(Args)]
pub struct PlayArgs {
    /// The env id.
    id: String,
    /// Seed of the episode.
    #[arg(long)]
    seed: Option<u64>,
    /// Configuration overrides, a JSON object.
    #[arg(long)]
    config: Option<String>,
}

/// Plays one episode per reset; each stdin line is an action. `:random` plays a random action,
/// `:reset` starts over, end of input stops.
pub fn play(registry: &Registry, args: &PlayArgs) -> Result<()> {
    let overrides = crate::parse_overrides(args.config.as_deref())?;
    let mut env = registry.make(&args.id, &overrides)?;
    let first = env.reset(args.seed)?;
    println!("{}", first.observation);
    let stdin = std::io::stdin();
    let mut total = 0.0;
    prompt()?;
    for line in stdin.lock().lines() {
        let line = line?;
        let action = match line.trim() {
            ":reset" => {
                total = 0.0;
                println!("{}", env.reset(None)?.observation);
                prompt()?;
                continue;
            }
            ":random" => env.sample_random_action()?,
            _ => line,
        };
        let step = env.step(&action)?;
        total += step.reward;
        println!("{}", step.observation);
        println!(
            "[reward {} | return {total} | terminated {} | truncated {}]",
            step.reward, step.terminated, step.truncated
        );
        if step.done() {
            println!("episode over; type :reset to play again");
        }
        prompt()?;
    }
    Ok(())
}

fn prompt() -> Result<()> {
    print!("> ");
    std::io::stdout().flush()?;
    Ok(())
}
