/**
 * The glue of the `batch` export: the host steps or resets several envs of one component in one
 * call, and each answers exactly as its own `step`/`reset` of the `env` export would, the
 * results packed column by column. `geode build` exports `batch` next to `contract(plugin)`;
 * plugin authors never import it. As there, a refusal (`GeodeError`) is the member's typed
 * error (its entry is flagged refused) and any other exception propagates, so the host reports
 * a guest trap and recovers the other members.
 *
 * A member's outputs depend only on its configuration, how its episode started and the calls
 * made on it since: a `continued` start reseeds its generator from the episode's
 * `(stream, number)` alone (`continued` in rng.js), so the host can replay it.
 */

import { GeodeError, Internal, InvalidState, envError } from "./errors.js";
import { infoJson } from "./results.js";

const TERMINATED = 1;
const TRUNCATED = 2;
const REFUSED = 4;

/** A reference that lets its target go with its instance where the engine can (`WeakRef`). */
const Ref =
  typeof WeakRef === "function"
    ? WeakRef
    : class {
        constructor(target) {
          this.target = target;
        }
        deref() {
          return this.target;
        }
      };

/** Enrolled slots by number: an entry dies with its instance and may be reused. */
const members = [];

function enrol(slot) {
  let number = members.findIndex((ref) => ref.deref() === undefined);
  if (number < 0) number = members.push(null) - 1;
  members[number] = new Ref(slot);
  return number;
}

/** The live slot enrolled as `number`; refused when there is none. */
function slotOf(number) {
  const slot = members[number]?.deref();
  if (slot === undefined) throw new InvalidState(`no live instance is enrolled as number ${number}`);
  return slot;
}

/** Whole-text ASCII test: anchored, it runs one pass (QuickJS's search for a non-ASCII character
 * restarts at every position, twice as slow). */
const ASCII = /^[\x00-\x7f]*$/;

/** The UTF-8 length of `text` (a lone surrogate counts as U+FFFD). */
function utf8Length(text) {
  if (ASCII.test(text)) return text.length;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** The string index of each UTF-8 byte offset of `text` that starts a character (and of its
 * end). */
function charStarts(text) {
  const at = new Map();
  let byte = 0;
  for (let i = 0; i < text.length; i++) {
    at.set(byte, i);
    const c = text.charCodeAt(i);
    if (c < 0x80) byte += 1;
    else if (c < 0x800) byte += 2;
    else if (c >= 0xd800 && c < 0xdc00 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      byte += 4;
      i++;
    } else byte += 3;
  }
  at.set(byte, text.length);
  return at;
}

/** The `n` actions of a batch: entry k is the UTF-8 bytes `ends[k-1]..ends[k]` of `text`, or
 * null when those bounds do not fit the text (the entry is then refused). */
function actionsOf(text, ends, n) {
  // As many bytes as UTF-16 units: ASCII, with no test (any other character takes more bytes).
  const ascii = ends.length === n && ends[n - 1] === text.length ? true : ASCII.test(text);
  const at = ascii ? null : charStarts(text);
  const size = at === null ? text.length : utf8Length(text);
  const out = new Array(n).fill(null);
  let start = 0;
  for (let k = 0; k < n; k++) {
    const end = k < ends.length ? ends[k] : Infinity;
    if (start <= end && end <= size) {
      if (at === null) out[k] = text.slice(start, end);
      else if (at.has(start) && at.has(end)) out[k] = text.slice(at.get(start), at.get(end));
    }
    start = Math.max(start, end);
  }
  return out;
}

/** The UTF-8 byte end of each of `parts` in their concatenation (`ascii`: they all are, and
 * `ends` already holds their UTF-16 ends). */
function byteEnds(parts, ends, ascii) {
  if (ascii) return ends;
  let total = 0;
  for (let k = 0; k < parts.length; k++) {
    total += utf8Length(parts[k]);
    ends[k] = total;
  }
  return ends;
}

/** A batch call's results under construction, one entry at a time: each column is filled in
 * place, and the text columns' UTF-16 ends are counted as entries arrive (their UTF-8 ends when
 * it is finished). A refusal fills its member's entry; any other exception propagates (a trap).
 */
class Columns {
  /** Room for `size` entries (a call holds at most twice as many as it names members). */
  constructor(size) {
    this.size = 0;
    this.observations = new Array(size);
    this.observationEnds = new Array(size);
    this.observationTotal = 0;
    this.infos = new Array(size);
    this.infoEnds = new Array(size);
    this.infoTotal = 0;
    this.rewards = new Array(size);
    this.flags = new Uint8Array(size);
    this.errors = [];
  }

  push(observation, info, reward, flags) {
    const k = this.size++;
    this.observations[k] = observation;
    this.observationEnds[k] = this.observationTotal += observation.length;
    this.infos[k] = info;
    this.infoEnds[k] = this.infoTotal += info.length;
    this.rewards[k] = reward;
    this.flags[k] = flags;
  }

  refuse(error) {
    if (!(error instanceof GeodeError)) throw error;
    this.errors.push([this.size, envError(error)]);
    this.push("", "", 0, REFUSED);
  }

  /** Steps each member with its action. */
  stepAll(numbers, actions, actionEnds) {
    const each = actionsOf(actions, actionEnds, numbers.length);
    for (let k = 0; k < numbers.length; k++) {
      try {
        const slot = slotOf(numbers[k]);
        if (each[k] === null) {
          throw new Internal(`entry ${k}: action bounds do not fit the actions text`);
        }
        const out = slot.step(each[k]);
        this.push(
          String(out.observation),
          infoJson(out.info),
          Number(out.reward),
          (out.terminated ? TERMINATED : 0) | (out.truncated ? TRUNCATED : 0),
        );
      } catch (error) {
        this.refuse(error);
      }
    }
  }

  /** Starts member `number`'s next episode as `start` says (undefined: the call gave none). */
  reset(number, start) {
    try {
      const slot = slotOf(number);
      if (start === undefined) throw new Internal(`entry ${this.size} has no episode start`);
      const out =
        start.tag === "seeded"
          ? slot.reset(start.val)
          : slot.resetContinued(start.val.stream, start.val.number);
      this.push(String(out.observation), infoJson(out.info), 0, 0);
    } catch (error) {
      this.refuse(error);
    }
  }

  finish() {
    const n = this.size;
    const parts = this.observations;
    const infoParts = this.infos;
    parts.length = infoParts.length = this.observationEnds.length = this.infoEnds.length = n;
    this.rewards.length = n;
    const observations = parts.join("");
    const infos = infoParts.join("");
    // One ASCII test for both columns in the usual case (each test has a fixed cost).
    const ascii = ASCII.test(observations + infos);
    return {
      observations,
      observationEnds: byteEnds(parts, this.observationEnds, ascii || ASCII.test(observations)),
      infos,
      infoEnds: byteEnds(infoParts, this.infoEnds, ascii || ASCII.test(infos)),
      rewards: this.rewards,
      flags: n === this.flags.length ? this.flags : this.flags.slice(0, n),
      errors: this.errors,
    };
  }
}

/** The `batch` export: serves every env the `env` export of `contract(plugin)` creates. */
export const batch = {
  enrol(member) {
    return enrol(member.slot);
  },

  stepEach(numbers, actions, actionEnds) {
    const out = new Columns(numbers.length);
    out.stepAll(numbers, actions, actionEnds);
    return out.finish();
  },

  resetEach(numbers, starts) {
    const out = new Columns(numbers.length);
    for (let k = 0; k < numbers.length; k++) out.reset(numbers[k], starts[k]);
    return out.finish();
  },

  stepEachThenReset(numbers, actions, actionEnds, starts) {
    const n = numbers.length;
    const out = new Columns(2 * n);
    out.stepAll(numbers, actions, actionEnds);
    for (let k = 0; k < n; k++) {
      const flags = out.flags[k];
      if (!(flags & REFUSED) && flags & (TERMINATED | TRUNCATED)) out.reset(numbers[k], starts[k]);
    }
    return out.finish();
  },
};
