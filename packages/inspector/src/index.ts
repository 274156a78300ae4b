/**
 * `@hymem/inspector`: the memory inspector — a web page to see, question and correct what HyMem knows (the
 * graph, one fact with its provenance, augment's answers and reasons, the graph's history, profile and
 * notes, dream and search health). A Hono app that reads through the `hymem` facade; it does not listen.
 * Every asset is served by the app itself, so it works offline.
 *
 * @example
 * import { serve } from '@hono/node-server'
 * import { createHyMem } from 'hymem'
 * import { createInspectorApp } from '@hymem/inspector'
 *
 * const memory = await createHyMem({ root: '/tmp/hymem' })
 * serve({ fetch: createInspectorApp({ memory }).fetch, hostname: '127.0.0.1', port: 8766 })
 * // open http://127.0.0.1:8766/inspect/
 * @module
 */
export { createInspectorApp } from './app'
export { DEFAULT_ASSETS_DIR } from './assets'
export type { GraphData, GraphDataEdge, GraphDataNode } from './graph-data'
export { CONTENT_SECURITY_POLICY } from './security/headers'
export type {
  InspectorAuthOptions,
  InspectorEnv,
  InspectorLogEvent,
  InspectorMemory,
  InspectorOptions,
  Principal,
} from './types'
