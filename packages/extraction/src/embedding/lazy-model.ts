/**
 * Loads a model on first use and shares it; a failed load is forgotten so the next call retries (e.g. after
 * the user installs the missing package).
 */
export function lazyModel<M>(load: () => Promise<M>): () => Promise<M> {
  let model: Promise<M> | undefined
  return () => {
    if (!model) {
      model = load()
      model.catch(() => {
        model = undefined
      })
    }
    return model
  }
}
