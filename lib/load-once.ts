/** Memoises a dynamic `import()` for the page's life; a failed load is forgotten, so the next call tries again (offline). */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = null
      throw error
    }))
}
