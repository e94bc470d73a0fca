import { GATE_NAMES, type GateName, type GateResult, gateResult } from '../../gates.js';

/**
 * The gates' results, reported in gate order however they complete: a result is passed on once
 * every gate before it is known.
 */
export class GateRecorder {
  private readonly results = new Map<GateName, GateResult>();
  private next = 0;

  constructor(private readonly onGate?: (result: GateResult) => void) {}

  record(result: GateResult): void {
    this.results.set(result.gate, result);
    while (this.next < GATE_NAMES.length) {
      const name = GATE_NAMES[this.next];
      const ready = name === undefined ? undefined : this.results.get(name);
      if (!ready) break;
      this.onGate?.(ready);
      this.next++;
    }
  }

  /** Every gate not yet known, skipped for `reason`. */
  skipRest(reason: string): void {
    for (const gate of GATE_NAMES) if (!this.results.has(gate)) this.record(gateResult(gate, 'skip', reason));
  }

  get(gate: GateName): GateResult | undefined {
    return this.results.get(gate);
  }

  /** One result per gate, in gate order; a gate never reached is skipped as `not run`. */
  gates(): GateResult[] {
    return GATE_NAMES.map((gate) => this.results.get(gate) ?? gateResult(gate, 'skip', 'not run'));
  }
}
