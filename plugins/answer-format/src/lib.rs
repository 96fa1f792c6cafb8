//! `wrapper:answer-format`: holds the agent to the `\boxed{...}` answer format.
//!
//! An action without a `\boxed{...}` does not reach the wrapped env: the agent gets a reminder
//! and `penalty` (and the episode ends when `end_episode` is set). Well-formed actions step the
//! env and earn `bonus` on top of its reward. `info["format_ok"]` says which case happened.

use geode_games::prelude::*;
use geode_sdk::export_wrapper;
use geode_sdk::wrapper::{Inner, WrapperPlugin};

/// The wrapper's configuration.
#[derive(Deserialize)]
struct AnswerFormat {
    penalty: f64,
    bonus: f64,
    end_episode: bool,
}

/// What the agent is told when its action has no boxed answer.
const REMINDER: &str = "Your answer must be written as \\boxed{...}. Try again.";

impl WrapperPlugin for AnswerFormat {
    fn specs() -> Vec<Spec> {
        vec![Spec::new(
            "wrapper:answer-format",
            "Requires a \\boxed{} answer; penalizes and blocks other actions",
            json!({ "penalty": -0.1, "bonus": 0.0, "end_episode": false }),
        )]
    }

    fn create(_id: &str, config: Config) -> Result<Self, Error> {
        config.parse()
    }

    fn step(&mut self, inner: &mut Inner, action: &str) -> Result<Step, Error> {
        if last_boxed(action).is_none() {
            let step = Step::new(REMINDER, self.penalty).info("format_ok", false);
            return Ok(if self.end_episode {
                step.terminated()
            } else {
                step
            });
        }
        let mut step = inner.step(action)?;
        step.reward += self.bonus;
        Ok(step.info("format_ok", true))
    }
}

export_wrapper!(AnswerFormat);
