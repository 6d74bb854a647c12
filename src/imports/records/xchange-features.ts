type Json = Record<string, any>;

/**
 * One xChange ETIM feature as the stored value the BMEcat import writes for the same feature:
 * an EV code, `true`/`false`, a number, a range `lower..upper`, or the alphanumeric text
 * (EtimValueDetails) in the catalog's language, else the first. Null for no value (ReasonNoValue).
 */
export function xchangeFeatureValue(feature: Json, primary: string): string | null {
  if (typeof feature.EtimValueCode === 'string') return feature.EtimValueCode;
  if (typeof feature.EtimValueLogical === 'boolean') return String(feature.EtimValueLogical);
  const lower = feature.EtimValueRangeLower;
  const upper = feature.EtimValueRangeUpper;
  if (typeof lower === 'string' && typeof upper === 'string') return `${lower}..${upper}`;
  if (typeof feature.EtimValueNumeric === 'string') return feature.EtimValueNumeric;
  if (typeof lower === 'string') return lower;
  if (typeof upper === 'string') return upper;
  const details: Json[] = Array.isArray(feature.EtimValueDetails) ? feature.EtimValueDetails : [];
  const text =
    details.find(
      (d) =>
        String(d?.Language ?? '')
          .slice(0, 2)
          .toLowerCase() === primary,
    ) ?? details[0];
  return typeof text?.EtimValueDetails === 'string' && text.EtimValueDetails.trim()
    ? text.EtimValueDetails.trim()
    : null;
}
