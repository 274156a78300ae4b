import { describeFullTextContract } from '../../test/full-text-contract'
import { describeInspectorReadsContract } from '../../test/inspector-reads-contract'
import { postgresBackends } from '../../test/postgres-backends'
import { describeRepositoriesContract } from '../../test/repositories-contract'
import { describeVectorIndexContract } from '../../test/vector-index-contract'

for (const backend of postgresBackends()) {
  describeRepositoriesContract(backend)
  describeFullTextContract(backend)
  describeVectorIndexContract(backend)
  describeInspectorReadsContract(backend)
}
