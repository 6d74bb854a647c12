import { join, resolve } from 'node:path';

/** The official BMEcat schemas kept in the repository (schemas/bmecat/README.md says where each comes from). */
export const BMECAT_XSD_DIR = resolve(import.meta.dirname, '..', '..', 'schemas', 'bmecat', 'xsd');

/** The schema each export format validates against, by exportType (plus the openTRANS namespace of 2005). */
export const BMECAT_SCHEMAS = {
  BMEcat: join(BMECAT_XSD_DIR, 'bmecat_2005.xsd'),
  'BMEcat-openTRANS': join(BMECAT_XSD_DIR, 'opentrans21', 'bmecat_2005.xsd'),
  'BMEcat-ETIM': join(BMECAT_XSD_DIR, 'etim', 'bmecat_etim_50.xsd'),
  BMEcat12: join(BMECAT_XSD_DIR, '1.2', 'bmecat_new_catalog_1_2.xsd'),
  /**
   * BMEcat 2005.1, against which a BMEcat-2005onto export is validated under the 2005.1
   * namespace: no schema of 2005+onto is published, and its tree (FEATURE_GROUP, FID /
   * FPARENT_ID) is what 2005.1 took in.
   */
  'BMEcat-2005.1': join(BMECAT_XSD_DIR, 'bmecat_2005_1.xsd'),
} as const;
