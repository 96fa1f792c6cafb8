/**
 * The glue between a plugin's env classes and the component contract. `geode build` exports
 * `contract(plugin)` as the component's `env` interface; plugin authors never import it.
 * Refusals (`GeodeError`) become the contract's typed `env-error`; any other exception
 * propagates, so the host reports a guest trap with its message.
 */

import { registered } from "./env.js";
import { connectHost, fromBytes, guarded, infoJson, toBytes } from "./glue.js";
import { Slot } from "./slot.js";

/** The `env` export of a plugin module. */
export function contract(plugin) {
  const classes = registered(plugin);
  if (classes.size === 0) {
    throw new Error(
      "plugin.js exports no Env subclass with specs " +
        '(a multi-agent plugin needs {"kind": "multiagent"} in geode.json)',
    );
  }
  connectHost();

  class Instance {
    constructor(slot) {
      this.slot = slot;
    }

    reset(seed) {
      return guarded(() => {
        const out = this.slot.reset(seed);
        return { observation: String(out.observation), info: infoJson(out.info) };
      });
    }

    step(action) {
      return guarded(() => {
        const out = this.slot.step(action);
        return {
          observation: String(out.observation),
          reward: Number(out.reward),
          terminated: Boolean(out.terminated),
          truncated: Boolean(out.truncated),
          info: infoJson(out.info),
        };
      });
    }

    sampleRandomAction() {
      return guarded(() => this.slot.sampleRandomAction());
    }

    getState() {
      return guarded(() => toBytes(this.slot.getState()));
    }

    setState(state) {
      guarded(() => this.slot.setState(fromBytes(state)));
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
      return guarded(() => new Instance(new Slot(classes, id, JSON.parse(config))));
    },
  };
}

