import { describe, expect, it } from 'vitest';
import type { MediaLink } from '../../src/sync/protocol/wire';
import { ensureLinkAsset, PICTURE_ONLY } from '../src/adapters/vendure/vendure-assets';
import type { VendureClient } from '../src/adapters/vendure/vendure-client';

/**
 * A category picture's asset in Vendure when new bytes appear behind the same URL (docs/shops.md
 * "Category images"). `AssetLibrary` answers the three documents ensureLinkAsset sends as
 * Vendure's Admin API does (assets by tag, updateAsset's tags, createAssets); the real engine
 * runs the same path in test/shops/vendure.test.ts.
 */
class AssetLibrary implements VendureClient {
  readonly assets: { id: string; tags: string[] }[] = [];
  uploads = 0;

  async query<T>(document: string, variables: Record<string, unknown> = {}): Promise<T> {
    if (document.includes('AssetsByTag')) {
      const wanted = variables.tags as string[];
      const items = this.assets
        .filter((a) => a.tags.some((t) => wanted.includes(t)))
        .map((a) => ({ id: a.id, tags: a.tags.map((value) => ({ value })) }));
      return { assets: { items } } as T;
    }
    if (document.includes('TagAsset')) {
      const input = variables.input as { id: string; tags: string[] };
      this.assets.find((a) => a.id === input.id)!.tags = input.tags;
      return { updateAsset: { id: input.id } } as T;
    }
    throw new Error(`unexpected document ${document.slice(0, 40)}`);
  }

  create<T>(document: string, variables: Record<string, unknown> = {}): Promise<T> {
    return this.query<T>(document, variables);
  }

  async upload<T>(_document: string, input: Record<string, unknown>[]): Promise<T> {
    this.uploads++;
    const id = String(this.assets.length + 1);
    this.assets.push({ id, tags: input[0]!.tags as string[] });
    return { createAssets: [{ id }] } as T;
  }

  tagsOf(id: string) {
    return [...this.assets.find((a) => a.id === id)!.tags].sort();
  }
}

const URL_OF_PICTURE = 'https://media.example/cat/kabel.png';
const link: MediaLink = {
  url: URL_OF_PICTURE,
  fileName: 'kabel.png',
  contentType: 'image/png',
  purpose: 'normal',
  description: null,
  mimeCode: null,
  position: 0,
};

async function hex(text: string) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

describe('a Vendure category picture whose URL serves new bytes', () => {
  it('moves the URL to an asset of the new bytes, keeps the old asset marked, and uploads nothing twice', async () => {
    const library = new AssetLibrary();
    const urlTag = `pim-url:${await hex(URL_OF_PICTURE)}`;
    const wasTag = `pim-was:${await hex(URL_OF_PICTURE)}`;
    let served = 'bytes-v1';
    const fetched: string[] = [];
    const bytes = async () => {
      fetched.push(served);
      return new Blob([served], { type: 'image/png' });
    };
    const asked: string[] = [];
    const changed = (answer: boolean) => async (url: string) => {
      asked.push(url);
      return answer;
    };

    // First look: uploaded once, and the revalidation is not asked (no asset to renew).
    const first = await ensureLinkAsset(library, link, bytes, changed(true));
    expect(first).toEqual({ id: '1', renewed: false });
    expect(asked).toEqual([]);
    expect(library.tagsOf('1')).toEqual([PICTURE_ONLY, urlTag, `sha256:${await hex('bytes-v1')}`].sort());

    // Unchanged: found by the URL's tag, nothing fetched.
    expect(await ensureLinkAsset(library, link, bytes, changed(false))).toEqual({ id: '1', renewed: false });
    expect(fetched).toEqual(['bytes-v1']);
    expect(asked).toEqual([URL_OF_PICTURE]);

    // New bytes behind the URL: a new asset carries the URL's tag, the old one is marked.
    served = 'bytes-v2';
    const renewed = await ensureLinkAsset(library, link, bytes, changed(true));
    expect(renewed).toEqual({ id: '2', renewed: true });
    expect(library.tagsOf('2')).toEqual([PICTURE_ONLY, urlTag, `sha256:${await hex('bytes-v2')}`].sort());
    expect(library.tagsOf('1')).toEqual([PICTURE_ONLY, wasTag, `sha256:${await hex('bytes-v1')}`].sort());
    expect(library.uploads).toBe(2);

    // Asked again before the change was recorded as sent (a failed write): the same asset, no upload.
    expect(await ensureLinkAsset(library, link, bytes, changed(true))).toEqual({ id: '2', renewed: true });
    expect(library.uploads).toBe(2);
    expect(library.tagsOf('1')).toEqual([PICTURE_ONLY, wasTag, `sha256:${await hex('bytes-v1')}`].sort());

    // Newer bytes a product image already has: that asset becomes the picture, none uploaded.
    library.assets.push({ id: 'product-image', tags: [`sha256:${await hex('bytes-v3')}`] });
    served = 'bytes-v3';
    expect(await ensureLinkAsset(library, link, bytes, changed(true))).toEqual({
      id: 'product-image',
      renewed: true,
    });
    expect(library.uploads).toBe(2);
    expect(library.tagsOf('product-image')).toEqual([urlTag, `sha256:${await hex('bytes-v3')}`].sort());
    expect(library.tagsOf('2')).toEqual([PICTURE_ONLY, wasTag, `sha256:${await hex('bytes-v2')}`].sort());
    expect(library.assets.filter((a) => a.tags.includes(urlTag)).map((a) => a.id)).toEqual(['product-image']);
  });
});
