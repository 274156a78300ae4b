import { captureCommand } from '../src/commands/capture'
import { captureContext, fixture } from './harness'

/** Captures `test/fixtures/conversation.jsonl` into `root` (and dreams it unless `dream: false`). */
export async function seedRoot(
  root: string,
  options: { dream?: boolean; env?: Record<string, string | undefined> } = {},
): Promise<void> {
  const { ctx } = captureContext({ env: { HYMEM_ROOT: root, ...options.env } })
  await captureCommand(fixture('conversation.jsonl'), { dream: options.dream ?? true }, ctx)
}
