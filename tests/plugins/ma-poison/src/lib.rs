//! A test plugin for the multi-agent host: `ma-poison:Echo-v0` has agents `a`, `b` and `c`
//! acting in parallel (`ma-poison:Turns-v0`: the same in turns). Each step every acting agent
//! gets a reward drawn from the seeded generator and sees its inbox and its last action.
//! Special actions:
//!
//! - `leave`: the agent terminates (and leaves the roster);
//! - `quit`: the agent is truncated;
//! - `poison:loop`: loops forever (burns fuel);
//! - `poison:panic`: panics with "poisoned on purpose";
//! - `poison:nan`: returns a NaN reward;
//! - `poison:huge`: returns a 2 MB observation (over the 1 MiB limit).

use geode_sdk::multiagent::{Agents, Mode, MultiAgentEnvironment};
use geode_sdk::prelude::*;
use std::hint::black_box;

/// One episode: each agent's last action and the step count.
#[derive(Serialize, Deserialize)]
struct Echo {
    mode: Mode,
    last: Vec<(String, String)>,
    huge: bool,
}

impl MultiAgentEnvironment for Echo {
    fn specs() -> Vec<Spec> {
        vec![
            Spec::new(
                "ma-poison:Echo-v0",
                "Parallel echo with poison actions",
                json!({}),
            ),
            Spec::new(
                "ma-poison:Turns-v0",
                "Turn-based echo with poison actions",
                json!({}),
            ),
        ]
    }

    fn create(id: &str, _config: Config) -> Result<Self, Error> {
        let mode = if id.ends_with("Turns-v0") {
            Mode::Sequential
        } else {
            Mode::Parallel
        };
        Ok(Echo {
            mode,
            last: Vec::new(),
            huge: false,
        })
    }

    fn possible_agents(&self) -> Vec<String> {
        ["a", "b", "c"].map(String::from).to_vec()
    }

    fn mode(&self) -> Mode {
        self.mode
    }

    fn reset(&mut self, agents: &mut Agents, rng: &mut Rng) -> Result<(), Error> {
        self.last.clear();
        let start = rng.below(1000);
        for agent in agents.agents().to_vec() {
            agents.info(&agent, "start", start);
        }
        Ok(())
    }

    fn step(
        &mut self,
        actions: &[(String, String)],
        agents: &mut Agents,
        rng: &mut Rng,
    ) -> Result<(), Error> {
        for (agent, action) in actions {
            match action.as_str() {
                "leave" => agents.terminate(agent),
                "quit" => agents.truncate(agent),
                "poison:loop" => {
                    let mut x = 0u64;
                    loop {
                        x = black_box(x.wrapping_mul(31).wrapping_add(7));
                    }
                }
                "poison:panic" => panic!("poisoned on purpose"),
                "poison:nan" => agents.reward(agent, f64::NAN),
                "poison:huge" => self.huge = true,
                _ => {}
            }
            agents.reward(agent, rng.below(100) as f64);
            self.last.retain(|(a, _)| a != agent);
            self.last.push((agent.clone(), action.clone()));
        }
        Ok(())
    }

    fn observe(&self, agent: &str, agents: &Agents) -> String {
        if self.huge {
            return "x".repeat(2 << 20);
        }
        let last = self
            .last
            .iter()
            .find(|(a, _)| a == agent)
            .map_or("", |(_, t)| t);
        let inbox: Vec<String> = agents
            .messages_to(agent)
            .map(|m| format!("{}>{}", m.from, m.text))
            .collect();
        format!("{agent} last={last} inbox=[{}]", inbox.join(";"))
    }

    fn sample_random_action(&mut self, _agent: &str, _agents: &Agents, rng: &mut Rng) -> String {
        format!("say {}", rng.below(10))
    }
}

geode_sdk::export_multiagent!(Echo);
