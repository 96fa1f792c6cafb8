//! Customer service in the style of TAU-bench (`tau:Retail-v0`): an `assistant` serves a
//! simulated customer, the `user`, by calling the business's tools under a written policy. The
//! domain file (`dataset`) names the business: a shop (retail, the shipped domain) or an airline
//! (TAU-bench's, through `geode tau-import`); it decides the record tables and the tools.
//!
//! - The customer speaks first. A message from the customer gives the turn to the assistant; a
//!   tool call of the assistant runs against the episode's own copy of the records and keeps the
//!   turn with it (the result is its next observation); any other text of the assistant goes to
//!   the customer and gives the turn back.
//! - The episode ends when the customer writes `###STOP###` or the assistant transfers to a
//!   human agent; then both seats get the reward: 1.0 only when the final records equal those
//!   the task's gold actions leave (canonical hash) and every required output was said to the
//!   customer; `reward_info` in the info says which check failed. After `max_actions`
//!   assistant actions both are truncated with 0.
//! - The customer's text is only ever text: no tool runs on it, so the user seat cannot write
//!   the records.
//! - The task is `seed mod N` for a seeded reset (`task` in the config pins one), drawn at
//!   random for an unseeded one.

mod call;
mod db;
mod domain;
mod prompt;
mod reward;
mod tools;

use call::Call;
use db::Db;
use domain::Domain;
use geode_sdk::multiagent::{Agents, Mode, MultiAgentEnvironment};
use geode_sdk::prelude::*;
use std::cell::OnceCell;
use std::collections::HashMap;

const ASSISTANT: &str = "assistant";
const USER: &str = "user";

/// One tau env: its configuration, the episode, and the domain (read once, not snapshotted).
#[derive(Serialize, Deserialize)]
struct Tau {
    dataset: String,
    max_actions: u32,
    /// The task every episode plays, when the configuration pins one.
    task: Option<usize>,
    /// The seed of the coming reset.
    seed: Option<u64>,
    episode: Option<Episode>,
    #[serde(skip)]
    domain: OnceCell<Domain>,
    /// The hash of each task's gold records, computed at its first end in this instance.
    #[serde(skip)]
    gold_hashes: HashMap<usize, String>,
}

/// One conversation.
#[derive(Serialize, Deserialize)]
struct Episode {
    task: usize,
    db: Db,
    /// Assistant actions so far.
    actions: u32,
    /// What the assistant has not read yet, and whether it has acted (its first observation
    /// also holds the policy and tools).
    to_assistant: Vec<String>,
    assistant_started: bool,
    /// What the customer has not read yet.
    to_user: Vec<String>,
    /// The assistant's messages to the customer (the outputs are looked for in them).
    said: Vec<String>,
}

impl Tau {
    fn domain(&self) -> Result<&Domain, Error> {
        if let Some(domain) = self.domain.get() {
            return Ok(domain);
        }
        let loaded = Domain::load(&self.dataset)?;
        Ok(self.domain.get_or_init(|| loaded))
    }

    fn episode(&mut self) -> Result<&mut Episode, Error> {
        self.episode
            .as_mut()
            .ok_or_else(|| Error::InvalidState("step called before reset".into()))
    }

    /// The customer's turn: a message for the assistant, or the end.
    fn user_acts(&mut self, text: &str, agents: &mut Agents) -> Result<(), Error> {
        if text.contains(prompt::STOP) {
            return self.finish(agents, "user_stopped");
        }
        let episode = self.episode()?;
        episode
            .to_assistant
            .push(format!("Customer: {}", text.trim()));
        agents.give_turn(ASSISTANT);
        Ok(())
    }

    /// The assistant's turn: a tool call, or a message for the customer.
    fn assistant_acts(&mut self, action: &str, agents: &mut Agents) -> Result<(), Error> {
        let kind = self.domain()?.kind;
        let episode = self.episode()?;
        episode.actions += 1;
        episode.assistant_started = true;
        episode.to_assistant.clear();
        match call::parse(action) {
            Call::Tool { name, arguments } => {
                let result = tools::run(kind, &mut episode.db, &name, &arguments);
                agents.info(ASSISTANT, "tool", &name);
                let output = match &result {
                    Ok(output) => output.clone(),
                    Err(error) => {
                        agents.info(ASSISTANT, "tool_error", error.kind());
                        error.message()
                    }
                };
                episode
                    .to_assistant
                    .push(format!("Tool `{name}` returned:\n{output}"));
                if name == tools::TRANSFER && result.is_ok() {
                    return self.finish(agents, "transferred");
                }
                agents.give_turn(ASSISTANT);
            }
            Call::Malformed(why) => {
                agents.info(ASSISTANT, "tool_error", "bad_call");
                episode.to_assistant.push(format!("Error: {why}"));
                agents.give_turn(ASSISTANT);
            }
            Call::Message(text) => {
                episode.said.push(text.clone());
                episode.to_user.push(text);
                agents.give_turn(USER);
            }
        }
        let episode = self.episode()?;
        if episode.actions >= self.max_actions {
            for agent in [ASSISTANT, USER] {
                agents.truncate(agent);
                agents.info(agent, "ended", "action_limit");
            }
        }
        Ok(())
    }

    /// Ends the episode: both seats get the verdict's reward.
    fn finish(&mut self, agents: &mut Agents, how: &str) -> Result<(), Error> {
        let index = self
            .episode
            .as_ref()
            .ok_or_else(|| Error::InvalidState("no episode".into()))?
            .task;
        if !self.gold_hashes.contains_key(&index) {
            let domain = self.domain()?;
            let gold = reward::gold_database(domain.kind, &domain.db, &domain.tasks[index]).hash();
            self.gold_hashes.insert(index, gold);
        }
        let (Some(episode), Some(gold)) = (&self.episode, self.gold_hashes.get(&index)) else {
            return Err(Error::InvalidState("no episode".into()));
        };
        let task = &self.domain()?.tasks[index];
        let verdict = reward::judge(&episode.db, gold, task, &episode.said);
        agents.end_all(&[(ASSISTANT, verdict.reward), (USER, verdict.reward)]);
        for agent in [ASSISTANT, USER] {
            agents.info(agent, "ended", how);
            agents.info(agent, "reward_info", &verdict);
        }
        Ok(())
    }
}

impl MultiAgentEnvironment for Tau {
    fn specs() -> Vec<Spec> {
        vec![Spec::new(
            "tau:Retail-v0",
            "Customer service (TAU-bench style): an assistant with a shop's tools serves a simulated customer; the reward checks the final database",
            json!({"dataset": "tau/retail", "max_actions": 30}),
        )]
    }

    fn create(_id: &str, config: Config) -> Result<Self, Error> {
        let dataset = config
            .opt_str("dataset")?
            .ok_or_else(|| Error::bad_config("dataset", "missing"))?
            .to_owned();
        let max_actions =
            geode_sdk::config::between("max_actions", config.int("max_actions")?, 1, 1000)?;
        let task = match config.opt_int("task")? {
            Some(t) => Some(geode_sdk::config::at_least("task", t, 0)?),
            None => None,
        };
        let env = Tau {
            dataset,
            max_actions,
            task,
            seed: None,
            episode: None,
            domain: OnceCell::new(),
            gold_hashes: HashMap::new(),
        };
        // Read the domain now, so bad data is reported when the env is made.
        let count = env.domain()?.tasks.len();
        if let Some(t) = task.filter(|t| *t >= count) {
            return Err(Error::bad_config(
                "task",
                format!("task {t} of {count} tasks (0 to {})", count - 1),
            ));
        }
        Ok(env)
    }

    fn possible_agents(&self) -> Vec<String> {
        vec![ASSISTANT.to_owned(), USER.to_owned()]
    }

    fn mode(&self) -> Mode {
        Mode::Sequential
    }

    fn seed_episode(&mut self, seed: Option<u64>) {
        self.seed = seed;
    }

    fn reset(&mut self, agents: &mut Agents, rng: &mut Rng) -> Result<(), Error> {
        let domain = self.domain()?;
        let count = domain.tasks.len() as u64;
        let index = match (self.task, self.seed) {
            (Some(pinned), _) => pinned as u64,
            (None, Some(seed)) => seed % count,
            (None, None) => rng.below(count),
        } as usize;
        let task = &domain.tasks[index];
        let episode = Episode {
            task: index,
            db: domain.db.clone(),
            actions: 0,
            to_assistant: Vec::new(),
            assistant_started: false,
            to_user: vec![prompt::user_prompt(task, domain.kind)],
            said: Vec::new(),
        };
        for agent in [ASSISTANT, USER] {
            agents.info(agent, "task_id", &task.task_id);
            agents.info(agent, "task_index", index);
        }
        agents.info(ASSISTANT, "tools", tools::function_specs(domain.kind));
        self.episode = Some(episode);
        agents.give_turn(USER);
        Ok(())
    }

    fn step(
        &mut self,
        actions: &[(String, String)],
        agents: &mut Agents,
        _rng: &mut Rng,
    ) -> Result<(), Error> {
        for (agent, action) in actions {
            match agent.as_str() {
                USER => {
                    self.episode()?.to_user.clear();
                    self.user_acts(action, agents)?;
                }
                _ => self.assistant_acts(action, agents)?,
            }
        }
        Ok(())
    }

    fn observe(&self, agent: &str, _agents: &Agents) -> String {
        let Some(episode) = &self.episode else {
            return String::new();
        };
        if agent == USER {
            return episode.to_user.join("\n\n");
        }
        let news = episode.to_assistant.join("\n\n");
        if episode.assistant_started {
            return news;
        }
        match self.domain() {
            Ok(domain) => format!(
                "{}\n\n{news}",
                prompt::assistant_intro(&domain.policy, domain.kind)
            ),
            Err(e) => format!("{e}\n\n{news}"),
        }
    }

    fn sample_random_action(&mut self, agent: &str, _agents: &Agents, rng: &mut Rng) -> String {
        if agent == USER {
            return if rng.below(4) == 0 {
                prompt::STOP.to_owned()
            } else {
                "Could you help me with my order?".to_owned()
            };
        }
        let (table, tool, key, listing) = match self.domain().map(|d| d.kind) {
            Ok(domain::Kind::Airline) => (
                "reservations",
                "get_reservation_details",
                "reservation_id",
                "list_all_airports",
            ),
            _ => (
                "orders",
                "get_order_details",
                "order_id",
                "list_all_product_types",
            ),
        };
        let id = self
            .episode
            .as_ref()
            .and_then(|e| {
                let ids: Vec<&String> = e.db.table(table).keys().collect();
                rng.choice(&ids).map(|id| (*id).clone())
            })
            .unwrap_or_default();
        match rng.below(3) {
            0 => "How can I help you today?".to_owned(),
            1 => format!(
                "<tool_call><tool_name>{listing}</tool_name><arguments>{{}}</arguments></tool_call>"
            ),
            _ => format!(
                "<tool_call><tool_name>{tool}</tool_name><arguments>{}</arguments></tool_call>",
                json!({ key: id })
            ),
        }
    }
}

geode_sdk::export_multiagent!(Tau);

#[cfg(test)]
mod tests;
