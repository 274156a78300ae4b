/**
 * `@hymem/mcp`: HyMem as an MCP tools server — capture, log, dream, augment, profile, alias, retract, the
 * explicit-memory tools (remember, search, forget, restore, stats) and a usage guide generated from the
 * live settings. Serve it over stdio (`hymem mcp`) or Streamable HTTP (mounted at `/mcp` by hymem-honcho).
 *
 * @example
 * import { createHyMem } from 'hymem'
 * import { serveMcpStdio } from '@hymem/mcp'
 * await serveMcpStdio({ memory: await createHyMem(), workspaceId: 'my-project' })
 *
 * @module
 */

export type { McpHttpHandlerOptions } from './http-handler'
export { createMcpHttpHandler, WORKSPACE_HEADER } from './http-handler'
export type { McpMemory } from './memory'
export type { McpServerOptions } from './server'
export { createMcpServer, SERVER_NAME, SERVER_VERSION } from './server'
export { serveMcpStdio } from './stdio'
export type { GuideSection } from './tools/usage-guide'
export { GUIDE_SECTIONS } from './tools/usage-guide'
