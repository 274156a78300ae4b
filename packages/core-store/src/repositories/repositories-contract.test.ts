import { sqliteBackend } from '../../test/backends'
import { describeInspectorReadsContract } from '../../test/inspector-reads-contract'
import { describeRepositoriesContract } from '../../test/repositories-contract'

describeRepositoriesContract(sqliteBackend({ loadVectorExtension: true }))
describeInspectorReadsContract(sqliteBackend({ loadVectorExtension: true }))
