import type { StoreScope } from '@hymem/core-store'
import { guardedMethods } from './guarded-methods'
import type { HyMemRecords } from './types'

/** The records of one store scope (the store, or a transaction of it), each call checking `ensureOpen`. */
export function createRecords(scope: StoreScope, ensureOpen: () => void): HyMemRecords {
  return {
    workspaces: guardedMethods(scope.workspaces, ['get', 'getOrCreate', 'list', 'update'], ensureOpen),
    sessions: guardedMethods(
      scope.sessions,
      [
        'get',
        'getOrCreate',
        'update',
        'list',
        'listPeers',
        'listMemberPeers',
        'getPeer',
        'addPeers',
        'removePeers',
        'setPeerConfiguration',
        'listIdsForPeer',
        'listChunkWatermarks',
      ],
      ensureOpen,
    ),
    peers: {
      ...guardedMethods(scope.peers, ['get', 'getOrCreate', 'update', 'list', 'listAll'], ensureOpen),
      ...guardedMethods(scope.markers, ['profileEntries'], ensureOpen),
    },
    peerCards: guardedMethods(scope.peerCards, ['get', 'set'], ensureOpen),
    scopes: guardedMethods(
      scope.scopes,
      ['get', 'getOrCreate', 'list', 'addSessions', 'removeSession', 'listSessions', 'members', 'sessionIds'],
      ensureOpen,
    ),
    messages: {
      ...guardedMethods(
        scope.messages,
        [
          'getByPublicId',
          'getByIds',
          'findByIds',
          'listBySession',
          'recent',
          'count',
          'countBySession',
          'updateMetadata',
        ],
        ensureOpen,
      ),
      async searchText(workspaceId, query, options) {
        ensureOpen()
        return scope.fullText.search('messages', query, { workspaceId, ...options })
      },
    },
    conclusions: guardedMethods(scope.conclusions, ['find', 'list'], ensureOpen),
  }
}
