import type { ForgetTarget, Store } from '@hymem/core-store'
import { HyMemError } from '../errors'
import { requireSessionId, requireWorkspaceId } from '../input'
import type { HyMemLog } from '../log'
import type { NotesContext } from '../notes/context'
import { getNote } from '../notes/forget'
import type { Purger } from './purger'
import type { DeletionReceipt, ForgetOptions, HyMemErase } from './types'

/** What `memory.erase` needs from its facade. */
export interface EraseApiParts {
  readonly store: Store
  readonly purger: Purger
  readonly notes: NotesContext
  readonly log: HyMemLog
  /** The workspace a call names, or the facade's default one (validated); throws when the facade is closed. */
  readonly workspace: (workspaceId: string | undefined) => string
}

/** Builds `memory.erase`: each entry point checks its target, then hands it to the purger. */
export function createEraseApi(parts: EraseApiParts): HyMemErase {
  const { store, purger, workspace } = parts
  const forget = (options: ForgetOptions, target: ForgetTarget): Promise<DeletionReceipt> =>
    purger.forget(workspace(options.workspaceId), target, options.wait === true)
  return {
    async session(sessionId, options = {}) {
      requireSessionId(sessionId)
      return forget(options, { kind: 'session', sessionId })
    },
    async workspace(workspaceId, options = {}) {
      return forget({ ...options, workspaceId: requireWorkspaceId(workspaceId) }, { kind: 'workspace' })
    },
    async messages(messageIds, options = {}) {
      if (!Array.isArray(messageIds) || !messageIds.every((id) => typeof id === 'string' && id !== '')) {
        throw new HyMemError(
          'INVALID_INPUT',
          'messageIds must be an array of message ids (non-empty strings)',
        )
      }
      const located = await store.messages.locate(workspace(options.workspaceId), messageIds)
      return forget(options, { kind: 'messages', messageIds: [...located.values()].map((m) => m.id) })
    },
    async peerMessages(peerId, options = {}) {
      if (typeof peerId !== 'string' || peerId === '')
        throw new HyMemError('INVALID_INPUT', 'peer id must be a non-empty string')
      return forget(options, { kind: 'peer-messages', peerId })
    },
    async note(id, options = {}) {
      const note = await getNote(parts.notes, workspace(options.workspaceId), id, true)
      if (!note) return null
      const receipt = await forget(options, { kind: 'note', noteId: id })
      parts.log({ kind: 'note', level: 'info', action: 'deleted', workspaceId: note.workspaceId, ids: [id] })
      return receipt
    },
    async fact(edgeId, options = {}) {
      if (!Number.isSafeInteger(edgeId) || edgeId < 1)
        throw new HyMemError('INVALID_INPUT', 'a fact id must be a positive integer')
      const workspaceId = workspace(options.workspaceId)
      const [edge] = await store.edges.getByIds(workspaceId, [edgeId])
      if (!edge || edge.workspaceId !== workspaceId) return null
      return forget(options, { kind: 'fact', edgeId })
    },
    receipts: async (options = {}) =>
      store.purges.recent(workspace(options.workspaceId), options.limit ?? 20),
    async finish(options = {}) {
      const workspaceId = workspace(options.workspaceId)
      return purger.settle(options.workspaceId === undefined ? undefined : workspaceId)
    },
  }
}
