import { defineConfig, type Options } from 'tsup'

/** The build every workspace package shares: ESM for Node 20, declarations and source maps. */
export function packageBuild(entry: Options['entry'], options: Options = {}) {
  return defineConfig({
    entry,
    format: ['esm'],
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'node20',
    ...options,
  })
}
