import type { StoreScope } from '@hymem/core-store'
import { type ExtractedTriple, type ExtractFactsResult, isMarkerKind, isPredicate } from '@hymem/extraction'
import { count, type RunContext } from '../run/context'
import { Canonicalizer, USER_SUBJECT } from './canonical'
import { upsertEdge } from './edges'
import { tripleKey } from './feedback'
import type { MentionMatcher } from './mentions'
import { indexMentions } from './mentions'
import { applySupersede } from './supersede'

/** A chunk waiting for extraction. */
export interface PendingChunk {
  readonly id: number
  readonly session_id: string
  readonly text: string
  readonly message_ids: string
  readonly occurred_at: string
}

/**
 * Writes one chunk's extraction in ONE transaction: edges with evidence (and supersessions), markers, entity
 * types, the `user` alias, the chunk's mentions and its `processed_chunks` row. A crash leaves either all of
 * it or none, and a replay adds nothing (evidence and markers are unique per chunk).
 */
export async function writeChunkFacts(
  ctx: RunContext,
  chunk: PendingChunk,
  facts: ExtractFactsResult,
  blocked: ReadonlySet<string>,
  matcher: MentionMatcher,
): Promise<void> {
  const { workspaceId, extractor } = ctx
  const messageIds = JSON.parse(chunk.message_ids) as number[]
  const now = ctx.store.context.now()
  const stats = await ctx.store.transaction(async (tx) => {
    const speaker = await singleUserAuthor(tx, messageIds)
    const canon = new Canonicalizer(tx, workspaceId, speaker)
    const tally = {
      upserted: 0,
      created: 0,
      superseded: 0,
      blocked: 0,
      markers: 0,
      types: 0,
      invalid: 0,
      unknownNegations: 0,
    }
    const entities = new Set<string>()
    // Types first: supersession of single-valued predicates compares the objects' kinds.
    for (const t of facts.entityTypes) {
      if (typeof t?.entity !== 'string' || typeof t.type !== 'string') {
        tally.invalid++
        continue
      }
      const entity = await canon.resolve(t.entity)
      const type = t.type.trim().toLowerCase().slice(0, 60)
      if (entity === '' || entity === USER_SUBJECT || type === '') continue
      await voteEntityType(tx, workspaceId, entity, type, now)
      tally.types++
    }
    for (const triple of facts.triples) {
      if (!validTriple(triple)) {
        tally.invalid++
        continue
      }
      const subject = await canon.resolve(triple.subject)
      const object = await canon.resolve(triple.object)
      if (subject === '' || object === '' || subject === object) continue
      const key = { subject, predicate: triple.predicate, object }
      if (blocked.has(tripleKey(key))) {
        tally.blocked++
        continue
      }
      const result = await upsertEdge(
        tx,
        workspaceId,
        key,
        {
          chunkId: chunk.id,
          messageIds,
          polarity: triple.polarity,
          valueNumeric: Number.isFinite(triple.valueNumeric) ? triple.valueNumeric : undefined,
          valueUnit: clip(triple.valueUnit),
          temporalScope: clip(triple.temporalScope),
          evidenceText: clip(triple.evidenceText),
          valueText: clip(triple.valueText),
          source: 'extraction',
          promptVersion: extractor.promptVersion,
          observedAt: chunk.occurred_at,
        },
        now,
      )
      if (!result.edge) {
        tally.unknownNegations++
        continue
      }
      if (result.evidenceAdded) tally.upserted++
      if (result.created) tally.created++
      if (triple.polarity === 1)
        tally.superseded += await applySupersede(tx, workspaceId, result.edge, chunk.occurred_at)
      entities.add(subject).add(object)
    }
    for (const marker of facts.markers) {
      if (
        !isMarkerKind(String(marker?.kind)) ||
        typeof marker.statement !== 'string' ||
        !marker.statement.trim()
      ) {
        tally.invalid++
        continue
      }
      const inserted = await tx.db
        .insertInto('behavioral_markers')
        .values({
          workspace_id: workspaceId,
          peer_id: speaker,
          chunk_id: chunk.id,
          kind: marker.kind,
          statement: marker.statement.trim(),
          observed_at: chunk.occurred_at,
          created_at: now,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst()
      tally.markers += Number(inserted.numInsertedOrUpdatedRows ?? 0)
    }
    if (canon.speaker) await registerUserAlias(tx, workspaceId, canon.speaker, now)
    for (const e of entities) matcher.add(e, e)
    await indexMentions(tx, workspaceId, chunk.id, matcher.match(chunk.text))
    await tx.db
      .insertInto('processed_chunks')
      .values({
        chunk_id: chunk.id,
        prompt_version: extractor.promptVersion,
        extractor: extractor.name,
        processed_at: now,
      })
      .onConflict((oc) => oc.doNothing())
      .execute()
    return tally
  })
  ctx.tally.edgesUpserted += stats.upserted
  ctx.tally.chunksProcessed++
  count(ctx, 'edgesCreated', stats.created)
  count(ctx, 'edgesSuperseded', stats.superseded)
  count(ctx, 'triplesBlockedByFeedback', stats.blocked)
  count(ctx, 'markers', stats.markers)
  count(ctx, 'entityTypes', stats.types)
  count(ctx, 'droppedTriples', facts.dropped.triples)
  count(ctx, 'invalidItemsSkipped', stats.invalid)
  count(ctx, 'negationsOfUnknownFacts', stats.unknownNegations)
}

const MAX_TEXT = 2000

const clip = (text: string | undefined) => (typeof text === 'string' ? text.slice(0, MAX_TEXT) : undefined)

/**
 * Items a custom extractor may get wrong are skipped, never written: a bad row would fail the chunk's
 * transaction on every retry and block the chunk for good.
 */
function validTriple(t: ExtractedTriple | null | undefined): t is ExtractedTriple {
  return (
    !!t &&
    typeof t.subject === 'string' &&
    typeof t.object === 'string' &&
    isPredicate(String(t.predicate)) &&
    (t.polarity === 1 || t.polarity === -1)
  )
}

/** The peer id of the chunk's only user-role author, or null when there are none or several. */
async function singleUserAuthor(tx: StoreScope, messageIds: readonly number[]): Promise<string | null> {
  if (messageIds.length === 0) return null
  const rows = await tx.db
    .selectFrom('messages')
    .select('peer_id')
    .distinct()
    .where('id', 'in', messageIds)
    .where('role', '=', 'user')
    .execute()
  return rows.length === 1 ? rows[0]!.peer_id : null
}

/** Majority vote: agreeing evidence adds one, disagreeing takes one away and flips the type at zero. */
async function voteEntityType(
  tx: StoreScope,
  workspaceId: string,
  entity: string,
  type: string,
  now: string,
) {
  const row = await tx.db
    .selectFrom('entity_types')
    .select(['type', 'evidence'])
    .where('workspace_id', '=', workspaceId)
    .where('entity', '=', entity)
    .executeTakeFirst()
  if (!row) {
    await tx.db
      .insertInto('entity_types')
      .values({ workspace_id: workspaceId, entity, type, updated_at: now })
      .execute()
    return
  }
  const patch =
    row.type === type
      ? { evidence: row.evidence + 1 }
      : row.evidence <= 1
        ? { type, evidence: 1 }
        : { evidence: row.evidence - 1 }
  await tx.db
    .updateTable('entity_types')
    .set({ ...patch, updated_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('entity', '=', entity)
    .execute()
}

/**
 * `user` → the speaking peer, so queries naming either find the same facts. The first peer claims it; in a
 * workspace with several user peers the alias keeps its first owner and chunks still resolve `user` to
 * their own author. (core-store's `addAlias` re-points on every call and opens its own transaction, so
 * this first-wins insert is written here, inside the chunk's transaction.)
 */
async function registerUserAlias(tx: StoreScope, workspaceId: string, peer: string, now: string) {
  await tx.db
    .insertInto('entity_aliases')
    .values({ workspace_id: workspaceId, surface: USER_SUBJECT, canonical: peer, created_at: now })
    .onConflict((oc) => oc.doNothing())
    .execute()
}
