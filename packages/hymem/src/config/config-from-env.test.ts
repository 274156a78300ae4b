import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { configFromEnv } from './config-from-env'
import { ENV_VARIABLES } from './env-schema'
import { redactConfig } from './redact'

const HOME = { HOME: '/home/ada' }

describe('configFromEnv defaults', () => {
  it('runs offline with no variables: rules extraction, local embeddings, loopback server', () => {
    const { config, warnings, errors } = configFromEnv(HOME)
    expect(errors).toEqual([])
    expect(config).toEqual({
      root: '/home/ada/.hermes',
      databasePath: '/home/ada/.hermes/hymem.sqlite',
      databaseUrl: null,
      markdownMirror: true,
      workspaceId: 'default',
      llm: {
        apiKey: null,
        apiKeySource: null,
        baseUrl: 'https://api.deepseek.com',
        model: 'deepseek-chat',
        concurrency: 4,
      },
      embedding: {
        provider: 'local',
        localModel: null,
        apiKey: null,
        apiKeySource: null,
        baseUrl: 'https://api.deepseek.com',
        model: 'deepseek-embedding',
      },
      honcho: { host: '127.0.0.1', port: 8765, loopback: true, allowedHosts: [], corsOrigins: [] },
      dream: {
        enabled: true,
        cooldownSeconds: 60,
        budget: 50,
        promptVersion: null,
        retention: { searchLogDays: 90, searchLogRows: 100_000, llmCacheDays: 30, llmCacheRows: 50_000 },
      },
      authTokens: [],
      logLevel: 'info',
    })
    expect(warnings).toMatchInlineSnapshot(`
      [
        "no LLM key (HYMEM_LLM_API_KEY or DEEPSEEK_API_KEY): dreaming uses the rule-based extractor and no LLM reranker",
      ]
    `)
    expect(Object.isFrozen(config.llm)).toBe(true)
  })

  it('documents every variable with a description', () => {
    expect(ENV_VARIABLES.map((variable) => variable.name)).toEqual([
      'HYMEM_ROOT',
      'HYMEM_DATABASE_URL',
      'HYMEM_WORKSPACE',
      'HYMEM_LLM_API_KEY',
      'DEEPSEEK_API_KEY',
      'HYMEM_LLM_BASE_URL',
      'HYMEM_LLM_MODEL',
      'HYMEM_LLM_CONCURRENCY',
      'HYMEM_EMBEDDING_PROVIDER',
      'HYMEM_EMBEDDING_LOCAL_MODEL',
      'HYMEM_EMBEDDING_API_KEY',
      'HYMEM_EMBEDDING_BASE_URL',
      'HYMEM_EMBEDDING_MODEL',
      'HYMEM_HONCHO_HOST',
      'HYMEM_HONCHO_PORT',
      'HYMEM_DREAM',
      'HYMEM_DREAM_COOLDOWN_SECONDS',
      'HYMEM_AUTH_TOKENS',
      'HYMEM_ALLOWED_HOSTS',
      'HYMEM_CORS_ORIGINS',
      'HYMEM_PROMPT_VERSION',
      'HYMEM_DREAM_BUDGET',
      'HYMEM_SEARCH_LOG_RETENTION_DAYS',
      'HYMEM_SEARCH_LOG_MAX_ROWS',
      'HYMEM_LLM_CACHE_RETENTION_DAYS',
      'HYMEM_LLM_CACHE_MAX_ROWS',
      'HYMEM_LOG_LEVEL',
    ])
    for (const variable of ENV_VARIABLES) expect(variable.description.length).toBeGreaterThan(10)
    expect(ENV_VARIABLES.find((variable) => variable.name === 'HYMEM_HONCHO_PORT')?.default).toBe('8765')
    expect(ENV_VARIABLES.find((variable) => variable.name === 'HYMEM_LLM_API_KEY')?.default).toBeNull()
  })
})

describe('HYMEM_DATABASE_URL', () => {
  it('selects PostgreSQL; the Markdown files are a mirror only when HYMEM_ROOT is set too', () => {
    const url = 'postgresql://hymem:s3cret-pass@db.internal:5432/hymem'
    const alone = configFromEnv({ ...HOME, HYMEM_DATABASE_URL: url })
    expect(alone.errors).toEqual([])
    expect(alone.config).toMatchObject({ databaseUrl: url, markdownMirror: false })
    const withRoot = configFromEnv({ ...HOME, HYMEM_DATABASE_URL: url, HYMEM_ROOT: '/srv/hymem' })
    expect(withRoot.config).toMatchObject({ databaseUrl: url, markdownMirror: true, root: '/srv/hymem' })
    expect(redactConfig(alone.config).databaseUrl).toBe('postgresql://hymem:****@db.internal:5432/hymem')
  })

  it('refuses what is not a PostgreSQL URL, naming the variable and the form', () => {
    const { errors, config } = configFromEnv({ ...HOME, HYMEM_DATABASE_URL: 'mysql://db/hymem' })
    expect(errors).toEqual([
      'HYMEM_DATABASE_URL must be a postgres:// or postgresql:// URL, e.g. HYMEM_DATABASE_URL=postgres://hymem:secret@db:5432/hymem (pglite:<dir> for tests) (got "mysql://db/hymem")',
    ])
    expect(config.databaseUrl).toBeNull()
  })
})

describe('README', () => {
  it('documents every variable with its real default', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
    const rows = new Map(
      readme
        .split('\n')
        .filter((line) => line.startsWith('| `'))
        .map((line) => line.split(/(?<!\\)\|/).map((cell) => cell.trim().replaceAll('\\|', '|')))
        .map((cells) => [cells[1], cells.slice(2, 4)]),
    )
    for (const variable of ENV_VARIABLES) {
      const fallback = variable.default === null ? '—' : `\`${variable.default}\``
      expect(rows.get(`\`${variable.name}\``)).toEqual([fallback, variable.description])
    }
  })
})

describe('configFromEnv reads every variable', () => {
  it('takes each value as given', () => {
    const { config, errors, warnings } = configFromEnv({
      ...HOME,
      HYMEM_ROOT: '~/memory',
      HYMEM_WORKSPACE: 'team-a',
      HYMEM_LLM_API_KEY: 'sk-llm-0123456789',
      HYMEM_LLM_BASE_URL: 'https://api.openai.com/v1/',
      HYMEM_LLM_MODEL: 'gpt-4o-mini',
      HYMEM_LLM_CONCURRENCY: '8',
      HYMEM_EMBEDDING_PROVIDER: 'OpenAI-Compatible',
      HYMEM_EMBEDDING_API_KEY: 'sk-emb-0123456789',
      HYMEM_EMBEDDING_BASE_URL: 'https://api.openai.com/v1',
      HYMEM_EMBEDDING_MODEL: 'text-embedding-3-small',
      HYMEM_HONCHO_HOST: '0.0.0.0',
      HYMEM_HONCHO_PORT: '9000',
      HYMEM_ALLOWED_HOSTS: 'Memory.Example.com, [fd00::5]',
      HYMEM_CORS_ORIGINS: 'https://app.example.com/',
      HYMEM_DREAM_COOLDOWN_SECONDS: '0',
      HYMEM_AUTH_TOKENS: 'aaaaaaaaaaaaaaaa=team-a,team-b; bbbbbbbbbbbbbbbb=*',
      HYMEM_PROMPT_VERSION: 'v8',
      HYMEM_DREAM_BUDGET: '200',
      HYMEM_DREAM: 'OFF',
      HYMEM_SEARCH_LOG_RETENTION_DAYS: '7',
      HYMEM_SEARCH_LOG_MAX_ROWS: '1000',
      HYMEM_LLM_CACHE_RETENTION_DAYS: '0',
      HYMEM_LLM_CACHE_MAX_ROWS: '0',
      HYMEM_LOG_LEVEL: 'DEBUG',
    })
    expect(errors).toEqual([])
    expect(warnings).toEqual([])
    expect(config).toEqual({
      root: '/home/ada/memory',
      databasePath: '/home/ada/memory/hymem.sqlite',
      databaseUrl: null,
      markdownMirror: true,
      workspaceId: 'team-a',
      llm: {
        apiKey: 'sk-llm-0123456789',
        apiKeySource: 'HYMEM_LLM_API_KEY',
        baseUrl: 'https://api.openai.com/v1',
        model: 'gpt-4o-mini',
        concurrency: 8,
      },
      embedding: {
        provider: 'openai-compatible',
        localModel: null,
        apiKey: 'sk-emb-0123456789',
        apiKeySource: 'HYMEM_EMBEDDING_API_KEY',
        baseUrl: 'https://api.openai.com/v1',
        model: 'text-embedding-3-small',
      },
      honcho: {
        host: '0.0.0.0',
        port: 9000,
        loopback: false,
        allowedHosts: ['memory.example.com', '[fd00::5]'],
        corsOrigins: ['https://app.example.com'],
      },
      dream: {
        enabled: false,
        cooldownSeconds: 0,
        budget: 200,
        promptVersion: 'v8',
        retention: { searchLogDays: 7, searchLogRows: 1000, llmCacheDays: 0, llmCacheRows: 0 },
      },
      authTokens: [
        { token: 'aaaaaaaaaaaaaaaa', workspaces: ['team-a', 'team-b'] },
        { token: 'bbbbbbbbbbbbbbbb', workspaces: '*' },
      ],
      logLevel: 'debug',
    })
  })

  it('needs the host names beyond loopback, and says which allowed host or CORS origin is malformed', () => {
    const publicBind = configFromEnv({
      ...HOME,
      HYMEM_HONCHO_HOST: '0.0.0.0',
      HYMEM_AUTH_TOKENS: 'aaaaaaaaaaaaaaaa=*',
    })
    expect(publicBind.errors).toEqual([expect.stringContaining('set HYMEM_ALLOWED_HOSTS')])
    const malformed = configFromEnv({
      ...HOME,
      HYMEM_ALLOWED_HOSTS: 'https://memory.example.com',
      HYMEM_CORS_ORIGINS: 'app.example.com,https://ok.example/path',
    })
    expect(malformed.errors).toEqual([
      expect.stringContaining('HYMEM_ALLOWED_HOSTS names "https://memory.example.com", not a host name'),
      expect.stringContaining('HYMEM_CORS_ORIGINS names "app.example.com", not an origin'),
      expect.stringContaining('HYMEM_CORS_ORIGINS names "https://ok.example/path", not an origin'),
    ])
  })

  it('falls back to DEEPSEEK_API_KEY, and the embedding key to the LLM key', () => {
    const { config } = configFromEnv({
      ...HOME,
      DEEPSEEK_API_KEY: 'sk-deepseek',
      HYMEM_EMBEDDING_PROVIDER: 'openai-compatible',
    })
    expect(config.llm).toMatchObject({ apiKey: 'sk-deepseek', apiKeySource: 'DEEPSEEK_API_KEY' })
    expect(config.embedding).toMatchObject({ apiKey: 'sk-deepseek', apiKeySource: 'DEEPSEEK_API_KEY' })
  })

  it('prefers HYMEM_LLM_API_KEY over DEEPSEEK_API_KEY and says so', () => {
    const { config, warnings } = configFromEnv({ ...HOME, HYMEM_LLM_API_KEY: 'a', DEEPSEEK_API_KEY: 'b' })
    expect(config.llm.apiKey).toBe('a')
    expect(warnings).toMatchInlineSnapshot(`
      [
        "both HYMEM_LLM_API_KEY and DEEPSEEK_API_KEY are set: HYMEM_LLM_API_KEY wins",
      ]
    `)
  })

  it('treats empty and blank values as unset', () => {
    const { config, errors } = configFromEnv({ ...HOME, HYMEM_LLM_API_KEY: '  ', HYMEM_HONCHO_PORT: '' })
    expect(errors).toEqual([])
    expect(config.llm.apiKey).toBeNull()
    expect(config.honcho.port).toBe(8765)
  })

  it('keeps embedding keys out of providers that do not use them', () => {
    const { config, warnings } = configFromEnv({
      ...HOME,
      HYMEM_LLM_API_KEY: 'sk-llm',
      HYMEM_EMBEDDING_PROVIDER: 'none',
      HYMEM_EMBEDDING_MODEL: 'x',
    })
    expect(config.embedding.apiKey).toBeNull()
    expect(warnings).toMatchInlineSnapshot(`
      [
        "HYMEM_EMBEDDING_MODEL is ignored with HYMEM_EMBEDDING_PROVIDER=none",
        "no embeddings: search is keyword + graph + recency only",
      ]
    `)
  })
})

describe('configFromEnv reports bad values with the variable and the fix', () => {
  it('rejects malformed numbers, URLs, providers and levels, keeping defaults for them', () => {
    const { config, errors } = configFromEnv({
      ...HOME,
      HYMEM_HONCHO_PORT: 'eighty',
      HYMEM_LLM_CONCURRENCY: '0',
      HYMEM_DREAM_COOLDOWN_SECONDS: '-5',
      HYMEM_DREAM_BUDGET: '1.5',
      HYMEM_LLM_BASE_URL: 'api.deepseek.com',
      HYMEM_EMBEDDING_BASE_URL: 'ftp://example.com',
      HYMEM_EMBEDDING_PROVIDER: 'openai',
      HYMEM_LOG_LEVEL: 'loud',
      HYMEM_WORKSPACE: '../etc',
    })
    expect(errors).toMatchInlineSnapshot(`
      [
        "HYMEM_WORKSPACE must be 1-128 letters, digits, \`_\`, \`.\`, \`:\` or \`-\`, starting with a letter or digit, e.g. HYMEM_WORKSPACE=default (got "../etc")",
        "HYMEM_LLM_BASE_URL must be an http:// or https:// URL, e.g. HYMEM_LLM_BASE_URL=https://api.openai.com/v1 (got "api.deepseek.com")",
        "HYMEM_LLM_CONCURRENCY must be a whole number from 1 to 64, e.g. HYMEM_LLM_CONCURRENCY=4 (got "0")",
        "HYMEM_EMBEDDING_PROVIDER must be one of local, openai-compatible, fake, none, e.g. HYMEM_EMBEDDING_PROVIDER=local (got "openai")",
        "HYMEM_EMBEDDING_BASE_URL must be an http:// or https:// URL, e.g. HYMEM_EMBEDDING_BASE_URL=https://api.openai.com/v1 (got "ftp://example.com")",
        "HYMEM_HONCHO_PORT must be a whole number from 1 to 65535, e.g. HYMEM_HONCHO_PORT=8765 (got "eighty")",
        "HYMEM_DREAM_COOLDOWN_SECONDS must be a whole number from 0 to 86400, e.g. HYMEM_DREAM_COOLDOWN_SECONDS=60 (got "-5")",
        "HYMEM_DREAM_BUDGET must be a whole number from 1 to 1000000, e.g. HYMEM_DREAM_BUDGET=50 (got "1.5")",
        "HYMEM_LOG_LEVEL must be one of silent, error, warn, info, debug, e.g. HYMEM_LOG_LEVEL=info (got "loud")",
      ]
    `)
    expect(config.honcho.port).toBe(8765)
    expect(config.embedding.provider).toBe('local')
    expect(config.workspaceId).toBe('default')
  })

  it('rejects ports out of range', () => {
    expect(configFromEnv({ ...HOME, HYMEM_HONCHO_PORT: '70000' }).errors).toMatchInlineSnapshot(`
      [
        "HYMEM_HONCHO_PORT must be a whole number from 1 to 65535, e.g. HYMEM_HONCHO_PORT=8765 (got "70000")",
      ]
    `)
  })

  it('parses auth tokens strictly', () => {
    const { config, errors, warnings } = configFromEnv({
      ...HOME,
      HYMEM_AUTH_TOKENS: 'short=ws1;noequals;=ws2;short=ws3;longenoughtoken1=;longenoughtoken2=bad id',
    })
    expect(config.authTokens).toEqual([{ token: 'short', workspaces: ['ws1'] }])
    expect(errors).toMatchInlineSnapshot(`
      [
        "HYMEM_AUTH_TOKENS entry 2 has no \`=\`: use \`token=ws1,ws2;token2=*\`",
        "HYMEM_AUTH_TOKENS entry 3 has an empty token or one with spaces: use \`token=ws1,ws2;token2=*\`",
        "HYMEM_AUTH_TOKENS entry 4 repeats a token already listed: list each token once",
        "HYMEM_AUTH_TOKENS entry 5 names no workspace: use \`token=ws1,ws2;token2=*\` (\`*\` allows all)",
        "HYMEM_AUTH_TOKENS entry 6 names an invalid workspace id "bad id": use letters, digits, \`_\`, \`.\`, \`:\` or \`-\`",
      ]
    `)
    expect(warnings).toContain('an HYMEM_AUTH_TOKENS token is 5 characters: use 16 or more')
  })

  it('requires tokens when the server binds beyond loopback', () => {
    expect(configFromEnv({ ...HOME, HYMEM_HONCHO_HOST: '0.0.0.0' }).errors).toMatchInlineSnapshot(`
      [
        "HYMEM_HONCHO_HOST=0.0.0.0 accepts remote connections: set HYMEM_AUTH_TOKENS (e.g. \`<long-random-token>=*\`) or bind 127.0.0.1",
        "HYMEM_HONCHO_HOST=0.0.0.0 accepts remote connections: set HYMEM_ALLOWED_HOSTS to the host names clients use (e.g. memory.example.com), so a DNS-rebinding page cannot reach it",
      ]
    `)
    expect(configFromEnv({ ...HOME, HYMEM_HONCHO_HOST: 'localhost' }).errors).toEqual([])
  })

  it('requires an embedding key for a remote openai-compatible endpoint, but not for a local one', () => {
    expect(
      configFromEnv({ ...HOME, HYMEM_EMBEDDING_PROVIDER: 'openai-compatible' }).errors,
    ).toMatchInlineSnapshot(`
      [
        "HYMEM_EMBEDDING_PROVIDER=openai-compatible needs a key: set HYMEM_EMBEDDING_API_KEY (or HYMEM_LLM_API_KEY), or choose HYMEM_EMBEDDING_PROVIDER=local",
      ]
    `)
    expect(
      configFromEnv({
        ...HOME,
        HYMEM_EMBEDDING_PROVIDER: 'openai-compatible',
        HYMEM_EMBEDDING_BASE_URL: 'http://127.0.0.1:11434/v1',
      }).errors,
    ).toEqual([])
  })

  it('picks the offline model of provider local, and only there', () => {
    expect(
      configFromEnv({ ...HOME, HYMEM_EMBEDDING_LOCAL_MODEL: ' MiniLM ' }).config.embedding.localModel,
    ).toBe('minilm')
    const bad = configFromEnv({ ...HOME, HYMEM_EMBEDDING_LOCAL_MODEL: 'bert' })
    expect(bad.errors).toEqual([
      'HYMEM_EMBEDDING_LOCAL_MODEL must be one of minilm, minilm-int8, use-lite, e.g. HYMEM_EMBEDDING_LOCAL_MODEL=minilm (got "bert")',
    ])
    expect(bad.config.embedding.localModel).toBeNull()
    expect(
      configFromEnv({ ...HOME, HYMEM_EMBEDDING_PROVIDER: 'none', HYMEM_EMBEDDING_LOCAL_MODEL: 'minilm' })
        .warnings,
    ).toContain('HYMEM_EMBEDDING_LOCAL_MODEL is ignored with HYMEM_EMBEDDING_PROVIDER=none')
  })

  it('warns about unknown HYMEM_ variables with a suggestion', () => {
    const { warnings } = configFromEnv({
      ...HOME,
      HYMEM_LLM_MODLE: 'x',
      HYMEM_SOMETHING_ELSE: 'y',
      PATH: '/bin',
    })
    expect(warnings.filter((w) => w.includes('is not a HyMem variable'))).toMatchInlineSnapshot(`
      [
        "HYMEM_LLM_MODLE is not a HyMem variable (did you mean HYMEM_LLM_MODEL?)",
        "HYMEM_SOMETHING_ELSE is not a HyMem variable",
      ]
    `)
  })
})

describe('redactConfig', () => {
  it('masks keys and tokens', () => {
    const { config } = configFromEnv({
      ...HOME,
      HYMEM_LLM_API_KEY: 'sk-0123456789abcdef',
      HYMEM_AUTH_TOKENS: 'abcdefghijklmnopqrst=*',
    })
    const redacted = redactConfig(config)
    expect(redacted.llm.apiKey).toBe('sk-…ef')
    expect(redacted.authTokens[0]?.token).toBe('abc…st')
    expect(JSON.stringify(redacted)).not.toContain('0123456789')
  })
})
