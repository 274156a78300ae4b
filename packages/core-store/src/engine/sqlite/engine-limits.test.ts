import { type RawBuilder, sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { type BackendUnderTest, sqliteBackend } from '../../../test/backends'
import { postgresBackends } from '../../../test/postgres-backends'
import { expectStoreError } from '../../../test/store-harness'
import { builderOf } from '../../store/builder'

const range = (n: number) => Array.from({ length: n }, (_, i) => i)

/** A statement past one of the engine's own limits (the filter limits keep filters far below them). */
interface EngineLimit {
  readonly limit: string
  statement(): RawBuilder<unknown>
}

/** 70,000 parameters: past SQLite's 32,766 and PostgreSQL's 65,535. */
const TOO_MANY_PARAMETERS: EngineLimit = {
  limit: 'the parameter limit',
  statement: () => sql`SELECT 1 WHERE 1 IN (${sql.join(range(70_000).map((i) => sql`${i}`))})`,
}

const SQLITE_LIMITS: EngineLimit[] = [
  TOO_MANY_PARAMETERS,
  {
    limit: 'the expression depth (a chain of 2,000 ORs)',
    statement: () =>
      sql`SELECT 1 WHERE ${sql.raw(
        range(2000)
          .map((i) => `1 = ${i + 2}`)
          .join(' OR '),
      )}`,
  },
]

const POSTGRES_LIMITS: EngineLimit[] = [
  TOO_MANY_PARAMETERS,
  {
    limit: 'the target list (1,700 columns)',
    statement: () => sql`SELECT ${sql.raw(range(1700).map(String).join(', '))}`,
  },
]

function describeEngineLimits(backend: BackendUnderTest, pastEngineLimits: EngineLimit[]) {
  describe(`engine limits: ${backend.label}`, () => {
    const stores = backend.use()

    it.each(pastEngineLimits)(
      'answers a statement past $limit with INVALID_INPUT, not a driver error',
      async ({ statement }) => {
        const store = await stores.open()
        const db = builderOf(store)
        const error = await expectStoreError(db.executeQuery(statement().compile(db)), 'INVALID_INPUT')
        expect(error.message).toMatch(/cannot run a statement this large/)
        expect(await db.executeQuery(sql`SELECT 1 AS one`.compile(db))).toMatchObject({ rows: [{ one: 1 }] })
      },
    )
  })
}

describeEngineLimits(sqliteBackend({ loadVectorExtension: false }), SQLITE_LIMITS)
for (const backend of postgresBackends()) describeEngineLimits(backend, POSTGRES_LIMITS)
