/**
 * Recursive-descent parser for label selector strings
 * (`app=web,tier!=db,env in (a,b),!legacy,release notin (x),key`), with the
 * grammar and error messages of upstream `labels.Parse`. Errors are thrown as
 * `LabelSelectorSyntaxError` carrying upstream's message text.
 */
import type { Token, TokenKind } from './labelLexer';
import { lexLabelSelector } from './labelLexer';
import { qualifiedNameErrors } from './labelSyntax';
import type { LabelRequirement, RequirementOperator } from './requirement';
import { aggregate, invalidValue, newRequirement } from './requirement';

export class LabelSelectorSyntaxError extends Error {
  override name = 'LabelSelectorSyntaxError';
}

type Context = 'keyAndOperator' | 'values';

const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';

const OPERATOR_OF: Partial<Record<TokenKind, RequirementOperator>> = {
  in: 'In',
  notin: 'NotIn',
  '=': 'Equals',
  '==': 'DoubleEquals',
  '!=': 'NotEquals',
  '>': 'GreaterThan',
  '<': 'LessThan',
};

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  /** In a value position the keywords `in` and `notin` are plain identifiers. */
  private view(t: Token, ctx: Context): Token {
    return ctx === 'values' && (t.kind === 'in' || t.kind === 'notin') ? { kind: 'identifier', text: t.text } : t;
  }
  peek(ctx: Context): Token {
    return this.view(this.tokens[this.pos], ctx);
  }
  next(ctx: Context): Token {
    return this.view(this.tokens[this.pos++], ctx);
  }

  parse(): LabelRequirement[] {
    const out: LabelRequirement[] = [];
    for (;;) {
      const t = this.peek('values');
      if (t.kind === 'end') return out;
      if (t.kind !== 'identifier' && t.kind !== '!')
        fail(`found '${t.text}', expected: !, identifier, or 'end of string'`);
      out.push(this.requirement());
      const after = this.next('values');
      if (after.kind === 'end') return out;
      if (after.kind !== ',') fail(`found '${after.text}', expected: ',' or 'end of string'`);
      const following = this.peek('values');
      if (following.kind !== 'identifier' && following.kind !== '!')
        fail(`found '${following.text}', expected: identifier after ','`);
    }
  }

  private requirement(): LabelRequirement {
    try {
      return this.requirementBody();
    } catch (e) {
      if (e instanceof LabelSelectorSyntaxError) fail(`unable to parse requirement: ${e.message}`);
      throw e;
    }
  }

  private requirementBody(): LabelRequirement {
    let inferred: RequirementOperator | undefined;
    let t = this.next('values');
    if (t.kind === '!') {
      inferred = 'DoesNotExist';
      t = this.next('values');
    }
    if (t.kind !== 'identifier') fail(`found '${t.text}', expected: identifier`);
    const key = t.text;
    const keyErrs = qualifiedNameErrors(key);
    if (keyErrs.length > 0) fail(invalidValue('<nil>', JSON.stringify(key), keyErrs.join('; ')));
    const ahead = this.peek('values').kind;
    if (inferred === undefined && (ahead === 'end' || ahead === ',')) inferred = 'Exists';
    if (inferred !== undefined) return build(key, inferred, []);

    const opToken = this.next('keyAndOperator');
    const operator = OPERATOR_OF[opToken.kind];
    if (!operator) fail(`found '${opToken.text}', expected: ${BINARY_OPERATORS}`);
    const values = operator === 'In' || operator === 'NotIn' ? this.valueSet() : this.exactValue();
    return build(key, operator, [...new Set(values)].sort());
  }

  /** `( v1, v2 )`; empty members stand for the empty string. */
  private valueSet(): string[] {
    const open = this.next('values');
    if (open.kind !== '(') fail(`found '${open.text}' expected: '('`);
    const t = this.peek('values');
    if (t.kind === ')') {
      this.pos++;
      return [''];
    }
    if (t.kind !== 'identifier' && t.kind !== ',') fail(`found '${t.text}', expected: ',', ')' or identifier`);
    const values = this.identifierList();
    if (this.next('values').kind !== ')') fail(`found '${t.text}', expected: ')'`);
    return values;
  }

  private identifierList(): string[] {
    const values: string[] = [];
    for (;;) {
      const t = this.next('values');
      if (t.kind === 'identifier') {
        values.push(t.text);
        const ahead = this.peek('values');
        if (ahead.kind === ')') return values;
        if (ahead.kind !== ',') fail(`found '${ahead.text}', expected: ',' or ')'`);
      } else if (t.kind === ',') {
        if (values.length === 0) values.push('');
        const ahead = this.peek('values').kind;
        if (ahead === ')') {
          values.push('');
          return values;
        }
        if (ahead === ',') {
          this.pos++;
          values.push('');
        }
      } else {
        fail(`found '${t.text}', expected: ',', or identifier`);
      }
    }
  }

  private exactValue(): string[] {
    const ahead = this.peek('values').kind;
    if (ahead === 'end' || ahead === ',') return [''];
    const t = this.next('values');
    if (t.kind !== 'identifier') fail(`found '${t.text}', expected: identifier`);
    return [t.text];
  }
}

function fail(message: string): never {
  throw new LabelSelectorSyntaxError(message);
}

function build(key: string, operator: RequirementOperator, values: string[]): LabelRequirement {
  const r = newRequirement(key, operator, values);
  if (Array.isArray(r)) fail(aggregate(r));
  return r;
}

/**
 * Parses a selector string into requirements sorted by key (stable, as
 * upstream sorts them). Throws `LabelSelectorSyntaxError` with upstream's
 * message on bad input. An empty or blank string yields no requirements.
 */
export function parseLabelRequirements(text: string): LabelRequirement[] {
  const reqs = new Parser(lexLabelSelector(text)).parse();
  return reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
