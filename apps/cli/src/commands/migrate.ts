import { resolve } from 'node:path'
import { type MigrateReport, migrateMemory } from 'hymem'
import { createProgress } from '../format/progress'
import { renderTable } from '../format/table'
import type { CliContext } from '../io'

/** Options of `hymem migrate`. */
export interface MigrateCommandOptions {
  readonly from: string
  readonly to: string
  readonly json?: boolean
}

/**
 * Copies a whole memory between a SQLite file and a PostgreSQL database (either way), then checks the rows
 * of every table on both sides; a progress bar on a terminal. Relative file paths are from the working folder.
 */
export async function migrateCommand(
  options: MigrateCommandOptions,
  ctx: CliContext,
): Promise<MigrateReport> {
  const side = (value: string) => (/^[a-z][a-z0-9+.-]*:/i.test(value) ? value : resolve(ctx.cwd, value))
  const progress = createProgress(ctx.stderr, 'migrating')
  let report: MigrateReport
  try {
    report = await migrateMemory({
      from: side(options.from),
      to: side(options.to),
      onProgress: ({ records, total }) =>
        progress.update(Math.min(records, total), total, `${records} records`),
    })
  } finally {
    progress.stop()
  }
  if (options.json) {
    ctx.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
    return report
  }
  const rows = Object.entries(report.tables).map(([table, counts]) => [
    table,
    String(counts.from),
    String(counts.to),
  ])
  ctx.stdout.write(
    `${report.rerun ? 'Already migrated (nothing new to copy)' : `Copied ${report.records} records`}: ${report.from} → ${report.to}\n`,
  )
  ctx.stdout.write(renderTable(rows, { head: ['table', 'from', 'to'], align: ['left', 'right', 'right'] }))
  ctx.stdout.write('Every table has the same rows on both sides.\n')
  return report
}
