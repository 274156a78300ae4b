import { existsSync } from 'node:fs'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'

/** Debian's Chromium; the tests never download a browser. */
export const CHROMIUM = '/usr/bin/chromium'

const ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

/** Launches the system Chromium, or fails with the command that installs it. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}. Install Debian's package with: apt-get install -y chromium (the browser tests never download a browser).`,
    )
  }
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true })
}

/** What a page did while a test drove it. */
export interface PageRecord {
  readonly page: Page
  readonly context: BrowserContext
  /** Console errors and warnings, and uncaught page errors. */
  readonly errors: string[]
  /** Every URL the page requested. */
  readonly requests: string[]
}

/** A fresh browser context and page that records console errors and every request. */
export async function recordedPage(
  browser: Browser,
  options: { viewport?: { width: number; height: number } } = {},
): Promise<PageRecord> {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 900 } })
  const page = await context.newPage()
  const errors: string[] = []
  const requests: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      errors.push(`${message.type()}: ${message.text()}`)
  })
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`))
  page.on('request', (request) => requests.push(request.url()))
  return { page, context, errors, requests }
}

/** Waits until the graph bundle reports the picture drawn. */
export async function graphRendered(page: Page): Promise<void> {
  await page.waitForSelector('#graph[data-state="rendered"]', { timeout: 20_000 })
}

/** Ids of the nodes the live cytoscape instance shows (hidden ones excluded). */
export function drawnNodes(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const graph = (globalThis as { hymemGraph?: DrawnGraph }).hymemGraph
    return (graph?.nodes().filter((n) => n.visible()) ?? []).map((n) => n.id()).sort()
  })
}

/** The part of the page's cytoscape instance (`window.hymemGraph`) the tests read. */
interface DrawnElement {
  id(): string
  visible(): boolean
  isNode(): boolean
  renderedPosition(): { x: number; y: number }
  renderedMidpoint(): { x: number; y: number }
}

export interface DrawnGraph {
  nodes(): { filter(keep: (node: DrawnElement) => boolean): DrawnElement[] }
  edges(selector: string): DrawnElement
  $(selector: string): DrawnElement
}
