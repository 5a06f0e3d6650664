import { createServer, type IncomingMessage, type Server } from 'node:http';

/**
 * Plays the configured build's backend (Supabase's REST endpoint for RPC) and its webhook receiver on one local
 * port, recording what arrives. Cross-origin like the real ones, so it answers CORS preflights as they do.
 */
export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Answer = 'ok' | 'error-500';

export interface FakeBackend {
  requests: RecordedRequest[];
  answer: Answer;
  rpcCalls(): RecordedRequest[];
  webhookCalls(action?: string): URLSearchParams[];
  close(): Promise<void>;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-max-age': '600',
};

export async function startFakeBackend(port: number): Promise<FakeBackend> {
  const backend: FakeBackend = {
    requests: [],
    answer: 'ok',
    rpcCalls: () => backend.requests.filter((r) => r.path === '/rest/v1/rpc/upsert_pixel_email'),
    webhookCalls: (action) =>
      backend.requests
        .filter((r) => r.path === '/webhook')
        .map((r) => new URLSearchParams(r.body))
        .filter((fields) => action === undefined || fields.get('action') === action),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((request, response) => {
    if (request.method === 'OPTIONS') {
      response.writeHead(204, { ...CORS, 'access-control-allow-headers': request.headers['access-control-request-headers'] ?? '*' });
      response.end();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      backend.requests.push({ path: new URL(request.url ?? '/', 'http://x').pathname, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (backend.answer === 'error-500') {
        response.writeHead(500, { ...CORS, 'content-type': 'application/json' });
        response.end(JSON.stringify({ message: 'internal error (fake backend)' }));
      } else {
        response.writeHead(204, CORS);
        response.end();
      }
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  // A closed server must free its port at once, even while the browser holds a connection open.
  const close = backend.close;
  backend.close = () => {
    server.closeAllConnections();
    return close();
  };
  return backend;
}
