/**
 * Node test helpers: play a plugin's envs in plain JavaScript, no component involved.
 *
 *     import * as plugin from "../plugin.js";
 *     const env = make(plugin, "demo:Coin-v0", { rounds: 2 });
 *     env.reset(7); env.step("heads");
 */

import { registered } from "./env.js";
import { BadConfig } from "./errors.js";
import { Slot } from "./slot.js";

/** A live env of `id` from `plugin` (the module's exports), its defaults updated by `overrides`. */
export function make(plugin, id, overrides = {}) {
  const classes = registered(plugin);
  const found = classes.get(id);
  if (found) {
    const unknown = Object.keys(overrides).filter((k) => !(k in found.spec.defaultConfig));
    if (unknown.length) throw new BadConfig(`unknown config keys: ${unknown.join(", ")}`);
  }
  const config = { ...(found?.spec.defaultConfig ?? {}), ...overrides };
  return new Slot(classes, id, config);
}
