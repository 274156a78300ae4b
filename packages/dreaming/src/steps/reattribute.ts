import { type Edge, normalize, type StoreScope } from '@hymem/core-store'
import { count, type RunContext } from '../run/context'
import { USER_SUBJECT } from './canonical'

/** Subjects plain-text extraction gave a speaker it could not name: facts under them await their peer. */
const SPEAKER_SUBJECTS = [USER_SUBJECT, 'team']

/**
 * Re-attribution of facts stored before dreaming read speakers. A prompt-version bump makes every chunk be
 * read again with its speakers, which writes the fact again under its author's peer. A current fact under
 * `user` or `team` is superseded (status `stale`, kept as history) by the peer fact that the re-read wrote
 * with the same predicate and object from each of its evidence chunks. A fact some chunk did not re-assert
 * under a peer (an agent's turn, no human author, a chunk deleted or not yet re-read, evidence without a
 * chunk) stays as it is: it cannot be re-attributed. One transaction.
 */
export async function reattributeSpeakerFacts(ctx: RunContext): Promise<void> {
  const { store, workspaceId } = ctx
  const peers = new Set((await store.peers.listAll(workspaceId)).map((peer) => normalize(peer.id)))
  // A peer may be called `user` (the facade's default peer): its facts are its own, nothing to move.
  const subjects = SPEAKER_SUBJECTS.filter((subject) => !peers.has(subject))
  if (peers.size === 0 || subjects.length === 0) return
  const stats = await store.transaction(async (tx) => {
    const candidates = (
      await Promise.all(subjects.map((subject) => tx.edges.findCurrentDirect(workspaceId, { subject })))
    ).flat()
    let moved = 0
    let kept = 0
    const now = store.context.clock().toISOString()
    for (const edge of candidates) {
      const winner = await peerFactCovering(tx, workspaceId, edge, peers)
      if (winner === null) {
        kept++
        continue
      }
      if (await tx.edges.supersede(workspaceId, edge.id, { winnerId: winner, validTo: now })) moved++
    }
    return { moved, kept }
  })
  if (stats.moved > 0) count(ctx, 'factsReattributed', stats.moved)
  if (stats.kept > 0) count(ctx, 'factsNotReattributed', stats.kept)
}

/**
 * The peer fact with the edge's predicate and object whose evidence covers every chunk of the edge's
 * evidence, or null (the first such fact by id; "we both" gives one per participant, each a full cover).
 */
async function peerFactCovering(
  tx: StoreScope,
  workspaceId: string,
  edge: Edge,
  peers: ReadonlySet<string>,
): Promise<number | null> {
  const evidence = (await tx.evidence.forEdge(workspaceId, edge.id)).filter((row) => row.polarity === 1)
  if (evidence.length === 0 || evidence.some((row) => row.chunkId === null)) return null
  const chunks = new Set(evidence.map((row) => row.chunkId as number))
  const rivals = (
    await tx.edges.findCurrentDirect(workspaceId, { predicate: edge.predicate, object: edge.object })
  ).filter((rival) => rival.id !== edge.id && peers.has(rival.subject))
  if (rivals.length === 0) return null
  const support = await tx.evidence.forEdges(
    workspaceId,
    rivals.map((rival) => rival.id),
  )
  for (const rival of rivals) {
    const covered = new Set(
      support.filter((row) => row.edgeId === rival.id && row.polarity === 1).map((row) => row.chunkId),
    )
    if ([...chunks].every((chunk) => covered.has(chunk))) return rival.id
  }
  return null
}
