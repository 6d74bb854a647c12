/**
 * What a dialect's schema lets a feature block of another system carry (checked against
 * schemas/bmecat/xsd/): 2005 has FTEMPLATE / FT_IDREF / VALUE_IDREF, REFERENCE_FEATURE_GROUP_ID2
 * and repeated FDESCR / FVALUE_DETAILS; 1.2 one FDESCR and FVALUE_DETAILS and unique FNAMEs and
 * FVALUEs; the ETIM guideline only FNAME, FVALUE, FUNIT, FVALUE_DETAILS and a required group id.
 * An eCl@ss Advanced tree (FEATURE_GROUP, FID / FPARENT_ID) is written whole only by the
 * 2005+onto dialect (`tree`); the others write it flat and report what they flattened.
 */
export interface BlockForm {
  element: 'PRODUCT_FEATURES' | 'ARTICLE_FEATURES';
  templates: boolean;
  groupId2: boolean;
  variants: boolean;
  orderAndDescr: boolean;
  repeatedDetails: boolean;
  uniqueNames: boolean;
  groupIdRequired: boolean;
  /** 2005 and the ETIM guideline restrict system names to `[\w\-\.]` (no `_`); 1.2 takes any text up to 50. */
  systemPattern: boolean;
  /** FNAME repeats with `lang` (2005, the ETIM guideline); 1.2 has one FNAME per feature. */
  namesByLanguage: boolean;
  /** FVALUE carries `lang` (dtMLSTRING in 2005 and the ETIM guideline; 1.2's FVALUE has none). */
  valueLangs: boolean;
  /** FEATURE_GROUP, FID / FPARENT_ID and the type of REFERENCE_FEATURE_GROUP_ID2 (BMEcat 2005+onto). */
  tree: boolean;
}

export const FORM_2005: BlockForm = {
  element: 'PRODUCT_FEATURES',
  templates: true,
  groupId2: true,
  variants: true,
  orderAndDescr: true,
  repeatedDetails: true,
  uniqueNames: false,
  groupIdRequired: false,
  systemPattern: true,
  namesByLanguage: true,
  valueLangs: true,
  tree: false,
};
/** BMEcat 2005 with the ontology extension (eCl@ss Advanced): 2005's form plus the feature tree. */
export const FORM_ONTO: BlockForm = { ...FORM_2005, tree: true };
export const FORM_12: BlockForm = {
  ...FORM_2005,
  element: 'ARTICLE_FEATURES',
  templates: false,
  groupId2: false,
  repeatedDetails: false,
  uniqueNames: true,
  systemPattern: false,
  namesByLanguage: false,
  valueLangs: false,
};
export const FORM_ETIM: BlockForm = {
  ...FORM_2005,
  templates: false,
  groupId2: false,
  variants: false,
  orderAndDescr: false,
  groupIdRequired: true,
};
