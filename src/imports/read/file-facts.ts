import { detectFormat, type ImportFormat } from './detect-format';
import { decodeHead } from './text-encodings';
import { ImportFileError } from './text-chunks';

/** What the import screen shows about a file before anything is written (Import/GetImport). */
export interface FileFacts {
  format: ImportFormat | null;
  encoding: string | null;
  /** The root's `version` attribute (BMEcat), else null. */
  version: string | null;
  /** The first `T_…` element (T_NEW_CATALOG, T_UPDATE_PRODUCTS, T_UPDATE_PRICES), with its `mode`. */
  transaction: string | null;
  /** Languages the header names (`LANGUAGE`) and `lang` attributes seen in the head, in file order. */
  languages: string[];
  /** Why the format could not be recognised (the same words the job fails with), else null. */
  problem: string | null;
}

/**
 * Reads the facts of a file from its first bytes (at most 64 KiB: the header of every BMEcat
 * dialect lies within them), so the screen can show them at once, also while the dry run is
 * queued. The job itself detects the format again from the same bytes (detect-format.ts):
 * these facts are for the reader, never a decision.
 */
export function fileFacts(head: Uint8Array): FileFacts {
  const { text } = decodeHead(head);
  const none: FileFacts = {
    format: null,
    encoding: null,
    version: null,
    transaction: null,
    languages: [],
    problem: null,
  };
  let detected: ReturnType<typeof detectFormat>;
  try {
    detected = detectFormat(head);
  } catch (err) {
    if (err instanceof ImportFileError) return { ...none, problem: err.message };
    throw err;
  }
  if (detected.format === 'CSV') return { ...none, format: 'CSV', encoding: detected.encoding };
  if (detected.format === 'ETIMxChange' || detected.format === 'ETIMxChange-1.1') {
    // xChange names its version in SchemaVersion (absent in 1.1) and each text's language as a BCP 47 tag.
    const languages = new Set<string>();
    for (const m of text.matchAll(/"(?:Language|DescriptionLanguage)"\s*:\s*"([A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)"/g))
      languages.add(m[1]!);
    return {
      ...none,
      format: detected.format,
      encoding: detected.encoding,
      version:
        /"SchemaVersion"\s*:\s*"([^"]+)"/.exec(text)?.[1] ?? (detected.format === 'ETIMxChange-1.1' ? '1.1' : null),
      languages: [...languages],
    };
  }
  const root = /<(?:[\w.-]+:)?BMECAT\b([^>]*)>/.exec(text)?.[1] ?? '';
  const version = /\bversion\s*=\s*["']\s*([^"'\s]+)\s*["']/.exec(root)?.[1] ?? null;
  const t = /<(?:[\w.-]+:)?(T_[A-Z_]+)\b([^>]*)>/.exec(text);
  const mode = t ? /\bmode\s*=\s*["']([^"']+)["']/.exec(t[2]!)?.[1] : undefined;
  const languages = new Set<string>();
  for (const m of text.matchAll(/<(?:[\w.-]+:)?LANGUAGE\b[^>]*>\s*([A-Za-z-]{2,8})\s*</g))
    languages.add(m[1]!.toLowerCase());
  for (const m of text.matchAll(/\blang\s*=\s*["']([A-Za-z-]{2,8})["']/g)) languages.add(m[1]!.toLowerCase());
  return {
    format: detected.format,
    encoding: detected.encoding,
    version,
    transaction: t ? `${t[1]}${mode ? ` (${mode})` : ''}` : null,
    languages: [...languages],
    problem: null,
  };
}
