/**
 * The graph view in the browser: draws the page's graph data with cytoscape, focuses a node's neighbourhood
 * on click, opens a fact on edge click, and on the Timeline page redraws the picture as the slider moves.
 */
import cytoscape, { type Core, type ElementDefinition, type NodeSingular } from 'cytoscape'
import type { GraphData } from '../src/graph-data'

declare global {
  interface Window {
    /** The live cytoscape instance (for tests and the curious). */
    hymemGraph?: Core
  }
}

const LARGE = 400

function elements(data: GraphData): ElementDefinition[] {
  const nodes = data.nodes.map((n) => ({
    group: 'nodes' as const,
    data: { id: n.id, label: n.id.replace(/_/g, ' '), color: n.color, type: n.type ?? '' },
  }))
  const edges = data.edges.map((e) => ({
    group: 'edges' as const,
    data: {
      id: `e${e.id}`,
      source: e.source,
      target: e.target,
      label: e.predicate.replace(/_/g, ' '),
      width: 1 + 4 * Math.max(0, Math.min(1, e.confidence)),
      href: e.href,
    },
    classes: [e.derived ? 'derived' : '', e.inactive ? 'inactive' : ''].filter(Boolean),
  }))
  return [...nodes, ...edges]
}

const STYLE = [
  {
    selector: 'node',
    style: {
      'background-color': 'data(color)',
      label: 'data(label)',
      'font-size': 11,
      color: '#1d2025',
      'text-valign': 'bottom',
      'text-margin-y': 3,
      'text-outline-color': '#ffffff',
      'text-outline-width': 2,
      width: 18,
      height: 18,
      'min-zoomed-font-size': 6,
    },
  },
  {
    selector: 'edge',
    style: {
      width: 'data(width)',
      'line-color': '#6b7280',
      'target-arrow-color': '#6b7280',
      'target-arrow-shape': 'triangle',
      'curve-style': 'bezier',
      label: 'data(label)',
      'font-size': 9,
      color: '#374151',
      'text-rotation': 'autorotate',
      'text-background-color': '#ffffff',
      'text-background-opacity': 0.85,
      'text-background-padding': '1px',
      'min-zoomed-font-size': 7,
    },
  },
  { selector: 'edge.derived', style: { 'line-style': 'dashed' } },
  { selector: 'edge.inactive', style: { opacity: 0.3 } },
  { selector: '.hidden', style: { display: 'none' } },
  { selector: 'node.focused', style: { 'border-width': 3, 'border-color': '#111827' } },
] as cytoscape.StylesheetJson

/**
 * Force-directed (cose) up to LARGE nodes, cooling faster as the picture grows so the layout stays well under
 * a second (cose costs nodes² per iteration); concentric rings by degree beyond that.
 */
function layoutFor(count: number): cytoscape.LayoutOptions {
  if (count > LARGE) return { name: 'concentric', animate: false, minNodeSpacing: 8 }
  return {
    name: 'cose',
    animate: false,
    randomize: true,
    nodeDimensionsIncludeLabels: true,
    idealEdgeLength: () => 70,
    nodeRepulsion: () => 30_000,
    nodeOverlap: 40,
    componentSpacing: 60,
    gravity: 0.5,
    numIter: 1500,
    coolingFactor: count <= 60 ? 0.99 : count <= 150 ? 0.97 : 0.93,
  }
}

function start(container: HTMLElement, initial: GraphData): void {
  const reset = document.getElementById('graph-reset') as HTMLButtonElement | null
  const focusLabel = document.getElementById('graph-focus')
  let data = initial
  const large = data.nodes.length > LARGE
  const cy = cytoscape({
    container,
    elements: elements(data),
    style: STYLE,
    layout: { name: 'preset' },
    // Big pictures pan and zoom as a bitmap, and skip edges while moving.
    textureOnViewport: large,
    hideEdgesOnViewport: large,
  })
  window.hymemGraph = cy

  const draw = () => {
    container.dataset.state = 'drawing'
    cy.one('render', () => {
      performance.mark('hymem:graph-rendered')
      container.dataset.state = 'rendered'
    })
    performance.mark('hymem:graph-layout-start')
    cy.layout(layoutFor(cy.nodes().length)).run()
    performance.mark('hymem:graph-layout-end')
    cy.fit(undefined, 24)
    if (data.focus !== null) {
      const node = cy.getElementById(data.focus)
      if (node.nonempty()) focus(node as NodeSingular, false)
    }
  }

  const unfocus = () => {
    cy.elements().removeClass('hidden focused')
    if (reset) reset.hidden = true
    if (focusLabel) focusLabel.textContent = ''
    history.replaceState(null, '', data.pageUrl)
    cy.fit(undefined, 24)
  }

  const focus = (node: NodeSingular, remember = true) => {
    const hood = node.closedNeighborhood()
    cy.elements().removeClass('focused').addClass('hidden')
    hood.removeClass('hidden')
    node.addClass('focused')
    cy.fit(hood, 40)
    if (reset) reset.hidden = false
    if (focusLabel)
      focusLabel.textContent = `Focused on ${node.data('label')}: ${hood.nodes().length - 1} neighbours.`
    if (remember) {
      const url = new URL(data.pageUrl, location.href)
      url.searchParams.set('focus', node.id())
      history.replaceState(null, '', url)
    }
  }

  cy.on('tap', 'node', (event) => focus(event.target as NodeSingular))
  cy.on('tap', 'edge', (event) => location.assign(String(event.target.data('href'))))
  cy.on('mouseover', 'edge', () => container.classList.add('pointing'))
  cy.on('mouseout', 'edge', () => container.classList.remove('pointing'))
  reset?.addEventListener('click', unfocus)
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && reset && !reset.hidden) unfocus()
  })

  const redraw = (next: GraphData) => {
    data = next
    cy.elements().remove()
    cy.add(elements(next))
    if (reset) reset.hidden = true
    if (focusLabel) focusLabel.textContent = ''
    draw()
  }
  draw()
  wireTimeline(redraw)
}

interface GraphJson {
  readonly data: GraphData
  readonly total: number
  readonly hidden: number
  readonly asOf: string | null
}

/** On the Timeline page: the slider picks a day and the picture is redrawn as of that day. */
function wireTimeline(redraw: (data: GraphData) => void): void {
  const form = document.getElementById('timeline-form') as HTMLFormElement | null
  const slider = document.getElementById('timeline-slider') as HTMLInputElement | null
  const date = document.getElementById('timeline-date') as HTMLInputElement | null
  const output = document.getElementById('timeline-day')
  const summary = document.getElementById('graph-summary')
  if (!form || !slider || !date || !output) return
  const days = (form.dataset.days ?? '').split(',')
  const endpoint = form.dataset.graphJson ?? ''
  let pending: AbortController | null = null
  let timer: number | undefined

  const load = async (day: string) => {
    pending?.abort()
    const controller = new AbortController()
    pending = controller
    const url = new URL(endpoint, location.href)
    url.searchParams.set('asOf', day)
    try {
      const response = await fetch(url, {
        signal: controller.signal,
        headers: { accept: 'application/json' },
      })
      if (!response.ok) throw new Error(`${response.status}`)
      const json = (await response.json()) as GraphJson
      redraw(json.data)
      if (summary) {
        const shown = json.data.edges.length
        summary.textContent =
          json.total === 0
            ? `No edges as of ${day}.`
            : `Showing ${shown} of ${json.total} edges as of ${day}, highest confidence first${json.hidden > 0 ? `; ${json.hidden} hidden` : ''}.`
      }
      const page = new URL(form.action, location.href)
      page.searchParams.set('at', day)
      history.replaceState(null, '', page)
    } catch (error) {
      if ((error as Error).name !== 'AbortError' && summary)
        summary.textContent = `Could not load the graph as of ${day}.`
    }
  }

  const pick = (day: string) => {
    output.textContent = day
    slider.setAttribute('aria-valuetext', day)
    date.value = day
    window.clearTimeout(timer)
    timer = window.setTimeout(() => void load(day), 120)
  }
  slider.addEventListener('input', () => pick(days[Number(slider.value)] ?? days.at(-1) ?? ''))
  date.addEventListener('change', () => {
    const index = days.indexOf(date.value)
    if (index === -1) return
    slider.value = String(index)
    pick(date.value)
  })
}

const container = document.getElementById('graph')
const source = document.getElementById('graph-data')
if (container && source?.textContent) start(container, JSON.parse(source.textContent) as GraphData)
