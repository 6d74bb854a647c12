import { getReleases, ReleasesOut } from '../../releases/release-queries';
import {
  getReleaseClassFeatures,
  ReleaseClassFeaturesOut,
  ReleaseClassFeaturesQuery,
  SearchReleaseClassesOut,
  SearchReleaseClassesQuery,
  searchReleaseClasses,
} from '../../releases/release-search';
import { getReleaseGroups, ReleaseGroupsOut, ReleaseGroupsQuery } from '../../releases/release-groups';
import { planReleaseUpgrade, ReleaseUpgradeDto, ReleaseUpgradePlanOut } from '../../releases/upgrade-job';
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../tool-definition';

/**
 * Read-only access to the loaded classification releases (docs/classification-releases.md), so
 * an agent classifies a product against a real release instead of guessing codes. Releases are
 * reference data shared by every company: no tenant filter applies.
 */
export const releaseTools = [
  defineTool({
    name: 'list_classification_releases',
    title: 'Loaded classification releases',
    description:
      'The classification releases the service has (e.g. ETIM-9.0, PROFICLASS-7.0, ECLASS-13.0) with status, languages and ' +
      "counts of classes, features and values, and `products`: how many of your company's products are classified on it. " +
      "Use a loaded release's `release` name with search_classes and get_class_features.",
    input: z.strictObject({}),
    output: ReleasesOut,
    annotations: READ_ONLY,
    run: ({ db, caller }) => getReleases(db, caller),
  }),
  defineTool({
    name: 'search_classes',
    title: 'Search the classes of a release',
    description:
      'Finds classes of one loaded release (`release`, e.g. ETIM-9.0) by code prefix (EC0009) or by words of their name or ' +
      'synonyms in any language of the release (each word a prefix, e.g. "kabelbind" or "cable tie"); names in `lang` when given. ' +
      'Returns code, name, parent, its group (ETIM releases: EG code and name) and whether the class is deprecated (with its ' +
      'successor); `group` (e.g. EG000017) searches one group only.',
    input: SearchReleaseClassesQuery.extend({ limit: z.number().int().min(1).max(50).default(20) }),
    output: SearchReleaseClassesOut,
    annotations: READ_ONLY,
    run: ({ db }, input) => searchReleaseClasses(db, input),
  }),
  defineTool({
    name: 'list_class_groups',
    title: 'Class groups of a release',
    description:
      'The class groups of one loaded release (ETIM releases: EG code and name, names in `lang` when given, else the ' +
      "release's first language), by code: the values search_classes takes as `group`. Releases without groups " +
      '(eCl@ss, proficl@ss, ETIM CSV) answer an empty list.',
    input: ReleaseGroupsQuery,
    output: ReleaseGroupsOut,
    annotations: READ_ONLY,
    run: ({ db }, input) => getReleaseGroups(db, input),
  }),
  defineTool({
    name: 'get_class_features',
    title: 'Features of a release class',
    description:
      'The features of one class of a loaded release in order: code, name, type (A alphanumeric, N numeric, R range, ' +
      'L logical), unit, whether mandatory, and the allowed values (code and name) for value-list features. Use it to fill ' +
      'a classification with the codes the release defines: create_classification / update_classification with classes ' +
      '[{group, code, release}] and features [{code, value}], a value being an allowed value code (A), a number in the ' +
      'unit such as "12" or "12 mm" (N), "min..max" (R) or true/false (L).',
    input: ReleaseClassFeaturesQuery,
    output: ReleaseClassFeaturesOut,
    annotations: READ_ONLY,
    run: ({ db }, input) => getReleaseClassFeatures(db, input),
  }),
  // Decided (docs/mcp.md, "Releases"): the dry run is a read of the caller's own classifications,
  // so an agent (never an administrator, docs/spec.md 5.2) may preview an upgrade; starting it
  // stays the administrator's REST operation (StartReleaseUpgrade) and has no tool.
  defineTool({
    name: 'preview_release_upgrade',
    title: 'Preview a release upgrade',
    description:
      "The dry run of moving the company's classifications from one loaded release to another of the same system " +
      '(`from` ETIM-9.0, `to` ETIM-10.0, optionally only one catalog): how many classifications are on `from`, how many ' +
      'move, what changes by itself (successor classes, features and values, unit conversions) and what needs a person ' +
      '(classes without a place, removed features, refused values), each line with its count. Changes nothing; an ' +
      'administrator starts the upgrade in the web app. Find the products still on a release with search_products ' +
      '(classificationRelease).',
    input: ReleaseUpgradeDto,
    output: ReleaseUpgradePlanOut,
    annotations: READ_ONLY,
    run: ({ db, caller }, input) => planReleaseUpgrade(db, caller, input),
  }),
];
