/** An env's configuration: the id's default config merged with the user's overrides. */

import { BadConfig } from "./errors.js";

/**
 * The parsed configuration. `values` holds the plain object; the typed getters throw
 * `BadConfig` naming the key when a value is missing or has the wrong type.
 */
export class Config {
  constructor(values) {
    this.values = values;
  }

  get(key, what, ok, fallback) {
    const value = key in this.values ? this.values[key] : fallback;
    if (value === undefined) throw new BadConfig(`config key \`${key}\`: missing`);
    if (!ok(value)) {
      throw new BadConfig(`config key \`${key}\`: expected ${what}, got ${JSON.stringify(value)}`);
    }
    return value;
  }

  /** An integer, optionally within inclusive bounds `{ min, max }`; `fallback` if missing. */
  int(key, { min, max, fallback } = {}) {
    const value = this.get(key, "an integer", Number.isInteger, fallback);
    if (min !== undefined && value < min) {
      throw new BadConfig(`config key \`${key}\`: must be at least ${min}, got ${value}`);
    }
    if (max !== undefined && value > max) {
      throw new BadConfig(`config key \`${key}\`: must be at most ${max}, got ${value}`);
    }
    return value;
  }

  /** A number. */
  number(key, fallback) {
    return this.get(key, "a number", (v) => typeof v === "number", fallback);
  }

  /** A string. */
  string(key, fallback) {
    return this.get(key, "a string", (v) => typeof v === "string", fallback);
  }

  /** A boolean. */
  bool(key, fallback) {
    return this.get(key, "true or false", (v) => typeof v === "boolean", fallback);
  }
}
