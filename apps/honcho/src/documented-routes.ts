import type { OperationDoc, RouteKey } from '@hymem/honcho-http'

/** The routes hymem-honcho serves beside the Honcho app, for `/openapi.json` and `/docs`. */
export const SERVER_ROUTE_DOCS: Readonly<Record<RouteKey, OperationDoc>> = {
  'ALL /mcp': {
    tag: 'mcp',
    summary:
      'MCP Streamable HTTP endpoint (JSON-RPC 2.0, stateless): the HyMem tools; `X-HyMem-Workspace` picks the workspace',
  },
}
