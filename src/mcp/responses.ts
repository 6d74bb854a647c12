/**
 * Transport-level answers of the MCP endpoint. Protocol failures use the JSON-RPC error shape
 * the MCP transports specify (what SDK clients parse); they carry no id because they answer
 * the HTTP request, not a JSON-RPC message.
 */
export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status, headers });
}

/** The 2025 transports' answer for an unknown or ended session: the client must initialize anew. */
export const sessionNotFound = () => jsonRpcError(404, -32001, 'Session not found');

/** Internal headers the Worker sets on requests it forwards to a session's Durable Object. */
export const SESSION_HEADERS = {
  sessionId: 'X-Pim-Mcp-Session',
  props: 'X-Pim-Mcp-Props',
  opens: 'X-Pim-Mcp-Opens-Session',
  /** The cell of the caller's company, as the Worker's placement lookup found it. */
  cell: 'X-Pim-Mcp-Cell',
} as const;
