/** The live object as `kubectl get -o yaml` shows it (managed fields hidden), for Copy as YAML. */
import { yamlText } from '../../../sandbox/util/yamlText';
import type { KubeObject } from '../../../sandbox/api/types';

export function liveYaml(obj: KubeObject): string {
  const { managedFields: _hidden, ...metadata } = obj.metadata;
  return yamlText({ ...obj, metadata }, { lineWidth: 0 });
}
