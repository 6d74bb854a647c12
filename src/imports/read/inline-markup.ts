import type { SaxesTagPlain } from 'saxes';

/**
 * Text elements whose content suppliers fill with inline HTML written as markup instead of
 * escaped text or CDATA (`Chrom-Vanadium, <b>induktiv</b> gehärtet`, `Zeile 1<br/>Zeile 2`).
 * The BMEcat schemas declare them text; a well-formed file may still hold such elements, and
 * reading them as child elements would drop their words. Their markup is kept as text, as CDATA
 * around it would have given it (bmecat-reader.ts).
 */
export const MARKUP_TEXTS: ReadonlySet<string> = new Set(['DESCRIPTION_LONG', 'GROUP_DESCRIPTION']);

const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The start tag as written (name with its prefix, attributes in order); `<br/>` for an empty-element tag. */
export function startTagText(tag: SaxesTagPlain): string {
  const attrs = Object.entries(tag.attributes as Record<string, string>)
    .map(([name, value]) => ` ${name}="${attribute(value)}"`)
    .join('');
  return `<${tag.name}${attrs}${tag.isSelfClosing ? '/' : ''}>`;
}

/** Inline markup being read inside a MARKUP_TEXTS element: where its text goes and which tags are open. */
export class InlineMarkup<T extends { text: string }> {
  private readonly open: { name: string; selfClosing: boolean }[] = [];
  constructor(readonly host: T) {}

  start(tag: SaxesTagPlain): void {
    this.host.text += startTagText(tag);
    this.open.push({ name: tag.name, selfClosing: tag.isSelfClosing });
  }

  /** Closes the innermost open tag; true when that was the outermost (inline markup ends). */
  end(): boolean {
    const tag = this.open.pop();
    if (tag && !tag.selfClosing) this.host.text += `</${tag.name}>`;
    return this.open.length === 0;
  }
}
