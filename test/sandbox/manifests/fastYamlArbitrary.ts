/**
 * Generated and mutated YAML for the differential test of sandbox/manifests/fastYaml (fastYaml.test.ts and the
 * `fast-yaml` fuzz target): manifest-shaped texts — block maps and sequences, every scalar style, comments and blank
 * lines at any indent, anchors and aliases, document markers — filled with the scalars the two readers could disagree
 * on (`0o17`, `1e3`, `010`, `~`, `yes`, `.inf`, quotes, colons, `#`, unicode, empty values, keys with spaces), then
 * optionally damaged by a few character and line edits.
 */
import fc from 'fast-check';

/** Scalars as written, chosen to sit on the core schema's edges and the plain style's. */
const TRICKY = [
  '0o17',
  '0o8',
  '1e3',
  '1E-3',
  '.5',
  '5.',
  '010',
  '0x1F',
  '0xg',
  '+12',
  '-0',
  '1.50',
  '1_000',
  '0b1',
  '.inf',
  '-.Inf',
  '.NaN',
  '.nan',
  'nan',
  'inf',
  '~',
  'null',
  'Null',
  'NULL',
  'nULL',
  'true',
  'True',
  'TRUE',
  'tRUE',
  'false',
  'yes',
  'no',
  'on',
  'off',
  'y',
  'n',
  '',
  ' ',
  'a b',
  'a: b',
  'a:b',
  'a #b',
  'a#b',
  '#c',
  '- x',
  '-x',
  '? x',
  ':x',
  '[a]',
  '{b}',
  'a, b',
  '&a',
  '*a',
  '!t',
  '%d',
  '@x',
  '`x',
  '"q"',
  "'s'",
  "it's",
  'say "hi"',
  'back\\slash',
  'tab\there',
  'é ü',
  '日本語',
  '😀',
  'k8s.io/name',
  'http://x:80/p',
  'C:\\dir',
  '---',
  '...',
  'a  b',
  'trailing ',
  ' leading',
  '1.2.3',
  '12:30',
  '2001-12-14',
  '0.',
  '-',
  '|',
  '>',
  'x|y',
  'a\nb',
  'line\n\nbreak',
];

const word = fc.stringMatching(/^[a-z][a-zA-Z0-9.\-_/]{0,8}$/);
const scalarText = fc.oneof(fc.constantFrom(...TRICKY), word, fc.string({ maxLength: 8 }), fc.integer().map(String));

function doubleQuoted(s: string): string {
  return JSON.stringify(s);
}

function singleQuoted(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/**
 * A double-quoted scalar over lines: pieces of text joined by line breaks (folded, blank lines between, trailing
 * spaces, escaped line breaks and spaces), the lines after the first indented around the parent's indent — some not
 * past it, which yaml refuses.
 */
const multiLineDoubleQuoted = (indent: number) =>
  fc
    .tuple(
      fc.array(
        scalarText.map((s) => doubleQuoted(s).slice(1, -1)),
        { minLength: 2, maxLength: 4 },
      ),
      fc.array(
        fc.tuple(
          fc.constantFrom('\n', '\n\n', '\n  \n', '  \n', '\\\n', '\\ \n', ' \\\n\n'),
          fc.constantFrom(1, 2, 3, 0, 5),
        ),
        { minLength: 3, maxLength: 3 },
      ),
    )
    .map(([pieces, breaks]) => {
      let out = '"' + pieces[0];
      for (let i = 1; i < pieces.length; i++) {
        const [brk, extra] = breaks[i - 1];
        out += brk + ' '.repeat(indent + extra) + pieces[i];
      }
      return out + '"';
    });

/** A scalar in one of the styles, as the text after `key: ` or `- ` (block scalars carry their own lines). */
const scalar = (indent: number) =>
  fc.oneof(
    { weight: 4, arbitrary: scalarText },
    { weight: 2, arbitrary: scalarText.map(doubleQuoted) },
    { weight: 1, arbitrary: multiLineDoubleQuoted(indent) },
    { weight: 1, arbitrary: scalarText.map(singleQuoted) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom('|', '>', '|-', '>-', '|+', '|2'),
          fc.array(fc.oneof(word, fc.constantFrom('', '  more', 'a: b', '# not a comment', 'x  ')), {
            minLength: 1,
            maxLength: 4,
          }),
          fc.constantFrom(2, 1, 4),
        )
        .map(
          ([head, lines, extra]) =>
            head + '\n' + lines.map((l) => (l === '' ? '' : ' '.repeat(indent + extra) + l)).join('\n'),
        ),
    },
    { weight: 1, arbitrary: fc.array(scalarText.map(doubleQuoted), { maxLength: 3 }).map((a) => `[${a.join(', ')}]`) },
    { weight: 1, arbitrary: fc.array(word, { maxLength: 3 }).map((a) => `[${a.join(', ')}]`) },
    { weight: 1, arbitrary: fc.constantFrom('{}', '[]', '{ }', '[ ]', '{a: 1}', '*anchor', '&anchor v') },
  );

const key = fc.oneof(
  { weight: 6, arbitrary: word },
  { weight: 1, arbitrary: fc.constantFrom('my key', 'a.b/c', '1', 'true', '~', '<<', '"quoted"', "'single'", '-k') },
  { weight: 1, arbitrary: scalarText.map(doubleQuoted) },
);

const comment = fc.constantFrom('# c', '#', '# a: b', '#  - x');

interface Shape {
  kind: 'map' | 'seq';
  entries: { key: string; value: Shape | string; comment?: string; after?: string }[];
}

const shape: fc.Memo<Shape> = fc.memo((n) =>
  fc.record({
    kind: fc.constantFrom('map' as const, 'seq' as const),
    entries: fc.array(
      fc.record({
        key,
        value: n <= 1 ? scalar(0).map(String) : fc.oneof({ weight: 3, arbitrary: scalar(0) }, shape(n - 1)),
        comment: fc.option(comment, { nil: undefined }),
        after: fc
          .option(fc.tuple(fc.integer({ min: 0, max: 8 }), comment, fc.boolean()), { nil: undefined })
          .map((a) => (a === undefined ? undefined : (a[2] ? '\n' : '') + ' '.repeat(a[0]) + a[1])),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  }),
);

function render(s: Shape, indent: number, step: number, sameIndentSeq: boolean): string[] {
  const pad = ' '.repeat(indent);
  const lines: string[] = [];
  for (const e of s.entries) {
    const lead = s.kind === 'map' ? `${pad}${e.key}:` : `${pad}-`;
    if (typeof e.value === 'string') {
      const v = e.value.replace(/\n(?!\n|$)/g, '\n' + pad);
      lines.push(`${lead}${v === '' ? '' : ' ' + v}${e.comment ? ' ' + e.comment : ''}`);
    } else {
      lines.push(`${lead}${e.comment ? ' ' + e.comment : ''}`);
      const childIndent = e.value.kind === 'seq' && s.kind === 'map' && sameIndentSeq ? indent : indent + step;
      lines.push(...render(e.value, childIndent, step, sameIndentSeq));
    }
    if (e.after !== undefined) lines.push(e.after);
  }
  return lines;
}

/** The same shape in flow style (as JSON-like manifests are written): `{ key: value, … }` over lines. */
function renderFlow(s: Shape, indent: number, style: number): string {
  const pad = ' '.repeat(indent + 2);
  const multi = style % 3 !== 0;
  const items = s.entries.map((e, i) => {
    const v =
      typeof e.value === 'string'
        ? e.value.includes('\n')
          ? e.value.startsWith('"')
            ? e.value.replace(/\n(?!\n|$)/g, '\n' + pad) // a double-quoted scalar over lines
            : JSON.stringify(e.value)
          : e.value
        : renderFlow(e.value, indent + 2, style + i);
    const item = s.kind === 'map' ? `${e.key}: ${v}` : v;
    return (multi ? pad : '') + item;
  });
  const sep = multi ? (style % 2 === 0 ? ',\n' : ', # c\n') : ', ';
  const [open, close] = s.kind === 'map' ? ['{', '}'] : ['[', ']'];
  const trailing = style % 5 === 0 ? ',' : '';
  return multi
    ? `${open}\n${items.join(sep)}${trailing}\n${' '.repeat(indent)}${close}`
    : `${open}${items.join(sep)}${trailing}${close}`;
}

/** A manifest-shaped YAML text. */
export const generatedYaml: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(fc.tuple(shape(4), fc.constantFrom(2, 4, 3), fc.boolean(), fc.nat(30)), { minLength: 1, maxLength: 3 }),
    fc.constantFrom('---\n', '', '--- # doc\n', '...\n---\n'),
    fc.boolean(),
  )
  .map(([docs, marker, trailingNewline]) => {
    const text = docs
      .map(([s, step, same, flow]) =>
        flow < 8
          ? renderFlow({ ...s, kind: 'map' }, 0, flow)
          : ['apiVersion: v1', 'kind: ConfigMap', ...render({ ...s, kind: 'map' }, 0, step, same)].join('\n'),
      )
      .join('\n' + marker);
    return trailingNewline ? text + '\n' : text;
  });

const EDIT_CHARS = [
  ' ',
  '\n',
  ':',
  '#',
  '-',
  '"',
  "'",
  '\t',
  '|',
  '>',
  '&',
  '*',
  '[',
  ']',
  '{',
  '}',
  ',',
  'x',
  '0',
  '\\',
];

/** `text` with a few edits: characters deleted or inserted, a line's indent changed, a line doubled. */
export function mutated(text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const edit = fc.tuple(fc.nat(), fc.constantFrom('delete', 'insert', 'indent', 'dedent', 'double'), fc.nat(3));
  return fc.tuple(text, fc.array(edit, { minLength: 1, maxLength: 3 })).map(([t, edits]) => {
    let s = t;
    for (const [at, op, n] of edits) {
      if (s.length === 0) break;
      const i = at % s.length;
      const lineStart = s.lastIndexOf('\n', i - 1) + 1;
      const lineEndRaw = s.indexOf('\n', i);
      const lineEnd = lineEndRaw < 0 ? s.length : lineEndRaw;
      if (op === 'delete') s = s.slice(0, i) + s.slice(i + 1 + n);
      else if (op === 'insert') s = s.slice(0, i) + EDIT_CHARS[(at + n) % EDIT_CHARS.length] + s.slice(i);
      else if (op === 'indent') s = s.slice(0, lineStart) + ' '.repeat(n + 1) + s.slice(lineStart);
      else if (op === 'dedent') s = s.slice(0, lineStart) + s.slice(lineStart).replace(/^ {1,2}/, '');
      else s = s.slice(0, lineEnd) + '\n' + s.slice(lineStart, lineEnd) + s.slice(lineEnd);
    }
    return s;
  });
}

/** Generated texts, half of them damaged. */
export const fuzzedYaml: fc.Arbitrary<string> = fc.oneof(generatedYaml, mutated(generatedYaml));
