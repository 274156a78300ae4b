import { sql } from 'kysely'
import { builderOf } from '../store/builder'
import type { Store, StoreScope } from '../store/types'
import { normalize } from '../text/normalize'
import { _lookupAlias } from './aliases'
import { _mergeWithin, type MergeCanonicalReport } from './merge'
import { _requireWorkspace } from './workspace-id'

/** Where canonical entity names are stored. */
export type CanonicalColumn =
  | 'entity_aliases.surface'
  | 'entity_aliases.canonical'
  | 'knowledge_graph.subject'
  | 'knowledge_graph.object'
  | 'entity_mentions.entity'
  | 'entity_types.entity'

/** A stored entity name that `normalize()` would change: written around the canonicalizer. */
export interface CanonicalDrift {
  readonly workspaceId: string
  readonly column: CanonicalColumn
  readonly value: string
  /** `normalize(value)`; `''` when the value has no letters or digits and cannot be repaired by renaming. */
  readonly normalized: string
  /** How many rows hold `value` in `column`. */
  readonly rows: number
}

/** Options of {@link findCanonicalDrift} and {@link repairCanonicalDrift}. */
export interface CanonicalDriftOptions {
  /** Limit to one workspace; all workspaces by default. */
  readonly workspaceId?: string
}

/** What {@link repairCanonicalDrift} did. */
export interface CanonicalDriftRepair {
  /** One merge per drifted name, in the order applied. */
  readonly merges: readonly MergeCanonicalReport[]
  /** Alias rows whose drifted surface was renamed to its normalized form (or dropped as a duplicate). */
  readonly aliasSurfacesFixed: number
  /** Drift left alone: names with nothing usable in them, which only an operator can decide about. */
  readonly skipped: readonly CanonicalDrift[]
}

const COLUMNS: readonly { column: CanonicalColumn; table: string; name: string }[] = [
  { column: 'entity_aliases.surface', table: 'entity_aliases', name: 'surface' },
  { column: 'entity_aliases.canonical', table: 'entity_aliases', name: 'canonical' },
  { column: 'knowledge_graph.subject', table: 'knowledge_graph', name: 'subject' },
  { column: 'knowledge_graph.object', table: 'knowledge_graph', name: 'object' },
  { column: 'entity_mentions.entity', table: 'entity_mentions', name: 'entity' },
  { column: 'entity_types.entity', table: 'entity_types', name: 'entity' },
]

async function scan(scope: StoreScope, workspaceId: string | undefined): Promise<CanonicalDrift[]> {
  if (workspaceId !== undefined) _requireWorkspace(workspaceId)
  const drift: CanonicalDrift[] = []
  for (const { column, table, name } of COLUMNS) {
    const filter = workspaceId === undefined ? sql`` : sql`WHERE workspace_id = ${workspaceId}`
    const { rows } = await sql<{ workspace_id: string; value: string; rows: number }>`
      SELECT workspace_id, ${sql.ref(name)} AS value, count(*) AS rows FROM ${sql.table(table)} ${filter}
      GROUP BY workspace_id, ${sql.ref(name)} ORDER BY workspace_id, ${sql.ref(name)}`.execute(
      builderOf(scope),
    )
    for (const row of rows) {
      const normalized = normalize(row.value)
      if (normalized !== row.value) {
        drift.push({ workspaceId: row.workspace_id, column, value: row.value, normalized, rows: row.rows })
      }
    }
  }
  return drift
}

/**
 * Stored entity names that `normalize()` would change, in the alias table, the knowledge graph, entity
 * mentions and entity types: a sign that something wrote around the canonicalizer. `doctor` reports these;
 * {@link repairCanonicalDrift} fixes them.
 */
export function findCanonicalDrift(
  store: StoreScope,
  options: CanonicalDriftOptions = {},
): Promise<CanonicalDrift[]> {
  return scan(store, options.workspaceId)
}

/**
 * Rewrites every drifted name to its canonical form with `mergeCanonical` semantics (a name whose
 * normalized form is an alias goes to that alias's canonical; evidence is summed where edges collide), in
 * one transaction. Names with nothing usable in them are reported in `skipped`, not touched.
 */
export async function repairCanonicalDrift(
  store: Store,
  options: CanonicalDriftOptions = {},
): Promise<CanonicalDriftRepair> {
  return store.transaction(async (tx) => {
    const now = store.context.now()
    const drift = await scan(tx, options.workspaceId)
    const skipped = drift.filter((d) => d.normalized === '')
    const merges: MergeCanonicalReport[] = []
    const merged = new Set<string>()
    for (const d of drift) {
      if (d.normalized === '' || d.column === 'entity_aliases.surface') continue
      const key = JSON.stringify([d.workspaceId, d.value])
      if (merged.has(key)) continue
      merged.add(key)
      const to = await _lookupAlias(tx, d.workspaceId, d.normalized)
      merges.push(await _mergeWithin(tx, now, d.workspaceId, d.value, to))
    }
    let aliasSurfacesFixed = 0
    for (const d of drift) {
      if (d.normalized === '' || d.column !== 'entity_aliases.surface') continue
      aliasSurfacesFixed += await fixAliasSurface(tx, d.workspaceId, d.value, d.normalized)
    }
    return { merges, aliasSurfacesFixed, skipped }
  })
}

// An alias stored under a drifted surface: rename it, unless the normalized surface already has an alias
// (that one wins) or the rename would make it point at itself.
async function fixAliasSurface(tx: StoreScope, workspaceId: string, surface: string, normalized: string) {
  const row = await builderOf(tx)
    .selectFrom('entity_aliases')
    .select('canonical')
    .where('workspace_id', '=', workspaceId)
    .where('surface', '=', surface)
    .executeTakeFirst()
  if (row === undefined) return 0
  const taken = await builderOf(tx)
    .selectFrom('entity_aliases')
    .select('surface')
    .where('workspace_id', '=', workspaceId)
    .where('surface', '=', normalized)
    .executeTakeFirst()
  const query = builderOf(tx).updateTable('entity_aliases').set({ surface: normalized })
  if (taken !== undefined || normalized === row.canonical) {
    await builderOf(tx)
      .deleteFrom('entity_aliases')
      .where('workspace_id', '=', workspaceId)
      .where('surface', '=', surface)
      .execute()
  } else {
    await query.where('workspace_id', '=', workspaceId).where('surface', '=', surface).execute()
  }
  return 1
}
