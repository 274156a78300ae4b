import { postgresBackends } from '../../../test/postgres-backends'
import { describeStoreContract } from '../../../test/store-contract'

for (const backend of postgresBackends()) describeStoreContract(backend)
