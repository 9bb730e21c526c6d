/**
 * The kept builds and which one is live, on disk:
 *   <root>/builds/<id>/   one complete site each (with `.build.json`)
 *   <root>/live           a symlink to builds/<id>, replaced atomically (rename)
 * The server resolves `live` on every request, so a swap (publisher) or a
 * rollback (command line, another process) takes effect at once, and a request
 * already being answered finishes from the build it started on.
 */
import { cp, mkdir, readdir, readlink, rename, rm, symlink } from 'node:fs/promises'
import path from 'node:path'
import { readBuildInfo, type BuildInfo } from '../lib/build-output.ts'

/** How many good builds are kept (the live one is never removed). */
export const KEEP_BUILDS = 5

/**
 * Removes what a failed step left (a half copy, a build that never went live), then throws
 * the step's error; when the removal fails too, the error's message says so (its `code`,
 * e.g. ENOSPC, stays the step's).
 */
async function removeAfterFailure(leftover: string, error: unknown): Promise<never> {
  try {
    await rm(leftover, { recursive: true, force: true })
  } catch (cleanup) {
    if (typeof (error as Error | null)?.message === 'string')
      (error as Error).message += `; ${leftover} was not removed either: ${(cleanup as Error).message}`
  }
  throw error
}

/** A kept build. */
export type KeptBuild = BuildInfo & { dir: string; live: boolean }

/** The builds folder of one site (see the module comment). */
export class BuildStore {
  readonly root: string
  readonly buildsDir: string
  readonly liveLink: string
  readonly keep: number

  /**
   * @param root absolute folder for builds and the live link (created on demand)
   * @param keep how many good builds to keep (default 5)
   */
  constructor(root: string, keep = KEEP_BUILDS) {
    this.root = root
    this.buildsDir = path.join(root, 'builds')
    this.liveLink = path.join(root, 'live')
    this.keep = keep
  }

  /** Id of the live build, or null when nothing is live yet. */
  async liveId(): Promise<string | null> {
    try {
      return path.basename(await readlink(this.liveLink))
    } catch {
      return null
    }
  }

  /** Absolute folder of the live build, or null. */
  async liveDir(): Promise<string | null> {
    const id = await this.liveId()
    return id ? path.join(this.buildsDir, id) : null
  }

  /** Every complete kept build, newest first. */
  async list(): Promise<KeptBuild[]> {
    let names: string[]
    try {
      names = await readdir(this.buildsDir)
    } catch {
      return []
    }
    const live = await this.liveId()
    const builds = await Promise.all(
      names.map(async (name) => {
        const dir = path.join(this.buildsDir, name)
        const info = await readBuildInfo(dir)
        return info && info.id === name ? { ...info, dir, live: name === live } : null
      }),
    )
    return builds.filter((build) => build !== null).sort((a, b) => b.id.localeCompare(a.id))
  }

  /**
   * Moves a finished export into the store (a rename on the same filesystem, a copy otherwise).
   * @param exportDir a complete export (with `.build.json`)
   * @param mode 'move' takes the folder away (publisher builds); 'copy' leaves it (adopting `out/`)
   * @returns the stored build
   * @throws Error when the export is incomplete, or the move or copy failed (a copy's
   *   `.partial` folder is removed first)
   */
  async add(exportDir: string, mode: 'move' | 'copy' = 'move'): Promise<BuildInfo> {
    const info = await readBuildInfo(exportDir)
    if (!info) throw new Error(`${exportDir} is not a complete build (no .build.json)`)
    await mkdir(this.buildsDir, { recursive: true })
    const target = path.join(this.buildsDir, info.id)
    if (mode === 'move') {
      try {
        await rename(exportDir, target)
        return info
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error
      }
    }
    const staging = `${target}.partial`
    await rm(staging, { recursive: true, force: true })
    try {
      await cp(exportDir, staging, { recursive: true })
      await rename(staging, target)
    } catch (error) {
      // A half copy holds space (a full disk is the likeliest cause) and is never a build.
      return removeAfterFailure(staging, error)
    }
    if (mode === 'move') await rm(exportDir, { recursive: true, force: true })
    return info
  }

  /**
   * Puts a kept build live: a new symlink renamed over `live` (atomic on POSIX).
   * @throws Error when no complete build has that id
   */
  async setLive(id: string): Promise<void> {
    const dir = path.join(this.buildsDir, id)
    if (!(await readBuildInfo(dir))) throw new Error(`No complete build "${id}" in ${this.buildsDir}`)
    const temporary = `${this.liveLink}.${process.pid}.${Date.now()}`
    await symlink(path.relative(this.root, dir), temporary)
    try {
      await rename(temporary, this.liveLink)
    } catch (error) {
      return removeAfterFailure(temporary, error)
    }
  }

  /**
   * Puts a finished export live: stores it (`add`), then swaps the live link to it
   * (`setLive`). The one way a new build goes live, at start (`out/` adopted) and after
   * each publish; old builds stay until `prune()`, which the caller runs when it suits.
   * @param exportDir a complete export (with `.build.json`)
   * @param mode as for `add`: 'move' takes the folder away (publisher builds); 'copy' leaves it (adopting `out/`)
   * @returns the build now live, the id of the one it replaced (null when none was live),
   *   and how long storing and swapping took, in ms
   * @throws Error when the export is incomplete, or storing or swapping failed: the live
   *   build is then unchanged, and the store keeps nothing of this one (a build that never
   *   went live is no rollback target, and a full disk needs its space back)
   */
  async putLive(
    exportDir: string,
    mode: 'move' | 'copy' = 'move',
  ): Promise<{ info: BuildInfo; previous: string | null; swapMs: number }> {
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
   * Removes the oldest builds beyond `keep`, and leftovers of interrupted copies;
   * never the live build. Runs after every publish, failed ones too: space comes back
   * whether or not a build went live. Tries every folder before it throws.
   * @returns the removed ids
   * @throws Error naming each folder that could not be removed, and why
   */
  async prune(): Promise<string[]> {
    const builds = await this.list()
    const removed = builds
      .slice(this.keep)
      .filter((build) => !build.live)
      .map((build) => build.id)
    const names = await readdir(this.buildsDir).catch(() => [] as string[])
    const leftovers = names.filter((name) => name.endsWith('.partial'))
    const failures: string[] = []
    for (const name of [...removed, ...leftovers])
      await rm(path.join(this.buildsDir, name), { recursive: true, force: true }).catch((error: Error) =>
        failures.push(error.message),
      )
    if (failures.length) throw new Error(`old builds not removed: ${failures.join('; ')}`)
    return removed
  }
}
