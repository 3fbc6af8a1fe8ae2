import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

// The grammar's regexes use only syntax that Oniguruma and JavaScript read the same way,
// so JavaScript can check which scope each part of a line gets.

interface Rule {
  match: string;
  name?: string;
  captures?: Record<string, { name: string; patterns?: unknown[] }>;
}
interface Grammar {
  scopeName: string;
  repository: { event: Rule; time: Rule; message: { patterns: Rule[] } };
}

const grammar = JSON.parse(
  readFileSync(new URL('../../syntaxes/kube-reconcile-log.tmLanguage.json', import.meta.url), 'utf8'),
) as Grammar;

type Token = [text: string, scope: string];

/** Scans `text` as TextMate does: at each step the earliest match wins, the first rule on ties. */
function scanMessage(text: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  for (;;) {
    let best: { m: RegExpExecArray; rule: Rule } | undefined;
    for (const rule of grammar.repository.message.patterns) {
      const re = new RegExp(rule.match, 'g');
      re.lastIndex = pos;
      const m = re.exec(text);
      if (m && (!best || m.index < best.m.index)) best = { m, rule };
    }
    if (!best) return tokens;
    tokens.push([best.m[0], best.rule.name!]);
    pos = best.m.index + best.m[0].length;
  }
}

/** The scoped pieces of one line: the event rule's captures, then the message's tokens. */
function tokenize(line: string): Token[] {
  const m = new RegExp(grammar.repository.event.match, 'd').exec(line);
  if (!m) {
    const t = new RegExp(grammar.repository.time.match).exec(line);
    return t ? [[t[0], grammar.repository.time.name!]] : [];
  }
  const tokens: Token[] = [];
  for (const [group, capture] of Object.entries(grammar.repository.event.captures!)) {
    const text = m[Number(group)];
    if (text === undefined) continue;
    if (capture.patterns) tokens.push(...scanMessage(text));
    else tokens.push([text, capture.name]);
  }
  return tokens;
}

describe('kube-reconcile-log grammar', () => {
  test('has the scope name the output channel language is registered with', () => {
    assert.equal(grammar.scopeName, 'text.log.kube-reconcile');
  });

  test('scopes a Normal event with a namespaced object', () => {
    const line =
      '12:00:05.120 deployment-controller Normal ScalingReplicaSet default/web: Scaled up replica set web-7d9f8b6c4d from 0 to 3';
    assert.deepEqual(tokenize(line), [
      ['12:00:05.120', 'constant.numeric.time.kube-reconcile log.date'],
      ['deployment-controller', 'entity.name.type.component.kube-reconcile'],
      ['Normal', 'markup.inserted.type.normal.kube-reconcile log.info'],
      ['ScalingReplicaSet', 'keyword.other.reason.kube-reconcile'],
      ['default', 'entity.name.namespace.kube-reconcile'],
      ['/', 'punctuation.separator.namespace.kube-reconcile'],
      ['web', 'variable.other.object.kube-reconcile'],
      [':', 'punctuation.separator.message.kube-reconcile'],
      ['0', 'constant.numeric.kube-reconcile'],
      ['3', 'constant.numeric.kube-reconcile'],
    ]);
  });

  test('scopes a Warning event, its ratios and quoted strings', () => {
    const line =
      '12:00:06.000 scheduler Warning FailedScheduling default/web-x: 0/3 nodes are available: 3 Insufficient cpu. image "nginx:1.27" on 10.244.0.5';
    assert.deepEqual(tokenize(line), [
      ['12:00:06.000', 'constant.numeric.time.kube-reconcile log.date'],
      ['scheduler', 'entity.name.type.component.kube-reconcile'],
      ['Warning', 'markup.deleted.type.warning.kube-reconcile log.warning'],
      ['FailedScheduling', 'keyword.other.reason.kube-reconcile'],
      ['default', 'entity.name.namespace.kube-reconcile'],
      ['/', 'punctuation.separator.namespace.kube-reconcile'],
      ['web-x', 'variable.other.object.kube-reconcile'],
      [':', 'punctuation.separator.message.kube-reconcile'],
      ['0/3', 'constant.numeric.kube-reconcile'],
      ['3', 'constant.numeric.kube-reconcile'],
      ['"nginx:1.27"', 'string.quoted.double.kube-reconcile'],
    ]);
  });

  test('scopes a cluster-scoped object without a namespace', () => {
    const line =
      '12:01:00 node-controller Normal RegisteredNode node-1: Node node-1 event: Registered Node node-1 in Controller';
    assert.deepEqual(tokenize(line), [
      ['12:01:00', 'constant.numeric.time.kube-reconcile log.date'],
      ['node-controller', 'entity.name.type.component.kube-reconcile'],
      ['Normal', 'markup.inserted.type.normal.kube-reconcile log.info'],
      ['RegisteredNode', 'keyword.other.reason.kube-reconcile'],
      ['node-1', 'variable.other.object.kube-reconcile'],
      [':', 'punctuation.separator.message.kube-reconcile'],
    ]);
  });

  test('gives a line that is not an event only its time', () => {
    assert.deepEqual(tokenize('12:02:00.000 simulation paused'), [
      ['12:02:00.000', 'constant.numeric.time.kube-reconcile log.date'],
    ]);
    assert.deepEqual(tokenize('  at reconcile (deployment.ts:12)'), []);
  });
});
