/** One live env as the host sees it: the author's object, its generator and whether an
 * episode started. The contract glue and the node test helpers both drive envs through it. */

import { Config } from "./config.js";
import { BadState, InvalidState, UnknownId } from "./errors.js";
import { Reset, Step } from "./results.js";
import { Rng, continued, prepared, unseeded } from "./rng.js";

export class Slot {
  /** An env of `id` from `classes` (see `registered`), made from `config` (a plain object). */
  constructor(classes, id, config) {
    const found = classes.get(id);
    if (!found) throw new UnknownId(`this plugin does not provide \`${id}\``);
    this.env = new found.cls(id, new Config(config));
    this.rng = null;
    this.started = false;
  }

  generator() {
    if (this.rng === null) this.rng = unseeded();
    return this.rng;
  }

  /** A seed reseeds the generator; `null` goes on with it. */
  reset(seed) {
    return this.start(prepared(this.rng, seed));
  }

  /** Starts unseeded episode `number` of `stream`, whose randomness derives from those two
   * numbers alone (see `continued` in rng.js). */
  resetContinued(stream, number) {
    return this.start(continued(this.rng, stream, number));
  }

  /** Starts an episode with the generator `rng`. */
  start(rng) {
    this.rng = rng;
    let out = this.env.reset(rng);
    if (typeof out === "string") out = new Reset(out);
    this.started = true;
    return out;
  }

  step(action) {
    if (!this.started) throw new InvalidState("step called before reset");
    const out = this.env.step(action, this.generator());
    if (!(out instanceof Step)) throw new TypeError("step must return a Step");
    return out;
  }

  sampleRandomAction() {
    return String(this.env.sampleRandomAction(this.generator()));
  }

  getState() {
    return JSON.stringify({ env: this.env.getState(), rng: this.rng?.s ?? null, started: this.started });
  }

  setState(text) {
    let state;
    try {
      state = JSON.parse(text);
    } catch (error) {
      throw new BadState(`cannot decode the snapshot: ${error.message}`);
    }
    this.env.setState(state.env);
    this.rng = state.rng === null ? null : Object.assign(new Rng(0), { s: state.rng });
    this.started = state.started;
  }
}
