/**
 * Refusals a plugin reports to the host. Throw one from the constructor, `reset`, `step` or
 * `sampleRandomAction`; the host turns it into the matching typed error. Any other exception is
 * a bug in the plugin: the host reports a guest trap with its message and keeps running.
 */

/** Base of every refusal; `kind` names the contract's `env-error` case. */
export class GeodeError extends Error {
  get kind() {
    return "internal";
  }
}

/** A configuration value is malformed or out of range; the message names the key. */
export class BadConfig extends GeodeError {
  get kind() {
    return "bad-config";
  }
}

/** The env was asked for an id it does not provide. */
export class UnknownId extends GeodeError {
  get kind() {
    return "unknown-id";
  }
}

/** The call is not allowed now (for example `step` before `reset`). */
export class InvalidState extends GeodeError {
  get kind() {
    return "invalid-state";
  }
}

/** A snapshot given to `setState` could not be decoded. */
export class BadState extends GeodeError {
  get kind() {
    return "bad-state";
  }
}

/** Any other failure the plugin reports without trapping. */
export class Internal extends GeodeError {}

/** The contract's `env-error` for the refusal `error` (a `GeodeError`). */
export function envError(error) {
  return { tag: error.kind, val: error.message };
}
