import { networkInterfaces } from 'node:os'
import { RequestGuard } from '@hymem/http-guard'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  type DrawnGraph,
  drawnNodes,
  graphRendered,
  launchChromium,
  type PageRecord,
  recordedPage,
} from './browser'
import { type DreamtMemory, openDreamtMemory } from './memory-fixture'
import { type ServedInspector, serveInspector } from './serve'

// Launched by the first test that needs it, so a missing Chromium fails every test (with the apt-get
// command) instead of turning them into skips.
let launched: Promise<Browser> | undefined
const chromium = () => {
  launched ??= launchChromium()
  return launched
}
afterAll(async () => {
  await (await launched?.catch(() => undefined))?.close()
})

/** Clicks the canvas where cytoscape drew an element (a node's centre or an edge's midpoint). */
async function clickDrawn(page: Page, selector: string): Promise<void> {
  const at = await page.evaluate((sel) => {
    const element = (globalThis as { hymemGraph?: DrawnGraph }).hymemGraph!.$(sel)
    return element.isNode() ? element.renderedPosition() : element.renderedMidpoint()
  }, selector)
  const box = (await page.locator('#graph').boundingBox())!
  await page.mouse.click(box.x + at.x, box.y + at.y)
}

/** How far the page is wider than the window (0 or less: no sideways scrolling). */
function overflow(page: Page): Promise<number> {
  type Globals = { document: { documentElement: { scrollWidth: number } }; innerWidth: number }
  return page.evaluate(() => {
    const g = globalThis as unknown as Globals
    return g.document.documentElement.scrollWidth - g.innerWidth
  })
}

describe('the inspector in Chromium, on a memory built by a real dream', () => {
  let t: DreamtMemory
  let served: ServedInspector
  let record: PageRecord
  beforeAll(async () => {
    t = await openDreamtMemory()
    served = await serveInspector({ memory: t.memory })
  })
  afterEach(async () => {
    await record?.context.close()
  })
  afterAll(async () => {
    await served?.close()
    await t?.close()
  })

  it('draws the expected entities with no console error and no request leaving the origin', async () => {
    record = await recordedPage(await chromium())
    const { page } = record
    const response = await page.goto(`${served.origin}/inspect/w/default/graph`)
    expect(response?.status()).toBe(200)
    await graphRendered(page)
    const nodes = await drawnNodes(page)
    expect(nodes).toEqual(
      expect.arrayContaining(['api', 'flyio', 'job_queue', 'redis', 'ledgerly_api', 'maya']),
    )
    expect(nodes).not.toContain('heroku')
    expect(await page.locator('#graph canvas').count()).toBeGreaterThan(0)
    expect(await page.evaluate(() => performance.getEntriesByName('hymem:graph-rendered').length)).toBe(1)
    for (const view of ['ask?q=where+do+we+deploy', 'timeline', 'profile', 'health', 'graph?inactive=1']) {
      expect((await page.goto(`${served.origin}/inspect/w/default/${view}`))?.status()).toBe(200)
    }
    await graphRendered(page)
    expect(await drawnNodes(page)).toContain('heroku')
    expect(record.errors).toEqual([])
    expect(record.requests.filter((url) => !url.startsWith(`${served.origin}/`))).toEqual([])
    expect(record.requests.some((url) => url.includes('/inspect/assets/graph.js'))).toBe(true)
  })

  it('focuses a node’s neighbourhood on click and opens a fact with its source message on edge click', async () => {
    record = await recordedPage(await chromium())
    const { page } = record
    await page.goto(`${served.origin}/inspect/w/default/graph`)
    await graphRendered(page)
    await clickDrawn(page, '#job_queue')
    await expect.poll(() => page.textContent('#graph-focus')).toBe('Focused on job queue: 1 neighbours.')
    expect(await drawnNodes(page)).toEqual(['job_queue', 'redis'])
    expect(new URL(page.url()).searchParams.get('focus')).toBe('job_queue')
    const edge = await page.evaluate(() =>
      (globalThis as { hymemGraph?: DrawnGraph }).hymemGraph!.edges(':visible').id(),
    )
    await Promise.all([page.waitForURL(/\/fact\/\d+$/), clickDrawn(page, `#${edge}`)])
    const message = page.locator('li.message', { hasText: 'The job queue depends on Redis.' })
    await expect.poll(() => message.count()).toBe(1)
    expect(await message.locator('mark').allTextContents()).toEqual(['The job queue depends on Redis.'])
    expect(await message.locator('.meta').textContent()).toMatch(
      /session onboarding · maya \(user\) · 2026-01-10 09:02 UTC/,
    )
    expect(record.errors).toEqual([])
  })

  it('shows what HyMem knew on a past day: the as-of field hides the edge that superseded Heroku after it', async () => {
    record = await recordedPage(await chromium())
    const { page } = record
    const facts = () => page.locator('ol.ranked li.kind-fact .item-title').allTextContents()
    await page.goto(`${served.origin}/inspect/w/default/ask`)
    await page.fill('input[name="q"]', 'where do we deploy the API?')
    await Promise.all([page.waitForURL(/q=/), page.press('input[name="q"]', 'Enter')])
    expect(await facts()).toContain('api — deploys to → flyio')
    expect(await facts()).not.toContain('api — deploys to → heroku')
    await page.fill('input[name="asOf"]', '2026-02-01')
    await Promise.all([page.waitForURL(/asOf=2026-02-01/), page.click('form.ask button[type="submit"]')])
    expect(await facts()).toContain('api — deploys to → heroku')
    expect(await facts()).not.toContain('api — deploys to → flyio')
    expect(await page.textContent('.summary')).toMatch(/augment took [\d.]+ (ms|s)/)
    await page.goto(`${served.origin}/inspect/w/default/graph?asOf=2026-02-01`)
    await graphRendered(page)
    expect(await drawnNodes(page)).toContain('heroku')
    expect(await drawnNodes(page)).not.toContain('flyio')
    expect(record.errors).toEqual([])
  })

  it('redraws the graph as of a day when the timeline slider moves (keyboard)', async () => {
    record = await recordedPage(await chromium())
    const { page } = record
    await page.goto(`${served.origin}/inspect/w/default/timeline`)
    await graphRendered(page)
    expect(await drawnNodes(page)).toContain('flyio')
    await page.focus('#timeline-slider')
    await page.keyboard.press('Home')
    await expect.poll(() => page.textContent('#timeline-day')).toBe('2026-01-10')
    await expect.poll(async () => (await drawnNodes(page)).includes('heroku'), { timeout: 10_000 }).toBe(true)
    expect(await drawnNodes(page)).not.toContain('flyio')
    expect(await page.textContent('#graph-summary')).toMatch(/as of 2026-01-10/)
    expect(new URL(page.url()).searchParams.get('at')).toBe('2026-01-10')
    expect(record.errors).toEqual([])
  })

  it('is keyboard navigable and fits a phone screen', async () => {
    record = await recordedPage(await chromium(), { viewport: { width: 390, height: 844 } })
    const { page } = record
    await page.goto(`${served.origin}/inspect/w/default/graph`)
    await graphRendered(page)
    await page.keyboard.press('Tab')
    expect(await page.locator(':focus').textContent()).toBe('Skip to content')
    await page.keyboard.press('Enter')
    expect(await page.locator(':focus').getAttribute('id')).toBe('main')
    await page.locator('a.fact-link', { hasText: 'depends on' }).focus()
    await Promise.all([page.waitForURL(/\/fact\/\d+$/), page.keyboard.press('Enter')])
    for (const view of ['graph', 'ask?q=what+do+we+use', 'timeline', 'profile', 'health', 'fact/1']) {
      await page.goto(`${served.origin}/inspect/w/default/${view}`)
      expect(await overflow(page), view).toBeLessThanOrEqual(0)
    }
    expect(record.errors).toEqual([])
  })
})

describe('corrections in Chromium', () => {
  let t: DreamtMemory
  let served: ServedInspector
  let record: PageRecord
  beforeAll(async () => {
    t = await openDreamtMemory()
    served = await serveInspector({ memory: t.memory })
  })
  afterAll(async () => {
    await record?.context.close()
    await served?.close()
    await t?.close()
  })

  it('retracting a fact from its page removes it from augment', async () => {
    const question = 'what does the job queue depend on?'
    const redis = (context: Awaited<ReturnType<typeof t.memory.augment>>) =>
      context.graphFacts.filter((f) => f.subject === 'job_queue' && f.object === 'redis')
    expect(redis(await t.memory.augment(question))).toHaveLength(1)
    record = await recordedPage(await chromium())
    const { page } = record
    await page.goto(`${served.origin}/inspect/w/default/graph?entity=redis`)
    await Promise.all([page.waitForURL(/\/fact\/\d+$/), page.click('a.fact-link')])
    await Promise.all([page.waitForURL(/\/retract$/), page.click('text=Retract this fact…')])
    await page.fill('input[name="reason"]', 'the queue moved to SQS')
    await Promise.all([page.waitForURL(/done=retracted/), page.click('button:has-text("Retract")')])
    expect(await page.textContent('.notice')).toContain('Retracted')
    expect(await page.textContent('.badge.state-retracted')).toBe('retracted')
    expect(redis(await t.memory.augment(question))).toEqual([])
    await page.goto(`${served.origin}/inspect/w/default/ask?q=${encodeURIComponent(question)}`)
    expect(await page.locator('ol.ranked li.kind-fact', { hasText: 'redis' }).count()).toBe(0)
    expect(record.errors).toEqual([])
  })
})

describe('beyond loopback', () => {
  let t: DreamtMemory
  let served: ServedInspector
  let record: PageRecord
  /** A non-loopback address of this machine, else all interfaces (the server is then still bound beyond loopback). */
  const publicAddress =
    Object.values(networkInterfaces())
      .flat()
      .find((i) => i?.family === 'IPv4' && !i.internal)?.address ?? '0.0.0.0'
  beforeAll(async () => {
    t = await openDreamtMemory()
    served = await serveInspector(
      {
        memory: t.memory,
        guard: new RequestGuard({ loopback: false, allowedHosts: [publicAddress] }),
        auth: { tokens: { 'team-secret': ['default'] } },
      },
      publicAddress,
    )
  })
  afterAll(async () => {
    await record?.context.close()
    await served?.close()
    await t?.close()
  })

  it('refuses a request without a token, and lets a browser in after signing in with one', async () => {
    const origin = served.origin.replace('0.0.0.0', '127.0.0.1')
    const bare = await fetch(`${origin}/inspect/w/default/graph.json`)
    expect(bare.status).toBe(401)
    const withToken = await fetch(`${origin}/inspect/w/default/graph.json`, {
      headers: { authorization: 'Bearer team-secret' },
    })
    expect(withToken.status).toBe(200)
    record = await recordedPage(await chromium())
    const { page } = record
    const refused = await page.goto(`${origin}/inspect/w/default/graph`)
    expect(refused?.status()).toBe(401)
    expect(await page.textContent('h1')).toBe('Sign in')
    expect(await page.locator('#graph').count()).toBe(0)
    await page.fill('input[name="token"]', 'team-secret')
    await Promise.all([
      page.waitForURL(/\/inspect\/w\/default\/graph$/),
      page.press('input[name="token"]', 'Enter'),
    ])
    await graphRendered(page)
    expect(await drawnNodes(page)).toContain('flyio')
  })
})
