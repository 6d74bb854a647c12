import type { z } from 'zod';
import { PATHS, resourceMetadataUrlOf } from '../oauth/config';
import { SERVER_INFO, SERVER_INSTRUCTIONS } from './server';
import type { PimTool } from './tool-definition';
import { PIM_TOOLS } from './tools';

/** Where the manifest is published: the MCP server-card location (SEP-2127), no token needed. */
export const MANIFEST_PATH = '/.well-known/mcp/server-card.json';

/** Protocol revisions `/mcp` answers: the current, stateless one first, then the 2025 ones (sessions). */
const PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'] as const;

/** The JSON Schema the SDK lists for a zod schema (same call, same target: draft 2020-12). */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const converted = schema['~standard'].jsonSchema[io]({ target: 'draft-2020-12' }) as Record<string, unknown>;
  return io === 'input' ? { type: 'object', ...converted } : converted;
}

function describeTool(tool: PimTool) {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchemaOf(tool.input, 'input'),
    outputSchema: jsonSchemaOf(tool.output, 'output'),
    annotations: tool.annotations,
  };
}

/**
 * The machine-readable description of the MCP server: identity, transport, authorization and
 * every tool with its schemas. Built from the same `PimTool` definitions the server registers,
 * so `tools` here equals what `tools/list` answers.
 */
export function buildManifest(origin: string) {
  const url = `${origin}${PATHS.mcp}`;
  return {
    name: SERVER_INFO.name,
    title: SERVER_INFO.title,
    version: SERVER_INFO.version,
    description: SERVER_INSTRUCTIONS,
    remotes: [{ type: 'streamable-http', url, supportedProtocolVersions: [...PROTOCOL_VERSIONS] }],
    transport: {
      type: 'streamable-http',
      url,
      responses:
        'text/event-stream for 2025-revision sessions; JSON (or SSE when streaming) for the stateless 2026-07-28 revision',
      sessions: 'Mcp-Session-Id from initialize (2025 revisions), one Durable Object per session; DELETE ends it',
    },
    authorization: {
      type: 'oauth2',
      resource: url,
      protectedResourceMetadata: resourceMetadataUrlOf(origin),
      authorizationServer: origin,
      authorizationServerMetadata: `${origin}${PATHS.asMetadata}`,
      registrationEndpoint: `${origin}${PATHS.register}`,
      grantTypes: ['authorization_code', 'refresh_token'],
      codeChallengeMethods: ['S256'],
      scopesRequired: ['mcp'],
      scopesOptional: ['offline_access'],
    },
    tools: PIM_TOOLS.map(describeTool),
  };
}
