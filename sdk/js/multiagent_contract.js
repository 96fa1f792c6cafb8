/**
 * The glue between a plugin's multi-agent env classes and the `multiagent` interface.
 * `geode build` exports `multiagentContract(plugin)` as the component's `multiagent` interface
 * when the project's `geode.json` says `{"kind": "multiagent"}`; plugin authors never import
 * it. Errors reach the host as in `glue.js`.
 */

import { connectHost, fromBytes, guarded, infoJson, toBytes } from "./glue.js";
import { Session, registeredMultiAgent } from "./multiagent.js";

/** The `multiagent` export of a plugin module. */
export function multiagentContract(plugin) {
  const classes = registeredMultiAgent(plugin);
  if (classes.size === 0) {
    throw new Error(
      "geode.json says this is a multi-agent plugin, but plugin.js exports no MultiAgentEnv " +
        'subclass with specs (a single-agent plugin has no geode.json kind "multiagent")',
    );
  }
  connectHost();

  class Instance {
    constructor(session) {
      this.session = session;
    }

    roster() {
      return { agents: this.session.agents.agents, active: this.session.agents.active };
    }

    turn(results) {
      return {
        results: results.map((r) => ({
          agent: r.agent,
          observation: r.observation,
          reward: Number(r.reward),
          terminated: Boolean(r.terminated),
          truncated: Boolean(r.truncated),
          info: infoJson(r.info),
        })),
        roster: this.roster(),
      };
    }

    possibleAgents() {
      return this.session.agents.possibleAgents;
    }

    reset(seed) {
      return guarded(() => this.turn(this.session.reset(seed)));
    }

    step(actions) {
      return guarded(() => this.turn(this.session.step(actions)));
    }

    observe(agent) {
      return guarded(() => this.session.observe(agent));
    }

    sampleRandomAction(agent) {
      return guarded(() => this.session.sampleRandomAction(agent));
    }

    sendMessage(sender, receiver, message) {
      return guarded(() => {
        this.session.agents.sendMessage(sender, receiver, message);
        return this.roster();
      });
    }

    broadcastMessage(sender, message) {
      return guarded(() => {
        this.session.agents.broadcastMessage(sender, message);
        return this.roster();
      });
    }

    addAgent(agent) {
      return guarded(() => {
        this.session.agents.addAgent(agent);
        return this.roster();
      });
    }

    removeAgent(agent) {
      return guarded(() => {
        this.session.agents.removeAgent(agent);
        return this.roster();
      });
    }

    getState() {
      return guarded(() => toBytes(this.session.getState()));
    }

    setState(state) {
      return guarded(() => {
        this.session.setState(fromBytes(state));
        return this.roster();
      });
    }
  }

  return {
    Instance,
    describe() {
      return [...classes.values()].map(({ spec }) => ({
        id: spec.id,
        defaultConfig: JSON.stringify(spec.defaultConfig),
        description: spec.description,
      }));
    },
    create(id, config) {
      return guarded(() => new Instance(new Session(classes, id, JSON.parse(config))));
    },
  };
}
