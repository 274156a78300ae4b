import type { Chunk, StoreScope } from '@hymem/core-store'
import { type ExtractedTriple, type ExtractFactsResult, isMarkerKind, isPredicate } from '@hymem/extraction'
import { count, type RunContext } from '../run/context'
import { Canonicalizer, USER_SUBJECT } from './canonical'
import { upsertEdge } from './edges'
import { tripleKey } from './feedback'
import type { MentionMatcher } from './mentions'
import { applySupersede } from './supersede'

/**
 * Writes one chunk's extraction in ONE transaction: edges with evidence (and supersessions), markers, entity
 * types, the `user` alias, the chunk's mentions and its `processed_chunks` row. A crash leaves either all of
 * it or none, and a replay adds nothing (evidence and markers are unique per chunk).
 */
export async function writeChunkFacts(
  ctx: RunContext,
  chunk: Chunk,
  facts: ExtractFactsResult,
  blocked: ReadonlySet<string>,
  matcher: MentionMatcher,
): Promise<void> {
  const { workspaceId, extractor } = ctx
  const { messageIds } = chunk
  const stats = await ctx.store.transaction(async (tx) => {
    const speaker = await singleUserAuthor(tx, workspaceId, messageIds)
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
      await tx.entityTypes.vote(workspaceId, entity, type)
      tally.types++
    }
    for (const triple of facts.triples) {
      if (!validTriple(triple)) {
        tally.invalid++
        continue
      }
      const subject = peerIdOf(triple.subjectPeerId)
        ? canon.peer(triple.subjectPeerId)
        : await canon.resolve(triple.subject)
      const object = peerIdOf(triple.objectPeerId)
        ? canon.peer(triple.objectPeerId)
        : await canon.resolve(triple.object)
      if (subject === '' || object === '' || subject === object) continue
      const key = { subject, predicate: triple.predicate, object }
      if (blocked.has(tripleKey(key))) {
        tally.blocked++
        continue
      }
      const result = await upsertEdge(tx, workspaceId, key, {
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
        observedAt: chunk.occurredAt,
      })
      if (!result.edge) {
        tally.unknownNegations++
        continue
      }
      if (result.evidenceAdded) tally.upserted++
      if (result.created) tally.created++
      if (triple.polarity === 1)
        tally.superseded += await applySupersede(tx, workspaceId, result.edge, chunk.occurredAt)
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
      const inserted = await tx.markers.add(workspaceId, {
        peerId: peerIdOf(marker.peerId) ? marker.peerId : speaker,
        chunkId: chunk.id,
        kind: marker.kind,
        statement: marker.statement.trim(),
        observedAt: chunk.occurredAt,
      })
      if (inserted) tally.markers++
    }
    // `user` → the speaking peer, so queries naming either find the same facts. The first peer claims it; in
    // a workspace with several user peers the alias keeps its first owner and chunks still resolve `user` to
    // their own author. (core-store's `addAlias` re-points on every call and opens its own transaction.)
    if (canon.speaker) await tx.aliases.claim(workspaceId, USER_SUBJECT, canon.speaker)
    for (const e of entities) matcher.add(e, e)
    await tx.mentions.add(workspaceId, chunk.id, matcher.match(chunk.text))
    await tx.chunks.markProcessed(workspaceId, chunk.id, {
      promptVersion: extractor.promptVersion,
      extractor: extractor.name,
    })
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

/** A usable peer id from an extractor (a custom one may send anything). */
function peerIdOf(id: unknown): id is string {
  return typeof id === 'string' && id.trim() !== ''
}

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
async function singleUserAuthor(
  tx: StoreScope,
  workspaceId: string,
  messageIds: readonly number[],
): Promise<string | null> {
  if (messageIds.length === 0) return null
  const authors = await tx.messages.listUserAuthors(workspaceId, messageIds)
  return authors.length === 1 ? authors[0]! : null
}
