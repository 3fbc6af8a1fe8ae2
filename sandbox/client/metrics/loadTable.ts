/**
 * Load put on groups of pods by the fault action `load=SELECTOR:cpu=…`
 * (`simulate --at`, the tree's "Set Load…"): a total amount of CPU and
 * memory that the pods a selector matches share between them, as traffic
 * through a Service is shared by its ready endpoints. More ready pods, less
 * each — which is what lets a HorizontalPodAutoscaler settle.
 *
 * Every change is kept with its time, so a metrics sample taken at T reports
 * the load as it was at T.
 */
import { parseLabelSelector } from '../../api/selectors/labelSelector';
import type { Selector } from '../../api/selectors/labelSelector';
import type { Usage, UsageSpec } from './usage';

export interface LoadEntry {
  readonly namespace: string;
  /** As written: `app=web`. */
  readonly selectorText: string;
  readonly selector: Selector;
  /** Changes in time order. */
  readonly history: { at: number; usage: Usage }[];
}

export class LoadTable {
  private readonly entries = new Map<string, LoadEntry>();

  /**
   * Sets the total load on the pods `selectorText` matches in `namespace`, from `at` (epoch ms). Resources the spec
   * leaves out keep their current value. Throws on a selector that does not parse.
   */
  set(namespace: string, selectorText: string, spec: UsageSpec, at: number): void {
    const key = `${namespace}\u0000${selectorText}`;
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { namespace, selectorText, selector: parseLabelSelector(selectorText), history: [] };
      this.entries.set(key, entry);
    }
    const last = entry.history.at(-1)?.usage ?? { cpuMilli: 0, memoryBytes: 0 };
    entry.history.push({ at, usage: { ...last, ...spec } });
  }

  /** The entries of a namespace with their load at `at` (entries with nothing at that time are left out). */
  loadsAt(namespace: string, at: number): { selector: Selector; usage: Usage }[] {
    const out: { selector: Selector; usage: Usage }[] = [];
    for (const e of this.entries.values()) {
      if (e.namespace !== namespace) continue;
      let usage: Usage | undefined;
      for (const h of e.history) if (h.at <= at) usage = h.usage;
      if (usage && (usage.cpuMilli > 0 || usage.memoryBytes > 0)) out.push({ selector: e.selector, usage });
    }
    return out;
  }

  /** Every entry, for displays (`namespace`, selector, current load). */
  list(): { namespace: string; selector: string; usage: Usage }[] {
    return [...this.entries.values()].map((e) => ({
      namespace: e.namespace,
      selector: e.selectorText,
      usage: e.history.at(-1)!.usage,
    }));
  }
}
