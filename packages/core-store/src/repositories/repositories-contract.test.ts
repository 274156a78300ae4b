import { sqliteBackend } from '../../test/backends'
import { describeRepositoriesContract } from '../../test/repositories-contract'

describeRepositoriesContract(sqliteBackend({ loadVectorExtension: true }))
