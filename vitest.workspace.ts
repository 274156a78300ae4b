import { readdirSync, statSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { defineConfig } from 'vitest/config'

const PROJECT_PARENTS = ['packages', 'apps']

const projectDirs = [
  ...PROJECT_PARENTS.flatMap((parent) =>
    readdirSync(parent)
      .map((name) => join(parent, name))
      .filter((dir) => statSync(dir).isDirectory()),
  ),
  'bench',
  'scripts',
]

// `*.server.test.ts` files need a real PostgreSQL server (several processes on one database): they are
// collected only when HYMEM_TEST_DATABASE_URL names one (`.ci/run` starts it); everything else runs on PGlite.
const serverOnly = process.env.HYMEM_TEST_DATABASE_URL ? [] : ['**/*.server.test.ts']

// Workspace packages resolve each other to their TypeScript sources through the
// `@hymem/source` export condition, so tests never run against a stale dist/.
export default defineConfig({
  resolve: { conditions: ['@hymem/source'] },
  ssr: { resolve: { conditions: ['@hymem/source'] } },
  test: {
    // Vitest's default is one file fewer than the cores: one at a time on two cores. Most of the suite waits on
    // child processes, servers and PostgreSQL, so a file per core keeps both busy (859 s → 545 s on two cores).
    maxWorkers: Math.max(2, availableParallelism()),
    projects: projectDirs.map((dir) => ({
      extends: true,
      test: {
        name: dir.split('/')[1] ?? dir,
        root: dir,
        include: [
          'src/**/*.test.ts',
          'test/**/*.test.ts',
          'locomo/**/*.test.ts',
          'beam/**/*.test.ts',
          'pack-test/**/*.test.ts',
        ],
        exclude: ['**/node_modules/**', ...serverOnly],
        testTimeout: 30_000,
        hookTimeout: 30_000,
      },
    })),
  },
})
