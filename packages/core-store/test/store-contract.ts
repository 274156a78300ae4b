import { describe, expect, it } from 'vitest'
import type { BackendUnderTest } from './backends'
import { describeAliasesContract } from './contracts/aliases'
import { describeBackupContract } from './contracts/backup'
import { describeChunksContract } from './contracts/chunks'
import { describeConclusionsContract } from './contracts/conclusions'
import { describeDreamRunsContract } from './contracts/dream-runs'
import { describeEdgeWritesContract } from './contracts/edge-writes'
import { describeEdgesContract } from './contracts/edges'
import { describeEntityTypesContract } from './contracts/entity-types'
import { describeEpisodesContract } from './contracts/episodes'
import { describeEvidenceContract } from './contracts/evidence'
import { describeFeedbackContract } from './contracts/feedback'
import { describeGraphGenerationsContract } from './contracts/graph-generations'
import { describeHistoryContract } from './contracts/history'
import { describeImportExportContract } from './contracts/import-export'
import { describeLlmCacheContract } from './contracts/llm-cache'
import { describeMarkersContract } from './contracts/markers'
import { describeMentionsContract } from './contracts/mentions'
import { describeMessagesContract } from './contracts/messages'
import { describeNotesContract } from './contracts/notes'
import { describePassagesContract } from './contracts/passages'
import { describePeerCardsContract } from './contracts/peer-cards'
import { describePeersContract } from './contracts/peers'
import { describeProceduresContract } from './contracts/procedures'
import { describePurgesContract } from './contracts/purges'
import { describeQueueTotalsContract } from './contracts/queue-totals'
import { describeScopeContract } from './contracts/scope'
import { describeScopesContract } from './contracts/scopes'
import { describeSearchLogContract } from './contracts/search-log'
import { describeSessionsContract } from './contracts/sessions'
import { describeStoreSurfaceContract } from './contracts/store'
import { describeTopicsContract } from './contracts/topics'
import { describeWorkspacesContract } from './contracts/workspaces'
import { describeFullTextContract } from './full-text-contract'
import { describeInspectorReadsContract } from './inspector-reads-contract'
import { MethodRecorder, storeMethodInventory } from './method-inventory'
import { describeRepositoriesContract } from './repositories-contract'
import { describeVectorIndexContract } from './vector-index-contract'

/**
 * The whole store contract: every public method of every repository, of `fullText`, `vectors` and `runLock`,
 * and the store's own `transaction`/`info`/`fork`/`close`, run against one backend. The last case compares
 * the methods a real store has (read from the object at runtime) with the methods the suite called, so a
 * method added without a contract case turns the suite red.
 *
 * A new backend runs it from one test file: build a `BackendUnderTest` (a label, its vector mode, and `use()`
 * returning fresh stores that are closed after each test, see `sqliteBackend` in ./backends and
 * `postgresBackends` in ./postgres-backends), then call `describeStoreContract(backend)` at the top level.
 */
export function describeStoreContract(backend: BackendUnderTest) {
  const recorder = new MethodRecorder()
  const recorded = recorder.wrap(backend)
  describe(`store contract: ${backend.label}`, () => {
    describeRepositoriesContract(recorded)
    describeFullTextContract(recorded)
    describeVectorIndexContract(recorded)
    describeInspectorReadsContract(recorded)
    describeAliasesContract(recorded)
    describeBackupContract(recorded)
    describeChunksContract(recorded)
    describeConclusionsContract(recorded)
    describeDreamRunsContract(recorded)
    describeEdgeWritesContract(recorded)
    describeEdgesContract(recorded)
    describeEntityTypesContract(recorded)
    describeEpisodesContract(recorded)
    describeEvidenceContract(recorded)
    describeFeedbackContract(recorded)
    describeGraphGenerationsContract(recorded)
    describeHistoryContract(recorded)
    describeImportExportContract(recorded)
    describeLlmCacheContract(recorded)
    describeMarkersContract(recorded)
    describeMentionsContract(recorded)
    describeMessagesContract(recorded)
    describeNotesContract(recorded)
    describePassagesContract(recorded)
    describeTopicsContract(recorded)
    describePeerCardsContract(recorded)
    describePeersContract(recorded)
    describeProceduresContract(recorded)
    describePurgesContract(recorded)
    describeQueueTotalsContract(recorded)
    describeScopeContract(recorded)
    describeScopesContract(recorded)
    describeSearchLogContract(recorded)
    describeSessionsContract(recorded)
    describeStoreSurfaceContract(recorded)
    describeWorkspacesContract(recorded)

    describe('method inventory', () => {
      const stores = backend.use()
      it('every public store method has at least one contract case', async () => {
        const inventory = storeMethodInventory(await stores.open())
        expect(inventory.length).toBeGreaterThan(200)
        expect(inventory.filter((method) => !recorder.called.has(method))).toEqual([])
      })
    })
  })
}
