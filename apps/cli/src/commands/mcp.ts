import { serveMcpStdio } from '@hymem/mcp'
import { EXIT_FAILURE, ExitError } from '../exit-error'
import type { CliContext } from '../io'
import { withHyMem } from '../open-hymem'
import type { GlobalOptions } from '../program'

/**
 * Serves HyMem's MCP tools over stdin/stdout until the client disconnects. Only JSON-RPC goes to stdout;
 * notes go to stderr. Writes ask for background dreams (HYMEM_DREAM_COOLDOWN_SECONDS apart), which run in
 * a worker thread so tool calls never wait for one.
 */
export async function mcpCommand(options: GlobalOptions, ctx: CliContext): Promise<void> {
  const stdin = ctx.stdin as NodeJS.ReadableStream
  const stdout = ctx.stdout as unknown as NodeJS.WritableStream
  if (typeof stdin.on !== 'function' || typeof stdout.on !== 'function') {
    throw new ExitError(EXIT_FAILURE, 'hymem mcp needs real stdin/stdout streams')
  }
  await withHyMem(
    options,
    ctx,
    async (hymem) => {
      ctx.stderr.write(
        `hymem mcp: serving workspace ${hymem.workspaceId} from ${hymem.root} over stdio · dreams in ${hymem.runtime().dreams.mode === 'worker' ? 'a worker thread' : 'process'}\n`,
      )
      await serveMcpStdio({
        memory: hymem,
        ...(options.workspace !== undefined ? { workspaceId: hymem.workspaceId } : {}),
        stdin,
        stdout,
      })
    },
    { dreamIn: 'worker' },
  )
}
