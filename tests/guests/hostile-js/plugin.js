// Hostile guests in JavaScript: each id attacks the host in one way when stepped with `go`;
// `hostile-js:healthy` answers every step. The host must stop each attack with its typed error.
// `hostile-js:dice` is a healthy sibling whose episodes draw from the generator (see `Dice`).

import { Env, InvalidState, Reset, Spec, Step } from "geode-sdk";

export class Hostile extends Env {
  static specs = [
    new Spec("hostile-js:healthy", "answers every step", {}),
    new Spec("hostile-js:spin", "loops forever in step", {}),
    new Spec("hostile-js:memory-bomb", "allocates until memory runs out", {}),
    new Spec("hostile-js:throw", "throws an uncaught error with a message", {}),
  ];

  constructor(id) {
    super();
    this.kind = id.split(":")[1];
    this.steps = 0;
  }

  reset() {
    return "ready";
  }

  step(action) {
    if (this.kind === "spin") {
      for (;;) this.steps += 1;
    }
    if (this.kind === "memory-bomb") {
      const hoard = [];
      for (;;) hoard.push(new Uint8Array(1 << 20));
    }
    if (this.kind === "throw") throw new Error("the javascript guest gave up");
    this.steps += 1;
    return new Step(`step ${this.steps} got ${action}`);
  }

  sampleRandomAction() {
    return "go";
  }
}

// Rolls a die at reset and at every step; a 6 ends the episode, the fourth step truncates it,
// the action `refuse` is refused. Texts hold non-ASCII characters on purpose.
export class Dice extends Env {
  static specs = [new Spec("hostile-js:dice", "rolls a die per step", {})];

  constructor() {
    super();
    this.turns = 0;
  }

  reset(rng) {
    this.turns = 0;
    const roll = rng.below(6) + 1;
    return new Reset(`🎲 rolled ${roll}`, { roll, note: "é" });
  }

  step(action, rng) {
    if (action === "refuse") throw new InvalidState("refused on purpose");
    this.turns += 1;
    const roll = rng.below(6) + 1;
    return new Step(`${action} → ${roll}`, roll / 6, {
      terminated: roll === 6,
      truncated: this.turns >= 4,
      info: { roll, turns: this.turns },
    });
  }

  sampleRandomAction(rng) {
    return rng.choice(["é", "go on"]);
  }
}
