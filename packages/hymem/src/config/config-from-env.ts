import { homedir } from 'node:os'
import { isAbsolute, join, resolve } from 'node:path'
import * as v from 'valibot'
import { ENV_SCHEMA, ENV_VARIABLES, type ParsedEnv, WORKSPACE_ID } from './env-schema'
import type { AuthToken, ConfigResult, HyMemConfig } from './types'

const KNOWN = new Set(ENV_VARIABLES.map((variable) => variable.name))
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]'])

/**
 * Resolves HyMem's configuration from environment variables (only apps call this, with `process.env`).
 * Pipeline: drop empty values → parse with {@link ENV_SCHEMA} → normalise (paths, key fallbacks, tokens) →
 * cross-field rules. Never throws: bad values become `errors` naming the variable and the fix, and the
 * returned config falls back to defaults for them.
 *
 * @example
 * const { config, warnings, errors } = configFromEnv(process.env)
 * if (errors.length > 0) throw new Error(errors.join('\n'))
 * const hymem = await createHyMemFromConfig(config)
 */
export function configFromEnv(env: Readonly<Record<string, string | undefined>>): ConfigResult {
  const warnings: string[] = []
  const errors: string[] = []
  const input: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.trim() === '') continue
    if (KNOWN.has(name)) input[name] = value
    else if (name.startsWith('HYMEM_')) warnings.push(`${name} is not a HyMem variable${suggest(name)}`)
  }

  const parsed = parseTolerantly(input, errors)
  const config = normalise(parsed, env, errors, 'HYMEM_ROOT' in input)
  crossFieldRules(config, parsed, new Set(Object.keys(input)), warnings, errors)
  return { config: deepFreeze(config), warnings, errors }
}

/** Parses; each variable with a bad value is reported and parsed again without it (so its default applies). */
function parseTolerantly(input: Record<string, string>, errors: string[]): ParsedEnv {
  const result = v.safeParse(ENV_SCHEMA, input)
  if (result.success) return result.output
  const bad = new Set<string>()
  for (const issue of result.issues) {
    const name = v.getDotPath(issue) ?? '(environment)'
    bad.add(name.split('.')[0] ?? name)
    const got = name in input ? ` (got ${JSON.stringify(input[name])})` : ''
    errors.push(`${name} ${issue.message}${got}`)
  }
  const retry = Object.fromEntries(Object.entries(input).filter(([name]) => !bad.has(name)))
  const second = v.safeParse(ENV_SCHEMA, retry)
  if (!second.success) throw new Error('HyMem env schema rejected its own defaults')
  return second.output
}

function normalise(
  parsed: ParsedEnv,
  env: Readonly<Record<string, string | undefined>>,
  errors: string[],
  rootGiven: boolean,
): HyMemConfig {
  const home = env.HOME?.trim() || env.USERPROFILE?.trim() || homedir()
  const root = resolve(parsed.HYMEM_ROOT.replace(/^~(?=$|[/\\])/, home))
  if (!isAbsolute(root)) errors.push(`HYMEM_ROOT must be an absolute path (got ${parsed.HYMEM_ROOT})`)

  const llmKey = parsed.HYMEM_LLM_API_KEY ?? parsed.DEEPSEEK_API_KEY ?? null
  const llmKeySource = parsed.HYMEM_LLM_API_KEY
    ? 'HYMEM_LLM_API_KEY'
    : parsed.DEEPSEEK_API_KEY
      ? 'DEEPSEEK_API_KEY'
      : null
  const provider = parsed.HYMEM_EMBEDDING_PROVIDER
  const remote = provider === 'openai-compatible'
  const embeddingKey = remote ? (parsed.HYMEM_EMBEDDING_API_KEY ?? llmKey) : null
  const embeddingKeySource = !remote
    ? null
    : parsed.HYMEM_EMBEDDING_API_KEY
      ? 'HYMEM_EMBEDDING_API_KEY'
      : llmKeySource

  return {
    root,
    databasePath: join(root, 'hymem.sqlite'),
    databaseUrl: parsed.HYMEM_DATABASE_URL ?? null,
    markdownMirror: parsed.HYMEM_DATABASE_URL === undefined || rootGiven,
    workspaceId: parsed.HYMEM_WORKSPACE,
    llm: {
      apiKey: llmKey,
      apiKeySource: llmKeySource,
      baseUrl: parsed.HYMEM_LLM_BASE_URL,
      model: parsed.HYMEM_LLM_MODEL,
      concurrency: parsed.HYMEM_LLM_CONCURRENCY,
    },
    embedding: {
      provider,
      localModel: parsed.HYMEM_EMBEDDING_LOCAL_MODEL ?? null,
      apiKey: embeddingKey,
      apiKeySource: embeddingKeySource,
      baseUrl: parsed.HYMEM_EMBEDDING_BASE_URL,
      model: parsed.HYMEM_EMBEDDING_MODEL,
    },
    honcho: {
      host: parsed.HYMEM_HONCHO_HOST,
      port: parsed.HYMEM_HONCHO_PORT,
      loopback: LOOPBACK_HOSTS.has(parsed.HYMEM_HONCHO_HOST.toLowerCase()),
      allowedHosts: parseAllowedHosts(parsed.HYMEM_ALLOWED_HOSTS, errors),
      corsOrigins: parseCorsOrigins(parsed.HYMEM_CORS_ORIGINS, errors),
    },
    dream: {
      enabled: parsed.HYMEM_DREAM === 'on',
      cooldownSeconds: parsed.HYMEM_DREAM_COOLDOWN_SECONDS,
      budget: parsed.HYMEM_DREAM_BUDGET,
      promptVersion: parsed.HYMEM_PROMPT_VERSION ?? null,
      retention: {
        searchLogDays: parsed.HYMEM_SEARCH_LOG_RETENTION_DAYS,
        searchLogRows: parsed.HYMEM_SEARCH_LOG_MAX_ROWS,
        llmCacheDays: parsed.HYMEM_LLM_CACHE_RETENTION_DAYS,
        llmCacheRows: parsed.HYMEM_LLM_CACHE_MAX_ROWS,
      },
    },
    authTokens: parseAuthTokens(parsed.HYMEM_AUTH_TOKENS, errors),
    logLevel: parsed.HYMEM_LOG_LEVEL,
  }
}

function listOf(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
}

const HOST_NAME =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.?$|^\[[0-9a-f:.]+\]$/i

function parseAllowedHosts(raw: string | undefined, errors: string[]): string[] {
  const hosts = listOf(raw).map((entry) => entry.toLowerCase())
  const invalid = hosts.find((host) => !HOST_NAME.test(host))
  if (invalid !== undefined) {
    errors.push(
      `HYMEM_ALLOWED_HOSTS names ${JSON.stringify(invalid)}, not a host name: list names without scheme or port, e.g. memory.example.com,[fd00::5]`,
    )
    return []
  }
  return hosts
}

function parseCorsOrigins(raw: string | undefined, errors: string[]): string[] {
  const origins: string[] = []
  for (const entry of listOf(raw)) {
    let origin: string | null = null
    try {
      const url = new URL(entry)
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin === entry.replace(/\/+$/, ''))
        origin = url.origin
    } catch {}
    if (origin === null) {
      errors.push(
        `HYMEM_CORS_ORIGINS names ${JSON.stringify(entry)}, not an origin: use scheme://host[:port] without a path, e.g. https://app.example.com`,
      )
      continue
    }
    origins.push(origin)
  }
  return origins
}

const TOKEN_HINT = 'use `token=ws1,ws2;token2=*`'

function parseAuthTokens(raw: string | undefined, errors: string[]): AuthToken[] {
  if (raw === undefined) return []
  const tokens: AuthToken[] = []
  const seen = new Set<string>()
  for (const [index, entry] of raw.split(';').entries()) {
    if (entry.trim() === '') continue
    const at = `HYMEM_AUTH_TOKENS entry ${index + 1}`
    const eq = entry.indexOf('=')
    if (eq < 0) {
      errors.push(`${at} has no \`=\`: ${TOKEN_HINT}`)
      continue
    }
    const token = entry.slice(0, eq).trim()
    const scopes = entry
      .slice(eq + 1)
      .split(',')
      .map((scope) => scope.trim())
      .filter((scope) => scope !== '')
    if (token === '' || /\s/.test(token)) {
      errors.push(`${at} has an empty token or one with spaces: ${TOKEN_HINT}`)
      continue
    }
    if (seen.has(token)) {
      errors.push(`${at} repeats a token already listed: list each token once`)
      continue
    }
    if (scopes.length === 0) {
      errors.push(`${at} names no workspace: ${TOKEN_HINT} (\`*\` allows all)`)
      continue
    }
    const invalid = scopes.find((scope) => scope !== '*' && !WORKSPACE_ID.test(scope))
    if (invalid !== undefined) {
      errors.push(
        `${at} names an invalid workspace id ${JSON.stringify(invalid)}: use letters, digits, \`_\`, \`.\`, \`:\` or \`-\``,
      )
      continue
    }
    seen.add(token)
    tokens.push({ token, workspaces: scopes.includes('*') ? '*' : scopes })
  }
  return tokens
}

function crossFieldRules(
  config: HyMemConfig,
  parsed: ParsedEnv,
  given: ReadonlySet<string>,
  warnings: string[],
  errors: string[],
): void {
  if (config.llm.apiKey === null) {
    warnings.push(
      'no LLM key (HYMEM_LLM_API_KEY or DEEPSEEK_API_KEY): dreaming uses the rule-based extractor and no LLM reranker',
    )
  } else if (parsed.HYMEM_LLM_API_KEY && parsed.DEEPSEEK_API_KEY) {
    warnings.push('both HYMEM_LLM_API_KEY and DEEPSEEK_API_KEY are set: HYMEM_LLM_API_KEY wins')
  }
  const { embedding } = config
  if (
    embedding.provider === 'openai-compatible' &&
    embedding.apiKey === null &&
    !isLoopbackUrl(embedding.baseUrl)
  ) {
    errors.push(
      'HYMEM_EMBEDDING_PROVIDER=openai-compatible needs a key: set HYMEM_EMBEDDING_API_KEY (or HYMEM_LLM_API_KEY), or choose HYMEM_EMBEDDING_PROVIDER=local',
    )
  }
  if (embedding.provider !== 'openai-compatible') {
    for (const name of [
      'HYMEM_EMBEDDING_API_KEY',
      'HYMEM_EMBEDDING_BASE_URL',
      'HYMEM_EMBEDDING_MODEL',
    ] as const) {
      if (given.has(name)) {
        warnings.push(`${name} is ignored with HYMEM_EMBEDDING_PROVIDER=${embedding.provider}`)
      }
    }
  }
  if (embedding.provider !== 'local' && given.has('HYMEM_EMBEDDING_LOCAL_MODEL')) {
    warnings.push(
      `HYMEM_EMBEDDING_LOCAL_MODEL is ignored with HYMEM_EMBEDDING_PROVIDER=${embedding.provider}`,
    )
  }
  if (embedding.provider === 'fake')
    warnings.push('HYMEM_EMBEDDING_PROVIDER=fake is for tests: recall will be poor')
  if (embedding.provider === 'none') warnings.push('no embeddings: search is keyword + graph + recency only')
  if (!config.honcho.loopback && config.authTokens.length === 0) {
    errors.push(
      `HYMEM_HONCHO_HOST=${config.honcho.host} accepts remote connections: set HYMEM_AUTH_TOKENS (e.g. \`<long-random-token>=*\`) or bind 127.0.0.1`,
    )
  }
  if (!config.honcho.loopback && config.honcho.allowedHosts.length === 0) {
    errors.push(
      `HYMEM_HONCHO_HOST=${config.honcho.host} accepts remote connections: set HYMEM_ALLOWED_HOSTS to the host names clients use (e.g. memory.example.com), so a DNS-rebinding page cannot reach it`,
    )
  }
  for (const { token } of config.authTokens) {
    if (token.length < 16)
      warnings.push(`an HYMEM_AUTH_TOKENS token is ${token.length} characters: use 16 or more`)
  }
}

function isLoopbackUrl(url: string): boolean {
  try {
    return LOOPBACK_HOSTS.has(new URL(url).hostname.toLowerCase())
  } catch {
    return false
  }
}

function suggest(name: string): string {
  let best: string | null = null
  let bestDistance = 4
  for (const known of KNOWN) {
    const distance = editDistance(name, known)
    if (distance < bestDistance) {
      best = known
      bestDistance = distance
    }
  }
  return best ? ` (did you mean ${best}?)` : ''
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost))
    }
    previous = current
  }
  return previous[b.length] ?? 0
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner)
    Object.freeze(value)
  }
  return value
}
