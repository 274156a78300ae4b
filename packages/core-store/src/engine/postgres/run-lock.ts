import { hostname } from 'node:os'
import { type Kysely, sql } from 'kysely'
import { StoreError } from '../../kernel/errors'
import type { HyMemDatabase } from '../../kernel/tables'
import type { RunLockHolder } from '../run-lock-types'
import type { StoreHeldRunLock, StoreRunLock } from '../store-run-lock'
import type { PostgresConnector } from './connection'
import { mapPostgresError } from './errors'
import { LOCK_NAMESPACE } from './lock-keys'

/** The connection a held lock lives on; when it ends, PostgreSQL releases the lock. */
interface LockSession {
  tryLock(key: string): Promise<boolean>
  unlock(key: string): Promise<void>
  /** False once the connection is gone (the lock with it). */
  alive(): Promise<boolean>
  close(): Promise<void>
}

interface HeldState {
  holder: RunLockHolder
  readonly key: string
  readonly session: LockSession
  /** The one release of this hold (the holder's and the store's `close()` may both ask for it). */
  released?: Promise<boolean>
}

/** Locks this process holds, per database (PGlite shares one session, where advisory locks are re-entrant). */
const heldByDatabase = new WeakMap<object, Map<string, HeldState>>()

export interface PostgresRunLockOptions {
  readonly db: Kysely<HyMemDatabase>
  readonly connector: PostgresConnector
  readonly schema: string
  readonly clock: () => Date
  readonly host?: string
  readonly pid?: number
}

export interface PostgresRunLock extends StoreRunLock {
  /** Releases every lock taken through this store (on close). */
  releaseAll(): Promise<void>
}

/**
 * The dream lock as a session-level advisory lock (`pg_try_advisory_lock(namespace, hashtext(schema:name))`)
 * on a connection of its own: when the holder's process dies, its connection ends and PostgreSQL releases
 * the lock at once, with no stale-lock timeout. The `run_lock` row only names the holder for `inspect()`; a
 * row whose advisory lock is free belonged to a holder that died.
 */
export function createPostgresRunLock(options: PostgresRunLockOptions): PostgresRunLock {
  const { db, connector, schema, clock } = options
  const host = options.host ?? hostname()
  const pid = options.pid ?? process.pid
  let held = heldByDatabase.get(connector.identity)
  if (!held) {
    held = new Map()
    heldByDatabase.set(connector.identity, held)
  }
  const locks = held
  const mine = new Set<HeldState>()

  const readHolder = async (name: string): Promise<RunLockHolder | null> => {
    const row = await db.selectFrom('run_lock').selectAll().where('name', '=', name).executeTakeFirst()
    return row
      ? {
          name: row.name,
          holder: row.holder,
          host: row.host,
          pid: row.pid,
          acquiredAt: row.acquired_at,
          heartbeatAt: row.heartbeat_at,
        }
      : null
  }

  const openSession = async (): Promise<LockSession> =>
    connector.sharedSession ? sharedSession(db) : await ownSession(connector)

  // Once per hold: a later caller (the store closing while the holder releases) waits for the first and
  // gets false, instead of closing the connection under its unlock.
  const release = (state: HeldState): Promise<boolean> => {
    if (state.released) return state.released.then(() => false)
    state.released = releaseOnce(state)
    return state.released
  }

  const releaseOnce = async (state: HeldState): Promise<boolean> => {
    mine.delete(state)
    if (locks.get(state.key) !== state) {
      await state.session.close()
      return false
    }
    locks.delete(state.key)
    try {
      await state.session.unlock(state.key)
      await db
        .deleteFrom('run_lock')
        .where('name', '=', state.holder.name)
        .where('holder', '=', state.holder.holder)
        .execute()
    } finally {
      await state.session.close()
    }
    return true
  }

  const handle = (state: HeldState, tookOver: StoreHeldRunLock['tookOver']): StoreHeldRunLock => ({
    ...state.holder,
    tookOver,
    heartbeat: async () => {
      if (locks.get(state.key) !== state) return false
      if (!(await state.session.alive())) {
        locks.delete(state.key)
        mine.delete(state)
        await state.session.close()
        return false
      }
      const heartbeatAt = clock().toISOString()
      await db
        .updateTable('run_lock')
        .set({ heartbeat_at: heartbeatAt })
        .where('name', '=', state.holder.name)
        .where('holder', '=', state.holder.holder)
        .execute()
      state.holder = { ...state.holder, heartbeatAt }
      return true
    },
    release: () => release(state),
  })

  return {
    async acquire(name, holderId) {
      requireText(name, 'name')
      requireText(holderId, 'holder id')
      const key = `${schema}:${name}`
      const local = locks.get(key)
      if (local && (await local.session.alive())) {
        if (local.holder.holder === holderId) return { acquired: true, lock: handle(local, null) }
        // On PGlite this process's own hold is the answer (its one session would grant the lock again);
        // a server decides for itself.
        if (connector.sharedSession) return { acquired: false, holder: local.holder }
      }
      const session = await openSession().catch((error: unknown) => {
        throw mapPostgresError(error, connector.location)
      })
      let state: HeldState
      try {
        if (!(await session.tryLock(key))) {
          await session.close()
          const now = clock().toISOString()
          const holder = (await readHolder(name)) ?? {
            name,
            holder: '(starting)',
            host: '',
            pid: 0,
            acquiredAt: now,
            heartbeatAt: now,
          }
          return { acquired: false, holder }
        }
        const previous = await readHolder(name)
        const now = clock().toISOString()
        const holder: RunLockHolder = { name, holder: holderId, host, pid, acquiredAt: now, heartbeatAt: now }
        await db
          .insertInto('run_lock')
          .values({ name, holder: holderId, host, pid, acquired_at: now, heartbeat_at: now })
          .onConflict((oc) =>
            oc.column('name').doUpdateSet({
              holder: holderId,
              host,
              pid,
              acquired_at: now,
              heartbeat_at: now,
            }),
          )
          .execute()
        state = { holder, key, session }
        const tookOver =
          previous && previous.holder !== holderId ? { previous, reason: 'dead-process' as const } : null
        locks.set(key, state)
        mine.add(state)
        return { acquired: true, lock: handle(state, tookOver) }
      } catch (error) {
        await session.unlock(key).catch(() => undefined)
        await session.close()
        throw error
      }
    },
    async inspect(name) {
      requireText(name, 'name')
      const holder = await readHolder(name)
      if (!holder) return null
      const result = await sql<{ held: boolean }>`
        SELECT EXISTS (
          SELECT 1 FROM pg_locks
          WHERE locktype = 'advisory' AND granted AND objsubid = 2
            AND classid = ${LOCK_NAMESPACE}::int4::oid AND objid = hashtext(${`${schema}:${name}`})::oid
        ) AS held`.execute(db)
      return result.rows[0]?.held ? holder : null
    },
    async releaseAll() {
      for (const state of [...mine]) await release(state).catch(() => undefined)
    },
  }
}

/** A dedicated server connection per held lock. */
async function ownSession(connector: PostgresConnector): Promise<LockSession> {
  const client = connector.createClient()
  let lost = false
  client.on('error', () => {
    lost = true
  })
  client.on('end', () => {
    lost = true
  })
  await client.connect()
  return {
    tryLock: async (key) =>
      (
        await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [
          LOCK_NAMESPACE,
          key,
        ])
      ).rows[0]?.ok === true,
    unlock: async (key) => {
      if (!lost) await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_NAMESPACE, key])
    },
    alive: async () => {
      if (lost) return false
      try {
        await client.query('SELECT 1')
        return true
      } catch {
        lost = true
        return false
      }
    },
    close: async () => {
      await client.end().catch(() => undefined)
    },
  }
}

/** PGlite: one backend session for everything, so locks go through the store's own (single) connection. */
function sharedSession(db: Kysely<HyMemDatabase>): LockSession {
  return {
    tryLock: async (key) =>
      (
        await sql<{
          ok: boolean
        }>`SELECT pg_try_advisory_lock(${LOCK_NAMESPACE}, hashtext(${key})) AS ok`.execute(db)
      ).rows[0]?.ok === true,
    unlock: async (key) => {
      await sql`SELECT pg_advisory_unlock(${LOCK_NAMESPACE}, hashtext(${key}))`.execute(db)
    },
    alive: async () => true,
    close: async () => undefined,
  }
}

function requireText(value: unknown, what: string): asserts value is string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new StoreError('INVALID_INPUT', `The run lock ${what} must be a non-empty string.`)
  }
}
