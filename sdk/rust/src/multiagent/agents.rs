//! [`Agents`]: the part of a multi-agent episode every env has — who is live, whose turn it
//! is, what each agent got this step, and the messages agents sent each other. The SDK keeps
//! it; an env reads it and records outcomes on it.

use super::selector::{AgentSelector, Mode};
use crate::{Error, Info};
use serde::{Deserialize, Serialize};

/// One message between agents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// The sender.
    pub from: String,
    /// The receiver.
    pub to: String,
    /// The text.
    pub text: String,
}

/// What one agent got from the current step.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Outcome {
    pub reward: f64,
    pub terminated: bool,
    pub truncated: bool,
    #[serde(with = "info_text")]
    pub info: Info,
}

/// The episode's agents, turn and mailbox.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Agents {
    possible: Vec<String>,
    live: Vec<String>,
    selector: AgentSelector,
    /// Per live agent (same order as `live`): this step's outcome.
    outcomes: Vec<Outcome>,
    /// Per agent ever live this episode: the sum of its rewards.
    cumulative: Vec<(String, f64)>,
    messages: Vec<Message>,
    /// Sequential mode: who acts after this step (or first, when set in `reset`), if the env
    /// chose ([`Agents::give_turn`]) instead of the turn order.
    #[serde(default)]
    next_turn: Option<String>,
}

impl Agents {
    /// A roster of `possible` agents (none live until the first reset).
    pub(crate) fn new(possible: Vec<String>, mode: Mode) -> Self {
        Agents {
            selector: AgentSelector::new(&[], mode),
            possible,
            live: Vec::new(),
            outcomes: Vec::new(),
            cumulative: Vec::new(),
            messages: Vec::new(),
            next_turn: None,
        }
    }

    /// Starts an episode: every possible agent live, the first one's turn, no messages.
    pub(crate) fn restart(&mut self) {
        self.live = self.possible.clone();
        self.selector.reinit(&self.live);
        self.outcomes = vec![Outcome::default(); self.live.len()];
        self.cumulative = self.live.iter().map(|a| (a.clone(), 0.0)).collect();
        self.messages.clear();
        self.next_turn = None;
    }

    /// After `reset`: the agent the env gave the first turn to, if any, acts first.
    pub(crate) fn start_turn(&mut self) {
        if let Some(agent) = self.next_turn.take() {
            self.selector.select(&agent);
        }
    }

    /// Clears the outcomes before a step.
    pub(crate) fn clear_outcomes(&mut self) {
        self.outcomes
            .iter_mut()
            .for_each(|o| *o = Outcome::default());
    }

    /// Takes `agent`'s outcome of this step, adding its reward to its total.
    pub(crate) fn take_outcome(&mut self, agent: &str) -> Outcome {
        let Some(index) = self.index(agent) else {
            return Outcome::default();
        };
        let outcome = std::mem::take(&mut self.outcomes[index]);
        if let Some(total) = self.cumulative.iter_mut().find(|(a, _)| a == agent) {
            total.1 += outcome.reward;
        }
        // Keep the flags: removal after the step reads them.
        self.outcomes[index].terminated = outcome.terminated;
        self.outcomes[index].truncated = outcome.truncated;
        outcome
    }

    /// Removes every agent that terminated or was truncated, then passes the turn on.
    pub(crate) fn finish_step(&mut self) {
        let dead: Vec<String> = self
            .live
            .iter()
            .zip(&self.outcomes)
            .filter(|(_, o)| o.terminated || o.truncated)
            .map(|(a, _)| a.clone())
            .collect();
        for agent in dead {
            self.remove_agent(&agent);
        }
        match self.next_turn.take() {
            Some(agent) if self.selector.select(&agent) => {}
            _ => self.selector.next(),
        }
    }

    fn index(&self, agent: &str) -> Option<usize> {
        self.live.iter().position(|a| a == agent)
    }

    fn outcome(&mut self, agent: &str) -> Option<&mut Outcome> {
        let index = self.index(agent)?;
        self.outcomes.get_mut(index)
    }

    /// Every agent an episode may have, in turn order.
    pub fn possible_agents(&self) -> &[String] {
        &self.possible
    }

    /// The live agents, in turn order.
    pub fn agents(&self) -> &[String] {
        &self.live
    }

    /// The agents whose actions the next step takes.
    pub fn active(&self) -> Vec<String> {
        self.selector.active()
    }

    /// Whether `agent` acts at the next step.
    pub fn is_active(&self, agent: &str) -> bool {
        self.selector.is_active(agent)
    }

    /// The turn keeper.
    pub fn selector(&self) -> &AgentSelector {
        &self.selector
    }

    /// Whether `agent` is live.
    pub fn is_live(&self, agent: &str) -> bool {
        self.index(agent).is_some()
    }

    /// Adds `reward` to `agent`'s reward for this step (ignored for an agent not live).
    pub fn reward(&mut self, agent: &str, reward: f64) {
        if let Some(o) = self.outcome(agent) {
            o.reward += reward;
        }
    }

    /// Marks `agent` done inside the task; it leaves the roster after this step.
    pub fn terminate(&mut self, agent: &str) {
        if let Some(o) = self.outcome(agent) {
            o.terminated = true;
        }
    }

    /// Marks `agent` cut short (turn limit); it leaves the roster after this step.
    pub fn truncate(&mut self, agent: &str) {
        if let Some(o) = self.outcome(agent) {
            o.truncated = true;
        }
    }

    /// Ends the episode for every live agent with these rewards (`(agent, reward)`).
    pub fn end_all(&mut self, rewards: &[(&str, f64)]) {
        for (agent, reward) in rewards {
            self.reward(agent, *reward);
        }
        for o in &mut self.outcomes {
            o.terminated = true;
        }
    }

    /// Sequential mode: `agent` acts next (after this step, or first when called in `reset`)
    /// instead of the agent due in turn order; a dialogue keeps the turn with an agent whose
    /// tool call was answered. Ignored when `agent` has left the roster by then.
    pub fn give_turn(&mut self, agent: &str) {
        self.next_turn = Some(agent.to_owned());
    }

    /// Adds `key: value` to `agent`'s info for this step.
    pub fn info(&mut self, agent: &str, key: &str, value: impl Serialize) {
        if let Some(o) = self.outcome(agent) {
            o.info.insert(key, value);
        }
    }

    /// The sum of `agent`'s rewards this episode.
    pub fn cumulative_reward(&self, agent: &str) -> f64 {
        self.cumulative
            .iter()
            .find(|(a, _)| a == agent)
            .map_or(0.0, |(_, r)| *r)
    }

    /// Brings `agent` into the episode, last in turn order (no-op when live).
    pub fn add_agent(&mut self, agent: &str) {
        if self.is_live(agent) {
            return;
        }
        self.live.push(agent.to_owned());
        self.outcomes.push(Outcome::default());
        if !self.cumulative.iter().any(|(a, _)| a == agent) {
            self.cumulative.push((agent.to_owned(), 0.0));
        }
        self.selector.add_agent(agent);
    }

    /// Takes `agent` out of the episode (no-op when absent).
    pub fn remove_agent(&mut self, agent: &str) {
        if let Some(index) = self.index(agent) {
            self.live.remove(index);
            self.outcomes.remove(index);
            self.selector.remove_agent(agent);
        }
    }

    fn check_live(&self, agent: &str, role: &str) -> Result<(), Error> {
        if self.is_live(agent) {
            Ok(())
        } else {
            Err(Error::InvalidState(format!(
                "{role} `{agent}` is not in the episode (live agents: {})",
                self.live.join(", ")
            )))
        }
    }

    /// Queues `text` from `from` for `to`; both must be live.
    pub fn send_message(&mut self, from: &str, to: &str, text: &str) -> Result<(), Error> {
        self.check_live(from, "sender")?;
        self.check_live(to, "receiver")?;
        self.messages.push(Message {
            from: from.to_owned(),
            to: to.to_owned(),
            text: text.to_owned(),
        });
        Ok(())
    }

    /// Queues `text` from `from` for every other live agent.
    pub fn broadcast_message(&mut self, from: &str, text: &str) -> Result<(), Error> {
        self.check_live(from, "sender")?;
        for to in self.live.clone() {
            if to != from {
                self.messages.push(Message {
                    from: from.to_owned(),
                    to,
                    text: text.to_owned(),
                });
            }
        }
        Ok(())
    }

    /// Every message of the episode, oldest first.
    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    /// The messages addressed to `agent`, oldest first.
    pub fn messages_to<'a>(&'a self, agent: &'a str) -> impl Iterator<Item = &'a Message> + 'a {
        self.messages.iter().filter(move |m| m.to == agent)
    }
}

/// Info travels in snapshots as its JSON text.
mod info_text {
    use crate::Info;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(info: &Info, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(info.as_json())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Info, D::Error> {
        Ok(Info::from_json(String::deserialize(d)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two() -> Agents {
        let mut agents = Agents::new(vec!["a".into(), "b".into()], Mode::Sequential);
        agents.restart();
        agents
    }

    #[test]
    fn terminated_agents_leave_after_the_step() {
        let mut agents = two();
        agents.clear_outcomes();
        agents.terminate("a");
        agents.reward("a", 1.0);
        assert_eq!(agents.take_outcome("a").reward, 1.0);
        agents.finish_step();
        assert_eq!(agents.agents(), ["b".to_string()]);
        assert_eq!(agents.active(), vec!["b".to_string()]);
        assert_eq!(agents.cumulative_reward("a"), 1.0);
    }

    #[test]
    fn messages_need_live_agents() {
        let mut agents = two();
        agents.send_message("a", "b", "hi").unwrap();
        agents.broadcast_message("b", "yo").unwrap();
        assert!(agents.send_message("a", "ghost", "x").is_err());
        let to_a: Vec<_> = agents.messages_to("a").map(|m| m.text.as_str()).collect();
        assert_eq!(to_a, ["yo"]);
    }
}
