//! A whole run: check the output directory (a new run, or `--resume` of the same one), play the
//! episodes not done yet with bounded concurrency, append each as it finishes, then write the
//! episodes in order, `summary.json` and `report.html`.

use crate::client::{ChatClient, ChatOptions, ClientSettings};
use crate::envs::EnvWorkers;
use crate::episode::{EpisodeContext, Outcome, play};
use crate::log::TrajectoryLog;
use crate::plan::{self, Planned};
use crate::record::{EpisodeKey, EpisodeRecord};
use crate::seat::{ModelPlayer, Permits};
use crate::settings::RunSettings;
use crate::summary::{Summary, summarize};
use anyhow::Context;
use geode_runtime::{Limits, Registry};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

/// The file name of a run's settings in its output directory.
pub const RUN_FILE: &str = "run.json";
/// The file name of the summary.
pub const SUMMARY_FILE: &str = "summary.json";
/// The file name of the report.
pub const REPORT_FILE: &str = "report.html";

/// Everything a run needs.
#[derive(Debug, Clone)]
pub struct EvalRun {
    /// What to run (the envs' component hashes are filled in by the run).
    pub settings: RunSettings,
    /// How to reach the server.
    pub client: ClientSettings,
    /// How to reach the server of `settings.user_model`, when one plays the other agents.
    pub user_client: Option<ClientSettings>,
    /// The output directory.
    pub out: PathBuf,
    /// Continue the run already in `out` instead of refusing to overwrite it.
    pub resume: bool,
    /// Ask for logprobs.
    pub logprobs: bool,
    /// Ask for token ids (vLLM's `return_token_ids`).
    pub return_token_ids: bool,
    /// Show a progress bar on stderr (when it is a terminal).
    pub progress: bool,
    /// Limits of every env call.
    pub limits: Limits,
    /// Stop at Ctrl-C, keeping the finished episodes (the CLI; an embedding host handles its
    /// own signals).
    pub catch_ctrl_c: bool,
}

/// Why a run stopped before its end.
#[derive(Debug, thiserror::Error)]
pub enum Stopped {
    /// The server refused in a way no retry mends.
    #[error(
        "the server refused the request: {0} (the episodes finished so far are kept; fix the cause and pass --resume)"
    )]
    Refused(String),
    /// Ctrl-C.
    #[error("interrupted after {done} of {total} episodes; `--resume` continues the run")]
    Interrupted {
        /// Episodes finished, this run and earlier ones.
        done: usize,
        /// Episodes of the run.
        total: usize,
    },
}

/// The model that plays the other agents of multi-agent envs, when the run names one; its
/// requests run on `runtime`.
fn user_player(
    run: &EvalRun,
    runtime: &tokio::runtime::Handle,
    cores: usize,
) -> anyhow::Result<Option<Arc<ModelPlayer>>> {
    let (Some(user), Some(client)) = (&run.settings.user_model, &run.user_client) else {
        return Ok(None);
    };
    Ok(Some(Arc::new(ModelPlayer {
        client: ChatClient::new(client.clone()).context("the user model's client")?,
        options: ChatOptions {
            model: user.model.clone(),
            sampling: user.sampling.clone(),
            logprobs: false,
            return_token_ids: false,
        },
        runtime: runtime.clone(),
        guest_permits: Permits::new(cores),
    })))
}

/// Runs `run` to its end and returns the summary it wrote.
pub fn run(registry: Arc<Registry>, mut run: EvalRun) -> anyhow::Result<Summary> {
    let mut dataset_envs = Vec::new();
    for env in &mut run.settings.envs {
        dataset_envs.push(plan::is_dataset_env(&registry, &env.id)?);
        env.component_sha256 = plan::component_sha256(&registry, &env.id)?;
    }
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads)
        .enable_all()
        .build()?;
    let player = user_player(&run, runtime.handle(), threads)?;
    // A worker waits for the user model's reply inside an env call: one per episode in flight.
    let env_threads = match player {
        Some(_) => threads.max(run.settings.concurrency),
        None => threads,
    };
    let recipes = plan::recipes(&registry, &run.settings, &run.limits, player)?;
    std::fs::create_dir_all(&run.out)
        .with_context(|| format!("creating the output directory {}", run.out.display()))?;
    check_directory(&run)?;
    let (log, mut done) = TrajectoryLog::open(&run.out)?;
    let planned = plan::episodes(&run.settings, &dataset_envs);
    done.retain(|key, _| planned.iter().any(|p| &p.key == key));
    let todo: Vec<Planned> = planned
        .iter()
        .filter(|p| !done.contains_key(&p.key))
        .cloned()
        .collect();
    let workers = EnvWorkers::new(Arc::clone(&registry), recipes, env_threads)?;
    for env in &run.settings.envs {
        workers.prepare(&env.id)?;
    }
    let ctx = Arc::new(EpisodeContext {
        client: ChatClient::new(run.client.clone())?,
        options: ChatOptions {
            model: run.settings.model.clone(),
            sampling: run.settings.sampling.clone(),
            logprobs: run.logprobs,
            return_token_ids: run.return_token_ids,
        },
        system: run.settings.system.clone(),
        max_turns: run.settings.max_turns,
        success_threshold: run.settings.success_threshold,
        seed: run.settings.sampling.seed,
    });
    let progress = progress_bar(&run, planned.len() as u64, &done);
    let finished = runtime.block_on(play_all(
        ctx,
        workers,
        todo,
        log,
        progress.clone(),
        run.settings.concurrency,
        run.catch_ctrl_c,
    ));
    progress.finish_and_clear();
    let (log, new_records, stop) = finished?;
    done.extend(new_records);
    if let Some(stop) = stop {
        return Err(match stop {
            StopCause::Refused(message) => Stopped::Refused(message).into(),
            StopCause::Interrupted => Stopped::Interrupted {
                done: done.len(),
                total: planned.len(),
            }
            .into(),
        });
    }
    log.rewrite_sorted(&done)?;
    let records: Vec<EpisodeRecord> = done.into_values().collect();
    let summary = summarize(&run.settings, &records);
    write_outputs(&run.out, &summary)?;
    Ok(summary)
}

/// Writes `summary.json` and `report.html` into `out`.
pub fn write_outputs(out: &Path, summary: &Summary) -> anyhow::Result<()> {
    std::fs::write(out.join(SUMMARY_FILE), serde_json::to_vec_pretty(summary)?)?;
    std::fs::write(out.join(REPORT_FILE), crate::report::render(summary))?;
    Ok(())
}

/// A new run needs an empty directory; `--resume` needs the same settings as the run there.
fn check_directory(run: &EvalRun) -> anyhow::Result<()> {
    let path = run.out.join(RUN_FILE);
    let written = serde_json::to_vec_pretty(&run.settings)?;
    if !path.exists() {
        if run.out.join(crate::log::TRAJECTORIES).exists() {
            anyhow::bail!(
                "{} holds trajectories but no {RUN_FILE}: not a geode eval directory",
                run.out.display()
            );
        }
        std::fs::write(&path, written)?;
        return Ok(());
    }
    if !run.resume {
        anyhow::bail!(
            "{} already holds a run; pass --resume to continue it, or choose another --out",
            run.out.display()
        );
    }
    let before: RunSettings = serde_json::from_slice(&std::fs::read(&path)?)
        .with_context(|| format!("reading {}", path.display()))?;
    let differences = differences(&before, &run.settings);
    if !differences.is_empty() {
        anyhow::bail!(
            "--resume: {} was started with other settings ({}); rerun with the same options or choose another --out",
            run.out.display(),
            differences.join(", ")
        );
    }
    Ok(())
}

/// The settings that differ between two runs, by name (concurrency may change on resume).
fn differences(before: &RunSettings, now: &RunSettings) -> Vec<String> {
    let (Ok(serde_json::Value::Object(a)), Ok(serde_json::Value::Object(b))) =
        (serde_json::to_value(before), serde_json::to_value(now))
    else {
        return vec!["settings".into()];
    };
    a.iter()
        .filter(|(key, value)| key.as_str() != "concurrency" && b.get(key.as_str()) != Some(value))
        .map(|(key, value)| {
            let now = b.get(key.as_str()).map_or("none".into(), |v| v.to_string());
            format!("{key}: {value} then, {now} now")
        })
        .collect()
}

fn progress_bar(
    run: &EvalRun,
    total: u64,
    done: &BTreeMap<EpisodeKey, EpisodeRecord>,
) -> ProgressBar {
    if !run.progress {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} episodes  {msg}  [{elapsed_precise} < {eta}]",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_position(done.len() as u64);
    bar
}

enum StopCause {
    Refused(String),
    Interrupted,
}

type Played = (
    TrajectoryLog,
    BTreeMap<EpisodeKey, EpisodeRecord>,
    Option<StopCause>,
);

/// Running totals for the progress bar.
#[derive(Default)]
struct Tally {
    episodes: u64,
    reward: f64,
    errors: u64,
}

async fn play_all(
    ctx: Arc<EpisodeContext>,
    workers: Arc<EnvWorkers>,
    todo: Vec<Planned>,
    log: TrajectoryLog,
    progress: ProgressBar,
    concurrency: usize,
    catch_ctrl_c: bool,
) -> anyhow::Result<Played> {
    let log = Arc::new(log);
    let slots = Arc::new(Semaphore::new(concurrency.max(1)));
    let tally = Arc::new(Mutex::new(Tally::default()));
    let mut running: JoinSet<anyhow::Result<Result<EpisodeRecord, String>>> = JoinSet::new();
    let mut records = BTreeMap::new();
    let mut stop = None;
    let interrupt = async move {
        if !catch_ctrl_c || tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    tokio::pin!(interrupt);
    let mut pending = todo.into_iter();
    while !pending.as_slice().is_empty() || !running.is_empty() {
        tokio::select! {
            biased;
            _ = &mut interrupt => {
                stop = Some(StopCause::Interrupted);
                break;
            }
            Some(joined) = running.join_next(), if !running.is_empty() => {
                match joined?? {
                    Ok(record) => { records.insert(record.key.clone(), record); }
                    Err(message) => { stop = Some(StopCause::Refused(message)); break; }
                }
            }
            permit = Arc::clone(&slots).acquire_owned(), if !pending.as_slice().is_empty() => {
                let permit = permit?;
                let Some(planned) = pending.next() else { continue };
                let (ctx, workers, log, progress, tally) =
                    (Arc::clone(&ctx), Arc::clone(&workers), Arc::clone(&log), progress.clone(), Arc::clone(&tally));
                running.spawn(async move {
                    let outcome = play(&ctx, &workers, &planned).await;
                    drop(permit);
                    match outcome {
                        Outcome::Fatal(message) => Ok(Err(message)),
                        Outcome::Finished(record) => {
                            log.append(&record)?;
                            advance(&progress, &tally, &record);
                            Ok(Ok(*record))
                        }
                    }
                });
            }
        }
    }
    running.abort_all();
    while let Some(joined) = running.join_next().await {
        if let Ok(Ok(Ok(record))) = joined {
            records.insert(record.key.clone(), record);
        }
    }
    let log =
        Arc::try_unwrap(log).map_err(|_| anyhow::anyhow!("the episode log is still in use"))?;
    Ok((log, records, stop))
}

fn advance(progress: &ProgressBar, tally: &Mutex<Tally>, record: &EpisodeRecord) {
    let mut tally = tally.lock().unwrap_or_else(|p| p.into_inner());
    tally.episodes += 1;
    tally.reward += record.reward;
    tally.errors += u64::from(record.error.is_some());
    progress.inc(1);
    progress.set_message(format!(
        "mean reward {:.3}  errors {}",
        tally.reward / tally.episodes as f64,
        tally.errors
    ));
}
