// The JavaScript guest SDK's `batch` export, in node (no component): its columns (UTF-8 byte
// ends, flags, refusals) and each member's results are what the member's own step and reset
// give. Run with `node --test sdk/js/test/` (tests/python/test_sdk_multiagent.py does); the
// component-level checks are the Rust integration tests in tests/all/guest_batch.rs.

import assert from "node:assert/strict";
import { test } from "node:test";
import { batch } from "../batch.js";
import { Env, InvalidState, Reset, Spec, Step } from "../index.js";
import { continuationSeed } from "../rng.js";
import { make } from "../testing.js";

/** Rolls a die per step; `refuse` is refused; a 6 ends the episode, the third step truncates. */
class Dice extends Env {
  static specs = [new Spec("t:Dice-v0", "dice", {})];

  reset(rng) {
    this.turns = 0;
    return new Reset(`🎲 ${rng.below(6) + 1}`, { note: "é" });
  }

  step(action, rng) {
    if (action === "refuse") throw new InvalidState("refused on purpose");
    this.turns += 1;
    const roll = rng.below(6) + 1;
    return new Step(`${action} → ${roll}`, roll / 6, {
      terminated: roll === 6,
      truncated: this.turns >= 3,
      info: { roll },
    });
  }
}

const plugin = { Dice };

function utf8(text) {
  return Buffer.byteLength(text, "utf8");
}

/** The entries of a batch call's results: [observation, info, reward, flags, error]. */
function entries(out) {
  const bytes = (text) => Buffer.from(text, "utf8");
  const observations = bytes(out.observations);
  const infos = bytes(out.infos);
  const errors = new Map(out.errors.map(([k, e]) => [k, e]));
  return out.flags.length === 0
    ? []
    : [...out.flags].map((flags, k) => [
        observations.subarray(k ? out.observationEnds[k - 1] : 0, out.observationEnds[k]).toString(),
        infos.subarray(k ? out.infoEnds[k - 1] : 0, out.infoEnds[k]).toString(),
        out.rewards[k],
        flags,
        errors.get(k) ?? null,
      ]);
}

/** What `slot` alone gives for `call`, as an entry. */
function alone(call) {
  try {
    const out = call();
    const flags = (out.terminated ? 1 : 0) | (out.truncated ? 2 : 0);
    return [String(out.observation), JSON.stringify(out.info), out.reward ?? 0, flags, null];
  } catch (error) {
    return ["", "", 0, 4, { tag: error.kind, val: error.message }];
  }
}

test("a batch answers each member as its own step and reset would, column by column", () => {
  const n = 5;
  const members = Array.from({ length: n }, () => ({ slot: make(plugin, "t:Dice-v0") }));
  const twins = Array.from({ length: n }, () => make(plugin, "t:Dice-v0"));
  const numbers = members.map((m) => batch.enrol(m));
  assert.equal(new Set(numbers).size, n);
  const starts = (i, round) =>
    round === 0 ? { tag: "seeded", val: 10 + i } : { tag: "continued", val: { stream: 10 + i, number: round } };

  const first = entries(batch.resetEach(numbers, numbers.map((_, i) => starts(i, 0))));
  assert.deepEqual(first, twins.map((t, i) => alone(() => t.reset(10 + i))));

  const episodes = new Array(n).fill(1);
  for (let round = 0; round < 20; round++) {
    const actions = numbers.map((_, i) => ["go", "é ✓", "refuse", "x"][(round + i) % 4]);
    const ends = [];
    actions.reduce((total, a) => (ends.push(total + utf8(a)), total + utf8(a)), 0);
    const nextStarts = numbers.map((_, i) => starts(i, episodes[i]));
    const out = batch.stepEachThenReset(numbers, actions.join(""), ends, nextStarts);
    const got = entries(out);
    const want = twins.map((t, i) => alone(() => t.step(actions[i])));
    assert.deepEqual(got.slice(0, n), want, `round ${round}`);
    // The members whose step ended their episode restart, in member order, after the steps.
    const ended = want.flatMap(([, , , flags], i) => (flags & 4 || !(flags & 3) ? [] : [i]));
    const resets = ended.map((i) => {
      const { stream, number } = nextStarts[i].val;
      episodes[i] += 1;
      return alone(() => twins[i].resetContinued(stream, number));
    });
    assert.deepEqual(got.slice(n), resets, `round ${round}`);
  }
  assert.ok(episodes.some((e) => e > 2));
});

test("bad bounds, unknown members and missing starts are refusals of their entry alone", () => {
  const numbers = [batch.enrol({ slot: make(plugin, "t:Dice-v0") }), 4_000_000];
  const reset = entries(batch.resetEach(numbers, [{ tag: "seeded", val: 1 }]));
  assert.equal(reset[0][3], 0);
  assert.match(reset[1][4].val, /no live instance/);
  // "é" is two bytes: an end inside it does not fit.
  const step = entries(batch.stepEach([numbers[0], numbers[0]], "éx", [1, 3]));
  assert.deepEqual(step[0].slice(3), [4, { tag: "internal", val: "entry 0: action bounds do not fit the actions text" }]);
  assert.equal(step[1][3] & 4, 4);
});

test("an unseeded episode's generator depends on its stream and number alone", () => {
  const play = (stream, number) => {
    const slot = make(plugin, "t:Dice-v0");
    return [slot.resetContinued(stream, number).observation, slot.step("a").observation];
  };
  assert.deepEqual(play(7, 3), play(7, 3));
  assert.notEqual(continuationSeed(7, 3), continuationSeed(7, 4));
  assert.notEqual(continuationSeed(7, 3), continuationSeed(8, 3));
  // A number and a BigInt of the same seed give the same draws.
  const a = make(plugin, "t:Dice-v0");
  const b = make(plugin, "t:Dice-v0");
  assert.deepEqual(a.reset(12345).observation, b.reset(12345n).observation);
});
