// {{name}}: say whether each number dealt is even or odd.

import { Env, Spec, Step } from "geode-sdk";

const FORMAT_ERROR = -0.1;

/** The content of the last `\boxed{...}` in `text`, or null. */
function lastBoxed(text) {
  const start = text.lastIndexOf("\\boxed{");
  const end = text.indexOf("}", start);
  if (start < 0 || end < 0) return null;
  return text.slice(start + "\\boxed{".length, end).trim();
}

export class Parity extends Env {
  static specs = [
    new Spec("{{name}}:Parity-v0", "Say whether numbers are even or odd, 3 rounds", { rounds: 3 }),
    new Spec("{{name}}:Parity-v0-long", "Say whether numbers are even or odd, 10 rounds", { rounds: 10 }),
  ];

  constructor(id, config) {
    super();
    this.rounds = config.int("rounds", { min: 1 });
    this.round = 0;
    this.score = 0;
    this.number = 0;
  }

  ask(rng) {
    this.number = rng.below(100);
    return (
      `Round ${this.round + 1} of ${this.rounds}: is ${this.number} even or odd? ` +
      "Answer \\boxed{even} or \\boxed{odd}."
    );
  }

  reset(rng) {
    this.round = this.score = 0;
    return this.ask(rng);
  }

  step(action, rng) {
    const answer = lastBoxed(action);
    if (answer !== "even" && answer !== "odd") {
      return new Step("Answer \\boxed{even} or \\boxed{odd}.", FORMAT_ERROR, { terminated: true });
    }
    const right = answer === (this.number % 2 === 0 ? "even" : "odd");
    this.round += 1;
    this.score += right ? 1 : 0;
    const info = { round: this.round, score: this.score };
    const verdict = right ? "Right." : "Wrong.";
    const reward = right ? 1 : 0;
    if (this.round === this.rounds) {
      const done = `${verdict} Done: ${this.score} of ${this.rounds}.`;
      return new Step(done, reward, { terminated: true, info });
    }
    return new Step(`${verdict} ${this.ask(rng)}`, reward, { info });
  }

  sampleRandomAction(rng) {
    return rng.choice(["\\boxed{even}", "\\boxed{odd}"]);
  }
}
