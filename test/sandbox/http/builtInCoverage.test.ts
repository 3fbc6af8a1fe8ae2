/**
 * Issue 14's sweep: every built-in resource of the 1.32 release (each kind its schema lists with a `…List`) is found
 * through discovery and answers a list — no kind of the server's version answers 404. The versions upstream's
 * kube-apiserver 1.32 leaves off by default (alpha, and betas introduced after 1.24 — upstream:
 * pkg/controlplane/apiserver/options: DefaultAPIResourceConfigSource, betaAPIGroupVersionsDisabledByDefault and
 * alphaAPIGroupVersionsDisabledByDefault) are not served, as on a cluster started with default flags.
 */
import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { getSchema } from '../../../sandbox/schema/schema';
import { serve } from './helpers';
import type { Served } from './helpers';

interface DiscoveredResource {
  name: string;
  kind: string;
  namespaced: boolean;
}

const schema = getSchema('1.32');
const names = new Set(schema.kinds.map((k) => `${k.apiVersion} ${k.kind}`));
/** Kinds that have a list type: the resources (reviews, Scale, Eviction, TokenRequest… are not listed). */
const listable = schema.kinds.filter((k) => !k.kind.endsWith('List') && names.has(`${k.apiVersion} ${k.kind}List`));
const offByDefault = (apiVersion: string): boolean => /\/v\d+(alpha|beta)\d+$/.test(apiVersion);

describe('every built-in resource of 1.32', () => {
  let s: Served;
  before(async () => {
    s = await serve();
  });
  after(() => s.close());

  it('is in discovery and answers a list (200), the stable versions all of them', async () => {
    const stable = listable.filter((k) => !offByDefault(k.apiVersion));
    assert.ok(stable.length >= 50, `${stable.length} stable resources in the 1.32 schema`);
    const failures: string[] = [];
    for (const k of stable) {
      const base = k.apiVersion.includes('/') ? `/apis/${k.apiVersion}` : `/api/${k.apiVersion}`;
      const doc = await s.request('GET', base);
      const entry =
        doc.status === 200
          ? (doc.json.resources as DiscoveredResource[]).find((r) => r.kind === k.kind && !r.name.includes('/'))
          : undefined;
      if (entry === undefined) {
        failures.push(`${k.apiVersion} ${k.kind}: not in discovery (${doc.status})`);
        continue;
      }
      const list = await s.request('GET', `${base}/${entry.name}`);
      if (list.status !== 200 || list.json.kind !== `${k.kind}List`)
        failures.push(
          `${k.apiVersion} ${k.kind}: GET ${base}/${entry.name} answered ${list.status} ${String(list.json.kind)}`,
        );
    }
    assert.deepEqual(failures, []);
  });

  it('alpha and post-1.24 beta versions are off, as upstream leaves them by default: 404', async () => {
    const off = listable.filter((k) => offByDefault(k.apiVersion));
    assert.ok(off.length > 0);
    for (const k of off) {
      const r = await s.request('GET', `/apis/${k.apiVersion}`);
      assert.equal(r.status, 404, `${k.apiVersion} (${k.kind}) is not served by default upstream`);
    }
  });
});
