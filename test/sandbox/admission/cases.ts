import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../sandbox/api/types';
import { lines, validate } from './helpers';

export interface Case {
  name: string;
  obj: KubeObject;
  old?: KubeObject;
  want: string[];
}

/** One test per case: the whole list of `code | field: message` lines must match. */
export function runCases(cases: Case[]): void {
  for (const c of cases) test(c.name, () => assert.deepEqual(lines(validate(c.obj, c.old)), c.want));
}
