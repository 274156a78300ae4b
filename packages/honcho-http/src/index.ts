/**
 * `@hymem/honcho-http`: the Honcho v3 HTTP API over HyMem, as a Hono app (it does not listen), so any agent
 * using the official Honcho SDKs can point at a local HyMem.
 *
 * @example
 * import { serve } from '@hono/node-server'
 * import { createHyMem } from 'hymem'
 * import { createHonchoApp } from '@hymem/honcho-http'
 *
 * const memory = await createHyMem({ root: '/tmp/hymem' })
 * serve({ fetch: createHonchoApp({ memory }).fetch, hostname: '127.0.0.1', port: 8765 })
 * // new Honcho({ baseURL: 'http://127.0.0.1:8765', workspaceId: 'default' })
 * @module
 */
export type { HonchoApp } from './app'
export { createHonchoApp } from './app'
export type { HonchoHttpErrorCode, ValidationIssue } from './errors'
export { HonchoHttpError } from './errors'
export type { HonchoLimits } from './http/limits'
export { DEFAULT_LIMITS } from './http/limits'
export type { OperationDoc, RouteKey } from './openapi/types'
export { HYMEM_ROUTE_PREFIX } from './routes/hymem'
export type { HonchoAppOptions, HonchoAuthOptions, HonchoEnv, HonchoLogEvent, HonchoMemory } from './types'
