// Reads one `@kubernetes/client-node` release: the models and API groups its generator produced from one
// Kubernetes release's OpenAPI document.
//
// - The current models are the ones `models/all.js` exports (the package also ships stale files of models an
//   earlier release had); each model's `attributeTypeMap` (JSON in `<Model>.js`) gives every field's JSON
//   name, type and OpenAPI format (`int32`, `int64`, `double`, `date-time`, `byte`, `int-or-string`,
//   `date-time-micro`); its declaration (`<Model>.d.ts`) gives which fields are required (no `?`) and the
//   descriptions.
// - The served group/versions are the path prefixes of the API classes `index.js` exports
//   (`/apis/apps/v1/...`, `/api/v1/...`).
import ts from 'typescript';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `{ models: Map<name, { description?, properties: Map<jsonName, { type, format, required, description? }> }>, groupVersions: Set }` */
export function readClientNode(dir) {
  const gen = join(dir, 'package', 'dist', 'gen');
  const models = new Map();
  for (const m of readFileSync(join(gen, 'models', 'all.js'), 'utf8').matchAll(/models\/(\w+)(?:\.js)?['"]/g)) {
    models.set(m[1], readModel(join(gen, 'models'), m[1]));
  }
  const { groupVersions, apiModels } = servedGroupVersions(gen);
  return { models, groupVersions, apiModels };
}

function readModel(dir, name) {
  const js = readFileSync(join(dir, `${name}.js`), 'utf8');
  const at = js.indexOf('.attributeTypeMap = [');
  const attributes = at < 0 ? [] : JSON.parse(js.slice(js.indexOf('[', at), js.indexOf('];', at) + 1));
  const declared = readDeclaration(join(dir, `${name}.d.ts`), name);
  const properties = new Map();
  for (const a of attributes) {
    const d = declared.members.get(a.name);
    if (d === undefined) throw new Error(`${name}.${a.name}: in attributeTypeMap but not declared`);
    properties.set(a.baseName, {
      type: a.type,
      format: a.format ?? '',
      required: d.required,
      ...(d.description === undefined ? {} : { description: d.description }),
    });
  }
  return { ...(declared.description === undefined ? {} : { description: declared.description }), properties };
}

function readDeclaration(file, name) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const cls = source.statements.find((s) => ts.isClassDeclaration(s) && s.name?.text === name);
  if (cls === undefined) throw new Error(`${file}: no class ${name}`);
  const members = new Map();
  for (const m of cls.members) {
    if (!ts.isPropertyDeclaration(m) || (m.modifiers ?? []).some((x) => x.kind === ts.SyntaxKind.StaticKeyword))
      continue;
    const key = ts.isStringLiteral(m.name) || ts.isIdentifier(m.name) ? m.name.text : undefined;
    if (key === undefined) continue;
    members.set(key, { required: m.questionToken === undefined, description: docOf(m) });
  }
  return { description: docOf(cls), members };
}

/** The JSDoc text, with the generator's escaping (`\'`, `\"`) undone. */
function docOf(node) {
  const text = ts
    .getJSDocCommentsAndTags(node)
    .filter(ts.isJSDoc)
    .map((d) => ts.getTextOfJSDocComment(d.comment) ?? '')
    .join('\n')
    .trim();
  return text === '' ? undefined : text.replace(/\\(['"])/g, '$1');
}

/**
 * `v1` for the core group, `apps/v1`… for the others: every group/version an exported API class serves, and
 * the models each group/version's API class reads and writes (`"V1beta1ResourceClaim"`).
 */
function servedGroupVersions(gen) {
  const index = readFileSync(join(gen, 'index.js'), 'utf8');
  const groupVersions = new Set();
  const apiModels = new Map();
  // ESM (`ObjectAppsV1Api as AppsV1Api`) or CommonJS (`exports.AppsV1Api = `) exports.
  const apis = new Set(
    [...index.matchAll(/(?:Object(\w+?V\d\w*)Api as |exports\.(\w+?V\d\w*)Api = )/g)].map((m) => m[1] ?? m[2]),
  );
  for (const name of apis) {
    const api = readFileSync(join(gen, 'apis', `${name}Api.js`), 'utf8');
    const served = new Set();
    for (const p of api.matchAll(/localVarPath = '\/(api|apis\/([^/{]+))\/(v\d[a-z0-9]*)\//g)) {
      served.add(p[1] === 'api' ? p[3] : `${p[2]}/${p[3]}`);
    }
    for (const gv of served) groupVersions.add(gv);
    if (served.size !== 1) continue;
    const gv = [...served][0];
    for (const t of api.matchAll(/"((?:[A-Z][a-z]+)?V\d\w*)"/g)) {
      if (!apiModels.has(t[1])) apiModels.set(t[1], new Set());
      apiModels.get(t[1]).add(gv);
    }
  }
  return { groupVersions, apiModels };
}
