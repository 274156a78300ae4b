import {
  findCanonicalDrift,
  openStore,
  repairCanonicalDrift,
  SCHEMA_VERSION,
  type SqliteStore,
  type Store,
  StoreError,
} from '@hymem/core-store'
import { probeKey } from 'hymem'
import type { DoctorCheck, EmbedderInfo, EndpointProbe } from './doctor-types'

const ok = (name: string, detail: string): DoctorCheck => ({ name, status: 'ok', detail })
const warn = (name: string, detail: string): DoctorCheck => ({ name, status: 'warn', detail })
const fail = (name: string, detail: string): DoctorCheck => ({ name, status: 'fail', detail })

/**
 * Opens (creating and migrating when needed) the PostgreSQL database and reports the server, pgvector, its
 * indexes and the schema; an unreachable server, refused credentials or a missing pgvector fail in one line.
 */
export async function checkPostgresStore(
  url: string,
  clock?: () => Date,
): Promise<{ checks: DoctorCheck[]; store: Store | null }> {
  const { openPostgresStore, postgresVectorIndexes } = await import('@hymem/core-store/postgres')
  let store: Store
  try {
    store = await openPostgresStore({ url, ...(clock ? { clock } : {}) })
  } catch (error) {
    const detail = error instanceof StoreError ? error.message : `cannot open ${url}: ${String(error)}`
    return { checks: [fail('database', detail)], store: null }
  }
  const info = store.info()
  if (info.backend !== 'postgres') throw new Error('a PostgreSQL URL opened another backend')
  const indexes = await postgresVectorIndexes(store)
  const described = indexes.map(
    (index) => `${index.name} (${index.method}${index.dimensions === null ? '' : `, ${index.dimensions}-d`})`,
  )
  return {
    checks: [
      ok('database', `postgres ${info.location}`),
      ok('postgresql', info.serverVersion),
      ok('vector search', `pgvector ${info.pgvectorVersion}`),
      ok(
        'vector indexes',
        described.length === 0
          ? 'none yet: each vector table gets an HNSW cosine index with its first vector'
          : described.join(', '),
      ),
      schemaCheck(info.schemaVersion),
    ],
    store,
  }
}

function schemaCheck(version: number): DoctorCheck {
  return version === SCHEMA_VERSION
    ? ok('schema', `version ${version} (up to date)`)
    : fail('schema', `version ${version}, this hymem expects ${SCHEMA_VERSION}`)
}

/** Opens (creating and migrating when needed) the database and reports SQLite, sqlite-vec and schema. */
export function checkStore(
  databasePath: string,
  clock?: () => Date,
): { checks: DoctorCheck[]; store: Store | null } {
  let store: SqliteStore
  try {
    store = openStore({ path: databasePath, clock })
  } catch (error) {
    const detail =
      error instanceof StoreError ? error.message : `cannot open ${databasePath}: ${String(error)}`
    return { checks: [fail('database', detail)], store: null }
  }
  const info = store.info()
  const vectors =
    info.vectors.mode === 'sqlite-vec'
      ? ok('vector search', `sqlite-vec ${info.vectors.version ?? '(unknown version)'}`)
      : warn(
          'vector search',
          `JS cosine scan (slower, capped): ${info.vectors.reason ?? 'sqlite-vec unavailable'}`,
        )
  const schema = schemaCheck(info.schemaVersion)
  return {
    checks: [
      ok('database', `${info.path} (journal ${info.journalMode})`),
      ok('sqlite', info.sqliteVersion),
      vectors,
      schema,
    ],
    store,
  }
}

/** Compares each vector index's pinned model and dimension with the configured embedder. */
export async function checkEmbeddingDrift(
  store: Store,
  embedder: EmbedderInfo | null,
): Promise<DoctorCheck[]> {
  const pins = await store.vectors.pins()
  const name = 'embedding drift'
  if (pins.length === 0) {
    const next = embedder
      ? `; the first dream pins ${describeModel(embedder.model, embedder.dimensions)}`
      : ''
    return [ok(name, `no vectors stored yet${next}`)]
  }
  const groups = new Map<string, { pinned: string; indexes: string[]; drifted: boolean }>()
  for (const pin of pins) {
    const pinned = describeModel(pin.model, pin.dimensions)
    const drifted =
      embedder !== null &&
      (pin.model !== embedder.model ||
        (embedder.dimensions !== null && embedder.dimensions !== pin.dimensions))
    const group = groups.get(pinned) ?? { pinned, indexes: [], drifted }
    group.indexes.push(pin.index)
    groups.set(pinned, group)
  }
  return [...groups.values()].map(({ pinned, indexes, drifted }) => {
    const which = `${indexes.join(', ')} ${indexes.length === 1 ? 'vectors are' : 'vectors are all'} ${pinned}`
    if (!embedder) return warn(name, `${which} but embeddings are off: vector search is skipped`)
    if (!drifted) return ok(name, `${indexes.join(', ')} pinned to ${pinned}, as configured`)
    return fail(
      name,
      `${which} but the configured embedder is ${describeModel(embedder.model, embedder.dimensions)}: run "hymem reindex", or set HYMEM_EMBEDDING_* back`,
    )
  })
}

/**
 * Entity names stored without going through `normalize()`. Doctor only reports them (a rewrite can collide
 * with an existing name, and merging is the operator's call) unless `repair` is set.
 */
export async function checkCanonicalDrift(store: Store, repair: boolean): Promise<DoctorCheck[]> {
  const name = 'canonical drift'
  const checks: DoctorCheck[] = []
  if (repair) {
    const repaired = await repairCanonicalDrift(store)
    const fixed = repaired.merges.length + repaired.aliasSurfacesFixed
    checks.push(
      ok(
        name,
        `repaired ${fixed} drifted name${fixed === 1 ? '' : 's'} (evidence summed where edges collided)`,
      ),
    )
  }
  const drift = await findCanonicalDrift(store)
  if (drift.length === 0) {
    if (!repair) checks.push(ok(name, 'every stored entity name is in canonical form'))
    return checks
  }
  const examples = drift
    .slice(0, 3)
    .map((d) => `${d.column} "${d.value}" → "${d.normalized}" (${d.workspaceId})`)
    .join(', ')
  const more = drift.length > 3 ? ` and ${drift.length - 3} more` : ''
  const fix = repair
    ? 'these need a manual alias or retraction'
    : 'run "hymem doctor --repair-canonical" to merge them'
  checks.push(
    warn(
      name,
      `${drift.length} name${drift.length === 1 ? '' : 's'} written around the canonicalizer: ${examples}${more}; ${fix}`,
    ),
  )
  return checks
}

function describeModel(model: string, dimensions: number | null): string {
  return dimensions === null ? model : `${model} (${dimensions}-d)`
}

/**
 * One authenticated `GET <baseUrl>/models` through the facade's `probeKey`: reachable with the key accepted is
 * ok, a 401/403 or no answer within `timeoutMs` fails, any other status only warns (some servers lack
 * `/models`).
 */
export async function probeEndpoint(
  probe: EndpointProbe,
  options: { fetch: typeof globalThis.fetch; timeoutMs: number },
): Promise<DoctorCheck> {
  let networkError: unknown
  const fetch: typeof globalThis.fetch = async (input, init) => {
    try {
      return await options.fetch(input, init)
    } catch (error) {
      networkError = error
      throw error
    }
  }
  const result = await probeKey({
    baseUrl: probe.baseUrl,
    apiKey: probe.apiKey,
    fetch,
    timeoutMs: options.timeoutMs,
  })
  switch (result.outcome) {
    case 'ok':
      return ok(probe.name, `${probe.baseUrl} reachable, key accepted`)
    case 'rejected':
      return fail(probe.name, `${result.detail}: the key was rejected; set a valid ${probe.keyVariable}`)
    case 'inconclusive':
      return warn(probe.name, `${result.detail}: reachable, but the key could not be checked`)
    case 'unreachable': {
      const error = networkError as Error | undefined
      const reason =
        error?.name === 'TimeoutError' || error?.name === 'AbortError'
          ? `no answer within ${options.timeoutMs} ms`
          : describeNetworkError(error)
      return fail(
        probe.name,
        `${probe.baseUrl} unreachable (${reason}); check the base URL and your network, or run with --offline`,
      )
    }
  }
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error))
}
