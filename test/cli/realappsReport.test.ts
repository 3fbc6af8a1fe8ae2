/**
 * ingress-nginx's cloud install (test/fixtures/docs/realapps, see its SOURCE.md) through `simulate`: what the
 * settled report says of what the sandbox does not do for it, as a real 1.32 cluster without a cloud would show it.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { main } from '../../cli/main';

const ROOT = join(__dirname, '..', '..');
const INGRESS_NGINX = 'test/fixtures/docs/realapps/kubernetes/ingress-nginx/deploy/static/provider/cloud/deploy.yaml';

async function simulate(...argv: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const code = await main(['simulate', ...argv], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: () => undefined },
    cwd: ROOT,
  });
  return { code, stdout };
}

describe('ingress-nginx: the report says what the sandbox does not do for the install', () => {
  test('the LoadBalancer Service stays <pending>, and the report says no cloud load-balancer controller runs', async () => {
    const r = await simulate(INGRESS_NGINX);
    assert.match(
      r.stdout,
      /\nservice\/ingress-nginx-controller\s+LoadBalancer\s+10\.\d+\.\d+\.\d+\s+<pending>\s+80:\d+\/TCP,443:\d+\/TCP\s/,
    );
    assert.match(
      r.stdout,
      /\n {2}service\/ingress-nginx-controller \(namespace ingress-nginx\): type LoadBalancer; no cloud load-balancer controller runs in this sandbox: EXTERNAL-IP stays <pending> \(as on a cluster without one\)\n/,
    );
  });

  test('the controller pod waits for the Secret the admission Job would create: the pending line says so', async () => {
    const r = await simulate(INGRESS_NGINX);
    assert.match(
      r.stdout,
      /\n {2}pod ingress-nginx\/ingress-nginx-controller-[a-z0-9]+-[a-z0-9]{5}: ContainerCreating \(0\/1 ready\): secret "ingress-nginx-admission" not found \(containers run no program in this sandbox: a Secret or ConfigMap that a Job or an operator would create never appears\)\n/,
    );
    // The Jobs themselves complete, as on a real cluster.
    assert.match(r.stdout, /\njob\.batch\/ingress-nginx-admission-create\s+Complete\s+1\/1\s/);
  });
});
