import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver took, verified with the `standardwebhooks` library when it arrived. */
export interface Received {
  id: string;
  /** Unix seconds the PIM signed (`webhook-timestamp`). */
  timestamp: number;
  type: string;
  // biome-ignore lint/suspicious/noExplicitAny: the event's data as the tests read it
  data: any;
  /** Null when the signature checked out; else the library's refusal. */
  verifyError: string | null;
  /** The status this receiver answered with. */
  answered: number;
  /** When the request's body had arrived (`Date.now()`, ms; bench:webhooks measures delay with it). */
  receivedAt: number;
}

/**
 * A webhook receiver on 127.0.0.1 (node:http, a free port unless given): it verifies every
 * request with the `standardwebhooks` library against `secret`, answers `status`, and keeps what
 * it took. `stop` closes the server and cuts its open connections (a receiver that dies), `start`
 * brings it back on the same port.
 */
export class WebhookReceiver {
  received: Received[] = [];
  status = 200;
  secret = '';
  port = 0;
  private server: Server | null = null;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const receivedAt = Date.now();
        const raw = Buffer.concat(chunks).toString('utf8');
        this.received.push(this.take(raw, req.headers, receivedAt));
        res
          .writeHead(this.status, { 'content-type': 'text/plain' })
          .end(this.status === 200 ? 'ok' : 'receiver broken');
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  /** Requests that carried this event type. */
  ofType(type: string): Received[] {
    return this.received.filter((r) => r.type === type);
  }

  private take(raw: string, headers: IncomingHttpHeaders, receivedAt: number): Received {
    const header = (name: string) => String(headers[name] ?? '');
    let verifyError: string | null = null;
    try {
      new Webhook(this.secret).verify(raw, {
        'webhook-id': header('webhook-id'),
        'webhook-timestamp': header('webhook-timestamp'),
        'webhook-signature': header('webhook-signature'),
      });
    } catch (err) {
      verifyError = String(err);
    }
    let body: { type?: string; data?: unknown } = {};
    try {
      body = JSON.parse(raw);
    } catch {
      verifyError ??= 'body is not JSON';
    }
    return {
      id: header('webhook-id'),
      timestamp: Number(header('webhook-timestamp')),
      type: String(body.type ?? ''),
      data: body.data,
      verifyError,
      answered: this.status,
      receivedAt,
    };
  }
}

/**
 * The receiver's product events per product: each product's change ids in the order they first
 * arrived (a redelivered event counts once), for the products asked about.
 */
export function changesArrived(receiver: WebhookReceiver, productIds: string[]): Map<string, string[]> {
  const seen = new Map<string, string[]>(productIds.map((id) => [id, []]));
  for (const r of receiver.received) {
    const list = seen.get(r.data?.elementId);
    if (!list) continue;
    for (const change of r.data.changes as { changeId: string }[])
      if (!list.includes(change.changeId)) list.push(change.changeId);
  }
  return seen;
}

/**
 * Each product's versions written since `before` (its versions then), oldest first: the changes
 * a receiver must get, in this order. `versionsOf` reads a product's history, oldest first.
 */
export async function changesSince(
  productIds: string[],
  before: Map<string, string[]>,
  versionsOf: (productId: string) => Promise<string[]>,
): Promise<Map<string, string[]>> {
  const expected = new Map<string, string[]>();
  for (const id of productIds) {
    const old = new Set(before.get(id));
    expected.set(
      id,
      (await versionsOf(id)).filter((v) => !old.has(v)),
    );
  }
  return expected;
}
