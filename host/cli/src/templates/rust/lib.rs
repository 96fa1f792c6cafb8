//! {{name}}: say whether each number dealt is even or odd.

use geode_sdk::prelude::*;

const FORMAT_ERROR: f64 = -0.1;

#[derive(Serialize, Deserialize)]
struct Parity {
    rounds: i64,
    round: i64,
    score: i64,
    number: u64,
}

impl Parity {
    fn ask(&mut self, rng: &mut Rng) -> String {
        self.number = rng.below(100);
        format!(
            "Round {} of {}: is {} even or odd? Answer \\boxed{{even}} or \\boxed{{odd}}.",
            self.round + 1,
            self.rounds,
            self.number
        )
    }
}

/// The content of the last `\boxed{...}` in `text`.
fn last_boxed(text: &str) -> Option<&str> {
    let start = text.rfind("\\boxed{")? + "\\boxed{".len();
    let end = text[start..].find('}')? + start;
    Some(text[start..end].trim())
}

impl Environment for Parity {
    fn specs() -> Vec<Spec> {
        vec![
            Spec::new(
                "{{name}}:Parity-v0",
                "Say whether numbers are even or odd, 3 rounds",
                json!({ "rounds": 3 }),
            ),
            Spec::new(
                "{{name}}:Parity-v0-long",
                "Say whether numbers are even or odd, 10 rounds",
                json!({ "rounds": 10 }),
            ),
        ]
    }

    fn create(_id: &str, config: Config) -> Result<Self, Error> {
        let rounds = config.int("rounds")?;
        if rounds < 1 {
            return Err(Error::bad_config("rounds", "must be at least 1"));
        }
        Ok(Parity { rounds, round: 0, score: 0, number: 0 })
    }

    fn reset(&mut self, rng: &mut Rng) -> Result<Reset, Error> {
        self.round = 0;
        self.score = 0;
        Ok(Reset::new(self.ask(rng)))
    }

    fn step(&mut self, action: &str, rng: &mut Rng) -> Result<Step, Error> {
        let even = match last_boxed(action) {
            Some("even") => true,
            Some("odd") => false,
            _ => {
                let text = "Answer \\boxed{even} or \\boxed{odd}.";
                return Ok(Step::new(text, FORMAT_ERROR).terminated());
            }
        };
        let right = even == (self.number % 2 == 0);
        self.round += 1;
        self.score += i64::from(right);
        let verdict = if right { "Right." } else { "Wrong." };
        let reward = if right { 1.0 } else { 0.0 };
        if self.round == self.rounds {
            let text = format!("{verdict} Done: {} of {}.", self.score, self.rounds);
            let step = Step::new(text, reward).terminated();
            return Ok(step.info("round", self.round).info("score", self.score));
        }
        let text = format!("{verdict} {}", self.ask(rng));
        Ok(Step::new(text, reward).info("round", self.round).info("score", self.score))
    }

    fn sample_random_action(&mut self, rng: &mut Rng) -> String {
        let answer = if rng.below(2) == 0 { "even" } else { "odd" };
        format!("\\boxed{{{answer}}}")
    }
}

export_env!(Parity);
