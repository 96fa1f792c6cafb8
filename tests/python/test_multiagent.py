"""Multi-agent envs from Python: GEM's ``MultiAgentEnv`` / ``AgentSelector`` for envs written
in Python, the plugins' envs (``ma:TicTacToe-v0``, ``ma:FactRelay-v0``) through ``make``, one
agent as a single-agent env, and self-play over a vector."""

import pytest


@pytest.fixture(scope="module")
def ma(gem):
    import geode.envs.multiagent as ma

    return ma


def test_gems_names_and_locations(gem, ma):
    import geode.multiagent

    assert geode.multiagent.MultiAgentEnv is ma.MultiAgentEnv
    assert geode.multiagent.AgentSelector is ma.AgentSelector
    assert issubclass(ma.MultiAgentEnv, gem.Env)


def test_sequential_selection_wraps_and_survives_removal(ma):
    sel = ma.AgentSelector(["a", "b", "c"], mode="sequential")
    order = []
    for _ in range(4):
        order.append(sel.get_active_agents()[0])
        sel.next()
    assert order == ["a", "b", "c", "a"]
    assert sel.selected == "b"
    sel.remove_agent("b")
    sel.next()
    assert sel.get_active_agents() == ["c"]


def test_parallel_selection_is_everyone(ma):
    sel = ma.AgentSelector(["a", "b"], mode="parallel")
    sel.next()
    assert sel.get_active_agents() == ["a", "b"]
    with pytest.raises(ValueError):
        ma.AgentSelector(["a"], mode="round-robin")


@pytest.fixture
def countdown(ma):
    class Countdown(ma.MultiAgentEnv):
        """Agents take turns saying numbers; saying 0 ends your game with reward 1."""

        def __init__(self):
            super().__init__()
            self.possible_agents = ["p0", "p1", "p2"]
            self.agent_selector = ma.AgentSelector(self.possible_agents, mode="sequential")

        def observe(self, agent):
            inbox = [m["message"] for m in self.shared_memory if m["to"] == agent]
            return f"{agent} inbox={inbox}"

        def _process_actions(self, actions):
            rewards = {a: 0.0 for a in self.agents}
            for agent, action in actions.items():
                if action == "0":
                    rewards[agent] = 1.0
                    self.terminations[agent] = True
            obs = {a: self.observe(a) for a in self.agents}
            return obs, rewards, dict(self.terminations), dict(self.truncations), {a: {} for a in self.agents}

    return Countdown()


def test_python_env_validates_removes_and_messages(countdown):
    obs, infos = countdown.reset(seed=1)
    assert set(obs) == {"p0", "p1", "p2"}
    with pytest.raises(ValueError, match="not active"):
        countdown.step({"p1": "3"})
    with pytest.raises(ValueError, match="Missing action"):
        countdown.step({})
    with pytest.raises(ValueError, match="Unknown agent"):
        countdown.step({"p0": "1", "zz": "1"})
    countdown.step({"p0": "1"})
    _, rewards, terms, _, _ = countdown.step({"p1": "0"})
    assert rewards["p1"] == 1.0 and terms["p1"]
    assert countdown.agents == ["p0", "p2"]
    assert countdown.active_agents() == ["p2"]
    countdown.send_message("p0", "p2", "hi")
    countdown.broadcast_message("p2", "all")
    assert countdown.observe("p2") == "p2 inbox=['hi']"
    assert countdown.observe("p0") == "p0 inbox=['all']"
    with pytest.raises(ValueError, match="Receiver"):
        countdown.send_message("p0", "p1", "gone")
    countdown.step({"p2": "0"})
    assert countdown.active_agents() == ["p0"]
    countdown.reset()
    countdown.step({"p0": "0"})
    assert countdown.active_agents() == ["p1"], "the first agent leaving on its turn skips nobody"


def test_plugin_game_through_make(gem, ma):
    env = gem.make("ma:TicTacToe-v0")
    assert isinstance(env, ma.MultiAgentEnv)
    assert "ma:TicTacToe-v0" in gem.ENV_REGISTRY
    obs, infos = env.reset(seed=0)
    assert env.possible_agents == ["player_0", "player_1"]
    assert "Your move" in obs["player_0"] and "Waiting" in obs["player_1"]
    assert env.agent_selector.get_active_agents() == ["player_0"]
    with pytest.raises(ValueError, match="not active"):
        env.step({"player_1": "\\boxed{1}"})
    with pytest.raises(gem.InvalidArgumentError, match="unknown agent"):
        env.step({"ghost": "\\boxed{1}"})
    with pytest.raises(ValueError, match="missing action"):
        env.step({})
    for agent, cell in [("player_0", 1), ("player_1", 4), ("player_0", 2), ("player_1", 5)]:
        env.step({agent: f"\\boxed{{{cell}}}"})
    obs, rewards, terms, truncs, infos = env.step({"player_0": "\\boxed{3}"})
    assert rewards == {"player_0": 1.0, "player_1": -1.0}
    assert terms == {"player_0": True, "player_1": True}
    assert infos["player_1"]["winner"] == "player_0"
    assert env.agents == []


def play_random(env, seed):
    env.reset(seed=seed)
    log = []
    while env.agents:
        agent = env.active_agents()[0]
        action = env.sample_random_action(agent)
        _, rewards, _, _, infos = env.step({agent: action})
        assert "illegal_move" not in infos[agent]
        log.append((action, rewards))
    return log


def test_seeded_random_games_replay(gem):
    env = gem.make("ma:TicTacToe-v0")
    assert play_random(env, 3) == play_random(env.spawn(), 3)
    assert any(play_random(env, s) != play_random(env, 3) for s in range(10))


def test_cooperation_needs_messages(gem):
    env = gem.make("ma:FactRelay-v0", max_turns=3)
    obs, _ = env.reset(seed=2)
    assert env.active_agents() == ["informant", "answerer"]
    item = obs["answerer"].split("Where is the ")[1].split("?")[0]
    facts = [line for line in obs["informant"].splitlines() if line.startswith("The ")]
    # The host's own message API reaches the agents too.
    env.send_message("informant", "answerer", " ".join(facts))
    place = env.observe("answerer").split(f"The {item} is in the ")[1].split(".")[0]
    _, rewards, terms, _, infos = env.step({"informant": "", "answerer": f"\\boxed{{{place}}}"})
    assert rewards == {"informant": 1.0, "answerer": 1.0} and all(terms.values())
    assert infos["answerer"]["correct"] is True


def test_trap_is_a_typed_error_and_reset_recovers(gem, ma_poison):
    env = gem.make("ma-poison:Echo-v0")
    env.reset(seed=0)
    with pytest.raises(gem.GuestTrapError, match="poisoned on purpose"):
        env.step({"a": "poison:panic", "b": "x", "c": "x"})
    assert env.agents == []
    obs, _ = env.reset(seed=0)
    assert set(obs) == {"a", "b", "c"}


def test_single_agent_view_against_fixed_policies(gem, ma):
    env = ma.SingleAgentEnv(gem.make("ma:TicTacToe-v0"), "player_1", opponents="random")
    obs, info = env.reset(seed=4)
    assert "Your move" in obs and "player_0 (X) took cell" in obs, "the random opponent moved first"
    done, total = False, 0.0
    while not done:
        obs, reward, terminated, truncated, info = env.step(env.sample_random_action())
        total += reward
        done = terminated or truncated
    assert total in (-1.0, 0.0, 1.0)

    seen = []

    def first_empty(agent, observation):
        seen.append(agent)
        cell = next(c for c in "123456789" if f"{c}|" in observation or f"|{c}" in observation)
        return f"\\boxed{{{cell}}}"

    env = ma.SingleAgentEnv(gem.make("ma:TicTacToe-v0"), "player_0", opponents=first_empty)
    env.reset(seed=0)
    for cell in (5, 9, 7):
        obs, reward, terminated, _, _ = env.step(f"\\boxed{{{cell}}}")
        if terminated:
            break
    assert set(seen) == {"player_1"}


def test_self_play_vector_with_random_legal_moves(gem, ma):
    vec = ma.SelfPlayVectorEnv(gem.make("ma:TicTacToe-v0"), num_envs=16)
    turns = vec.reset(seed=0)
    assert len(turns) == 16 and {agent for _, agent, _ in turns} == {"player_0"}
    for _ in range(30):
        turns, report = vec.step(vec.sample_random_actions())
        assert all(entry["error"] is None for entry in report)
    assert len(vec.finished) >= 16
    assert all(sum(returns.values()) == 0.0 for returns in vec.finished), "zero-sum game"


def test_native_self_play_vector_takes_the_autoreset_modes(gem):
    native = gem.make("ma:TicTacToe-v0")._native
    with pytest.raises(gem.GeodeError, match="sometimes"):
        native.vector(2, autoreset_mode="sometimes")
    vec = native.vector(2, autoreset_mode="Disabled")
    vec.reset(seed=3)
    for _ in range(9):
        vec.step(vec.sample_random_actions())
    # Every game of tic-tac-toe is over after nine moves; Disabled leaves it over.
    assert vec.active_agents() == [[], []]
    step, reset = vec.step([{}, {}])[0]
    assert isinstance(step, gem.GeodeError) and "autoreset is disabled" in str(step) and reset is None
    observations, _ = vec.reset_one(0, seed=4)
    assert set(observations) == {"player_0", "player_1"}
    assert vec.active_agents()[0] == ["player_0"]


def test_self_play_isolates_a_failing_env(gem, ma, ma_poison):
    vec = ma.SelfPlayVectorEnv(gem.make("ma-poison:Echo-v0"), num_envs=3)
    turns = vec.reset(seed=0)
    actions = ["poison:panic" if (i, agent) == (1, "a") else "x" for i, agent, _ in turns]
    _, report = vec.step(actions)
    assert report[0]["error"] is None and report[2]["error"] is None
    assert isinstance(report[1]["error"], gem.GuestTrapError)
    assert report[1]["reset"], "the faulted env started over"


def test_self_play_over_python_envs(ma, countdown):
    countdown.spawn = lambda: type(countdown)()
    vec = ma.SelfPlayVectorEnv(countdown, num_envs=2)
    turns = vec.reset(seed=0)
    assert [(i, a) for i, a, _ in turns] == [(0, "p0"), (1, "p0")]
    turns, report = vec.step(["0", "5"])
    assert report[0]["rewards"]["p0"] == 1.0
    assert [(i, a) for i, a, _ in turns] == [(0, "p1"), (1, "p1")]
