/** Runs the CLI in-process against files written to a temporary folder. */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../cli/main';

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export const lines = (...ls: string[]): string => `${ls.join('\n')}\n`;

/** A two-replica nginx Deployment named `web`, as the CLI tests apply it. */
export const WEB_DEPLOYMENT = lines(
  'apiVersion: apps/v1',
  'kind: Deployment',
  'metadata:',
  '  name: web',
  'spec:',
  '  replicas: 2',
  '  selector:',
  '    matchLabels: {app: web}',
  '  template:',
  '    metadata:',
  '      labels: {app: web}',
  '    spec:',
  '      containers:',
  '        - name: nginx',
  '          image: nginx:1.27',
);

/** Runs the CLI in-process in `cwd`, its output captured. */
export async function runCli(cwd: string, ...argv: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    cwd,
  });
  return { code, stdout, stderr };
}

/** A temporary folder holding `files` (path → text); `run` runs the CLI there. */
export interface CliFixture {
  readonly dir: string;
  run(...argv: string[]): Promise<Run>;
  dispose(): Promise<void>;
}

export async function cliFixture(prefix: string, files: Record<string, string>): Promise<CliFixture> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return {
    dir,
    run: (...argv) => runCli(dir, ...argv),
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
