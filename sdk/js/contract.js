/**
 * The glue between a plugin's env classes and the component contract. `geode build` exports
 * `contract(plugin)` as the component's `env` interface; plugin authors never import it.
 * Refusals (`GeodeError`) become the contract's typed `env-error`; any other exception
 * propagates, so the host reports a guest trap with its message.
 */

import hostLog from "geode:env/log@0.1.0";
import hostRandom from "wasi:random/random@0.2.0";
import { registered } from "./env.js";
import { GeodeError } from "./errors.js";
import { setLogSink } from "./log.js";
import { Slot, setEntropy } from "./slot.js";

function refused(error) {
  if (error instanceof GeodeError) return { tag: error.kind, val: error.message };
  return error;
}

function guarded(fn) {
  try {
    return fn();
  } catch (error) {
    throw refused(error);
  }
}

function infoJson(info) {
  if (info === null || typeof info !== "object" || Array.isArray(info)) {
    throw new TypeError("info must be an object");
  }
  return JSON.stringify(info);
}

function toBytes(text) {
  const binary = unescape(encodeURIComponent(text));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function fromBytes(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
  return decodeURIComponent(escape(binary));
}

/** The `env` export of a plugin module. */
export function contract(plugin) {
  const classes = registered(plugin);
  setLogSink((level, message) => hostLog.log(level, message));
  // The host's randomness: seeded per instance by the host, so unseeded episodes replay too.
  setEntropy(() => {
    const value = hostRandom.getRandomU64();
    return typeof value === "bigint" ? Number(value & 0x1fffffffffffffn) : value % 2 ** 53;
  });

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

