/**
 * What the glue of every world shares: how plugin errors reach the host (refusals, `GeodeError`,
 * become the contract's typed `env-error`; any other exception propagates, so the host reports
 * a guest trap with its message), info and snapshot encoding, and routing the SDK's log and
 * entropy to the host.
 */

import hostLog from "geode:env/log@0.1.0";
import hostRandom from "wasi:random/random@0.2.0";
import { GeodeError, envError } from "./errors.js";
import { setLogSink } from "./log.js";
import { infoJson } from "./results.js";
import { setEntropy } from "./rng.js";

export { envError, infoJson };

/** Runs `fn`, turning a refusal into the contract's error. */
export function guarded(fn) {
  try {
    return fn();
  } catch (error) {
    throw error instanceof GeodeError ? envError(error) : error;
  }
}

/** UTF-8 bytes of `text`. */
export function toBytes(text) {
  const binary = unescape(encodeURIComponent(text));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The text of UTF-8 `bytes`. */
export function fromBytes(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
  return decodeURIComponent(escape(binary));
}

/** Routes the SDK's log and unseeded generators to the host. */
export function connectHost() {
  setLogSink((level, message) => hostLog.log(level, message));
  // The host's randomness: seeded per instance by the host, so unseeded episodes replay too.
  setEntropy(() => {
    const value = hostRandom.getRandomU64();
    return typeof value === "bigint" ? Number(value & 0x1fffffffffffffn) : value % 2 ** 53;
  });
}
