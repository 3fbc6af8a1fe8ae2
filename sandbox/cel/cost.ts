/**
 * Runtime cost: what one evaluation may spend, as kube-apiserver limits it (upstream: apiserver/pkg/apis/cel/config.go
 * PerCallLimit and RuntimeCELCostBudget; cel-go's interpreter counts one unit per evaluation step, and more for
 * functions whose work grows with their input). The evaluator charges the active meter as it goes, so a runaway
 * expression stops when the meter runs out instead of running to the end.
 */

/** Units one expression may spend in one evaluation (upstream PerCallLimit). */
export const PER_CALL_LIMIT = 1_000_000;
/** Units all the rules of one object may spend together (upstream RuntimeCELCostBudget). */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;
/** Static estimate allowed for one rule × how often it can run (upstream StaticEstimatedCostLimit). */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
/** Static estimate allowed for all the rules of one CRD schema (upstream StaticEstimatedCRDCostLimit). */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;

/** Thrown when a meter runs out; cel-go's message. */
export class CostLimitExceeded extends Error {
  constructor() {
    super('operation cancelled: actual cost limit exceeded');
    this.name = 'CostLimitExceeded';
  }
}

export class CostMeter {
  used = 0;
  constructor(readonly limit: number) {}

  charge(units: number): void {
    this.used += units;
    if (this.used > this.limit) throw new CostLimitExceeded();
  }
}

let active: CostMeter | undefined;

/** Charges the meter of the evaluation under way, if any (library functions call this for work that grows). */
export function chargeActive(units: number): void {
  if (active !== undefined && units > 0) active.charge(units);
}

/** Runs `fn` with `meter` charged by every evaluation step. Evaluation is synchronous, so one meter is active. */
export function withMeter<T>(meter: CostMeter, fn: () => T): T {
  const previous = active;
  active = meter;
  try {
    return fn();
  } finally {
    active = previous;
  }
}

/** cel-go's traversal factor for strings: 0.1 unit per character (common.StringTraversalCostFactor). */
export function stringCost(s: string): number {
  return Math.ceil(s.length * 0.1);
}
