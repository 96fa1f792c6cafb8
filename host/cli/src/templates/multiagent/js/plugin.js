// {{name}}: two players race to a target count, adding 1, 2 or 3 in turns.

import { MultiAgentEnv, Spec } from "geode-sdk";

const PLAYERS = ["player_0", "player_1"];

/** The content of the last `\boxed{...}` in `text`, or null. */
function lastBoxed(text) {
  const start = text.lastIndexOf("\\boxed{");
  const end = text.indexOf("}", start);
  if (start < 0 || end < 0) return null;
  return text.slice(start + "\\boxed{".length, end).trim();
}

export class Race extends MultiAgentEnv {
  static specs = [
    new Spec("{{name}}:Race-v0", "Two players add 1-3 in turns; reaching 10 wins", { target: 10 }),
    new Spec("{{name}}:Race-v0-long", "Two players add 1-3 in turns; reaching 21 wins", { target: 21 }),
  ];

  constructor(id, config) {
    super();
    this.target = config.int("target", { min: 4 });
    this.count = 0;
    this.winner = null;
  }

  possibleAgents() {
    return [...PLAYERS];
  }

  reset(agents, rng) {
    this.count = rng.below(3);
    this.winner = null;
  }

  step(actions, agents, rng) {
    const [[agent, action]] = actions;
    const other = PLAYERS[1 - PLAYERS.indexOf(agent)];
    const move = lastBoxed(action);
    if (!["1", "2", "3"].includes(move)) {
      this.winner = other; // an illegal move forfeits the game
      agents.endAll({ [agent]: -1, [other]: 1 });
    } else {
      this.count += Number(move);
      if (this.count >= this.target) {
        this.winner = agent;
        agents.endAll({ [agent]: 1, [other]: -1 });
      }
    }
    for (const player of PLAYERS) agents.info(player, "count", this.count);
  }

  observe(agent, agents) {
    const heard = agents.messagesTo(agent).map((m) => ` ${m.sender} says: ${m.text}`).join("");
    if (this.winner !== null) {
      return `Race to ${this.target} over at ${this.count}: ${this.winner} won.${heard}`;
    }
    const turn = agents.isActive(agent)
      ? "Your turn: add 1, 2 or 3 with \\boxed{n}."
      : `Waiting for ${agents.active.join(", ")}.`;
    return `Race to ${this.target}: the count is ${this.count}. ${turn}${heard}`;
  }

  sampleRandomAction(agent, agents, rng) {
    return `\\boxed{${rng.below(3) + 1}}`;
  }
}
