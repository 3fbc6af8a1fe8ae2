/** Plain requests to a served sandbox API for the tests: http, or https trusting the server as the kubeconfig does. */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface ApiAnswer {
  status: number;
  body: string;
}

/**
 * One request to the served API: http, or https verified against `ca` (without it, trusted
 * unverified). Rejects when nothing listens or the certificate does not verify.
 */
export function call(
  url: string,
  options: { token?: string; method?: string; body?: unknown; ca?: string } = {},
): Promise<ApiAnswer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    ...(body ? { 'content-type': 'application/json' } : {}),
  };
  return new Promise((resolve, reject) => {
    const send = url.startsWith('https:') ? httpsRequest : httpRequest;
    const req = send(
      url,
      {
        method: options.method ?? 'GET',
        headers,
        ...(options.ca ? { ca: options.ca } : { rejectUnauthorized: false }),
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
