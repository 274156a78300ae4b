import { packageBuild } from '../../tsup.base'

export default packageBuild({
  index: 'src/index.ts',
  postgres: 'src/engine/postgres/index.ts',
  sqlite: 'src/engine/sqlite/index.ts',
})
