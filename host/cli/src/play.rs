//! `geode play`: actions from stdin, observations to stdout.

use anyhow::Result;
use clap::Args;
use geode_runtime::{Env, Registry};
use serde_json::{Value, json};
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
    /// Machine mode: each input line is JSON (an action string, or `{"reset": seed-or-null}`),
    /// and each reset or step prints one JSON object.
    #[arg(long)]
    json: bool,
}

/// Plays one episode per reset; each stdin line is an action (a pasted fenced code block is one
/// action, however many lines it has). `:random` plays a random action,
/// `:reset` starts over, end of input stops.
pub fn play(registry: &Registry, args: &PlayArgs) -> Result<()> {
    let overrides = crate::parse_overrides(args.config.as_deref())?;
    let mut env = registry.make(&args.id, &overrides)?;
    if args.json {
        return play_json(&mut *env, args.seed);
    }
    let first = env.reset(args.seed)?;
    println!("{}", first.observation);
    let stdin = std::io::stdin();
    let mut total = 0.0;
    prompt()?;
    let mut lines = stdin.lock().lines();
    while let Some(line) = next_action(&mut lines)? {
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

/// The next action typed: one line, or every line up to the one closing a code fence the first
/// opened (so a pasted ```python block reaches a code env whole). `None` at end of input.
fn next_action(
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
) -> Result<Option<String>> {
    let Some(first) = lines.next() else {
        return Ok(None);
    };
    let mut action = first?;
    while action.matches("```").count() % 2 == 1 {
        match lines.next() {
            Some(line) => {
                action.push('\n');
                action.push_str(&line?);
            }
            None => break,
        }
    }
    Ok(Some(action))
}

fn prompt() -> Result<()> {
    print!("> ");
    std::io::stdout().flush()?;
    Ok(())
}

/// The `--json` protocol: JSON lines in, JSON lines out (for scripts comparing envs).
fn play_json(env: &mut dyn Env, seed: Option<u64>) -> Result<()> {
    let emit_reset = |env: &mut dyn Env, seed: Option<u64>| -> Result<()> {
        let out = env.reset(seed)?;
        let line = json!({"observation": out.observation, "info": out.info.to_map()});
        println!("{line}");
        Ok(())
    };
    emit_reset(env, seed)?;
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(&line)? {
            Value::String(action) => {
                let step = env.step(&action)?;
                let line = json!({
                    "observation": step.observation,
                    "reward": step.reward,
                    "terminated": step.terminated,
                    "truncated": step.truncated,
                    "info": step.info.to_map(),
                });
                println!("{line}");
            }
            Value::Object(command) if command.contains_key("reset") => {
                emit_reset(env, command["reset"].as_u64())?;
            }
            other => anyhow::bail!("expected an action string or {{\"reset\": seed}}, got {other}"),
        }
    }
    Ok(())
}
