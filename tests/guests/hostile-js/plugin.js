// Hostile guests in JavaScript: each id attacks the host in one way when stepped with `go`;
// `hostile-js:healthy` answers every step. The host must stop each attack with its typed error.

import { Env, Spec, Step } from "geode-sdk";

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
