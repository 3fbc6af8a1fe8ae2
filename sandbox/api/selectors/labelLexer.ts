/**
 * Tokenizer for the label selector string syntax, following the lexer of
 * k8s.io/apimachinery/pkg/labels/selector.go so that error messages quote the
 * same token text.
 */

export type TokenKind =
  | 'error'
  | 'end'
  | 'identifier'
  | '('
  | ')'
  | ','
  | '!'
  | '='
  | '=='
  | '!='
  | '>'
  | '<'
  | 'in'
  | 'notin';

export interface Token {
  kind: TokenKind;
  /** The source text; for `error` tokens, the lexer's message; `''` at the end. */
  text: string;
}

const LITERALS: ReadonlyMap<string, TokenKind> = new Map<string, TokenKind>([
  [')', ')'],
  [',', ','],
  ['!', '!'],
  ['==', '=='],
  ['=', '='],
  ['>', '>'],
  ['in', 'in'],
  ['<', '<'],
  ['!=', '!='],
  ['notin', 'notin'],
  ['(', '('],
]);

function isWhitespace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
}

function isSpecial(ch: string): boolean {
  return ch === '=' || ch === '!' || ch === '(' || ch === ')' || ch === ',' || ch === '>' || ch === '<';
}

/** Splits `text` into tokens, always ending with one `end` token. */
export function lexLabelSelector(text: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  for (;;) {
    while (pos < text.length && isWhitespace(text[pos])) pos++;
    if (pos >= text.length) {
      tokens.push({ kind: 'end', text: '' });
      return tokens;
    }
    const start = pos;
    if (isSpecial(text[pos])) {
      pos = scanSpecial(text, pos, tokens);
    } else {
      while (pos < text.length && !isSpecial(text[pos]) && !isWhitespace(text[pos])) pos++;
      const word = text.slice(start, pos);
      tokens.push({ kind: LITERALS.get(word) ?? 'identifier', text: word });
    }
  }
}

/** Longest run of special characters that still forms an operator (`!=` over `!`). */
function scanSpecial(text: string, pos: number, tokens: Token[]): number {
  let best: Token | undefined;
  let end = pos;
  let i = pos;
  while (i < text.length && isSpecial(text[i])) {
    const candidate = text.slice(pos, i + 1);
    const kind = LITERALS.get(candidate);
    if (kind) {
      best = { kind, text: candidate };
      end = i + 1;
    } else if (best) {
      break;
    }
    i++;
  }
  if (!best) {
    tokens.push({ kind: 'error', text: `error expected: keyword found '${text.slice(pos, i)}'` });
    return i;
  }
  tokens.push(best);
  return end;
}
