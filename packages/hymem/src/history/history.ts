import { normalize, resolveAlias, type Store } from '@hymem/core-store'
import { HyMemError } from '../errors'
import type { EntityHistory } from './types'

/**
 * The history of an entity's facts: supersede chains, retractions and inferred facts, oldest first, each with
 * its evidence (public message ids) and both clocks. The name is normalised and resolved through aliases.
 */
export async function entityHistory(
  store: Store,
  workspaceId: string,
  subject: string,
): Promise<EntityHistory> {
  const name = typeof subject === 'string' ? normalize(subject) : ''
  if (name === '')
    throw new HyMemError('INVALID_INPUT', 'history needs an entity name with letters or digits')
  const entity = (await resolveAlias(store, { workspaceId, surface: name })) ?? name
  const entries = await store.history.forEntity(workspaceId, entity)
  const publicIds = await store.messages.publicIdsOf(
    workspaceId,
    entries.flatMap((e) => e.evidence.flatMap((x) => x.messageIds)),
  )
  return {
    entity,
    facts: entries.map(({ fact, evidence, ...clocks }) => ({
      id: fact.id,
      subject: fact.subject,
      predicate: fact.predicate,
      object: fact.object,
      status: fact.status,
      derived: fact.derived,
      confidence: fact.confidence,
      posEvidence: fact.posEvidence,
      negEvidence: fact.negEvidence,
      becameTrueAt: clocks.becameTrueAt,
      validTo: fact.validTo,
      learnedAt: clocks.learnedAt,
      learnedInRun: clocks.learnedInRun,
      supersededBy: clocks.supersededBy,
      supersedes: clocks.supersedes,
      retraction: clocks.retraction,
      evidence: evidence.map((item) => ({
        text: item.evidenceText,
        polarity: item.polarity === -1 ? -1 : 1,
        source: item.source,
        observedAt: item.observedAt,
        recordedAt: item.createdAt,
        messageIds: item.messageIds.flatMap((id) => {
          const publicId = publicIds.get(id)
          return publicId === undefined ? [] : [publicId]
        }),
      })),
    })),
  }
}
