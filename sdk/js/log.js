/** Messages to the host's log. */

let sink = (level, message) => console.error(`[${level}] ${message}`);

/** Sends `message` to the host's log: geode prints warnings and errors, and every level when
 * `GEODE_LOG` is set. Outside a component (node tests) it prints to stderr. */
export function log(message, level = "info") {
  sink(level, String(message));
}

/** Routes `log` to the host (called by the contract glue). */
export function setLogSink(fn) {
  sink = fn;
}
