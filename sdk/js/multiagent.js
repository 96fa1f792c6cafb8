/**
 * Multi-agent envs: extend `MultiAgentEnv` and write only the game's rules. The SDK keeps what
 * every multi-agent env shares (`Agents`: the live agents, the turn, this step's rewards and
 * ends, the totals, the mailbox, removal of agents that are done), and `Session` runs the
 * reset/step flow the component export and node tests share.
 *
 * A project of multi-agent envs declares `{"kind": "multiagent"}` in its `geode.json`
 * (`geode new --kind multiagent` writes it), so `geode build` targets the `multiagent-plugin`
 * world.
 */

import { Agents } from "./agents.js";
import { Config } from "./config.js";
import { registered } from "./env.js";
import { BadState, InvalidState, UnknownId } from "./errors.js";
import { Rng, prepared, unseeded } from "./rng.js";
import { SEQUENTIAL } from "./selector.js";

/**
 * Base class of a multi-agent environment. Subclasses list their ids in `static specs`, may set
 * `static mode` (`SEQUENTIAL`, the default, or `PARALLEL`), and implement `constructor(id,
 * config)`, `possibleAgents()`, `reset(agents, rng)`, `step(actions, agents, rng)`,
 * `observe(agent, agents)` and `sampleRandomAction(agent, agents, rng)`.
 *
 * Everything random comes from `rng` (seeded by `reset(seed)`), so an episode replays from its
 * seed and actions. Snapshots are the JSON of the instance's own fields by default (override
 * `getState()` and `setState(value)` otherwise).
 */
export class MultiAgentEnv {
  static specs = [];
  static mode = SEQUENTIAL;

  /** Every agent an episode may have, in turn order; all are live after `reset`. */
  possibleAgents() {
    throw new Error(`${this.constructor.name}.possibleAgents is not implemented`);
  }

  /** Starts a new episode; `agents` is already reset (every agent live, the first one's turn). */
  reset(_agents, _rng) {}

  /** Applies the active agents' actions (`[agent, action]` pairs in turn order), recording
   * rewards, ends and infos on `agents`. Illegal moves are the game's business, never throws. */
  step(_actions, _agents, _rng) {
    throw new Error(`${this.constructor.name}.step is not implemented`);
  }

  /** What `agent` sees now (a string). */
  observe(_agent, _agents) {
    throw new Error(`${this.constructor.name}.observe is not implemented`);
  }

  /** A random action for `agent`, legal in the current state. */
  sampleRandomAction(_agent, _agents, _rng) {
    throw new InvalidState(`${this.constructor.name} does not sample random actions`);
  }

  getState() {
    return { ...this };
  }

  setState(state) {
    Object.assign(this, state);
  }
}

/** One multi-agent env of `id` from `classes` (see `registered`), made from `config` (a plain
 * object: the id's defaults merged with overrides), with its `Agents` and generator. */
export class Session {
  constructor(classes, id, config) {
    const found = classes.get(id);
    if (!found) throw new UnknownId(`this plugin does not provide \`${id}\``);
    this.env = new found.cls(id, new Config(config));
    this.agents = new Agents(this.env.possibleAgents(), found.cls.mode);
    this.rng = null;
    this.started = false;
  }

  generator() {
    if (this.rng === null) this.rng = unseeded();
    return this.rng;
  }

  results(who, finish) {
    const outcomes = who.map((a) => this.agents._takeOutcome(a));
    if (finish) this.agents._finishStep();
    return who.map((agent, i) => ({
      agent,
      observation: String(this.env.observe(agent, this.agents)),
      ...outcomes[i],
    }));
  }

  /** Starts an episode (a seed reseeds the generator, null goes on with it); one result
   * (`{agent, observation, reward, terminated, truncated, info}`) per agent. */
  reset(seed) {
    const rng = (this.rng = prepared(this.rng, seed));
    this.agents._restart();
    this.env.reset(this.agents, rng);
    this.started = true;
    return this.results(this.agents.agents, false);
  }

  /** Steps the active agents with `actions` (`[agent, action]` pairs): each active agent once,
   * nobody else. Agents that end leave; the turn passes on. One result per agent live before. */
  step(actions) {
    if (!this.started) throw new InvalidState("step called before reset");
    const pairs = actions.map(([a, b]) => [String(a), String(b)]);
    const active = this.agents.active;
    const named = pairs.map(([a]) => a);
    const once = named.length === active.length && new Set(named).size === named.length;
    if (!once || !named.every((a) => active.includes(a))) {
      throw new InvalidState(`step needs one action from each active agent (${active.join(", ")})`);
    }
    const before = this.agents.agents;
    this.agents._clearOutcomes();
    this.env.step(pairs, this.agents, this.generator());
    return this.results(before, true);
  }

  /** What `agent` sees now. */
  observe(agent) {
    if (!this.agents.possibleAgents.includes(agent) && !this.agents.isLive(agent)) {
      throw new InvalidState(`no agent \`${agent}\` in this env`);
    }
    return String(this.env.observe(agent, this.agents));
  }

  /** A random legal action for `agent`. */
  sampleRandomAction(agent) {
    if (!this.agents.isLive(agent)) throw new InvalidState(`agent \`${agent}\` is not in the episode`);
    return String(this.env.sampleRandomAction(agent, this.agents, this.generator()));
  }

  /** A snapshot (JSON text) of the env, its agents and its generator. */
  getState() {
    return JSON.stringify({
      env: this.env.getState(),
      agents: this.agents,
      rng: this.rng?.s ?? null,
      started: this.started,
    });
  }

  /** Restores a snapshot from `getState`. */
  setState(text) {
    let state;
    try {
      state = JSON.parse(text);
    } catch (error) {
      throw new BadState(`cannot decode the snapshot: ${error.message}`);
    }
    if (!state || typeof state !== "object" || !state.agents) {
      throw new BadState("the snapshot is not a multi-agent env's");
    }
    this.env.setState(state.env);
    this.agents = Agents.fromJSON(state.agents);
    this.rng = state.rng === null ? null : Object.assign(new Rng(0), { s: state.rng });
    this.started = state.started;
  }
}

/** The multi-agent env classes a plugin module exports, by id. */
export function registeredMultiAgent(plugin) {
  return registered(plugin, MultiAgentEnv);
}
