/**
 * `dropped-field` (warning): a field of a feature whose gate is off by default in the checked release. The API server
 * accepts it without an error or a warning and stores the object without it (upstream `dropDisabledPodFields`, which
 * the sandbox's API server does too: sandbox/apiserver/disabledFields.ts), so the pod silently runs without it; the
 * editor says so on the field's key.
 */
import type { KubeObject } from '../../../../sandbox/api/types';
import { droppedPodFields } from '../../../../sandbox/apiserver/disabledFields';
import { fieldRange } from '../../../../sandbox/manifests/pathToRange';
import { kubernetesVersion } from '../../schema/schema';
import { makeDiagnostic } from '../diagnostic';
import type { SchemaRule } from './rule';

export const droppedFieldRule: SchemaRule = {
  code: 'dropped-field',
  validate(doc, ctx) {
    const version = kubernetesVersion();
    return droppedPodFields(doc.object as unknown as KubeObject, version).map((f) => {
      const name = f.path[f.path.length - 1];
      const message =
        `"${name}" is dropped by Kubernetes ${version}: feature gate ${f.gate} is off by default, so the API server ` +
        `stores the object without ${f.what}`;
      const range = fieldRange(doc.root, f.path, ctx.lineCounter, { part: 'key' });
      return makeDiagnostic(range, 'dropped-field', message, true);
    });
  },
};
