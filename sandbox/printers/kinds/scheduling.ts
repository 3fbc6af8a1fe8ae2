/** `kubectl get priorityclasses` (upstream printers.go `printPriorityClass`). */
import type { PriorityClass } from 'kubernetes-types/scheduling/v1';
import type { Typed } from '../../api/types';
import type { KindPrinter, TableCell } from '../table';
import { AGE_COLUMN, NAME_COLUMN, age, col } from '../table';

export const priorityClassPrinter: KindPrinter<Typed<PriorityClass>> = {
  columns: [
    NAME_COLUMN,
    col(
      'Value',
      'integer',
      'value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.',
    ),
    col(
      'Global-Default',
      'boolean',
      'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.',
    ),
    AGE_COLUMN,
    col(
      'PreemptionPolicy',
      'string',
      'preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.',
    ),
  ],
  row(pc: Typed<PriorityClass>, now: number): TableCell[] {
    return [
      pc.metadata.name ?? '',
      pc.value ?? 0,
      pc.globalDefault === true,
      age(pc, now),
      pc.preemptionPolicy ?? '<none>',
    ];
  },
};
