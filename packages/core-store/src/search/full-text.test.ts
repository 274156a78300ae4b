import { sqliteBackend } from '../../test/backends'
import { describeFullTextContract } from '../../test/full-text-contract'

describeFullTextContract(sqliteBackend({ loadVectorExtension: true }))
describeFullTextContract(sqliteBackend({ loadVectorExtension: false }))
