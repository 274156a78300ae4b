import { maskSecrets } from '@hymem/core-store'
import type { HyMemConfig } from './types'

function mask(secret: string | null): string | null {
  if (secret === null) return null
  return secret.length <= 8 ? '****' : `${secret.slice(0, 3)}…${secret.slice(-2)}`
}

/**
 * The config with keys and tokens masked, and the passwords and secret parameters of its URLs, safe to print
 * (`doctor`, start-up logs).
 *
 * @example
 * console.log(JSON.stringify(redactConfig(configFromEnv(process.env).config), null, 2))
 */
export function redactConfig(config: HyMemConfig): HyMemConfig {
  return {
    ...config,
    databaseUrl: config.databaseUrl === null ? null : maskSecrets(config.databaseUrl),
    llm: { ...config.llm, apiKey: mask(config.llm.apiKey), baseUrl: maskSecrets(config.llm.baseUrl) },
    embedding: {
      ...config.embedding,
      apiKey: mask(config.embedding.apiKey),
      baseUrl: maskSecrets(config.embedding.baseUrl),
    },
    authTokens: config.authTokens.map((entry) => ({ ...entry, token: mask(entry.token) ?? '' })),
  }
}
