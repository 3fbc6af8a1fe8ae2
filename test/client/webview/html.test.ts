/** The webview HTML: its Content Security Policy and the nonce on every script. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  contentSecurityPolicy,
  escapeHtml,
  makeNonce,
  renderHtml,
  type HtmlParams,
} from '../../../client/src/webview/html';

const params: HtmlParams = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  nonce: 'N0nceN0nceN0nceN0nceN0nceN0nce12',
  title: 'Desired vs Actual: deployment/web',
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js',
  styleUris: [
    'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.css',
    'https://file+.vscode-resource.vscode-cdn.net/ext/media/webview/main.css',
  ],
  editorWorkerUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/editor.worker.js',
  yamlWorkerUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/yaml.worker.js',
};

describe('renderHtml', () => {
  const html = renderHtml(params);

  test('the CSP meta tag holds exactly the policy: nonce scripts, webview-source styles/fonts, blob workers', () => {
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
    assert.ok(meta, 'a CSP meta tag');
    const policy = meta[1].replace(/&#39;/g, "'");
    assert.equal(policy, contentSecurityPolicy(params.cspSource, params.nonce));
    assert.deepEqual(policy.split('; '), [
      "default-src 'none'",
      `script-src 'nonce-${params.nonce}'`,
      `style-src ${params.cspSource} 'unsafe-inline'`,
      `font-src ${params.cspSource}`,
      `img-src ${params.cspSource} data:`,
      `connect-src ${params.cspSource}`,
      'worker-src blob:',
    ]);
  });

  test('every script tag carries the nonce and loads from the webview source; there is no inline script', () => {
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.ok(scripts.length > 0);
    for (const [, attrs, body] of scripts) {
      assert.match(attrs, new RegExp(`nonce="${params.nonce}"`));
      assert.match(attrs, /src="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\//);
      assert.equal(body.trim(), '');
    }
  });

  test('styles and worker URIs come from the given webview URIs; the title is escaped', () => {
    for (const u of params.styleUris) assert.ok(html.includes(`<link rel="stylesheet" href="${u}">`));
    assert.ok(html.includes(`data-editor-worker="${params.editorWorkerUri}"`));
    assert.ok(html.includes(`data-yaml-worker="${params.yamlWorkerUri}"`));
    const hostile = renderHtml({ ...params, title: '</title><script>alert(1)</script>' });
    assert.equal([...hostile.matchAll(/<script\b/g)].length, 1);
    assert.ok(hostile.includes('&lt;/title&gt;&lt;script&gt;'));
  });
});

describe('helpers', () => {
  test('escapeHtml escapes the five HTML specials', () => {
    assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
  test('makeNonce gives 32 alphanumerics from the random source', () => {
    const nonce = makeNonce((n) => Uint8Array.from({ length: n }, (_, i) => i * 7));
    assert.match(nonce, /^[A-Za-z0-9]{32}$/);
    assert.notEqual(
      nonce,
      makeNonce((n) => new Uint8Array(n)),
    );
  });
});
