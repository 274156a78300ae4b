import { describeFullTextContract } from '../../test/full-text-contract'

describeFullTextContract('store with sqlite-vec', { loadVectorExtension: true })
describeFullTextContract('store without sqlite-vec', { loadVectorExtension: false })
