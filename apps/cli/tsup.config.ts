import { packageBuild } from '../../tsup.base'

// An app, not a library: nothing imports it, so no .d.ts (the declaration build of the whole workspace
// type graph was most of the build time).
export default packageBuild(['src/index.ts', 'src/bin.ts'], { dts: false })
