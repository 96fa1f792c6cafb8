//! [`AgentSelector`]: whose actions the next step takes, in turn-based or parallel mode.

use serde::{Deserialize, Serialize};

/// How agents take turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    /// One agent acts per step, in turn order (board games, dialogues).
    Sequential,
    /// Every live agent acts at each step (simultaneous moves, parallel exchanges).
    Parallel,
}

/// Picks the acting agents. In sequential mode it walks the live agents in order and wraps
/// around; removing an agent keeps the turn with the agent that was due next.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentSelector {
    mode: Mode,
    agents: Vec<String>,
    current: usize,
}

impl AgentSelector {
    /// A selector over `agents` (in turn order), starting with the first.
    pub fn new(agents: &[String], mode: Mode) -> Self {
        AgentSelector {
            mode,
            agents: agents.to_vec(),
            current: 0,
        }
    }

    /// The mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The agent whose turn it is (sequential mode), or the first agent (parallel mode).
    pub fn selected(&self) -> Option<&str> {
        self.agents.get(self.current).map(String::as_str)
    }

    /// The agents whose actions the next step takes.
    pub fn active(&self) -> Vec<String> {
        match self.mode {
            Mode::Sequential => self.selected().map(str::to_owned).into_iter().collect(),
            Mode::Parallel => self.agents.clone(),
        }
    }

    /// Whether `agent` acts at the next step.
    pub fn is_active(&self, agent: &str) -> bool {
        match self.mode {
            Mode::Sequential => self.selected() == Some(agent),
            Mode::Parallel => self.agents.iter().any(|a| a == agent),
        }
    }

    /// Moves the turn to the next agent (sequential mode; parallel mode has no turns).
    pub fn next(&mut self) {
        if self.mode == Mode::Sequential && !self.agents.is_empty() {
            self.current = (self.current + 1) % self.agents.len();
        }
    }

    /// Selects `agent` (sequential mode); false, and no change, when it is not in the order.
    pub fn select(&mut self, agent: &str) -> bool {
        match self.agents.iter().position(|a| a == agent) {
            Some(index) => {
                self.current = index;
                true
            }
            None => false,
        }
    }

    /// The selected agent is the first in turn order.
    pub fn is_first(&self) -> bool {
        self.current == 0
    }

    /// The selected agent is the last in turn order.
    pub fn is_last(&self) -> bool {
        self.current + 1 == self.agents.len()
    }

    /// Starts over with `agents`, the first one selected.
    pub fn reinit(&mut self, agents: &[String]) {
        self.agents = agents.to_vec();
        self.current = 0;
    }

    /// Appends `agent` to the turn order (no-op when present).
    pub fn add_agent(&mut self, agent: &str) {
        if !self.agents.iter().any(|a| a == agent) {
            self.agents.push(agent.to_owned());
        }
    }

    /// Drops `agent` from the turn order (no-op when absent). When it sat at or before the
    /// selected agent, the selection steps back one (wrapping around), so the following `next`
    /// lands on the agent that was due after it, also when the first agent leaves on its turn.
    pub fn remove_agent(&mut self, agent: &str) {
        let Some(index) = self.agents.iter().position(|a| a == agent) else {
            return;
        };
        self.agents.remove(index);
        if self.agents.is_empty() {
            self.current = 0;
            return;
        }
        if index <= self.current {
            // Step back one (wrapping), so `next` lands on the agent due after the removed one.
            self.current = self.current.checked_sub(1).unwrap_or(self.agents.len() - 1);
        }
        self.current %= self.agents.len();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn sequential_turns_wrap_around() {
        let mut s = AgentSelector::new(&names(&["a", "b", "c"]), Mode::Sequential);
        let mut order = Vec::new();
        for _ in 0..4 {
            order.push(s.active()[0].clone());
            s.next();
        }
        assert_eq!(order, names(&["a", "b", "c", "a"]));
    }

    #[test]
    fn parallel_mode_selects_everyone() {
        let mut s = AgentSelector::new(&names(&["a", "b"]), Mode::Parallel);
        s.next();
        assert_eq!(s.active(), names(&["a", "b"]));
        s.remove_agent("a");
        assert_eq!(s.active(), names(&["b"]));
    }

    #[test]
    fn removing_the_acting_agent_passes_the_turn_on() {
        let mut s = AgentSelector::new(&names(&["a", "b", "c"]), Mode::Sequential);
        s.next(); // b's turn
        s.remove_agent("b");
        s.next();
        assert_eq!(s.active(), names(&["c"]));
        let mut first = AgentSelector::new(&names(&["a", "b", "c"]), Mode::Sequential);
        first.remove_agent("a");
        first.next();
        assert_eq!(
            first.active(),
            names(&["b"]),
            "the first agent leaving skips nobody"
        );
        s.remove_agent("zzz");
        s.remove_agent("a");
        s.remove_agent("c");
        assert!(s.active().is_empty());
    }
}
