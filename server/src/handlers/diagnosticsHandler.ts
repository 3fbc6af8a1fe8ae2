/**
 * Wire layer for diagnostics: watches open YAML documents, validates them
 * after a short quiet time, publishes the result, and clears it on close.
 * All Kubernetes knowledge lives in the pure services.
 */
import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { validateManifestText } from '../services/validateDocument';
import { ValidationScheduler } from './validationScheduler';

/** Quiet time after the last keystroke before validating. */
export const VALIDATION_DELAY_MS = 150;

/** True for documents this server validates: language `yaml`, or a `.yaml`/`.yml` file. */
export function isYamlDocument(doc: TextDocument): boolean {
  return doc.languageId === 'yaml' || /\.ya?ml$/i.test(doc.uri);
}

/** Hooks validation onto `documents`; returns a function that stops it. */
export function registerDiagnostics(connection: Connection, documents: TextDocuments<TextDocument>): () => void {
  const scheduler = new ValidationScheduler<TextDocument>(VALIDATION_DELAY_MS, (doc, isCurrent) => {
    const diagnostics = validateManifestText(doc.getText());
    if (isCurrent()) void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics });
  });
  const subscriptions = [
    documents.onDidChangeContent((e) => {
      if (isYamlDocument(e.document)) scheduler.schedule(e.document);
    }),
    documents.onDidClose((e) => {
      scheduler.cancel(e.document.uri);
      if (isYamlDocument(e.document)) void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
    }),
  ];
  return () => {
    scheduler.dispose();
    for (const s of subscriptions) s.dispose();
  };
}
