/** The class a plugin's environments derive from, and the ids they provide. */

import { InvalidState } from "./errors.js";

/** One id an env class provides: the id users pass to `make`, one line for `geode list`, and
 * the id's full default configuration (the host rejects override keys that are not in it). */
export class Spec {
  constructor(id, description, defaultConfig = {}) {
    this.id = id;
    this.description = description;
    this.defaultConfig = defaultConfig;
  }
}

/**
 * Base class of an environment. Subclasses list their ids in `static specs` and implement
 * `constructor(id, config)`, `reset(rng)` and `step(action, rng)`; `sampleRandomAction(rng)` is
 * strongly advised (the conformance suite and `geode run` play random actions).
 *
 * Snapshots (`getState`) are the JSON of the instance's own fields by default: keep the
 * episode's whole state in plain fields, nothing in module globals, or override
 * `getState()` (returning any JSON value) and `setState(value)`.
 */
export class Env {
  static specs = [];

  reset(_rng) {
    throw new Error(`${this.constructor.name}.reset is not implemented`);
  }

  step(_action, _rng) {
    throw new Error(`${this.constructor.name}.step is not implemented`);
  }

  sampleRandomAction(_rng) {
    throw new InvalidState(`${this.constructor.name} does not sample random actions`);
  }

  getState() {
    return { ...this };
  }

  setState(state) {
    Object.assign(this, state);
  }
}

/** The env classes deriving from `base` (default `Env`) a plugin module exports, by id. */
export function registered(plugin, base = Env) {
  const byId = new Map();
  for (const cls of Object.values(plugin)) {
    if (typeof cls !== "function" || !(cls.prototype instanceof base)) continue;
    for (const spec of cls.specs) {
      if (byId.has(spec.id)) throw new Error(`id \`${spec.id}\` is provided twice`);
      byId.set(spec.id, { spec, cls });
    }
  }
  return byId;
}
