/**
 * Helpers for the MCP tests in the Workers pool: JSON-RPC over the Streamable HTTP transport,
 * sent through the whole Worker (OAuth guard included) with a real token from the code flow.
 */
import { exports } from 'cloudflare:workers';
import { expect } from 'vitest';
import { ORIGIN } from './oauth-helpers';

export const LEGACY_VERSION = '2025-11-25';
export const MODERN_VERSION = '2026-07-28';

export interface McpReply {
  status: number;
  headers: Headers;
  text: string;
  /** JSON-RPC messages of the body, whether it came as JSON or as an SSE stream. */
  messages: any[];
}

/** The JSON-RPC messages of an SSE body (`data:` lines) or of a JSON body. */
export function messagesOf(contentType: string | null, text: string): any[] {
  if (contentType?.includes('text/event-stream')) {
    return text
      .split('\n')
      .filter((line) => line.startsWith('data:') && line.slice(5).trim() !== '')
      .map((line) => JSON.parse(line.slice(5)));
  }
  if (!text) return [];
  const body = JSON.parse(text);
  return Array.isArray(body) ? body : [body];
}

export async function mcpRequest(
  method: 'GET' | 'POST' | 'DELETE',
  options: {
    token?: string;
    body?: unknown;
    sessionId?: string;
    version?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Response> {
  const headers = new Headers({ Accept: 'application/json, text/event-stream', ...options.headers });
  if (options.token) headers.set('Authorization', `Bearer ${options.token}`);
  if (options.sessionId) headers.set('Mcp-Session-Id', options.sessionId);
  if (options.version) headers.set('MCP-Protocol-Version', options.version);
  let body: string | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers.set('Content-Type', 'application/json');
  }
  return exports.default.fetch(new Request(`${ORIGIN}/mcp`, { method, headers, body }));
}

export async function mcp(
  method: 'GET' | 'POST' | 'DELETE',
  options: Parameters<typeof mcpRequest>[1] = {},
): Promise<McpReply> {
  const response = await mcpRequest(method, options);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    messages: messagesOf(response.headers.get('Content-Type'), text),
  };
}

let nextId = 1;

/** Opens a 2025-era session: initialize, then the initialized notification. */
export async function openSession(token: string) {
  const init = await mcp('POST', {
    token,
    body: {
      jsonrpc: '2.0',
      id: nextId++,
      method: 'initialize',
      params: {
        protocolVersion: LEGACY_VERSION,
        capabilities: {},
        clientInfo: { name: 'pool-test', version: '1.0.0' },
      },
    },
  });
  expect(init.status, init.text).toBe(200);
  const sessionId = init.headers.get('Mcp-Session-Id');
  expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
  const ack = await mcp('POST', {
    token,
    sessionId: sessionId!,
    version: LEGACY_VERSION,
    body: { jsonrpc: '2.0', method: 'notifications/initialized' },
  });
  expect(ack.status, ack.text).toBe(202);
  return { sessionId: sessionId!, init };
}

/** One request on an open session; returns the reply and its single JSON-RPC response. */
export async function sessionCall(token: string, sessionId: string, method: string, params: unknown = {}) {
  const id = nextId++;
  const reply = await mcp('POST', {
    token,
    sessionId,
    version: LEGACY_VERSION,
    body: { jsonrpc: '2.0', id, method, params },
  });
  const response = reply.messages.find((m) => m.id === id);
  return { reply, response };
}

/** A tools/call on an open session: the tool result (or the JSON-RPC error). */
export async function callTool(token: string, sessionId: string, name: string, args: Record<string, unknown> = {}) {
  const { reply, response } = await sessionCall(token, sessionId, 'tools/call', { name, arguments: args });
  expect(reply.status, reply.text).toBe(200);
  return response.result as { isError?: boolean; structuredContent?: any; content: { type: string; text: string }[] };
}

/** The service error carried by a failed tool result. */
export function toolError(result: { isError?: boolean; content: { text: string }[] }) {
  expect(result.isError).toBe(true);
  return JSON.parse(result.content[0]!.text) as { error: string; code: string };
}
