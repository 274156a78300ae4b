import { type Selectable, sql } from 'kysely'
import { StoreError } from '../kernel/errors'
import type { EdgeStatus, KnowledgeGraphTable } from '../kernel/tables'
import { edgeConfidence } from '../repositories/edge-confidence'
import { builderOf } from '../store/builder'
import type { Store, StoreScope } from '../store/types'
import { isCanonical, normalize } from '../text/normalize'
import { _lookupAlias, _pointAlias } from './aliases'
import { _requireWorkspace } from './workspace-id'

/** Input of {@link mergeCanonical}. */
export interface MergeCanonicalInput {
  readonly workspaceId: string
  /** The entity name to fold away, matched exactly as stored (so drifted spellings can be merged). */
  readonly from: string
  /** The entity that survives; normalized and resolved through the alias table. */
  readonly to: string
}

/** What {@link mergeCanonical} changed. */
export interface MergeCanonicalReport {
  readonly from: string
  /** The canonical name everything now points at. */
  readonly to: string
  /** Edges whose subject or object was renamed in place. */
  readonly edgesRenamed: number
  /** Edges that collided with an existing (subject, predicate, object) and were folded into it. */
  readonly edgesMerged: number
  /** Evidence rows moved onto a surviving edge. */
  readonly evidenceMoved: number
  /** Evidence rows dropped because the surviving edge already had the same chunk's evidence. */
  readonly evidenceDeduplicated: number
  readonly mentionsRewritten: number
  readonly typesRewritten: number
  readonly aliasesRewritten: number
  /** Episodes, procedures and extraction-feedback rows that named the entity. */
  readonly otherRowsRewritten: number
}

type Edge = Selectable<KnowledgeGraphTable>
type Counters = { -readonly [K in Exclude<keyof MergeCanonicalReport, 'from' | 'to'>]: number }

const STATUS_RANK: Record<EdgeStatus, number> = { active: 0, stale: 1, retracted: 2 }
const earliest = (a: string, b: string) => (a <= b ? a : b)
const latest = (a: string, b: string) => (a >= b ? a : b)

/**
 * Folds entity `from` into `to` in one transaction: every reference (graph edges, evidence, mentions,
 * entity types, aliases, episode and procedure entity lists, extraction feedback) is rewritten, and `from`
 * becomes an alias of `to`. When a rewritten edge collides with an existing (subject, predicate, object),
 * the two become one: evidence counters are summed (less evidence both had from the same chunk), evidence
 * rows re-pointed, confidence recomputed as (pos+1)/(pos+neg+2), the livelier status and the widest time
 * span kept, and the folded edge's vector removed.
 *
 * @example
 * ```ts
 * await mergeCanonical(store, { workspaceId: 'w1', from: 'postgres', to: 'postgresql' })
 * ```
 */
export async function mergeCanonical(
  store: Store,
  input: MergeCanonicalInput,
): Promise<MergeCanonicalReport> {
  _requireWorkspace(input.workspaceId)
  if (typeof input.from !== 'string' || input.from === '') {
    throw new StoreError('INVALID_INPUT', 'mergeCanonical needs a non-empty `from` name')
  }
  const target = normalize(input.to)
  if (target === '') {
    throw new StoreError(
      'INVALID_INPUT',
      `Cannot merge into ${JSON.stringify(input.to)}: it has no letters or digits.`,
    )
  }
  return store.transaction(async (tx) => {
    const to = await _lookupAlias(tx, input.workspaceId, target)
    const report = await _mergeWithin(tx, store.context.now(), input.workspaceId, input.from, to)
    await tx.graphGenerations.advance(input.workspaceId)
    return report
  })
}

/** The body of `mergeCanonical`, for callers already inside a transaction. `to` must be canonical. */
export async function _mergeWithin(
  tx: StoreScope,
  now: string,
  workspaceId: string,
  from: string,
  to: string,
): Promise<MergeCanonicalReport> {
  const counters: Counters = {
    edgesRenamed: 0,
    edgesMerged: 0,
    evidenceMoved: 0,
    evidenceDeduplicated: 0,
    mentionsRewritten: 0,
    typesRewritten: 0,
    aliasesRewritten: 0,
    otherRowsRewritten: 0,
  }
  if (from === to) return { from, to, ...counters }
  await mergeEdges(tx, workspaceId, from, to, counters)
  counters.mentionsRewritten = await mergeMentions(tx, workspaceId, from, to)
  counters.typesRewritten = await mergeTypes(tx, workspaceId, from, to, now)
  counters.aliasesRewritten = await mergeAliases(tx, now, workspaceId, from, to)
  counters.otherRowsRewritten = await rewriteOtherReferences(tx, workspaceId, from, to)
  return { from, to, ...counters }
}

async function mergeEdges(tx: StoreScope, workspaceId: string, from: string, to: string, counters: Counters) {
  const edges = await builderOf(tx)
    .selectFrom('knowledge_graph')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where((eb) => eb.or([eb('subject', '=', from), eb('object', '=', from)]))
    .orderBy('id')
    .execute()
  for (const edge of edges) {
    const subject = edge.subject === from ? to : edge.subject
    const object = edge.object === from ? to : edge.object
    const survivor = await builderOf(tx)
      .selectFrom('knowledge_graph')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('subject', '=', subject)
      .where('predicate', '=', edge.predicate)
      .where('object', '=', object)
      .where('derived', '=', edge.derived)
      .where('id', '!=', edge.id)
      .executeTakeFirst()
    if (survivor === undefined) {
      await builderOf(tx)
        .updateTable('knowledge_graph')
        .set({ subject, object })
        .where('id', '=', edge.id)
        .execute()
      counters.edgesRenamed++
    } else {
      await foldEdge(tx, edge, survivor, counters)
      counters.edgesMerged++
    }
  }
}

async function foldEdge(tx: StoreScope, folded: Edge, survivor: Edge, counters: Counters) {
  const evidence = await builderOf(tx)
    .selectFrom('kg_evidence')
    .select(['id', 'chunk_id', 'polarity'])
    .where('edge_id', '=', folded.id)
    .execute()
  const survivorChunks = await builderOf(tx)
    .selectFrom('kg_evidence')
    .select(['chunk_id', 'polarity'])
    .where('edge_id', '=', survivor.id)
    .where('chunk_id', 'is not', null)
    .execute()
  const seen = new Set(survivorChunks.map((row) => `${row.chunk_id}:${row.polarity}`))
  let duplicatePos = 0
  let duplicateNeg = 0
  for (const row of evidence) {
    if (row.chunk_id !== null && seen.has(`${row.chunk_id}:${row.polarity}`)) {
      await builderOf(tx).deleteFrom('kg_evidence').where('id', '=', row.id).execute()
      if (row.polarity > 0) duplicatePos++
      else duplicateNeg++
      counters.evidenceDeduplicated++
    } else {
      await builderOf(tx)
        .updateTable('kg_evidence')
        .set({ edge_id: survivor.id })
        .where('id', '=', row.id)
        .execute()
      counters.evidenceMoved++
    }
  }
  const pos = Math.max(0, survivor.pos_evidence + folded.pos_evidence - duplicatePos)
  const neg = Math.max(0, survivor.neg_evidence + folded.neg_evidence - duplicateNeg)
  const status = STATUS_RANK[folded.status] < STATUS_RANK[survivor.status] ? folded.status : survivor.status
  await builderOf(tx)
    .updateTable('knowledge_graph')
    .set({
      pos_evidence: pos,
      neg_evidence: neg,
      confidence: edgeConfidence(pos, neg),
      status,
      first_seen: earliest(survivor.first_seen, folded.first_seen),
      last_seen: latest(survivor.last_seen, folded.last_seen),
      last_reinforced: latest(survivor.last_reinforced, folded.last_reinforced),
      valid_from: earliest(survivor.valid_from, folded.valid_from),
      valid_to:
        survivor.valid_to === null || folded.valid_to === null
          ? null
          : latest(survivor.valid_to, folded.valid_to),
      superseded_by:
        survivor.superseded_by ?? (folded.superseded_by === survivor.id ? null : folded.superseded_by),
    })
    .where('id', '=', survivor.id)
    .execute()
  await builderOf(tx)
    .updateTable('knowledge_graph')
    .set({ superseded_by: survivor.id })
    .where('superseded_by', '=', folded.id)
    .where('id', '!=', survivor.id)
    .execute()
  await tx.vectors.remove('edges', folded.workspace_id, [folded.id])
  await builderOf(tx).deleteFrom('knowledge_graph').where('id', '=', folded.id).execute()
}

async function mergeMentions(tx: StoreScope, workspaceId: string, from: string, to: string): Promise<number> {
  await sql`INSERT INTO entity_mentions (workspace_id, chunk_id, entity)
    SELECT workspace_id, chunk_id, CAST(${to} AS text) FROM entity_mentions WHERE workspace_id = ${workspaceId} AND entity = ${from}
    ON CONFLICT DO NOTHING`.execute(builderOf(tx))
  const removed = await builderOf(tx)
    .deleteFrom('entity_mentions')
    .where('workspace_id', '=', workspaceId)
    .where('entity', '=', from)
    .executeTakeFirst()
  return Number(removed.numDeletedRows)
}

async function mergeTypes(tx: StoreScope, workspaceId: string, from: string, to: string, now: string) {
  const rows = await builderOf(tx)
    .selectFrom('entity_types')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('entity', 'in', [from, to])
    .execute()
  const old = rows.find((row) => row.entity === from)
  const kept = rows.find((row) => row.entity === to)
  if (old === undefined) return 0
  if (kept === undefined) {
    await builderOf(tx)
      .updateTable('entity_types')
      .set({ entity: to })
      .where('workspace_id', '=', workspaceId)
      .where('entity', '=', from)
      .execute()
    return 1
  }
  // same type: the evidence adds up; different types: the better-supported one wins (ties keep `to`'s)
  const winner = old.type === kept.type || kept.evidence >= old.evidence ? kept : old
  const evidence = old.type === kept.type ? old.evidence + kept.evidence : winner.evidence
  await builderOf(tx)
    .updateTable('entity_types')
    .set({ type: winner.type, evidence, updated_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('entity', '=', to)
    .execute()
  await builderOf(tx)
    .deleteFrom('entity_types')
    .where('workspace_id', '=', workspaceId)
    .where('entity', '=', from)
    .execute()
  return 1
}

async function mergeAliases(tx: StoreScope, now: string, workspaceId: string, from: string, to: string) {
  let changed = 0
  if (!isCanonical(from)) {
    // a drifted spelling stored as a surface: its normalized form takes over below
    const dropped = await builderOf(tx)
      .deleteFrom('entity_aliases')
      .where('workspace_id', '=', workspaceId)
      .where('surface', '=', from)
      .executeTakeFirst()
    changed += Number(dropped.numDeletedRows)
  }
  changed += await _pointAlias(tx, now, workspaceId, from, to)
  // the folded name keeps resolving to the survivor
  const surface = normalize(from)
  if (surface !== '' && surface !== from) changed += await _pointAlias(tx, now, workspaceId, surface, to)
  const identities = await builderOf(tx)
    .deleteFrom('entity_aliases')
    .where('workspace_id', '=', workspaceId)
    .where('canonical', '=', to)
    .whereRef('surface', '=', 'canonical')
    .executeTakeFirst()
  return changed + Number(identities.numDeletedRows)
}

async function rewriteOtherReferences(tx: StoreScope, workspaceId: string, from: string, to: string) {
  let changed = 0
  for (const table of ['episodes', 'procedures'] as const) {
    const rows = await builderOf(tx)
      .selectFrom(table)
      .select(['id', 'entities'])
      .where('workspace_id', '=', workspaceId)
      // A prefilter both engines run (jsonb prints strings as JSON does); the exact test is below.
      .where(
        sql<boolean>`CAST(entities AS text) LIKE ${`%${likeEscaped(JSON.stringify(from))}%`} ESCAPE '\\'`,
      )
      .execute()
    for (const row of rows) {
      const listed = parseNames(row.entities)
      if (!listed.includes(from)) continue
      const names = listed.map((name) => (name === from ? to : name))
      const entities = JSON.stringify([...new Set(names)])
      await builderOf(tx).updateTable(table).set({ entities }).where('id', '=', row.id).execute()
      changed++
    }
  }
  for (const column of ['subject', 'object'] as const) {
    const result = await builderOf(tx)
      .updateTable('extraction_feedback')
      .set({ [column]: to })
      .where('workspace_id', '=', workspaceId)
      .where(column, '=', from)
      .executeTakeFirst()
    changed += Number(result.numUpdatedRows)
  }
  return changed
}

function likeEscaped(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`)
}

function parseNames(text: string): unknown[] {
  try {
    const parsed: unknown = JSON.parse(text)
    return Array.isArray(parsed) ? parsed : []
  } catch {
    return []
  }
}
