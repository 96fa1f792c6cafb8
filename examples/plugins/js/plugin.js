// Nim: take objects from heaps; whoever takes the last object wins.
//
// A game with a crisp optimal strategy (move to a position whose heaps XOR to zero), so it
// tests whether an agent can discover and apply it. Every deal is a win for the agent, who
// moves first; the opponent plays perfectly except for a configurable rate of random moves.

import { Env, Spec, Step } from "geode-sdk";

const FORMAT_ERROR = -0.1;

function lastBoxed(text) {
  const start = text.lastIndexOf("\\boxed{");
  const end = text.indexOf("}", start);
  if (start < 0 || end < 0) return null;
  return text.slice(start + "\\boxed{".length, end).trim();
}

/** Parses "heap count" (1-based heap) into [heap index, count], or null. */
export function parseMove(text) {
  const match = /^(\d+)\s*[, ]\s*(\d+)$/.exec(text ?? "");
  return match ? [Number(match[1]) - 1, Number(match[2])] : null;
}

export function nimSum(heaps) {
  return heaps.reduce((a, b) => a ^ b, 0);
}

/** A move to a position whose nim-sum is zero, or null if there is none. */
export function winningMove(heaps) {
  const sum = nimSum(heaps);
  if (sum === 0) return null;
  const heap = heaps.findIndex((h) => (h ^ sum) < h);
  return [heap, heaps[heap] - (heaps[heap] ^ sum)];
}

function randomMove(heaps, rng) {
  const nonEmpty = heaps.flatMap((h, i) => (h > 0 ? [i] : []));
  const heap = rng.choice(nonEmpty);
  return [heap, rng.int(1, heaps[heap])];
}

export class Nim extends Env {
  static specs = [
    new Spec("example:Nim-v0", "Nim on 3 heaps of up to 7; the opponent errs half the time", {
      heaps: 3,
      max_size: 7,
      mistake_rate: 0.5,
    }),
    new Spec("example:Nim-v0-hard", "Nim on 4 heaps of up to 9 against a perfect opponent", {
      heaps: 4,
      max_size: 9,
      mistake_rate: 0,
    }),
  ];

  constructor(id, config) {
    super();
    this.count = config.int("heaps", { min: 1, max: 10 });
    this.maxSize = config.int("max_size", { min: 1, max: 50 });
    this.mistakeRate = config.number("mistake_rate");
    this.heaps = [];
  }

  describe() {
    const rows = this.heaps.map((h, i) => `heap ${i + 1}: ${h}`).join(", ");
    return `Heaps: ${rows}.`;
  }

  reset(rng) {
    do {
      this.heaps = Array.from({ length: this.count }, () => rng.int(1, this.maxSize));
    } while (nimSum(this.heaps) === 0);
    return (
      "Let's play Nim. On your turn, take one or more objects from a single heap; whoever " +
      "takes the last object wins. You move first. " +
      `${this.describe()} Answer \\boxed{heap count}, e.g. \\boxed{2 3} takes 3 from heap 2.`
    );
  }

  step(action, rng) {
    const move = parseMove(lastBoxed(action));
    if (!move) {
      return new Step("Answer \\boxed{heap count}.", FORMAT_ERROR, { terminated: true });
    }
    const [heap, count] = move;
    if (!(heap >= 0 && heap < this.count) || count < 1 || count > this.heaps[heap]) {
      const text = `Illegal move: heap ${heap + 1} cannot give ${count}. ${this.describe()}`;
      return new Step(text, 0, { terminated: true, info: { heaps: [...this.heaps] } });
    }
    this.heaps[heap] -= count;
    if (this.heaps.every((h) => h === 0)) {
      return new Step("You took the last object: you win!", 1, {
        terminated: true,
        info: { heaps: [...this.heaps] },
      });
    }
    const best = winningMove(this.heaps);
    const [theirs, taken] = best && rng.random() >= this.mistakeRate ? best : randomMove(this.heaps, rng);
    this.heaps[theirs] -= taken;
    const info = { heaps: [...this.heaps], opponent: [theirs + 1, taken] };
    const said = `I take ${taken} from heap ${theirs + 1}.`;
    if (this.heaps.every((h) => h === 0)) {
      return new Step(`${said} I took the last object: you lose.`, 0, { terminated: true, info });
    }
    return new Step(`${said} ${this.describe()} Your move.`, 0, { info });
  }

  sampleRandomAction(rng) {
    const [heap, count] = randomMove(this.heaps, rng);
    return `\\boxed{${heap + 1} ${count}}`;
  }
}
