//! Reward constants shared by text games (GEM's `LanguageGameReward`).

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
