// Scaffolds a workspace package: node scripts/new-package.mjs <dir> <name> <description>
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const [dir, name, description] = process.argv.slice(2)
if (!dir || !name) throw new Error('usage: new-package.mjs <dir> <name> <description>')
mkdirSync(join(dir, 'src'), { recursive: true })
// Published packages drop the source condition (`publishConfig.exports`); scripts/pack-test checks both agree.
const pkg = {
  name,
  version: '0.1.0',
  description,
  license: 'MIT',
  type: 'module',
  sideEffects: false,
  files: ['dist'],
  exports: {
    '.': { '@hymem/source': './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' },
  },
  publishConfig: {
    access: 'public',
    exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
  },
  engines: { node: '>=20.11' },
  scripts: { build: 'tsup', typecheck: 'tsc -p tsconfig.json --noEmit' },
  dependencies: {},
  devDependencies: {},
}
const write = (file, text) => {
  if (!existsSync(join(dir, file))) writeFileSync(join(dir, file), text)
}
write('package.json', `${JSON.stringify(pkg, null, 2)}\n`)
write(
  'tsconfig.json',
  `${JSON.stringify({ extends: '../../tsconfig.base.json', include: ['src', 'test'] }, null, 2)}\n`,
)
write(
  'tsup.config.ts',
  `import { packageBuild } from '../../tsup.base'

export default packageBuild(['src/index.ts'])
`,
)
write('README.md', `# ${name}\n\n${description}\n`)
if (!existsSync(join(dir, 'LICENSE'))) copyFileSync('LICENSE', join(dir, 'LICENSE'))
