//! A complete geode env plugin in Rust: call `\boxed{heads}` or `\boxed{tails}` before the flip.
//!
//! Build it with `cargo build --profile plugin --target wasm32-wasip2 -p coin-flip` and load the
//! resulting `coin_flip.wasm` with `geode --plugin <file> run example:CoinFlip-v0`.

use geode_games::prelude::*;

#[derive(Serialize, Deserialize)]
struct CoinFlip {
    rounds: i64,
    played: i64,
}

impl Environment for CoinFlip {
    fn specs() -> Vec<Spec> {
        vec![Spec::new(
            "example:CoinFlip-v0",
            "Call coin flips; 1.0 per right call",
            json!({ "rounds": 3 }),
        )]
    }

    fn create(_id: &str, config: Config) -> Result<Self, Error> {
        let rounds = config.int("rounds")?;
        if rounds < 1 {
            return Err(Error::bad_config("rounds", "must be at least 1"));
        }
        Ok(CoinFlip { rounds, played: 0 })
    }

    fn reset(&mut self, _rng: &mut Rng) -> Result<Reset, Error> {
        self.played = 0;
        let text = format!(
            "Call {} coin flips. Answer \\boxed{{heads}} or \\boxed{{tails}}.",
            self.rounds
        );
        Ok(Reset::new(text))
    }

    fn step(&mut self, action: &str, rng: &mut Rng) -> Result<Step, Error> {
        let call = match last_boxed(action) {
            Some("heads") => true,
            Some("tails") => false,
            _ => {
                return Ok(Step::new(
                    "Answer \\boxed{heads} or \\boxed{tails}.",
                    REWARD.format_error,
                )
                .terminated());
            }
        };
        self.played += 1;
        let heads = rng.below(2) == 0;
        let side = if heads { "heads" } else { "tails" };
        let reward = if call == heads {
            REWARD.success
        } else {
            REWARD.fail
        };
        let step = Step::new(format!("It was {side}."), reward).info("round", self.played);
        Ok(if self.played >= self.rounds {
            step.terminated()
        } else {
            step
        })
    }

    fn sample_random_action(&mut self, rng: &mut Rng) -> String {
        String::from(if rng.below(2) == 0 {
            "\\boxed{heads}"
        } else {
            "\\boxed{tails}"
        })
    }
}

export_env!(CoinFlip);
