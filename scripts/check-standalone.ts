/**
 * The repository must stand on its own: nothing in it may read or name a folder beside the
 * checkout (such as the `shared/` folder of a development workspace). Fails, listing each
 * place, when a scanned file refers to one (as a relative path or as path segments such as
 * `join('..', '<name>')`). Runs first in `npm test`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brokenLinks } from './lib/markdown-links';

const ROOT = join(import.meta.dirname, '..');
const SCANNED = [
  'src',
  'test',
  'scripts',
  'bench',
  'examples',
  'docs',
  'schemas',
  'connector',
  'web',
  'README.md',
  '.ci',
];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.wrangler', '.cache']);
const SHARED = 'shared';
// Built from parts so that this file does not match itself.
const PATTERNS = [new RegExp(`\\.\\./${SHARED}\\b`), new RegExp(`['"]\\.\\.['"]\\s*,\\s*['"]${SHARED}['"]`)];

function filesUnder(path: string): string[] {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path);
  } catch {
    return [];
  }
  if (!stat.isDirectory()) return [path];
  return readdirSync(path)
    .filter((name) => !SKIPPED_DIRS.has(name))
    .flatMap((name) => filesUnder(join(path, name)));
}

const findings: string[] = [];
let scanned = 0;
for (const file of SCANNED.flatMap((entry) => filesUnder(join(ROOT, entry)))) {
  if (/\.(png|jpe?g|gif|webp|ico|woff2?|zip|gz)$/i.test(file)) continue;
  scanned++;
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (PATTERNS.some((pattern) => pattern.test(line)))
        findings.push(`${relative(ROOT, file)}:${index + 1}: ${line.trim()}`);
    });
}

if (findings.length > 0) {
  console.error(
    `The repository refers to a folder outside itself (copy what it needs into the repository):\n${findings.join('\n')}`,
  );
  process.exit(1);
}
console.log(`standalone check: ${scanned} files, no reference outside the repository`);

const broken = brokenLinks(ROOT);
if (broken.length > 0) {
  console.error(`Links in the Markdown files that lead nowhere:\n${broken.join('\n')}`);
  process.exit(1);
}
console.log('link check: every relative link in README.md, docs/, connector/ and schemas/ resolves');
