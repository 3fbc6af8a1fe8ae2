/** Every Kubernetes CEL library the sandbox registers (upstream: apiserver/pkg/cel/environment/base.go). */
import type { Environment } from '@marcbachmann/cel-js';
import { registerFormat } from './format';
import { registerIP } from './ip';
import { registerLists } from './lists';
import { registerQuantity } from './quantity';
import { registerRegex } from './regex';
import { registerStrings } from './strings';
import { registerUrls } from './urls';

export function registerKubernetesLibraries(env: Environment): void {
  registerStrings(env);
  registerLists(env);
  registerRegex(env);
  registerUrls(env);
  registerQuantity(env);
  registerIP(env);
  registerFormat(env);
}
