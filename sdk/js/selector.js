/** Whose actions the next step takes, in turn-based or parallel mode. */

/** One agent acts per step, in turn order (board games, dialogues). */
export const SEQUENTIAL = "sequential";
/** Every live agent acts at each step (simultaneous moves, parallel exchanges). */
export const PARALLEL = "parallel";

/** Picks the acting agents. In sequential mode it walks the live agents in order and wraps
 * around; removing an agent keeps the turn with the agent that was due next. */
export class AgentSelector {
  constructor(agents = [], mode = SEQUENTIAL) {
    if (mode !== SEQUENTIAL && mode !== PARALLEL) {
      throw new RangeError(`mode must be "${SEQUENTIAL}" or "${PARALLEL}", got ${mode}`);
    }
    this.mode = mode;
    this.agents = [...agents];
    this.current = 0;
  }

  /** The agent whose turn it is (sequential mode), or the first agent; null if none. */
  selected() {
    return this.current < this.agents.length ? this.agents[this.current] : null;
  }

  /** The agents whose actions the next step takes. */
  active() {
    if (this.mode === PARALLEL) return [...this.agents];
    const selected = this.selected();
    return selected === null ? [] : [selected];
  }

  /** Whether `agent` acts at the next step. */
  isActive(agent) {
    return this.mode === PARALLEL ? this.agents.includes(agent) : this.selected() === agent;
  }

  /** Moves the turn to the next agent (sequential mode; parallel mode has no turns). */
  next() {
    if (this.mode === SEQUENTIAL && this.agents.length) {
      this.current = (this.current + 1) % this.agents.length;
    }
  }

  /** The selected agent is the first in turn order. */
  isFirst() {
    return this.current === 0;
  }

  /** The selected agent is the last in turn order. */
  isLast() {
    return this.current + 1 === this.agents.length;
  }

  /** Starts over with `agents`, the first one selected. */
  reinit(agents) {
    this.agents = [...agents];
    this.current = 0;
  }

  /** Appends `agent` to the turn order (no-op when present). */
  addAgent(agent) {
    if (!this.agents.includes(agent)) this.agents.push(agent);
  }

  /** Drops `agent` (no-op when absent). When it sat at or before the selected agent, the
   * selection steps back one (wrapping), so the following `next` lands on the agent due next. */
  removeAgent(agent) {
    const index = this.agents.indexOf(agent);
    if (index < 0) return;
    this.agents.splice(index, 1);
    if (!this.agents.length) {
      this.current = 0;
      return;
    }
    if (index <= this.current) {
      this.current = this.current > 0 ? this.current - 1 : this.agents.length - 1;
    }
    this.current %= this.agents.length;
  }
}
