/** What `reset` and `step` return. */

/** The first observation of an episode and its info (an object, sent as JSON). `reset` may
 * also return a plain string: the observation with an empty info. */
export class Reset {
  constructor(observation, info = {}) {
    this.observation = observation;
    this.info = info;
  }
}

/** The outcome of one action. `terminated`: the episode ended by its own rules; `truncated`:
 * it was cut short from outside the task (a turn limit). */
export class Step {
  constructor(observation, reward = 0, { terminated = false, truncated = false, info = {} } = {}) {
    this.observation = observation;
    this.reward = reward;
    this.terminated = terminated;
    this.truncated = truncated;
    this.info = info;
  }
}

/** An info object as the JSON object text the host expects. */
export function infoJson(info) {
  if (info === null || typeof info !== "object" || Array.isArray(info)) {
    throw new TypeError("info must be an object");
  }
  return JSON.stringify(info);
}
