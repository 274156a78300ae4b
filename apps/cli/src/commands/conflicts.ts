import type { Conflict } from 'hymem'
import { createStyle, type Style } from '../format/style'
import { type CliContext, colorEnabled } from '../io'
import { withHyMem } from '../open-hymem'
import type { GlobalOptions } from '../program'

/** Options of `hymem conflicts`. */
export interface ConflictsCommandOptions extends GlobalOptions {
  readonly json?: boolean
}

/** Prints the contradicting facts of the workspace. */
export async function conflictsCommand(
  options: ConflictsCommandOptions,
  ctx: CliContext,
): Promise<Conflict[]> {
  const conflicts = await withHyMem(options, ctx, (hymem) => hymem.conflicts(), { quiet: true })
  ctx.stdout.write(
    options.json
      ? `${JSON.stringify(conflicts, null, 2)}\n`
      : renderConflicts(conflicts, createStyle(colorEnabled(ctx))),
  )
  return conflicts
}

/** The readable form: one block per conflict, its competing facts with their confidence and evidence. */
export function renderConflicts(conflicts: readonly Conflict[], style: Style): string {
  if (conflicts.length === 0) return 'No conflicting facts.\n'
  const lines = [style.bold(`Conflicts (${conflicts.length})`)]
  for (const conflict of conflicts) {
    const about =
      conflict.kind === 'competing_object'
        ? `${conflict.subject} —${conflict.predicate}→ ?`
        : `${conflict.subject} ${conflict.predicate.replace('|', ' / ')} ${conflict.object}`
    lines.push(`  ${style.cyan(about)}  (${conflict.kind.replace('_', ' ')})`)
    for (const edge of conflict.edges) {
      lines.push(
        `    #${edge.id} ${edge.subject} —${edge.predicate}→ ${edge.object}  conf ${edge.confidence.toFixed(2)}  +${edge.posEvidence}/−${edge.negEvidence}  last seen ${edge.lastSeen.slice(0, 10)}`,
      )
    }
  }
  return `${lines.join('\n')}\n`
}
