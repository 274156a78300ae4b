import { defineConfig } from 'tsup'

export default defineConfig({
  entry: { index: 'src/index.ts', postgres: 'src/engine/postgres/index.ts' },
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
})
