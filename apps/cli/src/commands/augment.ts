import { EXIT_USAGE, ExitError } from '../exit-error'
import type { AugmentedContext } from '../facade-types'
import { createStyle } from '../format/style'
import { type CliContext, colorEnabled } from '../io'
import { withHyMem } from '../open-hymem'
import type { GlobalOptions } from '../program'
import { renderAugmented } from './augment-render'

/** Options of `hymem augment`. */
export interface AugmentCommandOptions extends GlobalOptions {
  readonly json?: boolean
  /** Only what this peer said / sessions it took part in. */
  readonly peer?: string
  /** Only these sessions. */
  readonly sessions?: readonly string[]
  /** Also print USER.md and MEMORY.md. */
  readonly profile?: boolean
  /** What HyMem would have returned at this ISO time. */
  readonly asOf?: string
  /** Print the context block of at most this many tokens (what an agent pastes) instead of the sections. */
  readonly tokens?: number
}

/** Prints what HyMem would add to a prompt for `text`, with the reason each item was retrieved. */
export async function augmentCommand(
  text: string,
  options: AugmentCommandOptions,
  ctx: CliContext,
): Promise<AugmentedContext> {
  if (text.trim() === '')
    throw new ExitError(EXIT_USAGE, 'augment needs some text, e.g. hymem augment "what database do we use?"')
  const result = await withHyMem(
    options,
    ctx,
    (hymem) =>
      hymem.augment(text, {
        workspaceId: hymem.workspaceId,
        ...(options.peer ? { peerId: options.peer } : {}),
        ...(options.sessions && options.sessions.length > 0 ? { sessionIds: options.sessions } : {}),
        ...(options.asOf ? { asOf: options.asOf } : {}),
        ...(options.tokens !== undefined ? { tokens: options.tokens } : {}),
      }),
    { quiet: true },
  )
  ctx.stdout.write(
    options.json
      ? `${JSON.stringify(result, null, 2)}\n`
      : result.context !== null
        ? `${result.context || 'Nothing relevant is remembered yet.'}\n`
        : renderAugmented(result, { style: createStyle(colorEnabled(ctx)), profile: options.profile }),
  )
  return result
}
