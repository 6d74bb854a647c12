/**
 * Relative links in the repository's Markdown (README.md, docs/, connector/, schemas/) must
 * point at a file that exists and, with `#anchor`, at a heading of that file: the README is a
 * front page whose detail lives in docs/, so a moved or renamed section must not leave a dead
 * link behind. Part of `npm run check:standalone`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Markdown files whose links are checked, relative to the repository root. */
export function markdownFiles(root: string): string[] {
  const inDir = (dir: string) =>
    existsSync(join(root, dir))
      ? readdirSync(join(root, dir))
          .filter((name) => name.endsWith('.md'))
          .map((name) => join(dir, name))
      : [];
  return ['README.md', ...inDir('docs'), ...inDir('connector'), ...inDir('schemas/bmecat')];
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces as hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The text outside fenced code blocks and inline code spans, line by line. */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (line.trimStart().startsWith('```')) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line.replace(/`[^`]*`/g, '');
  });
}

/** Every anchor a file offers: its headings' slugs, repeated ones numbered as GitHub does. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.trimStart().startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]!.replace(/`/g, ''));
    const count = seen.get(base) ?? 0;
    anchors.add(count === 0 ? base : `${base}-${count}`);
    seen.set(base, count + 1);
  }
  return anchors;
}

/** `file:line: target (reason)` for each relative link that does not resolve. */
export function brokenLinks(root: string): string[] {
  const broken: string[] = [];
  for (const file of markdownFiles(root)) {
    const path = join(root, file);
    const text = readFileSync(path, 'utf8');
    proseLines(text).forEach((line, index) => {
      for (const match of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const target = match[1]!;
        if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // http:, https:, mailto:
        const [pathPart = '', anchor] = target.split('#', 2);
        const linked = pathPart === '' ? path : resolve(dirname(path), decodeURIComponent(pathPart));
        const where = `${file}:${index + 1}: ${target}`;
        if (!existsSync(linked)) {
          broken.push(`${where} (no ${relative(root, linked)})`);
          continue;
        }
        if (anchor === undefined || statSync(linked).isDirectory() || !linked.endsWith('.md')) continue;
        if (!anchorsOf(readFileSync(linked, 'utf8')).has(anchor))
          broken.push(`${where} (no heading #${anchor} in ${relative(root, linked)})`);
      }
    });
  }
  return broken;
}
