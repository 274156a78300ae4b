import { dirname, resolve } from 'node:path'
import { maskSecrets } from '@hymem/core-store'
import { createHyMem } from '../create-hymem'
import { isDatabaseUrl } from '../database/database-option'
import { HyMemError } from '../errors'
import { _storeOf } from '../hymem'
import type { HyMem } from '../types'

/** Options of {@link migrateMemory}. */
export interface MigrateOptions {
  /** The memory copied: a SQLite file, or a PostgreSQL URL (`postgres://…`, `pglite:…`). */
  readonly from: string
  /** Where it goes: a SQLite file or a PostgreSQL URL; empty, or holding exactly this copy already. */
  readonly to: string
  /** Called as the records stream across (`total` is the source's row count, an estimate of the records). */
  readonly onProgress?: (event: { readonly records: number; readonly total: number }) => void
}

/** Rows of one table on both sides after the copy. */
export interface MigratedTable {
  readonly from: number
  readonly to: number
}

/** What {@link migrateMemory} did. */
export interface MigrateReport {
  /** The two sides, passwords masked. */
  readonly from: string
  readonly to: string
  /** True when the target already held the same counts (an earlier run): the import added nothing. */
  readonly rerun: boolean
  /** Dump records streamed. */
  readonly records: number
  /** Rows per table on both sides (every workspace summed); equal, or the migration throws. */
  readonly tables: Readonly<Record<string, MigratedTable>>
}

/**
 * Counted tables a dump leaves out on purpose: the search log stays where the searches ran, and deletion
 * receipts (`purges`) name the source store's internal message ids, which mean nothing in the copy.
 */
const NOT_CARRIED = new Set(['search_log', 'purges'])

/**
 * Copies a whole memory between backends (SQLite ⇄ PostgreSQL, or any two): every workspace and every table a
 * backup carries, vectors included, streamed as dump format 2 from `export` into `import` (one transaction on
 * the target). Then compares the rows of every table on both sides. Safe to re-run: a target already
 * holding the same counts is taken for an earlier run (the import skips every row it has); a target holding
 * anything else is refused before anything is written.
 *
 * @example
 * const report = await migrateMemory({ from: '/home/me/.hermes/hymem.sqlite', to: 'postgres://hymem@db/hymem' })
 * console.log(report.tables.messages)
 */
export async function migrateMemory(options: MigrateOptions): Promise<MigrateReport> {
  const from = describeSide(options.from, 'from')
  const to = describeSide(options.to, 'to')
  if (from.key === to.key)
    throw new HyMemError('INVALID_INPUT', `--from and --to are the same memory (${from.shown})`)
  const source = await openSide(from.spec)
  try {
    const target = await openSide(to.spec)
    try {
      const before = await tableCounts(source)
      const already = await tableCounts(target)
      const targetRows = sum(already)
      const rerun = targetRows > 0
      if (rerun && !sameCounts(before, already)) {
        throw new HyMemError(
          'INVALID_INPUT',
          `${to.shown} already holds a different memory (${targetRows} rows); migrate into an empty database or file`,
        )
      }
      const total = sum(before)
      let records = 0
      const counted = async function* (lines: AsyncIterable<string>) {
        for await (const line of lines) {
          records += 1
          if (records % 200 === 0) options.onProgress?.({ records, total })
          yield line
        }
      }
      await target.import(counted(source.export({ withVectors: true })))
      options.onProgress?.({ records, total })
      const after = await tableCounts(target)
      const tables: Record<string, MigratedTable> = {}
      for (const table of new Set([...Object.keys(before), ...Object.keys(after)]))
        tables[table] = { from: before[table] ?? 0, to: after[table] ?? 0 }
      const differing = Object.entries(tables).filter(([, t]) => t.from !== t.to)
      if (differing.length > 0) {
        throw new HyMemError(
          'IMPORT_FAILED',
          `the copy in ${to.shown} does not match ${from.shown}: ${differing.map(([name, t]) => `${name} ${t.from} → ${t.to}`).join(', ')}`,
        )
      }
      return { from: from.shown, to: to.shown, rerun, records, tables }
    } finally {
      await target.close()
    }
  } finally {
    await source.close()
  }
}

interface Side {
  readonly spec: { readonly database: string } | { readonly file: string }
  /** Identifies the memory (the resolved file, or the URL). */
  readonly key: string
  /** For messages, secrets masked. */
  readonly shown: string
}

function describeSide(value: string, flag: string): Side {
  if (typeof value !== 'string' || value.trim() === '')
    throw new HyMemError('INVALID_INPUT', `--${flag} needs a SQLite file or a postgres:// URL`)
  const trimmed = value.trim()
  if (isDatabaseUrl(trimmed)) {
    return {
      spec: { database: trimmed },
      key: trimmed,
      shown: maskSecrets(trimmed),
    }
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed))
    throw new HyMemError(
      'INVALID_INPUT',
      `--${flag} must be a SQLite file or a postgres:// URL, not ${maskSecrets(trimmed)}`,
    )
  const file = resolve(trimmed)
  return { spec: { file }, key: file, shown: file }
}

/** Opens one side with no embedder (vectors are copied as stored) and no Markdown files (rows only). */
function openSide(spec: Side['spec']): Promise<HyMem> {
  const common = { embeddings: null, searchLog: false, dreamCooldownMs: 0 } as const
  return 'database' in spec
    ? createHyMem({ ...common, database: spec.database, markdownMirror: false })
    : createHyMem({ ...common, root: dirname(spec.file), databasePath: spec.file })
}

/** Rows per table a dump carries, summed over every workspace, plus the workspaces themselves. */
async function tableCounts(memory: HyMem): Promise<Record<string, number>> {
  const store = _storeOf(memory)
  const workspaces = await store.workspaces.listAll()
  const counts: Record<string, number> = { workspaces: workspaces.length }
  for (const workspace of workspaces) {
    for (const [table, n] of Object.entries(await store.workspaces.counts(workspace.id))) {
      if (!NOT_CARRIED.has(table)) counts[table] = (counts[table] ?? 0) + n
    }
  }
  return counts
}

function sum(counts: Readonly<Record<string, number>>): number {
  return Object.values(counts).reduce((total, n) => total + n, 0)
}

function sameCounts(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): boolean {
  const tables = new Set([...Object.keys(a), ...Object.keys(b)])
  return [...tables].every((table) => (a[table] ?? 0) === (b[table] ?? 0))
}
