/** Kept builds in `<root>/builds/<id>/`, and `<root>/live`: a symlink swapped atomically, read per request. */
import { cp, mkdir, readdir, readlink, rename, rm, symlink } from 'node:fs/promises'
import path from 'node:path'
import { readBuildInfo, type BuildInfo } from '../../lib/build-output.ts'

export const KEEP_BUILDS = 5

/** Removes what a failed step left, then throws the step's error (any removal failure added to its message). */
async function removeAfterFailure(leftover: string, error: unknown): Promise<never> {
  await rm(leftover, { recursive: true, force: true }).catch((cleanup: Error) => {
    if (typeof (error as Error | null)?.message === 'string')
      (error as Error).message += `; ${leftover} was not removed either: ${cleanup.message}`
  })
  throw error
}

export type KeptBuild = BuildInfo & { dir: string; live: boolean }

export class BuildStore {
  readonly root: string
  readonly buildsDir: string
  readonly liveLink: string
  readonly keep: number

  constructor(root: string, keep = KEEP_BUILDS) {
    this.root = root
    this.buildsDir = path.join(root, 'builds')
    this.liveLink = path.join(root, 'live')
    this.keep = keep
  }

  liveId(): Promise<string | null> {
    return readlink(this.liveLink).then(path.basename, () => null)
  }

  async liveDir(): Promise<string | null> {
    const id = await this.liveId()
    return id && path.join(this.buildsDir, id)
  }

  /** Every complete kept build, newest first. */
  async list(): Promise<KeptBuild[]> {
    const names = await readdir(this.buildsDir).catch(() => [])
    const live = await this.liveId()
    const builds = await Promise.all(
      names.map(async (name) => {
        const dir = path.join(this.buildsDir, name)
        const info = await readBuildInfo(dir)
        return info?.id === name ? { ...info, dir, live: name === live } : null
      }),
    )
    return builds.filter((build) => build !== null).sort((a, b) => b.id.localeCompare(a.id))
  }

  /**
   * Stores a complete export: 'move' takes it away (a rename, a copy across filesystems); 'copy' leaves it.
   * @throws Error when the export is incomplete, or the move or copy failed (nothing partial is left)
   */
  async add(exportDir: string, mode: 'move' | 'copy' = 'move'): Promise<BuildInfo> {
    const info = await readBuildInfo(exportDir)
    if (!info) throw new Error(`${exportDir} is not a complete build (no .build.json)`)
    await mkdir(this.buildsDir, { recursive: true })
    const target = path.join(this.buildsDir, info.id)
    if (mode === 'move') {
      const moved = await rename(exportDir, target).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          if (error.code !== 'EXDEV') throw error
          return false
        },
      )
      if (moved) return info
    }
    const staging = `${target}.partial`
    await rm(staging, { recursive: true, force: true })
    try {
      await cp(exportDir, staging, { recursive: true })
      await rename(staging, target)
    } catch (error) {
      return removeAfterFailure(staging, error)
    }
    if (mode === 'move') await rm(exportDir, { recursive: true, force: true })
    return info
  }

  /** A new symlink renamed over `live` (atomic on POSIX); throws when no complete build has that id. */
  async setLive(id: string): Promise<void> {
    const dir = path.join(this.buildsDir, id)
    if (!(await readBuildInfo(dir))) throw new Error(`No complete build "${id}" in ${this.buildsDir}`)
    const temporary = `${this.liveLink}.${process.pid}.${Date.now()}`
    await symlink(path.relative(this.root, dir), temporary)
    await rename(temporary, this.liveLink).catch((error) => removeAfterFailure(temporary, error))
  }

  /**
   * The one way a new build goes live: `add`, then `setLive`; old builds stay until `prune()`.
   * @returns the build, the id it replaced (or null) and ms taken
   * @throws Error when storing or swapping failed: the live build is unchanged, nothing of this one kept
   */
  async putLive(exportDir: string, mode: 'move' | 'copy' = 'move') {
    const started = performance.now()
    const info = await this.add(exportDir, mode)
    const previous = await this.liveId()
    try {
      await this.setLive(info.id)
    } catch (error) {
      if ((await this.liveId()) === info.id) throw error
      return removeAfterFailure(path.join(this.buildsDir, info.id), error)
    }
    return { info, previous, swapMs: Math.round(performance.now() - started) }
  }

  /**
   * Removes the oldest builds beyond `keep` (never the live one) and `.partial` leftovers.
   * @returns the removed ids
   * @throws Error, after trying every folder, naming each that could not be removed and why
   */
  async prune(): Promise<string[]> {
    const removed = (await this.list())
      .slice(this.keep)
      .filter((build) => !build.live)
      .map((build) => build.id)
    const leftovers = (await readdir(this.buildsDir).catch(() => [])).filter((name) =>
      name.endsWith('.partial'),
    )
    const failures: string[] = []
    for (const name of [...removed, ...leftovers])
      await rm(path.join(this.buildsDir, name), { recursive: true, force: true }).catch((error: Error) =>
        failures.push(error.message),
      )
    if (failures.length) throw new Error(`old builds not removed: ${failures.join('; ')}`)
    return removed
  }
}
