import { WebStandardStreamableHTTPServerTransport, type McpServer } from '@modelcontextprotocol/server';
import { Agent } from 'agents';
import { HOME_CELL, openCellSession } from '../db/cells';
import { BOOKMARK_HEADER, newerBookmark, validBookmark } from '../db/session';
import type { McpProps } from '../oauth/agent-auth';
import { REVOCATION_CHECK_MS, stillAllowed } from './access';
import { toAuthInfo } from './caller';
import { jsonRpcError, SESSION_HEADERS, sessionNotFound } from './responses';
import { createPimMcpServer } from './server';
import { trackStream } from './stream-watch';

/** What survives an eviction of the object: enough to rebuild the session on the next message. */
interface SessionRecord {
  sessionId: string;
  userId: string;
  companyId: string;
  /** The client's `initialize` message, replayed to rebuild the SDK session after an eviction. */
  initialize: unknown;
  lastSeenAt: number;
  /** The newest D1 bookmark the session has seen: every message reads at least this new. */
  bookmark?: string | null;
}

interface LiveSession {
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
}

/** A session nobody used for this long is ended; its client must initialize again (404). */
const SESSION_IDLE_SECONDS = 60 * 60;

/**
 * How stale the stored `lastSeenAt` may get before a message writes it again: the idle check
 * then ends a session at most this much early, and a stream of calls writes storage about once
 * a minute instead of once per message.
 */
const LAST_SEEN_PRECISION_MS = 60_000;

/**
 * One MCP session of the 2025 protocol revisions (those with `initialize` and `Mcp-Session-Id`),
 * hosted in its own Durable Object: an SDK v2 `McpServer` on the SDK's sessionful Streamable
 * HTTP transport. The Worker authenticates every request before forwarding it here; this
 * object binds the session to the user who opened it and refuses everyone else, and while an
 * SSE stream is open it re-applies the token rules every few seconds and ends the session
 * when the user's access was revoked.
 */
export class McpSession extends Agent<Cloudflare.Env> {
  /** The SDK session in memory; a promise so concurrent first messages build it only once. */
  private live?: Promise<LiveSession>;
  /** The stored record as last read or written (storage is read only after an eviction). */
  private record?: SessionRecord;
  private latestProps?: McpProps;
  private openStreams = 0;
  private watchdog?: ReturnType<typeof setInterval>;
  /** The newest D1 bookmark of this session (stored in the record too, so an eviction keeps it). */
  private bookmark: string | null = null;
  /** A tool that may write ran since the record was last stored: its bookmark must be stored. */
  private wroteSinceSaved = false;

  override async onRequest(request: Request): Promise<Response> {
    const sessionId = request.headers.get(SESSION_HEADERS.sessionId) ?? '';
    const props = JSON.parse(request.headers.get(SESSION_HEADERS.props) ?? 'null') as McpProps | null;
    const opens = request.headers.get(SESSION_HEADERS.opens) === '1';
    if (!sessionId || !props?.caller) return sessionNotFound();
    const forwarded = withoutInternalHeaders(request);
    const parsedBody = request.method === 'POST' ? await readJson(request) : undefined;
    if (parsedBody === UNPARSEABLE) return jsonRpcError(400, -32700, 'Parse error: the body is not valid JSON');
    this.record ??= await this.ctx.storage.get<SessionRecord>('session');
    const record = this.record;
    this.bookmark = newerBookmark(
      newerBookmark(this.bookmark, record?.bookmark),
      validBookmark(request.headers.get(BOOKMARK_HEADER)),
    );
    // The Worker refused the message already if the company is moving, and names its cell.
    const cell = request.headers.get(SESSION_HEADERS.cell) ?? HOME_CELL;
    const dbSession = openCellSession(this.env, cell, this.bookmark);
    const authInfo = toAuthInfo({ caller: props.caller, dbSession, remember: (b, w) => this.remember(b, w) });

    if (opens) {
      if (record) return sessionNotFound();
    } else {
      // Another user's token with this session id is refused as if the session did not exist.
      if (
        !record ||
        record.sessionId !== sessionId ||
        record.userId !== props.caller.userId ||
        record.companyId !== props.caller.companyId
      ) {
        return sessionNotFound();
      }
      this.saveRecord(Date.now() - record.lastSeenAt >= LAST_SEEN_PRECISION_MS);
    }
    this.latestProps = props;
    this.live ??= record ? this.restore(record, authInfo) : this.open(sessionId, props, parsedBody);
    const live = await this.live;
    const response = await live.transport.handleRequest(forwarded, {
      authInfo,
      ...(parsedBody === undefined ? {} : { parsedBody }),
    });
    const bookmark = dbSession.bookmark();
    if (bookmark) this.remember(bookmark, false);
    // A write moved the bookmark: keep it where an eviction cannot lose it. An answer streamed
    // as SSE runs its tool after this point, so the record is saved again when its stream ends.
    this.saveRecord(false);
    return trackStream(
      bookmark ? withHeader(response, BOOKMARK_HEADER, bookmark) : response,
      () => this.streamOpened(),
      () => {
        this.streamClosed();
        this.saveRecord(false);
      },
    ).response;
  }

  /** Keeps the newest bookmark in memory; `saveRecord` stores it once a write is answered. */
  private remember(bookmark: string, wrote: boolean): void {
    this.bookmark = newerBookmark(this.bookmark, bookmark);
    if (wrote) this.wroteSinceSaved = true;
  }

  /**
   * Writes the record only when something in it must survive an eviction: the bookmark after a
   * tool that may write, or `lastSeenAt` once it is LAST_SEEN_PRECISION_MS old (`touch`). A read
   * writes nothing, though its bookmark may be newer (any write in the database moves it; the
   * object keeps that one in memory). Not awaited: the object's output gate holds the answer
   * until the write is durable, without a second await on the response path.
   */
  private saveRecord(touch: boolean): void {
    const record = this.record;
    if (!record || (!touch && !this.wroteSinceSaved)) return;
    const next: SessionRecord = {
      ...record,
      bookmark: this.bookmark,
      lastSeenAt: touch ? Date.now() : record.lastSeenAt,
    };
    this.record = next;
    this.wroteSinceSaved = false;
    void this.ctx.storage.put('session', next);
  }

  /** Scheduled: ends the session once it has been idle for SESSION_IDLE_SECONDS. */
  async expireIfIdle(): Promise<void> {
    const record = await this.ctx.storage.get<SessionRecord>('session');
    if (!record) return;
    const idleFor = Date.now() - record.lastSeenAt;
    if (idleFor >= SESSION_IDLE_SECONDS * 1000 && this.openStreams === 0) {
      await this.end();
      return;
    }
    await this.schedule(Math.max(60, SESSION_IDLE_SECONDS - Math.floor(idleFor / 1000)), 'expireIfIdle');
  }

  private async open(sessionId: string, props: McpProps, initialize: unknown): Promise<LiveSession> {
    const server = createPimMcpServer({ queue: this.env.JOB_QUEUE, files: this.env.FILES });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => sessionId,
      onsessioninitialized: async () => {
        const { userId, companyId } = props.caller;
        const record: SessionRecord = { sessionId, userId, companyId, initialize, lastSeenAt: Date.now() };
        this.record = record;
        await this.ctx.storage.put('session', record);
        await this.schedule(SESSION_IDLE_SECONDS, 'expireIfIdle');
      },
      onsessionclosed: () => this.forget(),
    });
    await server.connect(transport);
    return { server, transport };
  }

  /** Rebuilds the SDK session after an eviction by replaying the client's `initialize`. */
  private async restore(record: SessionRecord, authInfo: ReturnType<typeof toAuthInfo>): Promise<LiveSession> {
    const server = createPimMcpServer({ queue: this.env.JOB_QUEUE, files: this.env.FILES });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => record.sessionId,
      onsessionclosed: () => this.forget(),
    });
    await server.connect(transport);
    const replay = new Request('https://session.internal/mcp', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify(record.initialize),
    });
    await (await transport.handleRequest(replay, { authInfo })).text();
    return { server, transport };
  }

  private streamOpened(): void {
    this.openStreams += 1;
    this.watchdog ??= setInterval(() => void this.recheckAccess(), REVOCATION_CHECK_MS);
  }

  private streamClosed(): void {
    this.openStreams = Math.max(0, this.openStreams - 1);
    if (this.openStreams === 0 && this.watchdog) {
      clearInterval(this.watchdog);
      this.watchdog = undefined;
    }
  }

  /** Re-applies every token rule (stamp, membership, scope) for the user listening on a stream. */
  private async recheckAccess(): Promise<void> {
    const props = this.latestProps;
    if (props && !(await stillAllowed(this.env, props))) await this.end();
  }

  /** Ends the session: closes every open stream and forgets it (later messages: 404). */
  private async end(): Promise<void> {
    const live = this.live;
    await this.forget();
    if (live) {
      const { transport, server } = await live;
      await transport.close().catch(() => {});
      await server.close().catch(() => {});
    }
  }

  /** Forgets the session; on DELETE the SDK transport closes itself after this returns. */
  private async forget(): Promise<void> {
    this.live = undefined;
    this.record = undefined;
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = undefined;
    await this.ctx.storage.delete('session');
  }
}

/** The response with one more header (a body stream passes through untouched). */
function withHeader(response: Response, name: string, value: string): Response {
  const headers = new Headers(response.headers);
  headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

function withoutInternalHeaders(request: Request): Request {
  const headers = new Headers(request.headers);
  for (const name of Object.values(SESSION_HEADERS)) headers.delete(name);
  return new Request(request.url, { method: request.method, headers, body: null });
}

const UNPARSEABLE = Symbol('unparseable');

async function readJson(request: Request): Promise<unknown> {
  try {
    return JSON.parse(await request.text());
  } catch {
    return UNPARSEABLE;
  }
}
