/**
 * The one-method interface every schema rule implements (in the style of
 * yaml-language-server's additional validators): a manifest document and its
 * schema in, the rule's diagnostics out. Rules are pure and independent.
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import type { LineCounter } from 'yaml';
import type { Definition, KindEntry } from '../../schema/types';
import type { ManifestDocument } from '../parseManifests';
import type { SchemaVisitor } from './walkSchema';

/** What a rule needs besides the document itself. */
export interface SchemaRuleContext {
  /** Offsets → positions for the whole text the document came from. */
  readonly lineCounter: LineCounter;
  /** The kind the document declares (its apiVersion/kind pair is known to the schema). */
  readonly kind: KindEntry;
  /** The definition of that kind: the type of the document's root map. */
  readonly definition: Definition;
}

export interface SchemaRule {
  /** The stable diagnostic code the rule reports under. */
  readonly code: string;
  /** Every problem of this rule in the document, in source order. */
  validate(doc: ManifestDocument, ctx: SchemaRuleContext): Diagnostic[];
  /**
   * For a rule that is a walk of the document along its schema: its visitor, pushing to `out` what `validate`
   * would return, so that the runner walks each document once for all such rules.
   */
  visitor?(doc: ManifestDocument, ctx: SchemaRuleContext, out: Diagnostic[]): SchemaVisitor;
}
