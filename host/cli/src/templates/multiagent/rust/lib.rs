//! {{name}}: two players race to a target count, adding 1, 2 or 3 in turns.

use geode_sdk::multiagent::{Agents, MultiAgentEnvironment};
use geode_sdk::prelude::*;

const PLAYERS: [&str; 2] = ["player_0", "player_1"];

#[derive(Serialize, Deserialize)]
struct Race {
    target: i64,
    count: i64,
    winner: Option<String>,
}

/// The content of the last `\boxed{...}` in `text`.
fn last_boxed(text: &str) -> Option<&str> {
    let start = text.rfind("\\boxed{")? + "\\boxed{".len();
    let end = text[start..].find('}')? + start;
    Some(text[start..end].trim())
}

impl MultiAgentEnvironment for Race {
    fn specs() -> Vec<Spec> {
        vec![
            Spec::new(
                "{{name}}:Race-v0",
                "Two players add 1-3 in turns; reaching 10 wins",
                json!({ "target": 10 }),
            ),
            Spec::new(
                "{{name}}:Race-v0-long",
                "Two players add 1-3 in turns; reaching 21 wins",
                json!({ "target": 21 }),
            ),
        ]
    }

    fn create(_id: &str, config: Config) -> Result<Self, Error> {
        let target = config.int("target")?;
        if target < 4 {
            return Err(Error::bad_config("target", "must be at least 4"));
        }
        Ok(Race { target, count: 0, winner: None })
    }

    fn possible_agents(&self) -> Vec<String> {
        PLAYERS.iter().map(|p| p.to_string()).collect()
    }

    fn reset(&mut self, _agents: &mut Agents, rng: &mut Rng) -> Result<(), Error> {
        self.count = rng.below(3) as i64;
        self.winner = None;
        Ok(())
    }

    fn step(
        &mut self,
        actions: &[(String, String)],
        agents: &mut Agents,
        _rng: &mut Rng,
    ) -> Result<(), Error> {
        let (agent, action) = &actions[0];
        let other = if agent == PLAYERS[0] { PLAYERS[1] } else { PLAYERS[0] };
        match last_boxed(action) {
            Some(m @ ("1" | "2" | "3")) => {
                self.count += m.parse::<i64>().unwrap_or(0);
                if self.count >= self.target {
                    self.winner = Some(agent.clone());
                    agents.end_all(&[(agent, 1.0), (other, -1.0)]);
                }
            }
            // An illegal move forfeits the game.
            _ => {
                self.winner = Some(other.to_owned());
                agents.end_all(&[(agent, -1.0), (other, 1.0)]);
            }
        }
        for player in PLAYERS {
            agents.info(player, "count", self.count);
        }
        Ok(())
    }

    fn observe(&self, agent: &str, agents: &Agents) -> String {
        let heard: String = agents
            .messages_to(agent)
            .map(|m| format!(" {} says: {}", m.from, m.text))
            .collect();
        if let Some(winner) = &self.winner {
            return format!("Race to {} over at {}: {winner} won.{heard}", self.target, self.count);
        }
        let turn = if agents.is_active(agent) {
            "Your turn: add 1, 2 or 3 with \\boxed{n}.".to_owned()
        } else {
            format!("Waiting for {}.", agents.active().join(", "))
        };
        format!("Race to {}: the count is {}. {turn}{heard}", self.target, self.count)
    }

    fn sample_random_action(&mut self, _agent: &str, _agents: &Agents, rng: &mut Rng) -> String {
        format!("\\boxed{{{}}}", rng.below(3) + 1)
    }
}

geode_sdk::export_multiagent!(Race);
