/**
 * One file's own analysis: the single-document diagnostics of every document
 * (exactly what validateManifestText reports) plus the facts the
 * cross-document checks need, computed piece by piece (see splitDocuments) so
 * that a caller can stop or pause between pieces. Pure.
 */
import type { Diagnostic, Range } from 'vscode-languageserver-types';
import { MAX_PARSE_DIAGNOSTICS, MAX_TEXT_LENGTH, parseManifests } from '../parseManifests';
import { validateManifest, validateManifestText } from '../validateDocument';
import { extractFacts } from '../crossDocument/extractFacts';
import { kubernetesVersion } from '../../schema/schema';
import type { ObjectFacts } from '../crossDocument/facts';
import { splitDocuments } from './splitDocuments';
import type { TextPiece } from './splitDocuments';

export interface FileAnalysis {
  /** Single-document diagnostics, sorted by position. */
  readonly diagnostics: Diagnostic[];
  /** The Kubernetes objects of the file, in source order. */
  readonly objects: ObjectFacts[];
}

/** The analysis of one piece: its parser diagnostics apart, because they are capped per file. */
export interface PieceAnalysis {
  readonly parse: Diagnostic[];
  readonly validation: Diagnostic[];
  readonly objects: ObjectFacts[];
}

/** Accumulates piece analyses into a file analysis. */
export class FileAnalysisBuilder {
  private readonly parse: Diagnostic[] = [];
  private readonly validation: Diagnostic[] = [];
  private readonly objects: ObjectFacts[] = [];

  add(piece: PieceAnalysis): void {
    this.parse.push(...piece.parse);
    this.validation.push(...piece.validation);
    this.objects.push(...piece.objects);
  }

  build(): FileAnalysis {
    const all = [...this.parse.slice(0, MAX_PARSE_DIAGNOSTICS), ...this.validation];
    all.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
    return { diagnostics: all, objects: this.objects };
  }
}

/**
 * The pieces to analyze, or a finished analysis when the whole text is
 * declined (too large, binary): one polite diagnostic, no objects.
 */
export function planAnalysis(text: string): TextPiece[] | FileAnalysis {
  if (text.length > MAX_TEXT_LENGTH || text.includes('\u0000') || text.includes('\uFFFD')) {
    return { diagnostics: validateManifestText(text), objects: [] };
  }
  return splitDocuments(text);
}

/** Analyzes one piece; ranges are in the whole text. Facts are taken before validation applies defaults. */
export function analyzePiece(piece: TextPiece): PieceAnalysis {
  return shiftPiece(analyzePieceText(piece.text), piece.startLine);
}

/**
 * Pieces at least this long are remembered by their text and the Kubernetes release (bench/crd: a ~1 MiB CRD file
 * costs ~0.3–0.5 s, four fifths of it the YAML parser), up to LARGE_PIECE_BUDGET characters in all, least recently
 * used first out: a folder re-indexed after a settings change, a rescan or a checkout that kept the file analyses an
 * unchanged vendored CRD once. Small pieces are cheaper to analyse than to keep.
 */
export const LARGE_PIECE = 64 * 1024;
const LARGE_PIECE_BUDGET = 32 * 1024 * 1024;
/** Release → piece text → analysis, in the order last used. */
const largePieces = new Map<string, Map<string, PieceAnalysis>>();
let largePieceChars = 0;

/**
 * Analyzes the text of one piece as if it started the file (ranges relative to the piece): the cacheable part. The
 * analysis of a large piece may be one returned before for the same text: callers never change it.
 */
export function analyzePieceText(text: string): PieceAnalysis {
  if (text.length < LARGE_PIECE) return analyzeNow(text);
  const release = kubernetesVersion();
  let byText = largePieces.get(release);
  if (byText === undefined) largePieces.set(release, (byText = new Map()));
  const known = byText.get(text);
  if (known !== undefined) {
    byText.delete(text);
    byText.set(text, known);
    return known;
  }
  const analysis = analyzeNow(text);
  byText.set(text, analysis);
  largePieceChars += text.length;
  for (const [r, m] of largePieces) {
    for (const t of m.keys()) {
      if (largePieceChars <= LARGE_PIECE_BUDGET || t === text) break;
      m.delete(t);
      largePieceChars -= t.length;
    }
    if (m.size === 0) largePieces.delete(r);
  }
  return analysis;
}

function analyzeNow(text: string): PieceAnalysis {
  const parsed = parseManifests(text);
  const objects: ObjectFacts[] = [];
  const validation: Diagnostic[] = [];
  for (const m of parsed.manifests) {
    objects.push(...extractFacts(m, parsed.lineCounter));
    validation.push(...validateManifest(m, parsed.lineCounter));
  }
  return { parse: parsed.diagnostics, validation, objects };
}

/** A piece analysis moved down by `lines` (where its piece starts in the file). */
export function shiftPiece(a: PieceAnalysis, lines: number): PieceAnalysis {
  if (lines === 0) return a;
  return {
    parse: a.parse.map((d) => shiftDiagnostic(d, lines)),
    validation: a.validation.map((d) => shiftDiagnostic(d, lines)),
    objects: a.objects.map((o) => shiftFacts(o, lines)),
  };
}

/** The whole analysis at once (the CLI, tests, small texts). Never throws. */
export function analyzeFile(text: string): FileAnalysis {
  const plan = planAnalysis(text);
  if (!Array.isArray(plan)) return plan;
  const builder = new FileAnalysisBuilder();
  for (const piece of plan) builder.add(analyzePiece(piece));
  return builder.build();
}

function shiftRange(r: Range, lines: number): Range {
  return {
    start: { line: r.start.line + lines, character: r.start.character },
    end: { line: r.end.line + lines, character: r.end.character },
  };
}

/** Shifts every range in a diagnostic: its own, its related information's, and any a rule put in `data`. */
function shiftDiagnostic(d: Diagnostic, lines: number): Diagnostic {
  return shiftRangesDeep(d, lines) as Diagnostic;
}

function shiftRangesDeep(value: unknown, lines: number): unknown {
  if (Array.isArray(value)) return value.map((v: unknown) => shiftRangesDeep(v, lines));
  if (typeof value !== 'object' || value === null) return value;
  if (isRange(value)) return shiftRange(value, lines);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = shiftRangesDeep(v, lines);
  return out;
}

function isRange(value: object): value is Range {
  const r = value as Partial<Range>;
  return isPosition(r.start) && isPosition(r.end);
}

function isPosition(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { line?: unknown }).line === 'number' &&
    typeof (value as { character?: unknown }).character === 'number'
  );
}

function shiftFacts(o: ObjectFacts, lines: number): ObjectFacts {
  return {
    ...o,
    nameRange: shiftRange(o.nameRange, lines),
    kindRange: shiftRange(o.kindRange, lines),
    ...(o.fieldRanges === undefined
      ? {}
      : { fieldRanges: new Map([...o.fieldRanges].map(([k, r]) => [k, shiftRange(r, lines)])) }),
    serviceSelector: o.serviceSelector && { ...o.serviceSelector, range: shiftRange(o.serviceSelector.range, lines) },
    references: o.references.map((r) => ({ ...r, range: shiftRange(r.range, lines) })),
    scaleTarget: o.scaleTarget && { ...o.scaleTarget, range: shiftRange(o.scaleTarget.range, lines) },
  };
}
