import { ETIM_DYNAMIC_DATE, ETIM_DYNAMIC_UDX, isEtimDynamic } from '../../model/class-version';
import type { UpsertRecord } from '../../catalog/upsert/upsert-types';
import { child, textOf, type XmlNode } from '../read/xml-node';
import type { FileWarning } from './record-actions';

type RecordClass = NonNullable<UpsertRecord['classification']>['classes'][number];

/**
 * The ETIM BMEcat guideline's UDX.EDXF.PRODUCT_ETIM_DYNAMIC (the model date of a product
 * classified against ETIM DYNAMIC, which the ETIM profile export writes) read into the product's
 * DYNAMIC ETIM class as its `dynamicReleaseDate`, as the xChange import keeps
 * EtimDynamicReleaseDate. True when it was read: the element is then not kept as verbatim UDX
 * too. Without a DYNAMIC ETIM class, or with a date that is not YYYY-MM-DD (reported), it stays
 * verbatim UDX as before: nothing the file says is lost.
 */
export function readEtimDynamic(product: XmlNode, classes: RecordClass[], warnings: FileWarning[]): boolean {
  const node = child(child(product, 'USER_DEFINED_EXTENSIONS'), ETIM_DYNAMIC_UDX);
  if (!node) return false;
  const dynamic = classes.find((c) => c.group === 'ETIM' && isEtimDynamic(c.system));
  if (!dynamic) return false;
  const date = textOf(node, ETIM_DYNAMIC_DATE);
  if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date)) {
    warnings.push({
      code: 'class_field_dropped',
      message: `${ETIM_DYNAMIC_DATE} "${(date ?? '').slice(0, 20)}" is not a date YYYY-MM-DD: kept as UDX, not with the class`,
      line: node.line,
      path: `USER_DEFINED_EXTENSIONS/${ETIM_DYNAMIC_UDX}`,
    });
    return false;
  }
  dynamic.dynamicReleaseDate = date;
  return true;
}
