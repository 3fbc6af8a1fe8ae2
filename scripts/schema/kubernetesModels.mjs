// The `kubernetes-models` type declarations (Kubernetes 1.36 merged over older releases) read as a
// KubeSchema. The generator does not take its field sets (they are not any one release's); it uses it
// for what the per-release sources lack: enum values, which string fields are Quantities, and the
// fully qualified definition names (`io.k8s.api.core.v1.Container`) the client-node model names map to.
//
// Only the declarations are read, syntactically (ts.createSourceFile, no type checker): every
// reference to another definition is an identifier spelled with its fully qualified name
// (`IIoK8sApiCoreV1Container`), so no symbol resolution is needed.
import ts from 'typescript';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';

const PACKAGES = ['kubernetes-models', '@kubernetes-models/apimachinery'];

/** Aliases with Kubernetes-specific meaning, by their fully qualified TS name. */
const SPECIAL = {
  IIoK8sApimachineryPkgUtilIntstrIntOrString: { kind: 'intOrString' },
  IIoK8sApimachineryPkgApiResourceQuantity: { kind: 'quantity' },
  IIoK8sApimachineryPkgApisMetaV1Time: { kind: 'string', format: 'date-time' },
  IIoK8sApimachineryPkgApisMetaV1MicroTime: { kind: 'string', format: 'date-time' },
};

/** Camel-case package prefixes whose dotted form has a hyphen the camel case lost. */
const HYPHENATED = [
  ['io.k8s.apiextensions.apiserver.', 'io.k8s.apiextensions-apiserver.'],
  ['io.k8s.kube.aggregator.', 'io.k8s.kube-aggregator.'],
];

/** Every model declaration file of a package: `<dir>/.../<Name>.d.ts`, without indexes and validators. */
function declarationFiles(dir, nested = false) {
  const found = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== '_schemas' && name !== 'node_modules') found.push(...declarationFiles(p, true));
    } else if (nested && name.endsWith('.d.ts') && name !== 'index.d.ts') {
      found.push(p);
    }
  }
  return found;
}

/** `IIoK8sApiAppsV1Deployment` with title `Deployment` → `io.k8s.api.apps.v1.Deployment`. */
function dottedName(alias, title) {
  const prefix = alias.slice(1, alias.length - title.length);
  let dotted = prefix.replace(/([a-z0-9])([A-Z])/g, '$1.$2').toLowerCase();
  for (const [from, to] of HYPHENATED)
    if (`${dotted}.`.startsWith(from)) dotted = to + `${dotted}.`.slice(from.length, -1);
  return `${dotted}.${title}`;
}

function jsDocText(node) {
  const docs = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
  const text = docs
    .map((d) => ts.getTextOfJSDocComment(d.comment) ?? '')
    .join('\n')
    .trim();
  return text === '' ? undefined : text;
}

function propertyName(member) {
  const n = member.name;
  return ts.isStringLiteral(n) || ts.isIdentifier(n) ? n.text : undefined;
}

/** One parsed file: its exported alias, the definition's interface (or type alias) and whether it is a kind. */
function readFile(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const title = basename(file, '.d.ts');
  let alias;
  let decl;
  for (const s of source.statements) {
    if (ts.isExportDeclaration(s) && s.exportClause && ts.isNamedExports(s.exportClause)) {
      for (const el of s.exportClause.elements) if (el.name.text.startsWith('IIo')) alias = el.name.text;
    }
    if ((ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && s.name.text === `I${title}`) decl = s;
  }
  if (alias === undefined || decl === undefined) throw new Error(`${file}: no exported model`);
  return { file, title, alias, name: dottedName(alias, title), decl };
}

function isTypeMeta(decl) {
  return (
    ts.isInterfaceDeclaration(decl) &&
    (decl.heritageClauses ?? []).some((h) => h.types.some((t) => t.expression.getText() === 'TypeMeta'))
  );
}

/** The literal text of a `"apps/v1"` property type. */
function literalOf(decl, key) {
  const member = decl.members.find((m) => ts.isPropertySignature(m) && propertyName(m) === key);
  const t = member?.type;
  return t && ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal) ? t.literal.text : undefined;
}

class Converter {
  constructor(byAlias) {
    this.byAlias = byAlias;
  }

  /** A TypeNode of `model`'s file as a SchemaType. `floats` names the properties whose numbers are floats. */
  type(node, model, float = false) {
    switch (node.kind) {
      case ts.SyntaxKind.StringKeyword:
        return { kind: 'string' };
      case ts.SyntaxKind.NumberKeyword:
        return { kind: float ? 'number' : 'integer' };
      case ts.SyntaxKind.BooleanKeyword:
        return { kind: 'boolean' };
      case ts.SyntaxKind.AnyKeyword:
      case ts.SyntaxKind.UnknownKeyword:
        return { kind: 'any' };
      case ts.SyntaxKind.LiteralType:
      case ts.SyntaxKind.UnionType:
        return this.enumType(node, model);
      case ts.SyntaxKind.ArrayType:
        return { kind: 'array', items: this.type(node.elementType, model, float) };
      case ts.SyntaxKind.TypeLiteral:
        return this.mapType(node, model, float);
      case ts.SyntaxKind.TypeReference:
        return this.reference(node, model, float);
      default:
        throw new Error(`${model.file}: unsupported type ${ts.SyntaxKind[node.kind]} \`${node.getText()}\``);
    }
  }

  enumType(node, model) {
    const parts = ts.isUnionTypeNode(node) ? node.types : [node];
    const values = parts.map((p) => {
      if (!ts.isLiteralTypeNode(p) || !ts.isStringLiteral(p.literal))
        throw new Error(`${model.file}: unsupported union \`${node.getText()}\``);
      return p.literal.text;
    });
    return { kind: 'string', enum: values };
  }

  mapType(node, model, float) {
    const index =
      node.members.length === 1 && ts.isIndexSignatureDeclaration(node.members[0]) ? node.members[0] : undefined;
    if (index !== undefined) return { kind: 'map', values: this.type(index.type, model, float) };
    const same = this.sameShape(node);
    if (same === undefined) throw new Error(`${model.file}: unsupported type literal \`${node.getText()}\``);
    return { kind: 'ref', name: same.name };
  }

  /**
   * The object inlined as a type literal, as a named model: StatefulSetSpec.volumeClaimTemplates
   * spells out a PersistentVolumeClaim with optional apiVersion/kind, which is what every kind's
   * definition says here anyway (see `definition`).
   */
  sameShape(node) {
    const shape = (members) =>
      members
        .filter(ts.isPropertySignature)
        .map((m) => {
          const key = propertyName(m);
          return key === 'apiVersion' || key === 'kind' ? key : `${key}:${m.type.getText()}`;
        })
        .sort()
        .join(';');
    const wanted = shape(node.members);
    for (const m of this.byAlias.values()) {
      if (ts.isInterfaceDeclaration(m.decl) && isTypeMeta(m.decl) && shape(m.decl.members) === wanted) return m;
    }
    return undefined;
  }

  reference(node, model, float) {
    const name = node.typeName.getText();
    if (name === 'Array' && node.typeArguments?.length === 1)
      return { kind: 'array', items: this.type(node.typeArguments[0], model, float) };
    if (SPECIAL[name]) return { ...SPECIAL[name] };
    // A file refers to its own interface by its local name (JSONSchemaProps.properties).
    const target = name === `I${model.title}` ? model : this.byAlias.get(name);
    if (target === undefined) throw new Error(`${model.file}: unknown type ${name}`);
    // Interfaces without properties (RawExtension, FieldsV1, apiextensions JSON…) hold free-form JSON.
    if (ts.isInterfaceDeclaration(target.decl) && target.decl.members.length === 0) return { kind: 'any' };
    return { kind: 'ref', name: target.name };
  }

  definition(model, floats) {
    const typeMeta = isTypeMeta(model.decl);
    const properties = {};
    const required = [];
    const members = model.decl.members
      .filter(ts.isPropertySignature)
      .sort((a, b) => cmp(propertyName(a), propertyName(b)));
    for (const m of members) {
      const key = propertyName(m);
      // apiVersion/kind are literal in the model classes, but optional strings in the API (a
      // StatefulSet's volumeClaimTemplates omit them); the kind table is where they are checked.
      const typeMetaKey = typeMeta && (key === 'apiVersion' || key === 'kind');
      const type = typeMetaKey ? { kind: 'string' } : this.type(m.type, model, floats.has(key));
      const description = jsDocText(m);
      properties[key] = description === undefined ? { type } : { type, description };
      if (m.questionToken === undefined && !typeMetaKey) required.push(key);
    }
    const description = jsDocText(model.decl);
    return {
      name: model.name,
      title: model.title,
      ...(description === undefined ? {} : { description }),
      properties,
      required,
    };
  }
}

function cmp(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Property names validated as `type: "number"` by the package's compiled validator for a model. */
function floatProperties(pkg, model) {
  const file = join(pkg, '_schemas', `${model.alias.slice(1)}.js`);
  if (!existsSync(file)) return new Set();
  const text = readFileSync(file, 'utf8');
  const found = new Set();
  for (const m of text.matchAll(/schemaPath:"#\/properties\/([^/"]+)\/type",keyword:"type",params:\{type:"number"\}/g))
    found.add(m[1]);
  return found;
}

/**
 * kubernetes-models publishes the GA versions current Kubernetes serves plus the pre-release
 * versions older releases served (extensions/v1beta1, batch/v1beta1, flowcontrol v1beta3…), all of
 * which Kubernetes has since removed; it carries no pre-release version that is still served.
 */
function isPreRelease(apiVersion) {
  return /^v\d+(alpha|beta)\d+$/.test(apiVersion.slice(apiVersion.indexOf('/') + 1));
}

function packageVersion(pkg) {
  const meta = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
  return `${meta.name} ${meta.version}`;
}

export function readKubernetesModels(root) {
  const packages = PACKAGES.map((p) => join(root, 'node_modules', p));
  const models = [];
  for (const pkg of packages) {
    if (!existsSync(pkg)) throw new Error(`${relative(root, pkg)} is not installed: run npm install`);
    for (const file of declarationFiles(pkg)) models.push({ pkg, ...readFile(file) });
  }
  const byAlias = new Map(models.map((m) => [m.alias, m]));
  const converter = new Converter(byAlias);
  const definitions = {};
  const kinds = [];
  for (const model of models.sort((a, b) => cmp(a.name, b.name))) {
    if (!ts.isInterfaceDeclaration(model.decl) || model.decl.members.length === 0) continue;
    const usesNumbers = model.decl.members.some((m) => m.type && m.type.getText().includes('number'));
    definitions[model.name] = converter.definition(model, usesNumbers ? floatProperties(model.pkg, model) : new Set());
    if (isTypeMeta(model.decl)) {
      const apiVersion = literalOf(model.decl, 'apiVersion');
      const kind = literalOf(model.decl, 'kind');
      if (apiVersion !== undefined && kind !== undefined) {
        kinds.push({
          apiVersion,
          kind,
          definition: model.name,
          ...(isPreRelease(apiVersion) ? { removed: true } : {}),
        });
      }
    }
  }
  kinds.sort((a, b) => cmp(a.apiVersion, b.apiVersion) || cmp(a.kind, b.kind));
  return { source: packages.map(packageVersion).join(', '), definitions, kinds };
}
