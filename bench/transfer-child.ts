// One export or import in its own process, so its peak resident memory is its own. Prints one JSON line.
//   node --conditions=@hymem/source --import tsx bench/transfer-child.ts <export|import|open> <root> <file>

import { once } from 'node:events'
import { createReadStream, createWriteStream, readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { createHyMem } from 'hymem'

const [mode, root, file] = process.argv.slice(2)
// No embedder: import would embed every message, and this measures the transfer (see transfer.bench.ts).
const memory = await createHyMem({ root: root!, searchLog: false, embeddings: null })
const started = performance.now()
let lines = 0
if (mode === 'export') {
  const out = createWriteStream(file!)
  for await (const line of memory.export()) {
    if (!out.write(`${line}\n`)) await once(out, 'drain')
    lines++
  }
  out.end()
  await once(out, 'finish')
} else if (mode === 'import') {
  const input = createInterface({ input: createReadStream(file!), crlfDelay: Number.POSITIVE_INFINITY })
  const report = await memory.import(input)
  lines = Object.values(report.inserted).reduce((a, b) => a + b, 0)
}
const seconds = (performance.now() - started) / 1000
await memory.close()
process.stdout.write(`${JSON.stringify({ mode, lines, seconds, maxRssMb: peakRssMb() })}\n`)

/**
 * This process's peak resident memory. Linux carries `maxRSS` over `exec` from the forked parent, so a child of
 * a runner that grew to 460 MB reports 460 MB whatever it used; `VmHWM` belongs to this program's own memory.
 */
function peakRssMb(): number {
  try {
    const kb = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]
    if (kb) return Number(kb) / 1024
  } catch {
    // Not Linux: getrusage is this process's own there.
  }
  return process.resourceUsage().maxRSS / 1024
}
