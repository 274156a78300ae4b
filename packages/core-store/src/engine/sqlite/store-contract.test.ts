import { sqliteBackend } from '../../../test/backends'
import { describeStoreContract } from '../../../test/store-contract'

describeStoreContract(sqliteBackend({ loadVectorExtension: true }))
describeStoreContract(sqliteBackend({ loadVectorExtension: false }))
