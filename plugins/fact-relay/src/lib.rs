//! FactRelay: a cooperative task for two agents acting at once. The `informant` sees a few
//! facts ("The lamp is in the attic."); the `answerer` sees only a question about one of them
//! ("Where is the lamp?"). They talk through messages: whatever the informant says is sent to
//! the answerer, and the answerer's text is sent back, unless it holds an answer in
//! `\boxed{...}`. A right answer gives both +1, a wrong one 0; either ends the episode. At the
//! turn limit both are truncated with 0. Messages arrive with the next observation, so the
//! answerer cannot succeed on its first turn except by a guess.

use geode_games::prelude::*;
use geode_sdk::multiagent::{Agents, Mode, MultiAgentEnvironment};

const INFORMANT: &str = "informant";
const ANSWERER: &str = "answerer";
const ITEMS: [&str; 10] = [
    "lamp", "violin", "key", "map", "clock", "scarf", "kettle", "compass", "ledger", "mirror",
];
const PLACES: [&str; 10] = [
    "attic", "cellar", "garden", "kitchen", "library", "garage", "studio", "hallway", "pantry",
    "balcony",
];

/// One episode: the facts, which one is asked about, and the turn count.
#[derive(Serialize, Deserialize)]
struct FactRelay {
    num_facts: usize,
    max_turns: u32,
    /// (item, place) pairs the informant sees.
    facts: Vec<(usize, usize)>,
    /// Index into `facts` of the fact asked about.
    asked: usize,
    turn: u32,
}

impl FactRelay {
    fn answer(&self) -> &'static str {
        PLACES[self.facts[self.asked].1]
    }

    fn question(&self) -> String {
        format!("Where is the {}?", ITEMS[self.facts[self.asked].0])
    }

    fn fact_line(&self, (item, place): (usize, usize)) -> String {
        format!("The {} is in the {}.", ITEMS[item], PLACES[place])
    }
}

impl MultiAgentEnvironment for FactRelay {
    fn specs() -> Vec<Spec> {
        vec![Spec::new(
            "ma:FactRelay-v0",
            "Cooperative: the informant sees facts, the answerer must answer a question about them; they must talk",
            json!({"num_facts": 4, "max_turns": 4}),
        )]
    }

    fn create(_id: &str, config: Config) -> Result<Self, Error> {
        let num_facts = geode_sdk::config::between(
            "num_facts",
            config.int("num_facts")?,
            1,
            ITEMS.len() as i64,
        )?;
        let max_turns = geode_sdk::config::between("max_turns", config.int("max_turns")?, 1, 100)?;
        Ok(FactRelay {
            num_facts,
            max_turns,
            facts: Vec::new(),
            asked: 0,
            turn: 0,
        })
    }

    fn possible_agents(&self) -> Vec<String> {
        vec![INFORMANT.to_owned(), ANSWERER.to_owned()]
    }

    fn mode(&self) -> Mode {
        Mode::Parallel
    }

    fn reset(&mut self, _agents: &mut Agents, rng: &mut Rng) -> Result<(), Error> {
        let mut items: Vec<usize> = (0..ITEMS.len()).collect();
        let mut places: Vec<usize> = (0..PLACES.len()).collect();
        rng.shuffle(&mut items);
        rng.shuffle(&mut places);
        self.facts = (0..self.num_facts).map(|i| (items[i], places[i])).collect();
        self.asked = rng.below(self.num_facts as u64) as usize;
        self.turn = 0;
        Ok(())
    }

    fn step(
        &mut self,
        actions: &[(String, String)],
        agents: &mut Agents,
        _rng: &mut Rng,
    ) -> Result<(), Error> {
        self.turn += 1;
        for (agent, action) in actions {
            let text = action.trim();
            if agent == ANSWERER {
                if let Some(given) = last_boxed(text) {
                    let right = given.trim().eq_ignore_ascii_case(self.answer());
                    let reward = if right { 1.0 } else { 0.0 };
                    for who in [INFORMANT, ANSWERER] {
                        agents.info(who, "correct", right);
                    }
                    agents.end_all(&[(INFORMANT, reward), (ANSWERER, reward)]);
                    return Ok(());
                }
                if !text.is_empty() {
                    agents.send_message(ANSWERER, INFORMANT, text)?;
                }
            } else if !text.is_empty() {
                agents.send_message(INFORMANT, ANSWERER, text)?;
            }
        }
        if self.turn >= self.max_turns {
            agents.truncate(INFORMANT);
            agents.truncate(ANSWERER);
        }
        Ok(())
    }

    fn observe(&self, agent: &str, agents: &Agents) -> String {
        let mut out = if agent == INFORMANT {
            let facts: Vec<String> = self.facts.iter().map(|&f| self.fact_line(f)).collect();
            format!(
                "You are the informant. Your partner, the answerer, must answer a question about \
                 these facts but cannot see them:\n{}\nEverything you write is sent to the answerer.",
                facts.join("\n")
            )
        } else {
            format!(
                "You are the answerer. Question: {} You cannot see the facts; the informant can. \
                 Write a message to ask, or give the place as your final answer in \\boxed{{}}.",
                self.question()
            )
        };
        let inbox: Vec<String> = agents
            .messages_to(agent)
            .map(|m| format!("{}: {}", m.from, m.text))
            .collect();
        if !inbox.is_empty() {
            out.push_str("\nMessages:\n");
            out.push_str(&inbox.join("\n"));
        }
        out.push_str(&format!("\nTurn {} of {}.", self.turn, self.max_turns));
        out
    }

    fn sample_random_action(&mut self, agent: &str, _agents: &Agents, rng: &mut Rng) -> String {
        if agent == INFORMANT {
            let fact = *rng.choice(&self.facts).expect("facts after reset");
            self.fact_line(fact)
        } else {
            format!("\\boxed{{{}}}", rng.choice(&PLACES).expect("places"))
        }
    }
}

geode_sdk::export_multiagent!(FactRelay);

#[cfg(test)]
mod tests {
    use super::*;
    use geode_sdk::multiagent::Session;

    fn start(seed: u64) -> Session<FactRelay> {
        let mut s = Session::make("ma:FactRelay-v0", &json!({})).unwrap();
        s.reset(Some(seed)).unwrap();
        s
    }

    fn step(s: &mut Session<FactRelay>, informant: &str, answerer: &str) -> Vec<f64> {
        let out = s
            .step(&[
                (INFORMANT.into(), informant.into()),
                (ANSWERER.into(), answerer.into()),
            ])
            .unwrap();
        out.iter().map(|t| t.reward).collect()
    }

    /// The place the informant's message gives for the item the answerer is asked about.
    fn relay_answer(inbox: &str, question: &str) -> String {
        let item = question.split("Where is the ").nth(1).unwrap();
        let item = item.split('?').next().unwrap();
        let said = inbox
            .split(&format!("The {item} is in the "))
            .nth(1)
            .unwrap();
        said.split('.').next().unwrap().to_owned()
    }

    #[test]
    fn both_act_at_once_and_relayed_facts_win() {
        let mut s = start(3);
        assert_eq!(s.agents().active(), [INFORMANT, ANSWERER]);
        let facts = s.observe(INFORMANT).unwrap();
        let question = s.observe(ANSWERER).unwrap();
        assert!(
            !question.contains(" is in the "),
            "the answerer cannot see facts"
        );
        let told = facts
            .lines()
            .filter(|l| l.starts_with("The "))
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(step(&mut s, &told, "What do you know?"), [0.0, 0.0]);
        let inbox = s.observe(ANSWERER).unwrap();
        assert!(inbox.contains("informant: The "), "{inbox}");
        assert!(
            s.observe(INFORMANT)
                .unwrap()
                .contains("answerer: What do you know?")
        );
        let answer = relay_answer(&inbox, &question);
        assert_eq!(
            step(&mut s, "", &format!("\\boxed{{{answer}}}")),
            [1.0, 1.0]
        );
        assert!(s.agents().agents().is_empty());
    }

    #[test]
    fn a_wrong_answer_ends_with_nothing() {
        let mut s = start(4);
        let wrong = PLACES.iter().find(|p| **p != s.env().answer()).unwrap();
        assert_eq!(step(&mut s, "", &format!("\\boxed{{{wrong}}}")), [0.0, 0.0]);
        assert!(s.agents().agents().is_empty());
    }

    #[test]
    fn silence_runs_into_the_turn_limit() {
        let mut s = start(5);
        for _ in 0..3 {
            step(&mut s, "", "");
        }
        let out = s
            .step(&[
                (INFORMANT.into(), String::new()),
                (ANSWERER.into(), String::new()),
            ])
            .unwrap();
        assert!(
            out.iter()
                .all(|t| t.truncated && !t.terminated && t.reward == 0.0)
        );
        assert!(s.agents().agents().is_empty());
    }

    #[test]
    fn every_agent_must_act_in_parallel_mode() {
        let mut s = start(6);
        assert!(s.step(&[(ANSWERER.into(), "hi".into())]).is_err());
    }

    #[test]
    fn episodes_replay_from_the_seed() {
        assert_eq!(start(9).observe(INFORMANT), start(9).observe(INFORMANT));
        assert!((0..10).any(|seed| start(seed).observe(ANSWERER) != start(9).observe(ANSWERER)));
    }
}
