/**
 * Another commit's build, for "before and after" figures (`npm run bench -- --bytes-against
 * REV`: the visitors' bytes per page, and the files themselves): the commit is checked out
 * into a temporary git worktree (with this checkout's `node_modules` as hard links:
 * Turbopack reads no file from outside the project), built with `npm run build` on its own
 * embedded default, and handed to the caller's measure. Takes one full build.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** Runs a command, failing with its output when it fails. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8' })
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${result.stderr || result.stdout}`)
}

/**
 * Builds another revision in a temporary worktree and measures its export.
 * @param revision any git revision
 * @param measure reads the revision's export folder (it is removed afterwards)
 * @returns what `measure` returned
 * @throws Error when the revision does not exist or its build fails
 */
export async function measureAt<T>(
  revision: string,
  measure: (exportDir: string) => T | Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-at-'))
  const tree = path.join(dir, 'tree')
  run('git', ['worktree', 'add', '--detach', tree, revision], process.cwd())
  try {
    run('cp', ['-al', path.resolve('node_modules'), path.join(tree, 'node_modules')], process.cwd())
    // The build reads its own default content: no project, no perspective of ours.
    const env = { ...process.env }
    delete env.SANITY_PROJECT_ID
    delete env.CONTENT_PERSPECTIVE
    run('npm', ['run', 'build'], tree, env)
    // Awaited here: the worktree is removed only once the measure has read it.
    return await measure(path.join(tree, 'out'))
  } finally {
    run('git', ['worktree', 'remove', '--force', tree], process.cwd())
    rmSync(dir, { recursive: true, force: true })
  }
}
