import { defineConfig } from 'tsup'

// An app, not a library: nothing imports it, so no .d.ts (the declaration build of the whole workspace
// type graph was most of the build time).
export default defineConfig({
  entry: ['src/index.ts', 'src/bin.ts'],
  format: ['esm'],
  dts: false,
  clean: true,
  sourcemap: true,
  target: 'node20',
})
