/**
 * Regenerates the inspector screenshots in docs/ from a memory built by a real dream (the browser tests'
 * fixture), in Debian's Chromium.
 *
 *   pnpm screenshots
 */
import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { graphRendered, launchChromium } from '../test/browser'
import { openDreamtMemory } from '../test/memory-fixture'
import { serveInspector } from '../test/serve'

const DOCS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs')
const LAPTOP = { width: 1280, height: 860 }
const PHONE = { width: 390, height: 844 }

const memory = await openDreamtMemory()
const served = await serveInspector({ memory: memory.memory })
const browser = await launchChromium()
try {
  mkdirSync(DOCS, { recursive: true })
  const heroku = (await memory.memory.inspect.graph({ entity: 'heroku', includeInactive: true })).edges[0]!
  const shots: [name: string, path: string, viewport: typeof LAPTOP, graph: boolean][] = [
    ['graph', 'graph?inactive=1', LAPTOP, true],
    ['fact', `fact/${heroku.id}`, LAPTOP, false],
    ['ask', `ask?q=${encodeURIComponent('where do we deploy the API?')}&asOf=2026-02-01`, LAPTOP, false],
    ['timeline', 'timeline?at=2026-02-01', LAPTOP, true],
    ['profile', 'profile', LAPTOP, false],
    ['health', 'health', LAPTOP, false],
    ['graph-phone', 'graph', PHONE, true],
  ]
  for (const [name, path, viewport, graph] of shots) {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1 })
    const page = await context.newPage()
    await page.goto(`${served.origin}/inspect/w/default/${path}`)
    if (graph) await graphRendered(page)
    const file = join(DOCS, `inspector-${name}.png`)
    await page.screenshot({ path: file })
    process.stdout.write(`${file}\n`)
    await context.close()
  }
} finally {
  await browser.close()
  await served.close()
  await memory.close()
}
