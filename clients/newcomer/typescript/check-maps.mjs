// Every source map of an installed package resolves: each `sources` entry is a file inside it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(process.argv[2] ?? '.');
const maps = [];
const walk = (directory) => {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (entry.name.endsWith('.map')) maps.push(path);
  }
};
walk(root);
const missing = [];
for (const map of maps) {
  const { sources = [], sourceRoot = '' } = JSON.parse(readFileSync(map, 'utf8'));
  for (const source of sources) {
    const target = resolve(dirname(map), sourceRoot, source);
    if (!target.startsWith(root + '/') || !existsSync(target)) missing.push(`${relative(root, map)} -> ${source}`);
  }
}
if (maps.length === 0) missing.push('no source maps at all');
if (missing.length) {
  console.error(`source maps that do not resolve inside ${root}:\n  ${missing.join('\n  ')}`);
  process.exit(1);
}
console.log(`ok  ${maps.length} source maps resolve inside the installed package`);
