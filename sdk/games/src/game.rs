//! What text games ported from GEM share: the reward table (GEM's `LanguageGameReward`) and the
//! steps that end an episode on a format error or at the turn limit.

use geode_sdk::{Rng, Step};
use std::borrow::Cow;

/// The rewards a text game gives for each kind of event.
#[derive(Debug, Clone, Copy)]
pub struct GameReward {
    /// The task was solved.
    pub success: f64,
    /// A step that neither wins nor loses.
    pub internal_step: f64,
    /// The task was lost (a mine hit, the turns ran out without a score).
    pub fail: f64,
    /// A well-formed action that breaks the rules (out of range, repeated).
    pub invalid_action: f64,
    /// An action that could not be parsed at all.
    pub format_error: f64,
}

/// The reward table every built-in game uses.
pub const REWARD: GameReward = GameReward {
    success: 1.0,
    internal_step: 0.0,
    fail: 0.0,
    invalid_action: 0.0,
    format_error: -0.1,
};

/// GEM's observation when the turn limit ends an episode.
pub const TURN_LIMIT_REACHED: &str = "You have reached the maximum number of turns.";

/// The step of an action GEM could not parse: `observation` with the format-error reward. It
/// ends the episode, truncated too when it used the last turn.
pub fn format_error_step<T: PartialEq>(
    observation: impl Into<String>,
    turn: T,
    max_turns: T,
) -> Step {
    Step::new(observation, REWARD.format_error)
        .terminated()
        .truncated_if(turn == max_turns)
}

/// GEM's end at the turn limit: [`TURN_LIMIT_REACHED`] with `reward`, terminated and truncated.
pub fn turn_limit_step(reward: f64) -> Step {
    Step::new(TURN_LIMIT_REACHED, reward)
        .terminated()
        .truncated_if(true)
}

/// A move that did not finish the game: `observation` and `reward`, or, from the last turn on,
/// [`turn_limit_step`] with `reward`.
pub fn move_step<T: PartialOrd>(
    observation: impl Into<String>,
    reward: f64,
    turn: T,
    max_turns: T,
) -> Step {
    if turn >= max_turns {
        turn_limit_step(reward)
    } else {
        Step::new(observation, reward)
    }
}

/// Characters of a player's text echoed back in an observation before the rest is elided, so a
/// megabyte-long guess cannot make an observation over the host's size limit.
pub const ECHO_LIMIT: usize = 200;

/// `text` as echoed in an observation: whole up to [`ECHO_LIMIT`] characters, else its first
/// [`ECHO_LIMIT`] and a count of the rest.
pub fn echo(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(ECHO_LIMIT) {
        None => Cow::Borrowed(text),
        Some((cut, _)) => {
            let rest = text[cut..].chars().count();
            Cow::Owned(format!("{}…({rest} more characters)", &text[..cut]))
        }
    }
}

/// The configured value, or for `-random` ids (`fixed` is `None`) one of `options` drawn with
/// `random.choice`. `options` must not be empty.
pub fn fixed_or_choice<T: Copy>(fixed: Option<T>, options: &[T], rng: &mut Rng) -> T {
    fixed.unwrap_or_else(|| *rng.choice(options).unwrap_or(&options[0]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_steps_follow_gem() {
        let step = format_error_step("bad", 3, 3);
        assert_eq!(
            (step.reward, step.terminated, step.truncated),
            (-0.1, true, true)
        );
        assert!(!format_error_step("bad", 2u64, 3).truncated);
        let step = move_step("moved", 0.5, 2, 3);
        assert_eq!(step.observation, "moved");
        assert!(!step.terminated && !step.truncated);
        let step = move_step("moved", 0.5, 3, 3);
        assert_eq!(
            (step.observation.as_str(), step.reward),
            (TURN_LIMIT_REACHED, 0.5)
        );
        assert!(step.terminated && step.truncated);
    }

    #[test]
    fn long_echoes_are_elided() {
        assert_eq!(echo("CRANE"), "CRANE");
        let long = "é".repeat(ECHO_LIMIT + 5);
        let echoed = echo(&long);
        assert!(echoed.starts_with(&"é".repeat(ECHO_LIMIT)));
        assert!(echoed.ends_with("…(5 more characters)"), "{echoed}");
    }

    #[test]
    fn fixed_wins_over_a_draw() {
        let mut rng = Rng::seeded(1);
        assert_eq!(fixed_or_choice(Some(9), &[1, 2, 3], &mut rng), 9);
        assert_eq!(rng.next_u32(), Rng::seeded(1).next_u32());
        assert!([1, 2, 3].contains(&fixed_or_choice(None, &[1, 2, 3], &mut rng)));
    }
}
