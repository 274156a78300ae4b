import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openStore, SCHEMA_VERSION } from '@hymem/core-store'
import { createFakeEmbeddings } from '@hymem/extraction'
import { createLocalEmbeddings } from '@hymem/extraction/local'
import { createHyMem } from 'hymem'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { captureContext, tempDir } from '../../test/harness'
import { runCli } from '../run'
import { collectDoctorReport, doctor } from './doctor'

/** Replaces the temp root and the SQLite / sqlite-vec versions, which are not the subject of these tests. */
function stable(text: string, root: string): string {
  return text
    .split(root)
    .join('<root>')
    .replace(/(sqlite +)\d+\.\d+\.\d+/, '$1<version>')
    .replace(`version ${SCHEMA_VERSION} (up to date)`, 'version <SCHEMA_VERSION> (up to date)')
    .replace(/sqlite-vec v?\d+\.\d+\.\d+/, 'sqlite-vec <version>')
}

describe('hymem doctor', () => {
  let root: string
  let cleanup: () => void
  beforeEach(() => {
    ;({ dir: root, cleanup } = tempDir())
  })
  afterEach(() => cleanup())

  it('passes on a fresh root with no key: warns that the rule-based extractor is used', async () => {
    const { ctx, stdout } = captureContext({ env: { HYMEM_ROOT: root, HOME: '/home/maya' } })
    const report = await doctor({ offline: true }, ctx)
    expect(report.ok).toBe(true)
    expect(stable(stdout(), root)).toMatchInlineSnapshot(`
      "Checks
        ok    config            environment parsed (2 HYMEM_* variables set)
        ok    database          <root>/hymem.sqlite (journal wal)
        ok    sqlite            <version>
        ok    vector search     sqlite-vec <version>
        ok    schema            version <SCHEMA_VERSION> (up to date)
        ok    file permissions  the memory folder and files are private to their owner
        ok    embedding drift   no vectors stored yet
        ok    canonical drift   every stored entity name is in canonical form
        warn  extractor         no LLM key: using the rule-based extractor (set HYMEM_LLM_API_KEY to extract with an LLM)
        warn  embedder          none: search is keyword + graph + recency only (HYMEM_EMBEDDING_PROVIDER=local works offline)

      Settings
        HYMEM_ROOT                    <root>
        database                      <root>/hymem.sqlite
        HYMEM_WORKSPACE               default (default)
        HYMEM_LLM_API_KEY             not set
        HYMEM_LLM_BASE_URL            https://api.deepseek.com (default)
        HYMEM_LLM_MODEL               deepseek-chat (default)
        HYMEM_LLM_CONCURRENCY         4 (default)
        HYMEM_EMBEDDING_PROVIDER      none
        HYMEM_HONCHO_HOST             127.0.0.1 (default)
        HYMEM_HONCHO_PORT             8765 (default)
        HYMEM_DREAM_COOLDOWN_SECONDS  60 (default)
        HYMEM_DREAM_BUDGET            50 (default)
        HYMEM_PROMPT_VERSION          the extractor's own (default)
        HYMEM_AUTH_TOKENS             none
        HYMEM_LOG_LEVEL               info (default)

      8 ok, 2 warn, 0 fail
      "
    `)
  })

  it('prints JSON with every check, and --root / --workspace override the environment', async () => {
    const other = join(root, 'elsewhere')
    const { ctx, stdout } = captureContext({ env: { HYMEM_ROOT: join(root, 'ignored'), HOME: '/home/maya' } })
    expect(
      await runCli(['doctor', '--json', '--offline', '--root', other, '--workspace', 'team-a'], ctx),
    ).toBe(0)
    const report = JSON.parse(stdout())
    expect(report.ok).toBe(true)
    expect(report.settings.HYMEM_ROOT).toBe(`${other} (--root)`)
    expect(report.settings.HYMEM_WORKSPACE).toBe('team-a (--workspace)')
    expect(
      report.checks.map((c: { name: string; status: string }) => `${c.status} ${c.name}`),
    ).toMatchInlineSnapshot(`
      [
        "ok config",
        "ok database",
        "ok sqlite",
        "ok vector search",
        "ok schema",
        "ok file permissions",
        "ok embedding drift",
        "ok canonical drift",
        "warn extractor",
        "warn embedder",
      ]
    `)
  })

  it('fails (exit 1) when the root is not a directory, and still reports the rest', async () => {
    const file = join(root, 'not-a-dir')
    writeFileSync(file, 'x')
    const { ctx, stdout, stderr } = captureContext({ env: { HYMEM_ROOT: file } })
    expect(await runCli(['doctor', '--offline'], ctx)).toBe(1)
    const failed = stdout()
      .split('\n')
      .filter((line) => line.trimStart().startsWith('fail'))
    expect(failed.map((line) => stable(line, root))).toMatchInlineSnapshot(`
      [
        "  fail  database          cannot create the directory for <root>/not-a-dir/hymem.sqlite: <root>/not-a-dir is a file, not a folder; choose a writable HYMEM_ROOT",
      ]
    `)
    expect(stderr()).toMatchInlineSnapshot(`
      "error: 1 check failed: fix the "fail" lines above
      "
    `)
  })

  it('fails when hymem.sqlite is not a SQLite database', async () => {
    writeFileSync(
      join(root, 'hymem.sqlite'),
      'this is not a database, just text that is long enough '.repeat(40),
    )
    const { ctx } = captureContext({ env: { HYMEM_ROOT: root } })
    const report = await collectDoctorReport({ offline: true }, ctx)
    expect(
      report.checks.filter((c) => c.status === 'fail').map((c) => stable(c.detail, root)),
    ).toMatchInlineSnapshot(`
      [
        "<root>/hymem.sqlite is not a SQLite database; point HYMEM_ROOT at another folder",
      ]
    `)
  })

  it('reports configuration errors as failing lines naming the variable', async () => {
    const { ctx } = captureContext({
      env: { HYMEM_ROOT: root, HYMEM_LLM_BASE_URL: 'not a url', HYMEM_DREAM_BUDGET: '0' },
    })
    const report = await collectDoctorReport({ offline: true }, ctx)
    expect(report.ok).toBe(false)
    expect(report.checks.filter((c) => c.name === 'config')).toMatchInlineSnapshot(`
      [
        {
          "detail": "HYMEM_LLM_BASE_URL must be an http:// or https:// URL, e.g. HYMEM_LLM_BASE_URL=https://api.openai.com/v1 (got "not a url")",
          "name": "config",
          "status": "fail",
        },
        {
          "detail": "HYMEM_DREAM_BUDGET must be a whole number from 1 to 1000000, e.g. HYMEM_DREAM_BUDGET=50 (got "0")",
          "name": "config",
          "status": "fail",
        },
      ]
    `)
  })

  it('never prints a password: URL userinfo and ?password= / sslpassword= / api_key= are masked, text and --json', async () => {
    const env = {
      HYMEM_ROOT: root,
      HYMEM_DATABASE_URL:
        'postgres://hymem:pw-in-userinfo@127.0.0.1:9/hymem?password=pw-in-query&sslpassword=pw-ssl',
      HYMEM_LLM_API_KEY: 'sk-test-key-0123456789',
      HYMEM_LLM_BASE_URL: 'https://bot:pw-llm@llm.example/v1?api_key=pw-param',
    }
    const text = captureContext({ env })
    expect(await runCli(['doctor', '--offline'], text.ctx)).toBe(1)
    const json = captureContext({ env })
    expect(await runCli(['doctor', '--offline', '--json'], json.ctx)).toBe(1)
    for (const output of [text.stdout(), text.stderr(), json.stdout(), json.stderr()]) {
      expect(output).not.toMatch(/pw-|0123456789/)
    }
    const report = JSON.parse(json.stdout())
    expect({
      database: report.settings.database,
      llm: report.settings.HYMEM_LLM_BASE_URL,
      checks: report.checks
        .filter((c: { name: string }) => ['database', 'extractor', 'llm endpoint'].includes(c.name))
        .map((c: { detail: string }) => c.detail),
    }).toMatchInlineSnapshot(`
      {
        "checks": [
          "cannot reach PostgreSQL at postgres://hymem@127.0.0.1:9/hymem (ECONNREFUSED); check HYMEM_DATABASE_URL and that the server is running",
          "llm:deepseek-chat at https://bot:****@llm.example/v1?api_key=****",
          "https://bot:****@llm.example/v1?api_key=**** not checked (--offline)",
        ],
        "database": "postgres://hymem:****@127.0.0.1:9/hymem?password=****&sslpassword=****",
        "llm": "https://bot:****@llm.example/v1?api_key=****",
      }
    `)
  })

  it('fails on embedding-dimension drift: vectors pinned to another model', async () => {
    const memory = await createHyMem({ root, embeddings: createFakeEmbeddings({ dimensions: 16 }) })
    await memory.log({
      role: 'user',
      content: 'We deploy the billing API to Fly.io every Tuesday afternoon.',
    })
    expect((await memory.dream()).status).toBe('ok')
    await memory.close()
    const { ctx } = captureContext({ env: { HYMEM_ROOT: root, HYMEM_EMBEDDING_PROVIDER: 'fake' } })
    const report = await collectDoctorReport({ offline: true }, ctx)
    expect(report.checks.filter((c) => c.name === 'embedding drift')).toMatchInlineSnapshot(`
      [
        {
          "detail": "chunks, edges, episodes, messages vectors are all fake-hash-16 (16-d) but the configured embedder is fake-hash-64 (64-d): run "hymem reindex", or set HYMEM_EMBEDDING_* back",
          "name": "embedding drift",
          "status": "fail",
        },
      ]
    `)
  })
})

describe('hymem doctor: the offline model of a memory', () => {
  let root: string
  let cleanup: () => void
  beforeEach(() => {
    ;({ dir: root, cleanup } = tempDir())
  })
  afterEach(() => cleanup())

  it('keeps the model of the stored vectors while HYMEM_EMBEDDING_LOCAL_MODEL is unset', async () => {
    const memory = await createHyMem({
      root,
      embeddings: createLocalEmbeddings({ model: 'use-lite' }),
    })
    await memory.notes.remember({ description: 'Deploys', content: 'We deploy on Tuesdays.' })
    await memory.close()
    const report = async (env: Record<string, string>) =>
      collectDoctorReport(
        { offline: true },
        captureContext({ env: { HYMEM_ROOT: root, HYMEM_EMBEDDING_PROVIDER: 'local', ...env } }).ctx,
      )
    const unset = await report({})
    expect(unset.settings.HYMEM_EMBEDDING_LOCAL_MODEL).toBe(
      'use-lite (not set: the model of the stored vectors)',
    )
    expect(unset.checks.find((c) => c.name === 'embedding drift')).toMatchObject({ status: 'ok' })
    const chosen = await report({ HYMEM_EMBEDDING_LOCAL_MODEL: 'minilm-int8' })
    expect(chosen.settings.HYMEM_EMBEDDING_LOCAL_MODEL).toBe('minilm-int8')
    expect(chosen.checks.find((c) => c.name === 'embedding drift')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('run "hymem reindex"'),
    })
  })
})

describe('hymem doctor: languages', () => {
  let root: string
  let cleanup: () => void
  beforeEach(() => {
    ;({ dir: root, cleanup } = tempDir())
  })
  afterEach(() => cleanup())

  it('notices an English-only embedder while the memory holds other scripts, and only then', async () => {
    const memory = await createHyMem({ root, embeddings: null })
    await memory.logMessages('s', [{ peerId: 'user', content: 'We deploy the billing API to Fly.io.' }])
    await memory.close()
    const languages = async (env: Record<string, string>) =>
      (
        await collectDoctorReport(
          { offline: true },
          captureContext({ env: { HYMEM_ROOT: root, ...env } }).ctx,
        )
      ).checks.filter((c) => c.name === 'languages')
    expect(await languages({ HYMEM_EMBEDDING_PROVIDER: 'local' })).toEqual([])
    const again = await createHyMem({ root, embeddings: null })
    await again.logMessages('s', [{ peerId: 'user', content: '我们的后端服务部署在阿里云上' }])
    await again.close()
    expect(await languages({ HYMEM_EMBEDDING_PROVIDER: 'local' })).toMatchInlineSnapshot(`
      [
        {
          "detail": "1 of the newest 2 messages are in scripts other than Latin, but local:minilm reads English only: they are found by keyword alone (see "Languages" in the README)",
          "name": "languages",
          "status": "warn",
        },
      ]
    `)
    expect(
      await languages({ HYMEM_EMBEDDING_PROVIDER: 'local', HYMEM_EMBEDDING_LOCAL_MODEL: 'minilm' }),
    ).toHaveLength(1)
    expect(await languages({ HYMEM_EMBEDDING_PROVIDER: 'none' })).toEqual([])
  })
})

describe('hymem doctor: canonical drift', () => {
  let root: string
  let cleanup: () => void
  beforeEach(() => {
    ;({ dir: root, cleanup } = tempDir())
  })
  afterEach(() => cleanup())

  it('reports names written around the canonicalizer and merges them only with --repair-canonical', async () => {
    const store = openStore({ path: join(root, 'hymem.sqlite') })
    await store.workspaces.getOrCreate('default')
    const at = '2026-06-01T00:00:00.000Z'
    const edge = {
      workspaceId: 'default',
      subject: 'team',
      predicate: 'uses',
      negEvidence: 0,
      confidence: 0.5,
      status: 'active',
      derived: false,
      firstSeen: at,
      lastSeen: at,
      lastReinforced: at,
      validFrom: at,
      validTo: null,
    } as const
    // Written as an import would, around the canonicalizer.
    await store.edges.insertIfAbsent({ ...edge, object: 'PostgreSQL', posEvidence: 2 })
    await store.edges.insertIfAbsent({ ...edge, object: 'postgresql', posEvidence: 1 })
    await store.close()

    const drift = async (options: { repairCanonical?: boolean }) =>
      (
        await collectDoctorReport(
          { offline: true, ...options },
          captureContext({ env: { HYMEM_ROOT: root } }).ctx,
        )
      ).checks
        .filter((c) => c.name === 'canonical drift')
        .map((c) => `${c.status}: ${c.detail}`)
    expect(await drift({})).toMatchInlineSnapshot(`
      [
        "warn: 1 name written around the canonicalizer: knowledge_graph.object "PostgreSQL" → "postgresql" (default); run "hymem doctor --repair-canonical" to merge them",
      ]
    `)
    expect(await drift({})).toHaveLength(1)
    expect(await drift({ repairCanonical: true })).toMatchInlineSnapshot(`
      [
        "ok: repaired 1 drifted name (evidence summed where edges collided)",
      ]
    `)
    expect(await drift({})).toMatchInlineSnapshot(`
      [
        "ok: every stored entity name is in canonical form",
      ]
    `)

    const check = openStore({ path: join(root, 'hymem.sqlite') })
    const rows = (await check.edges.listAll('default')).map(({ subject, object, posEvidence }) => ({
      subject,
      object,
      posEvidence,
    }))
    await check.close()
    expect(rows).toEqual([{ subject: 'team', object: 'postgresql', posEvidence: 3 }])
  })
})
