/**
 * kubectl's table output for the sandbox: the `simulate` CLI, the HTTP API's Table responses and the extension's views.
 */
export { humanDuration, shortHumanDuration } from './duration';
export { podReadyText, podRestartsText, podStatusText, podSummary } from './podStatus';
export type { PodSummary } from './podStatus';
export { nodeRolesText, nodeStatusText } from './kinds/cluster';
export { kindPrefix, tableFor } from './tableFor';
export type { TableOptions } from './tableFor';
export { alignColumns, formatGet, formatTable, noResourcesFound } from './format';
export type { FormatOptions, GetGroup } from './format';
export type { Table, TableCell, TableColumn, TableRow } from './table';
