/** The YAML files under a folder, recursively, in a stable order (tests that run every example and fixture). */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...yamlFiles(p));
    else if (/\.ya?ml$/.test(name)) out.push(p);
  }
  return out;
}
