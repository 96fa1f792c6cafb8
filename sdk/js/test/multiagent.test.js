// The JavaScript guest SDK's multi-agent roster, in node (no component): the same turn,
// removal, reward and mailbox rules as the Rust SDK's `geode_sdk::multiagent`. Run with
// `node --test sdk/js/test/` (tests/python/test_sdk_multiagent.py does).

import assert from "node:assert/strict";
import { test } from "node:test";
import { AgentSelector, Agents, InvalidState, MultiAgentEnv, PARALLEL, SEQUENTIAL, Spec } from "../index.js";
import { makeMultiAgent } from "../testing.js";

test("sequential turns wrap around", () => {
  const s = new AgentSelector(["a", "b", "c"], SEQUENTIAL);
  const order = [];
  for (let i = 0; i < 4; i++) {
    order.push(s.active()[0]);
    s.next();
  }
  assert.deepEqual(order, ["a", "b", "c", "a"]);
});

test("removing the acting agent passes the turn on", () => {
  const s = new AgentSelector(["a", "b", "c"], SEQUENTIAL);
  s.next();
  s.removeAgent("b");
  s.next();
  assert.deepEqual(s.active(), ["c"]);
  const first = new AgentSelector(["a", "b", "c"], SEQUENTIAL);
  first.removeAgent("a");
  first.next();
  assert.deepEqual(first.active(), ["b"], "the first agent leaving skips nobody");
  for (const agent of ["zzz", "a", "c"]) s.removeAgent(agent);
  assert.deepEqual(s.active(), []);
});

test("terminated agents leave after the step and keep their totals; messages need live agents", () => {
  const agents = new Agents(["a", "b"], SEQUENTIAL);
  agents._restart();
  agents.sendMessage("a", "b", "hi");
  agents.broadcastMessage("b", "yo");
  assert.throws(() => agents.sendMessage("a", "ghost", "x"), InvalidState);
  assert.deepEqual(agents.messagesTo("a").map((m) => m.text), ["yo"]);
  agents._clearOutcomes();
  agents.terminate("a");
  agents.reward("a", 1);
  assert.equal(agents._takeOutcome("a").reward, 1);
  agents._finishStep();
  assert.deepEqual([agents.agents, agents.active], [["b"], ["b"]]);
  assert.equal(agents.cumulativeReward("a"), 1);
});

/** Three agents acting at once; `leave` terminates the actor, `quit` truncates it. */
class Echo extends MultiAgentEnv {
  static specs = [new Spec("sdk-test:Echo-v0", "parallel echo", {})];
  static mode = PARALLEL;
  possibleAgents() {
    return ["a", "b", "c"];
  }
  step(actions, agents) {
    for (const [agent, action] of actions) {
      agents.reward(agent, 1);
      if (action === "leave") agents.terminate(agent);
      if (action === "quit") agents.truncate(agent);
    }
  }
  observe(agent, agents) {
    return `${agent} sees ${agents.agents.length}`;
  }
}

test("parallel agents act together and leave one by one; snapshots hold the roster", () => {
  const env = makeMultiAgent({ Echo }, "sdk-test:Echo-v0");
  assert.throws(() => env.step([["a", "x"]]), InvalidState);
  assert.equal(env.reset(3).length, 3);
  assert.deepEqual(env.agents.active, ["a", "b", "c"]);
  assert.throws(() => env.step([["a", "x"], ["b", "y"]]), InvalidState);
  const out = env.step([["a", "hi"], ["b", "leave"], ["c", "quit"]]);
  assert.deepEqual(
    out.map((o) => [o.agent, o.terminated, o.truncated]),
    [["a", false, false], ["b", true, false], ["c", false, true]],
  );
  assert.equal(out[0].observation, "a sees 1");
  const snapshot = env.getState();
  env.agents.addAgent("d");
  assert.deepEqual(env.agents.active, ["a", "d"]);
  env.setState(snapshot);
  assert.deepEqual([env.agents.agents, env.agents.active], [["a"], ["a"]]);
  env.step([["a", "again"]]);
  assert.equal(env.agents.cumulativeReward("a"), 2);
  assert.equal(env.agents.cumulativeReward("b"), 1);
});
