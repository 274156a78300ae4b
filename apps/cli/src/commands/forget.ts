import type { DeletionReceipt, HyMem } from 'hymem'
import { ExitError } from '../exit-error'
import type { CliContext } from '../io'
import { withHyMem } from '../open-hymem'
import type { GlobalOptions } from '../program'

/** What `hymem forget` can forget. */
export type ForgetWhat = 'session' | 'messages' | 'peer' | 'note' | 'fact' | 'workspace'

export const FORGET_WHAT: readonly ForgetWhat[] = ['session', 'messages', 'peer', 'note', 'fact', 'workspace']

/** Options of `hymem forget`. */
export interface ForgetCommandOptions extends GlobalOptions {
  readonly json?: boolean
}

/**
 * Forgets a session, messages, a peer's messages, a note, a fact or a whole workspace, waits until the
 * content is gone from disk too, and prints the deletion receipt (counts by kind, never content).
 */
export async function forgetCommand(
  what: ForgetWhat,
  ids: readonly string[],
  options: ForgetCommandOptions,
  ctx: CliContext,
): Promise<DeletionReceipt> {
  if (!FORGET_WHAT.includes(what))
    throw new ExitError(2, `cannot forget "${what}": choose one of ${FORGET_WHAT.join(', ')}`)
  if (ids.length === 0) throw new ExitError(2, `hymem forget ${what} needs an id`)
  if (what !== 'messages' && ids.length > 1)
    throw new ExitError(2, `hymem forget ${what} takes one id (only messages take several)`)
  const receipt = await withHyMem(options, ctx, (hymem) => forgetOne(hymem, what, ids), { quiet: true })
  ctx.stdout.write(options.json ? `${JSON.stringify(receipt, null, 2)}\n` : renderReceipt(receipt))
  return receipt
}

async function forgetOne(hymem: HyMem, what: ForgetWhat, ids: readonly string[]): Promise<DeletionReceipt> {
  const id = ids[0]!
  const wait = { wait: true } as const
  switch (what) {
    case 'session':
      return hymem.erase.session(id, wait)
    case 'messages':
      return hymem.erase.messages(ids, wait)
    case 'peer':
      return hymem.erase.peerMessages(id, wait)
    case 'workspace':
      return hymem.erase.workspace(id, wait)
    case 'note': {
      const receipt = await hymem.erase.note(id, wait)
      if (!receipt) throw new ExitError(1, `no note has id ${id} in workspace ${hymem.workspaceId}`)
      return receipt
    }
    case 'fact': {
      const edgeId = Number(id)
      if (!Number.isSafeInteger(edgeId) || edgeId < 1)
        throw new ExitError(
          2,
          `a fact id is a positive integer (as "hymem augment --json" shows it), not "${id}"`,
        )
      const receipt = await hymem.erase.fact(edgeId, wait)
      if (!receipt) throw new ExitError(1, `no fact has id ${id} in workspace ${hymem.workspaceId}`)
      return receipt
    }
  }
}

/** One line per receipt: what was forgotten, the rows removed by kind, and whether it is gone from disk. */
export function renderReceipt(receipt: DeletionReceipt): string {
  const what = receipt.target === '' ? receipt.kind : `${receipt.kind} ${receipt.target}`
  const removed = Object.entries(receipt.removed)
    .map(([kind, n]) => `${n} ${kind}`)
    .join(', ')
  const state = receipt.status === 'done' ? 'gone from disk' : 'excluded from reads; purge pending'
  return `Forgot ${what} (receipt ${receipt.id}, ${state})\n  ${removed || 'nothing was stored'}\n`
}
