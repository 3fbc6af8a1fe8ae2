/** The Kubernetes documentation's ValidatingAdmissionPolicy examples (test/fixtures/public/kubernetes-website-vap). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { KubeObject } from '../../../../sandbox/api/types';

const DIR = join(__dirname, '..', '..', '..', 'fixtures', 'public', 'kubernetes-website-vap');

/** A fixture as the sandbox applies it: older admissionregistration versions read as v1 (same fields). */
export function websitePolicy(file: string): KubeObject {
  const obj = parse(readFileSync(join(DIR, file), 'utf8')) as KubeObject;
  return { ...obj, apiVersion: 'admissionregistration.k8s.io/v1' };
}

export function binding(name: string, policyName: string, spec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec: { policyName, validationActions: ['Deny'], ...spec },
  };
}
