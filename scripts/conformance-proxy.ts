/**
 * A small local proxy in front of {mcp_url} that adds the bearer token, because the official
 * conformance suite's server mode has no token option. Requests are forwarded as they come
 * (Origin included, so the suite's DNS-rebinding check reaches the server's own Origin
 * validation); the Host is the upstream's, since the token is bound to that address. Streams
 * (SSE) are piped through as they arrive. The token is renewed shortly before it expires.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Readable } from 'node:stream';
import { refreshTokens, type Tokens } from './conformance-oauth';

const RENEW_AFTER_MS = 4 * 60 * 1000; // access tokens live 5 minutes

export interface TokenProxy {
  url: string;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer | undefined> {
  if (req.method === 'GET' || req.method === 'HEAD') return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startTokenProxy(upstream: string, initial: Tokens): Promise<TokenProxy> {
  let tokens = initial;
  let issuedAt = Date.now();
  const token = async () => {
    if (Date.now() - issuedAt > RENEW_AFTER_MS && tokens.refreshToken) {
      tokens = await refreshTokens(tokens);
      issuedAt = Date.now();
    }
    return tokens.accessToken;
  };
  const server: Server = createServer(async (req, res) => {
    try {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value === undefined || ['host', 'connection', 'content-length', 'authorization'].includes(name)) continue;
        headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      headers.set('Authorization', `Bearer ${await token()}`);
      const controller = new AbortController();
      res.on('close', () => controller.abort());
      const answer = await fetch(upstream, {
        method: req.method,
        headers,
        body: await bodyOf(req),
        signal: controller.signal,
        redirect: 'manual',
      });
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      if (answer.body)
        Readable.fromWeb(answer.body as never)
          .on('error', () => res.destroy())
          .pipe(res);
      else res.end();
    } catch (err) {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: `proxy: ${(err as Error).message}` }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
