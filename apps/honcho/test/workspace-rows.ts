import { openHyMemStore } from 'hymem'

/** Every row the `victim` workspace holds and how many workspaces there are, read on a second connection. */
export async function victimSnapshot(root: string) {
  const store = await openHyMemStore({ root })
  try {
    const workspaces = await store.workspaces.list({ page: 1, size: 100 })
    return { workspaces: workspaces.total, victim: await store.workspaces.counts('victim') }
  } finally {
    await store.close()
  }
}
