/**
 * `hymem-honcho`: HyMem behind the Honcho v3 protocol, with `/mcp`, `/inspect` and `/health`, as a program
 * (`hymem-honcho`) and as `startServer(config)` for embedding and tests.
 *
 * @example
 * import { configFromEnv } from 'hymem'
 * import { startServer } from '@hymem/honcho-server'
 * const { config } = configFromEnv(process.env)
 * const server = await startServer(config)
 * process.on('SIGTERM', () => server.close())
 * @module
 */
export type { ServerAppOptions } from './server-app'
export { createServerApp } from './server-app'
export type { RunningServer, StartServerOptions } from './start-server'
export { ServerConfigError, startServer } from './start-server'
