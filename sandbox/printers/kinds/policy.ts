/** `kubectl get pdb` (upstream printers.go `printPodDisruptionBudget`). */
import { asResource } from '../../api/resourceObjects';
import type { KubeObject } from '../../api/types';
import type { KindPrinter, TableCell } from '../table';
import { AGE_COLUMN, NAME_COLUMN, age, col, int } from '../table';

/** `IntOrString.String()`, `N/A` when unset. */
function intOrString(value: number | string | undefined | null): string {
  return value === undefined || value === null ? 'N/A' : String(value);
}

export const podDisruptionBudgetPrinter: KindPrinter = {
  columns: [
    NAME_COLUMN,
    col('Min Available', 'string', 'The minimum number or percentage of available pods this budget requires.'),
    col('Max Unavailable', 'string', 'The maximum number or percentage of unavailable pods this budget requires.'),
    col('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'),
    AGE_COLUMN,
  ],
  row(obj: KubeObject, now: number): TableCell[] {
    const pdb = asResource('poddisruptionbudgets', obj);
    return [
      obj.metadata.name ?? '',
      intOrString(pdb.spec?.minAvailable),
      intOrString(pdb.spec?.maxUnavailable),
      int(pdb.status?.disruptionsAllowed),
      age(obj, now),
    ];
  },
};
