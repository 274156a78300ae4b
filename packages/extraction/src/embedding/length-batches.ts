import { _throwIfAborted } from '../errors'

/**
 * Embeds `texts` in batches of similar length and returns the vectors in input order. The local models pad
 * every text of a batch to the batch's longest, so batching by length spends the work on the texts rather
 * than on padding; a text's vector does not depend on its batch.
 */
export async function embedByLength(
  texts: readonly string[],
  batchSize: number,
  embedBatch: (batch: string[]) => Promise<number[][]>,
  signal?: AbortSignal,
): Promise<Float32Array[]> {
  const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length || a - b)
  const out = new Array<Float32Array>(texts.length)
  for (let start = 0; start < order.length; start += batchSize) {
    _throwIfAborted(signal)
    const slots = order.slice(start, start + batchSize)
    const vectors = await embedBatch(slots.map((i) => texts[i]!))
    slots.forEach((slot, k) => {
      out[slot] = Float32Array.from(vectors[k]!)
    })
  }
  return out
}
