// `npm pack` (and `npm publish`) build the package first, from a fresh clone too: when the
// build tools (devDependencies, pinned by package-lock.json) are not installed yet, this
// installs them with `npm ci` (scripts off), then compiles src/ to dist/ with tsc.
// The tarball ships dist/ (JavaScript, declarations and their maps) and src/, which every map's
// `sources` points at, so the maps resolve inside the installed package.

import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const run = (command, args) => execFileSync(command, args, { cwd: root, stdio: ['ignore', process.stderr, 'inherit'] });

if (!existsSync(tsc)) {
  const npm = process.env.npm_execpath;
  console.error('prepack: installing the build tools (npm ci) first');
  if (npm) run(process.execPath, [npm, 'ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error']);
  else run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error']);
}
rmSync(join(root, 'dist'), { recursive: true, force: true }); // no stale modules in the tarball
run(process.execPath, [tsc, '-p', 'tsconfig.json']);
