/**
 * geode-sdk: environment plugins for geode, written as JavaScript ES modules.
 *
 * Export a subclass of `Env` from your `plugin.js`, list the ids it provides in `static specs`,
 * and build the directory with `geode build`: the SDK turns every exported `Env` subclass into
 * a WebAssembly component implementing geode's contract. You never see WIT or bindings.
 *
 *     import { Env, Spec, Step } from "geode-sdk";
 *
 *     export class Coin extends Env {
 *       static specs = [new Spec("demo:Coin-v0", "Call the coin flip", { rounds: 1 })];
 *       constructor(id, config) { super(); this.rounds = config.int("rounds", { min: 1 }); }
 *       reset(rng) { return "heads or tails?"; }
 *       step(action, rng) {
 *         const won = (action.trim() === "heads") === (rng.below(2) === 0);
 *         return new Step("flipped", won ? 1 : 0, { terminated: true });
 *       }
 *       sampleRandomAction(rng) { return rng.choice(["heads", "tails"]); }
 *     }
 *
 * Everything random must come from the `rng` handed to `reset` and `step`: the same seed then
 * replays the same episode, which the host relies on.
 *
 * Multi-agent envs extend `MultiAgentEnv` instead (see `multiagent.js`), in a project whose
 * `geode.json` says `{"kind": "multiagent"}`.
 */

export { Agents } from "./agents.js";
export { Config } from "./config.js";
export { Env, Spec } from "./env.js";
export { BadConfig, BadState, GeodeError, Internal, InvalidState, UnknownId } from "./errors.js";
export { log } from "./log.js";
export { MultiAgentEnv, Session } from "./multiagent.js";
export { Reset, Step } from "./results.js";
export { Rng } from "./rng.js";
export { AgentSelector, PARALLEL, SEQUENTIAL } from "./selector.js";
