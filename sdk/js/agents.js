/**
 * The part of a multi-agent episode every env has: who is live, whose turn it is, what each
 * agent got this step, and the messages agents sent each other. The SDK keeps it; an env reads
 * it and records outcomes on it.
 */

import { InvalidState } from "./errors.js";
import { AgentSelector } from "./selector.js";

function outcome() {
  return { reward: 0, terminated: false, truncated: false, info: {} };
}

/** The episode's agents, turn and mailbox, handed to the env's `reset` and `step`. */
export class Agents {
  constructor(possible, mode) {
    this._possible = possible.map(String);
    this._live = [];
    this._selector = new AgentSelector([], mode);
    this._outcomes = []; // per live agent, in the order of `_live`
    this._cumulative = {}; // per agent ever live this episode
    this._messages = [];
  }

  // -- kept by the SDK --------------------------------------------------------------------

  _restart() {
    this._live = [...this._possible];
    this._selector.reinit(this._live);
    this._outcomes = this._live.map(outcome);
    this._cumulative = Object.fromEntries(this._live.map((a) => [a, 0]));
    this._messages = [];
  }

  _clearOutcomes() {
    this._outcomes = this._live.map(outcome);
  }

  /** `agent`'s outcome of this call, its reward added to its total (flags kept). */
  _takeOutcome(agent) {
    const index = this._live.indexOf(agent);
    if (index < 0) return outcome();
    const out = this._outcomes[index];
    this._cumulative[agent] = (this._cumulative[agent] ?? 0) + out.reward;
    this._outcomes[index] = { ...outcome(), terminated: out.terminated, truncated: out.truncated };
    return out;
  }

  /** Removes every agent that terminated or was truncated, then passes the turn on. */
  _finishStep() {
    const done = this._live.filter((_, i) => this._outcomes[i].terminated || this._outcomes[i].truncated);
    for (const agent of done) this.removeAgent(agent);
    this._selector.next();
  }

  _outcome(agent) {
    const index = this._live.indexOf(agent);
    return index < 0 ? null : this._outcomes[index];
  }

  // -- read and written by the env --------------------------------------------------------

  /** Every agent an episode may have, in turn order. */
  get possibleAgents() {
    return [...this._possible];
  }

  /** The live agents, in turn order. */
  get agents() {
    return [...this._live];
  }

  /** The agents whose actions the next step takes. */
  get active() {
    return this._selector.active();
  }

  /** The turn keeper (`AgentSelector`). */
  get selector() {
    return this._selector;
  }

  /** Whether `agent` acts at the next step. */
  isActive(agent) {
    return this._selector.isActive(agent);
  }

  /** Whether `agent` is in the episode. */
  isLive(agent) {
    return this._live.includes(agent);
  }

  /** Adds `reward` to `agent`'s reward for this step (ignored for an agent not live). */
  reward(agent, reward) {
    const out = this._outcome(agent);
    if (out) out.reward += Number(reward);
  }

  /** Marks `agent` done inside the task; it leaves the roster after this step. */
  terminate(agent) {
    const out = this._outcome(agent);
    if (out) out.terminated = true;
  }

  /** Marks `agent` cut short (a turn limit); it leaves the roster after this step. */
  truncate(agent) {
    const out = this._outcome(agent);
    if (out) out.truncated = true;
  }

  /** Ends the episode for every live agent, with `rewards` (an object agent -> reward). */
  endAll(rewards = {}) {
    for (const [agent, reward] of Object.entries(rewards)) this.reward(agent, reward);
    for (const out of this._outcomes) out.terminated = true;
  }

  /** Adds `key: value` (JSON-able) to `agent`'s info for this step. */
  info(agent, key, value) {
    const out = this._outcome(agent);
    if (out) out.info[key] = value;
  }

  /** The sum of `agent`'s rewards this episode. */
  cumulativeReward(agent) {
    return this._cumulative[agent] ?? 0;
  }

  /** Brings `agent` into the episode, last in turn order (no-op when live). */
  addAgent(agent) {
    if (this._live.includes(agent)) return;
    this._live.push(agent);
    this._outcomes.push(outcome());
    this._cumulative[agent] ??= 0;
    this._selector.addAgent(agent);
  }

  /** Takes `agent` out of the episode (no-op when absent). */
  removeAgent(agent) {
    const index = this._live.indexOf(agent);
    if (index < 0) return;
    this._live.splice(index, 1);
    this._outcomes.splice(index, 1);
    this._selector.removeAgent(agent);
  }

  _checkLive(agent, role) {
    if (!this._live.includes(agent)) {
      throw new InvalidState(
        `${role} \`${agent}\` is not in the episode (live agents: ${this._live.join(", ")})`,
      );
    }
  }

  /** Queues `text` from `sender` for `receiver`; both must be live. */
  sendMessage(sender, receiver, text) {
    this._checkLive(sender, "sender");
    this._checkLive(receiver, "receiver");
    this._messages.push({ sender, receiver, text });
  }

  /** Queues `text` from `sender` for every other live agent. */
  broadcastMessage(sender, text) {
    this._checkLive(sender, "sender");
    for (const receiver of this._live) {
      if (receiver !== sender) this._messages.push({ sender, receiver, text });
    }
  }

  /** Every message of the episode (`{sender, receiver, text}`), oldest first. */
  get messages() {
    return this._messages.map((m) => ({ ...m }));
  }

  /** The messages addressed to `agent`, oldest first. */
  messagesTo(agent) {
    return this.messages.filter((m) => m.receiver === agent);
  }

  /** The whole state, as plain JSON-able data (for snapshots). */
  toJSON() {
    const { mode, agents, current } = this._selector;
    return {
      possible: this._possible,
      live: this._live,
      selector: { mode, agents, current },
      outcomes: this._outcomes,
      cumulative: this._cumulative,
      messages: this._messages,
    };
  }

  /** Agents restored from `toJSON` data. */
  static fromJSON(data) {
    const agents = new Agents(data.possible, data.selector.mode);
    agents._live = data.live;
    Object.assign(agents._selector, data.selector);
    agents._outcomes = data.outcomes;
    agents._cumulative = data.cumulative;
    agents._messages = data.messages;
    return agents;
  }
}
