import { z } from 'zod';
import type { Database } from '../db/client';
import { findLoadedRelease, Language, namesOf, pickName, ReleaseName } from './release-queries';

export const ReleaseGroupsQuery = z.strictObject({
  release: ReleaseName,
  /** The language of the names in the answer (default: the release's first). */
  lang: Language.optional(),
});

export const ReleaseGroupsOut = z.object({
  release: z.string(),
  items: z.array(
    z.object({
      /** The group's code, e.g. EG000017: what SearchReleaseClasses takes as `group`. */
      code: z.string(),
      /** A group exists only as its names, so it always has one: in `lang`, else the release's first language. */
      name: z.string(),
      lang: z.string(),
    }),
  ),
});

/**
 * The class groups of a loaded release (ETIM IXF `Group`s; docs/classification-releases.md
 * "Groups"), by code, for a filter of class search. A group is stored only as its names
 * (`release_names` kind G), so this is one range of that table's primary key (release, kind):
 * an ETIM release has a few dozen groups, a few names each, so one list without paging.
 * Releases without groups (every format but ETIM IXF) answer an empty list.
 */
export async function getReleaseGroups(db: Database, input: z.infer<typeof ReleaseGroupsQuery>) {
  const release = await findLoadedRelease(db, input.release);
  const byCode = await namesOf(db, release.id, 'G');
  const languages = release.languages ?? [];
  return {
    release: input.release,
    items: [...byCode].map(([code, names]) => {
      const picked = pickName(names, input.lang, languages)!;
      return { code, name: picked.name, lang: picked.lang };
    }),
  };
}
