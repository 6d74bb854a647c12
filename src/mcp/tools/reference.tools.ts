import { setReferences, SetReferencesIn } from '../../catalog/references/references';
import { ReferencesOut } from '../../catalog/references/reference.schemas';
import { defineTool, WRITE } from '../tool-definition';

/** Tools that write a product's references (catalog/references/). */
export const referenceTools = [
  defineTool({
    name: 'set_references',
    title: 'Set the references of a product',
    description:
      'Replaces the outgoing references of one product or variant with `references`, in order: each a type (accessories, ' +
      'sparepart, similar, followup, mandatory, select, consists_of, diff_orderunit, others), the target SKU of the same ' +
      'catalog and an optional quantity. A SKU not in the catalog yet is kept as pending and resolves when that product ' +
      'arrives. An empty list removes every reference and needs `clear: true`. Answers the references as get_product shows them.',
    input: SetReferencesIn,
    output: ReferencesOut,
    annotations: WRITE,
    run: ({ db, caller }, input) => setReferences(db, caller, input),
  }),
];
