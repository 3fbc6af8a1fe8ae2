/** Placeholder: filled below with the printers of the kinds no controller acts on. */
import type { KindPrinter } from '../table';

export const BUILT_IN_PRINTERS: ReadonlyMap<string, KindPrinter> = new Map();
