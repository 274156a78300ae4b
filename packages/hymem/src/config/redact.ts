import type { HyMemConfig } from './types'

function mask(secret: string | null): string | null {
  if (secret === null) return null
  return secret.length <= 8 ? '****' : `${secret.slice(0, 3)}…${secret.slice(-2)}`
}

/**
 * The config with keys and tokens masked, safe to print (`doctor`, start-up logs).
 *
 * @example
 * console.log(JSON.stringify(redactConfig(configFromEnv(process.env).config), null, 2))
 */
export function redactConfig(config: HyMemConfig): HyMemConfig {
  return {
    ...config,
    databaseUrl: config.databaseUrl?.replace(/^([a-z]+:\/\/[^:@/]*):[^@/]*@/i, '$1:****@') ?? null,
    llm: { ...config.llm, apiKey: mask(config.llm.apiKey) },
    embedding: { ...config.embedding, apiKey: mask(config.embedding.apiKey) },
    authTokens: config.authTokens.map((entry) => ({ ...entry, token: mask(entry.token) ?? '' })),
  }
}
