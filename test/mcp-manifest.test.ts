import { describe, expect, it } from 'vitest';
import { openSession, sessionCall } from './mcp-helpers';
import { makeAgentUser, ORIGIN, send, tokensFor } from './oauth-helpers';
import { PIM_TOOLS } from '../src/mcp/tools';

describe('MCP manifest', () => {
  it('is public and describes transport, authorization and tools', async () => {
    const res = await send('GET', '/.well-known/mcp/server-card.json');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      name: 'pim-service',
      version: '1.0.0',
      remotes: [
        {
          type: 'streamable-http',
          url: `${ORIGIN}/mcp`,
          supportedProtocolVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'],
        },
      ],
      authorization: {
        type: 'oauth2',
        resource: `${ORIGIN}/mcp`,
        protectedResourceMetadata: `${ORIGIN}/.well-known/oauth-protected-resource/mcp`,
        registrationEndpoint: `${ORIGIN}/connect/register`,
        scopesRequired: ['mcp'],
      },
    });
    const resource = await send('GET', new URL(res.json.authorization.protectedResourceMetadata).pathname);
    expect(resource.json.resource).toBe(res.json.authorization.resource);
  });

  it('lists exactly the tools, schemas and annotations that tools/list answers', async () => {
    const manifest = (await send('GET', '/.well-known/mcp/server-card.json')).json;
    const user = await makeAgentUser();
    const { access_token: token } = await tokensFor(user, { scope: 'mcp' });
    const { sessionId } = await openSession(token);
    const { response } = await sessionCall(token, sessionId, 'tools/list');
    const listed = response.result.tools.map(
      ({ name, title, description, inputSchema, outputSchema, annotations }: any) => ({
        name,
        title,
        description,
        inputSchema,
        outputSchema,
        annotations,
      }),
    );
    expect(manifest.tools).toEqual(listed);
    expect(manifest.tools).toHaveLength(PIM_TOOLS.length);
  });
});
