import { _throwIfAborted } from '../errors'

/**
 * Embeds `texts` in batches of similar length and returns the vectors in input order. The local models pad
 * every text of a batch to the batch's longest, so batching by length spends the work on the texts rather
 * than on padding; a text's vector does not depend on its batch. Up to `concurrency` batches are in flight
 * at once (for models that run on several threads).
 */
export async function embedByLength(
  texts: readonly string[],
  batchSize: number,
  embedBatch: (batch: string[]) => Promise<ArrayLike<number>[]>,
  signal?: AbortSignal,
  concurrency = 1,
): Promise<Float32Array[]> {
  const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length || a - b)
  const batches: number[][] = []
  for (let start = 0; start < order.length; start += batchSize)
    batches.push(order.slice(start, start + batchSize))
  const out = new Array<Float32Array>(texts.length)
  let next = 0
  const lane = async () => {
    while (next < batches.length) {
      _throwIfAborted(signal)
      const slots = batches[next++]!
      const vectors = await embedBatch(slots.map((i) => texts[i]!))
      slots.forEach((slot, k) => {
        out[slot] = Float32Array.from(vectors[k]!)
      })
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, batches.length)) }, lane))
  return out
}
