import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { analyzeFile } from '../server/src/services/workspace/analyzeFile';
const DIR = __dirname + '/../test/fixtures/public/prometheus-operator/crds';
function synthetic(depth: number, width: number, seed: number): any {
  const properties: Record<string, any> = {};
  for (let i = 0; i < width; i++) {
    const name = `field${seed}x${i}`;
    const description = `${name} is a synthetic field standing for upstream's generated pod template schema; it carries a description of typical length so that the schema's size in bytes is close to the real one.`;
    if (depth === 0 || i % 3 !== 0) properties[name] = { type: i % 2 === 0 ? 'string' : 'integer', description };
    else if (i % 2 === 0) properties[name] = { type: 'array', description, items: synthetic(depth - 1, width, seed * 7 + i) };
    else properties[name] = { ...synthetic(depth - 1, width, seed * 7 + i), description };
  }
  return { type: 'object', properties };
}
const files = readdirSync(DIR).filter((f) => f.endsWith('.yaml')).sort();
const crd = parse(readFileSync(join(DIR, files[0]), 'utf8'));
for (const v of crd.spec.versions) { const spec = v.schema.openAPIV3Schema.properties.spec; spec.properties = { ...spec.properties, podTemplate: synthetic(3, 14, 1) }; }
const text = stringify(crd);
console.log('bytes', text.length);
const n = Number(process.argv[2] ?? 5);
for (let i = 0; i < n; i++) { const t0 = performance.now(); analyzeFile(text); console.log('analyze ms', (performance.now() - t0).toFixed(1)); }
