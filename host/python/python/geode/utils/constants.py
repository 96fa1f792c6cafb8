"""GEM's constants (``gem.utils.constants``)."""

#: The observation GEM envs give once an episode is over.
TERMINAL_STATE = "<｜TERMINAL_STATE｜>"


class LanguageGameReward:
    """The rewards of GEM's games (geode's game plugins use the same values)."""

    #: The task was solved.
    success_reward: float = 1.0
    #: A step that neither ends nor breaks the game (a hint, say).
    internal_step_reward: float = 0.0
    #: The task was failed (a mine was hit, say).
    fail_reward: float = 0.0
    #: An action the game understood but does not allow (a guess out of range, say).
    invalid_action_reward: float = 0.0
    #: An action the game could not parse.
    format_error_reward: float = -0.1
