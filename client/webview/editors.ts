/**
 * Monaco with monaco-yaml inside the webview. The webview's CSP allows
 * workers only from blob: URLs, so each worker script (bundled into dist/ by
 * scripts/build.mjs) is fetched from its webview URI and started from a Blob.
 */
import * as monaco from 'monaco-editor/esm/vs/editor/editor.api';
import 'monaco-editor/esm/vs/basic-languages/yaml/yaml.contribution';
import { configureMonacoYaml } from 'monaco-yaml';

export type Editor = monaco.editor.IStandaloneCodeEditor;

interface WorkerUris {
  editor: string;
  yaml: string;
}

const blobUrls = new Map<string, Promise<string>>();

function blobUrl(uri: string): Promise<string> {
  let url = blobUrls.get(uri);
  if (!url) {
    url = fetch(uri)
      .then((r) => r.blob())
      .then((b) => URL.createObjectURL(new Blob([b], { type: 'text/javascript' })));
    blobUrls.set(uri, url);
  }
  return url;
}

let configured = false;

/** Sets up the worker loader and the YAML language once per page. */
export function setUpMonaco(uris: WorkerUris): void {
  if (configured) return;
  configured = true;
  (self as unknown as { MonacoEnvironment: monaco.Environment }).MonacoEnvironment = {
    async getWorker(_moduleId: string, label: string) {
      return new Worker(await blobUrl(label === 'yaml' ? uris.yaml : uris.editor), { name: label });
    },
  };
  configureMonacoYaml(monaco, {
    enableSchemaRequest: false,
    validate: true,
    completion: false,
    hover: false,
    schemas: [],
  });
}

function theme(): string {
  const c = document.body.classList;
  if (c.contains('vscode-high-contrast-light')) return 'hc-light';
  if (c.contains('vscode-high-contrast')) return 'hc-black';
  return c.contains('vscode-light') ? 'vs' : 'vs-dark';
}

let following = false;

/**
 * Keeps every editor on the workbench's theme: VS Code swaps the body's `vscode-light` / `vscode-dark` /
 * `vscode-high-contrast(-light)` class when the user switches themes, and Monaco's theme is global to the page.
 */
export function followTheme(): void {
  if (following) return;
  following = true;
  let current = theme();
  new MutationObserver(() => {
    const next = theme();
    if (next === current) return;
    current = next;
    monaco.editor.setTheme(next);
  }).observe(document.body, { attributes: true, attributeFilter: ['class'] });
}

/** A YAML editor in `host`; read-only for the live viewer, editable for "Edit live object". */
export function createYamlEditor(host: HTMLElement, text: string, readOnly: boolean, label: string): Editor {
  return monaco.editor.create(host, {
    value: text,
    language: 'yaml',
    readOnly,
    theme: theme(),
    automaticLayout: true,
    minimap: { enabled: false },
    scrollBeyondLastLine: false,
    fontSize: 12,
    tabSize: 2,
    ariaLabel: label,
    renderValidationDecorations: readOnly ? 'off' : 'on',
  });
}

/** Replaces the text of a read-only viewer, keeping its scroll position. */
export function setText(editor: Editor, text: string): void {
  if (editor.getValue() === text) return;
  const top = editor.getScrollTop();
  editor.setValue(text);
  editor.setScrollTop(top);
}
