import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import {
  attributes,
  classificationClasses,
  classificationClassFeatures,
  classificationFeatures,
  classificationFeatureValues,
} from '../../../db/schema';
import type { ClassificationGroup } from '../../../kernel/classification-groups';
import { NO_RELEASE_REFS, readReleaseRefs, type ReleaseRefs } from '../../../classification/release-refs';

type AttributeRow = typeof attributes.$inferSelect;
type FeatureRow = typeof classificationFeatures.$inferSelect;
const IN_CHUNK = 90;

/**
 * Attribute definitions and classification reference data needed to check a batch of
 * records, loaded with a few set-based queries per batch (`prefetch`) and kept for the life of
 * one call or job slice. Checking 100 products feature by feature against D1 would be
 * thousands of round trips; the data itself is small and read-only while a batch runs.
 */
export class ReferenceCache {
  private readonly attributesByCode = new Map<string, AttributeRow | null>();
  private readonly classes = new Map<string, { system: string } | null>();
  private readonly features = new Map<string, (FeatureRow & { enumValues: string[] }) | null>();
  /** `group:classCode` → feature codes of the class. */
  private readonly classFeatures = new Map<string, Set<string>>();
  /** `release:classCode` pairs already read from the loaded releases. */
  private readonly releaseClassesRead = new Set<string>();
  /** Rows of the loaded releases for the classes read so far (classification/release-refs.ts). */
  release: ReleaseRefs = NO_RELEASE_REFS;

  constructor(
    private readonly db: Database,
    private readonly companyId: string,
  ) {}

  /** Loads every definition the given codes need that is not cached yet. */
  async prefetch(need: {
    attributeCodes: Iterable<string>;
    classes: Iterable<{ group: ClassificationGroup; code: string; release?: string | null }>;
  }): Promise<void> {
    await this.prefetchReleases([...need.classes]);
    const codes = [...new Set(need.attributeCodes)].filter((c) => !this.attributesByCode.has(c));
    for (let i = 0; i < codes.length; i += IN_CHUNK) {
      const chunk = codes.slice(i, i + IN_CHUNK);
      const rows = await this.db
        .select()
        .from(attributes)
        .where(and(eq(attributes.companyId, this.companyId), inArray(attributes.code, chunk)));
      for (const code of chunk) this.attributesByCode.set(code, rows.find((r) => r.code === code) ?? null);
    }
    const classKeys = [...new Map([...need.classes].map((c) => [`${c.group}:${c.code}`, c])).values()].filter(
      (c) => !this.classes.has(`${c.group}:${c.code}`),
    );
    for (let i = 0; i < classKeys.length; i += IN_CHUNK) {
      const chunk = classKeys.slice(i, i + IN_CHUNK);
      const codesOf = chunk.map((c) => c.code);
      const rows = await this.db
        .select()
        .from(classificationClasses)
        .where(inArray(classificationClasses.code, codesOf));
      const links = await this.db
        .select()
        .from(classificationClassFeatures)
        .where(inArray(classificationClassFeatures.classCode, codesOf));
      for (const c of chunk) {
        const key = `${c.group}:${c.code}`;
        const row = rows.find((r) => r.group === c.group && r.code === c.code);
        this.classes.set(key, row ? { system: row.system } : null);
        this.classFeatures.set(
          key,
          new Set(links.filter((l) => l.group === c.group && l.classCode === c.code).map((l) => l.featureCode)),
        );
      }
      await this.loadFeatures(links.map((l) => ({ group: l.group, code: l.featureCode })));
    }
  }

  private async loadFeatures(keys: { group: ClassificationGroup; code: string }[]): Promise<void> {
    const missing = [...new Map(keys.map((k) => [`${k.group}:${k.code}`, k])).values()].filter(
      (k) => !this.features.has(`${k.group}:${k.code}`),
    );
    for (let i = 0; i < missing.length; i += IN_CHUNK) {
      const chunk = missing.slice(i, i + IN_CHUNK);
      const codes = chunk.map((k) => k.code);
      const rows = await this.db
        .select()
        .from(classificationFeatures)
        .where(inArray(classificationFeatures.code, codes));
      const values = await this.db
        .select()
        .from(classificationFeatureValues)
        .where(inArray(classificationFeatureValues.featureCode, codes));
      for (const k of chunk) {
        const row = rows.find((r) => r.group === k.group && r.code === k.code);
        const enumValues = values.filter((v) => v.group === k.group && v.featureCode === k.code).map((v) => v.code);
        this.features.set(`${k.group}:${k.code}`, row ? { ...row, enumValues } : null);
      }
    }
  }

  /** Reads the release rows of classes that name a release (explicitly, or by their system name). */
  private async prefetchReleases(classes: { code: string; release?: string | null }[]): Promise<void> {
    const wanted = classes.filter((c) => c.release && !this.releaseClassesRead.has(`${c.release}:${c.code}`));
    if (wanted.length === 0) return;
    const refs = await readReleaseRefs(
      this.db,
      wanted.map((c) => c.release!),
      wanted.map((c) => c.code),
    );
    for (const c of wanted) this.releaseClassesRead.add(`${c.release}:${c.code}`);
    const has = (list: { release: string; code: string }[], r: { release: string; code: string }) =>
      list.some((k) => k.release === r.release && k.code === r.code);
    const old = this.release;
    this.release = {
      releases: [...new Set([...old.releases, ...refs.releases])],
      classes: [...old.classes, ...refs.classes.filter((c) => !has(old.classes, c))],
      features: [
        ...old.features,
        ...refs.features.filter(
          (f) => !old.features.some((k) => k.release === f.release && k.classCode === f.classCode),
        ),
      ],
      values: [
        ...old.values,
        ...refs.values.filter((v) => !old.values.some((k) => k.release === v.release && k.classCode === v.classCode)),
      ],
    };
  }

  attribute(code: string): AttributeRow | null {
    return this.attributesByCode.get(code) ?? null;
  }

  classOf(group: ClassificationGroup, code: string): { system: string } | null {
    return this.classes.get(`${group}:${code}`) ?? null;
  }

  featuresOfClass(group: ClassificationGroup, code: string): ReadonlySet<string> {
    return this.classFeatures.get(`${group}:${code}`) ?? new Set();
  }

  feature(group: ClassificationGroup, code: string): (FeatureRow & { enumValues: string[] }) | null {
    return this.features.get(`${group}:${code}`) ?? null;
  }
}

/** The classification group of a reference system name as BMEcat writes it (ETIM-9.0, ECLASS-13.0, eCl@ss-5.1, PROFICLASS-6.0). */
export function groupOfSystem(system: string | null | undefined): ClassificationGroup | null {
  if (!system) return null;
  if (/^etim/i.test(system)) return 'ETIM';
  if (/^ecl(@|a)ss/i.test(system)) return 'ECLASS';
  if (/^profic(l@|la)ss/i.test(system)) return 'PROFICLASS';
  return null;
}
