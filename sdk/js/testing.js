/**
 * Node test helpers: play a plugin's envs in plain JavaScript, no component involved.
 *
 *     import * as plugin from "../plugin.js";
 *     const env = make(plugin, "demo:Coin-v0", { rounds: 2 });
 *     env.reset(7); env.step("heads");
 *
 * `makeMultiAgent(plugin, id, overrides)` does the same for a multi-agent env.
 */

import { Env, registered } from "./env.js";
import { BadConfig } from "./errors.js";
import { MultiAgentEnv, Session } from "./multiagent.js";
import { Slot } from "./slot.js";

function configured(classes, id, overrides) {
  const found = classes.get(id);
  if (found) {
    const unknown = Object.keys(overrides).filter((k) => !(k in found.spec.defaultConfig));
    if (unknown.length) throw new BadConfig(`unknown config keys: ${unknown.join(", ")}`);
  }
  return { ...(found?.spec.defaultConfig ?? {}), ...overrides };
}

/** A live env of `id` from `plugin` (the module's exports), its defaults updated by `overrides`. */
export function make(plugin, id, overrides = {}) {
  const classes = registered(plugin, Env);
  return new Slot(classes, id, configured(classes, id, overrides));
}

/** A live multi-agent env (a `Session`) of `id` from `plugin`, like `make`. */
export function makeMultiAgent(plugin, id, overrides = {}) {
  const classes = registered(plugin, MultiAgentEnv);
  return new Session(classes, id, configured(classes, id, overrides));
}
