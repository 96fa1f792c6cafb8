//! `geode eval` (a model on envs through an OpenAI-compatible API) and `geode reverify` (re-grade
//! a stored run).

use anyhow::Result;
use clap::Args;
use geode_eval::EvalOptions;
use geode_eval::settings::Sampling;
use geode_runtime::{Limits, Registry};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Arguments of `geode eval`.
#[derive(Args)]
pub struct EvalArgs {
    /// The env ids to evaluate on, e.g. math:GSM8K game:GuessTheNumber-v0-hard.
    #[arg(required = true, value_name = "ID")]
    ids: Vec<String>,
    /// The API's base URL, e.g. http://127.0.0.1:8000/v1.
    #[arg(long)]
    base_url: String,
    /// The model name sent with each request.
    #[arg(long)]
    model: String,
    /// The environment variable holding the API key (sent as a bearer token).
    #[arg(long, value_name = "VAR")]
    api_key_env: Option<String>,
    /// Tasks per env: seeds `env-seed..env-seed+N`, or rows `0..N` of a dataset env (default:
    /// every row of a dataset env; required for other envs).
    #[arg(long)]
    episodes: Option<u64>,
    /// Episodes per task (pass@k is reported for every k up to it).
    #[arg(long, default_value_t = 1)]
    samples: u32,
    /// Episodes in flight at once.
    #[arg(long, default_value_t = 64)]
    concurrency: usize,
    /// Most model replies per episode.
    #[arg(long, default_value_t = 32)]
    max_turns: u32,
    /// Sampling temperature.
    #[arg(long)]
    temperature: Option<f64>,
    /// Nucleus sampling.
    #[arg(long)]
    top_p: Option<f64>,
    /// Most tokens per reply.
    #[arg(long)]
    max_tokens: Option<u32>,
    /// Base of the requests' `seed`: episode i of the run sends seed + i.
    #[arg(long)]
    seed: Option<u64>,
    /// Seed of the first task of a seeded env (task t resets with env-seed + t).
    #[arg(long, default_value_t = 0)]
    env_seed: u64,
    /// A system message put first in every chat.
    #[arg(long)]
    system: Option<String>,
    /// Env configuration overrides, a JSON object applied to every id.
    #[arg(long)]
    config: Option<String>,
    /// Wrappers by GEM's names, comma-separated, in order (e.g. python_tool).
    #[arg(long, value_delimiter = ',')]
    wrappers: Vec<String>,
    /// An episode whose total reward reaches this counts as a success.
    #[arg(long, default_value_t = 1.0)]
    success_threshold: f64,
    /// The output directory.
    #[arg(long, default_value = "geode-eval")]
    out: PathBuf,
    /// Continue the run in --out (after Ctrl-C, a crash or kill -9): finished episodes are kept.
    #[arg(long)]
    resume: bool,
    /// Stream replies (server-sent events).
    #[arg(long)]
    stream: bool,
    /// Most seconds one request may take.
    #[arg(long, default_value_t = 120.0)]
    timeout: f64,
    /// Retries of a request that failed in a way that may pass (429, 5xx, timeouts, dropped
    /// connections, malformed replies).
    #[arg(long, default_value_t = 8)]
    max_retries: u32,
    /// First backoff between retries, in seconds (doubles each time; a Retry-After header wins).
    #[arg(long, default_value_t = 0.5)]
    backoff: f64,
    /// Extra CA certificates (PEM) to trust beside the system's.
    #[arg(long)]
    ca_cert: Option<PathBuf>,
    /// Speak HTTP/2 to a plain-HTTP server (h2c); over HTTPS HTTP/2 is negotiated anyway.
    #[arg(long)]
    http2: bool,
    /// Ask for the tokens' logprobs and store them.
    #[arg(long)]
    logprobs: bool,
    /// Ask for the generated token ids (vLLM's return_token_ids) and store them.
    #[arg(long)]
    return_token_ids: bool,
    /// Fuel per env call (deterministic CPU budget).
    #[arg(long)]
    fuel: Option<u64>,
    /// The agent the model plays in a multi-agent env (default: the first in turn order).
    #[arg(long)]
    seat: Option<String>,
    /// The policy of the other agents of a multi-agent env.
    #[arg(long, default_value = "random")]
    opponent: String,
    /// A model that plays the other agents of a multi-agent env instead of `--opponent` (the
    /// simulated customer of `tau:*` envs).
    #[arg(long)]
    user_model: Option<String>,
    /// The user model's server (default: `--base-url`).
    #[arg(long)]
    user_base_url: Option<String>,
    /// The user model's temperature (default: the server's).
    #[arg(long)]
    user_temperature: Option<f64>,
    /// The environment variable holding the user model's API key (default: `--api-key-env`'s
    /// key when both share a server).
    #[arg(long)]
    user_api_key_env: Option<String>,
}

/// Arguments of `geode reverify`.
#[derive(Args)]
pub struct ReverifyArgs {
    /// A `geode eval` output directory.
    dir: PathBuf,
    /// Fuel per env call (deterministic CPU budget).
    #[arg(long, default_value_t = 10_000_000_000)]
    fuel: u64,
}

/// Runs `geode eval`.
pub fn eval(registry: Registry, args: &EvalArgs) -> Result<()> {
    let mut options = EvalOptions::new(args.ids.clone(), args.base_url.clone(), args.model.clone());
    options.api_key_env = args.api_key_env.clone();
    options.episodes = args.episodes;
    options.samples = args.samples;
    options.concurrency = args.concurrency;
    options.max_turns = args.max_turns;
    options.sampling = Sampling {
        temperature: args.temperature,
        top_p: args.top_p,
        max_tokens: args.max_tokens,
        seed: args.seed,
    };
    options.env_seed = args.env_seed;
    options.system = args.system.clone();
    options.config = crate::parse_overrides(args.config.as_deref())?;
    options.wrappers = args.wrappers.clone();
    options.success_threshold = args.success_threshold;
    options.out = args.out.clone();
    options.resume = args.resume;
    options.stream = args.stream;
    options.timeout = Duration::from_secs_f64(args.timeout.max(0.001));
    options.max_retries = args.max_retries;
    options.backoff = Duration::from_secs_f64(args.backoff.max(0.0));
    options.ca_cert = args.ca_cert.clone();
    options.http2 = args.http2;
    options.logprobs = args.logprobs;
    options.return_token_ids = args.return_token_ids;
    options.fuel = args.fuel;
    options.seat = args.seat.clone();
    options.opponent = args.opponent.clone();
    options.user_model = args.user_model.clone();
    options.user_base_url = args.user_base_url.clone();
    options.user_temperature = args.user_temperature;
    options.user_api_key_env = args.user_api_key_env.clone();
    options.progress = std::io::stderr().is_terminal();
    options.catch_ctrl_c = true;
    let run = options.into_run(&registry)?;
    let summary = geode_eval::run(Arc::new(registry), run)?;
    for (id, group) in &summary.envs {
        println!(
            "{id}: {} episodes, mean reward {:.4} [{:.4}, {:.4}], success {:.4}",
            group.episodes,
            group.mean_reward,
            group.mean_reward_ci95[0],
            group.mean_reward_ci95[1],
            group.success_rate
        );
        if group.samples > 1 {
            let ks = |values: &std::collections::BTreeMap<String, f64>| {
                values
                    .iter()
                    .map(|(k, v)| format!("{k}: {v:.4}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            println!(
                "  pass@k {{{}}}  pass^k {{{}}}",
                ks(&group.pass_at_k),
                ks(&group.pass_hat_k)
            );
        }
    }
    println!(
        "wrote {} (trajectories.jsonl, summary.json, report.html)",
        args.out.display()
    );
    Ok(())
}

/// Runs `geode reverify`.
pub fn reverify(registry: Registry, args: &ReverifyArgs) -> Result<()> {
    let limits = Limits {
        fuel_per_call: Some(args.fuel),
        ..Limits::default()
    };
    let verdicts = geode_eval::reverify::reverify(&registry, &args.dir, &limits)?;
    for changed in &verdicts.changed {
        println!(
            "changed {} task {} sample {}: reward {} -> {}, success {} -> {} ({})",
            changed.key.env,
            changed.key.task,
            changed.key.sample,
            changed.stored_reward,
            changed.replayed_reward,
            changed.stored_success,
            changed.replayed_success,
            changed.detail
        );
    }
    println!(
        "{} episodes replayed, {} changed; successes {} stored, {} replayed (written to {})",
        verdicts.episodes,
        verdicts.changed.len(),
        verdicts.stored_successes,
        verdicts.replayed_successes,
        args.dir.join(geode_eval::reverify::REVERIFY_FILE).display()
    );
    Ok(())
}
