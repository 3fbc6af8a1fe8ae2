/**
 * The webview's HTML, as a pure function of the URIs and a nonce, so that
 * the Content Security Policy can be tested without VS Code.
 *
 * Scripts run only with the nonce. Styles allow 'unsafe-inline' because
 * Monaco writes `<style>` elements and `style="…"` attributes at run time
 * (a nonce cannot cover attributes, and a nonce in style-src would disable
 * 'unsafe-inline'). Monaco's workers are fetched from the extension's dist/
 * (connect-src) and started from blob: URLs (worker-src).
 */

export interface HtmlParams {
  /** `webview.cspSource`. */
  cspSource: string;
  nonce: string;
  title: string;
  scriptUri: string;
  styleUris: readonly string[];
  /** Bundled Monaco workers, loaded by the page with fetch → Blob → Worker. */
  editorWorkerUri: string;
  yamlWorkerUri: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'unsafe-inline'`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `connect-src ${cspSource}`,
    'worker-src blob:',
  ].join('; ');
}

/** A nonce: 32 characters from [A-Za-z0-9], from the given random source. */
export function makeNonce(randomBytes: (n: number) => Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(32)].map((b) => alphabet[b % alphabet.length]).join('');
}

export function renderHtml(p: HtmlParams): string {
  const a = (s: string) => escapeHtml(s);
  const styles = p.styleUris.map((u) => `    <link rel="stylesheet" href="${a(u)}">`).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${a(contentSecurityPolicy(p.cspSource, p.nonce))}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
${styles}
    <title>${a(p.title)}</title>
  </head>
  <body data-editor-worker="${a(p.editorWorkerUri)}" data-yaml-worker="${a(p.yamlWorkerUri)}">
    <main id="root" aria-live="polite"><p class="loading">Loading…</p></main>
    <script nonce="${a(p.nonce)}" src="${a(p.scriptUri)}"></script>
  </body>
</html>
`;
}
