import type { DeletionReceipt } from 'hymem'
import { z } from 'zod'
import { defineTool } from './define-tool'
import { toolError, toolResult } from './tool-context'

const WHAT = ['session', 'messages', 'peer', 'note', 'fact'] as const

export const eraseTool = defineTool({
  name: 'hymem_erase',
  title: 'Forget for good',
  description:
    "Delete for good — it cannot be undone — a session, messages, everything a peer wrote, an explicit memory or a fact, with everything HyMem derived from it (facts, episodes, summaries, profile lines, vectors). Use it when the user asks HyMem to forget something; to only hide a memory, use hymem_forget. Returns a receipt counting what was removed. what=session|peer|note|fact take id (a fact's id is the number hymem_history shows); what=messages takes ids.",
  inputSchema: {
    what: z.enum(WHAT).describe('What to erase.'),
    id: z.string().min(1).max(200).optional().describe('The session, peer, memory or fact id.'),
    ids: z
      .array(z.string().min(1).max(200))
      .min(1)
      .max(1000)
      .optional()
      .describe('Message ids (what=messages).'),
  },
  readOnly: false,
  async handle(args, { memory, workspaceId }) {
    if (args.what === 'messages' ? !args.ids : !args.id)
      return toolError(args.what === 'messages' ? 'what=messages needs ids.' : `what=${args.what} needs id.`)
    const options = { workspaceId }
    let receipt: DeletionReceipt | null
    switch (args.what) {
      case 'session':
        receipt = await memory.erase.session(args.id!, options)
        break
      case 'messages':
        receipt = await memory.erase.messages(args.ids!, options)
        break
      case 'peer':
        receipt = await memory.erase.peerMessages(args.id!, options)
        break
      case 'note':
        receipt = await memory.erase.note(args.id!, options)
        break
      case 'fact': {
        const edgeId = Number(args.id)
        if (!Number.isSafeInteger(edgeId) || edgeId < 1)
          return toolError(`A fact id is a positive integer (as hymem_history shows it), not "${args.id}".`)
        receipt = await memory.erase.fact(edgeId, options)
        break
      }
    }
    if (!receipt) return toolError(`No ${args.what === 'note' ? 'memory' : 'fact'} has id ${args.id}.`)
    const removed = Object.entries(receipt.removed)
      .map(([kind, n]) => `${n} ${kind}`)
      .join(', ')
    return toolResult(
      `Erased ${args.what}${receipt.target ? ` ${receipt.target}` : ''}: ${removed || 'nothing was stored'}. It is no longer returned by any read; the purge from disk ${receipt.status === 'done' ? 'is done' : 'finishes in the background'}.`,
      { receipt: { ...receipt } },
    )
  },
})
