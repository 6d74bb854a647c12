import {
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  getNamedType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  valueFromASTUntyped,
} from 'graphql';

/**
 * The requested cost of a document, after Shopify's published rules
 * (https://shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits, "Cost calculation"):
 * a scalar or enum costs 0, an object 1, a connection 2 plus `first` times its nodes' cost,
 * a mutation field 10. Close enough to hold the adapter to the single-query limit of 1000 and
 * to drive the leaky bucket; Shopify's own figure may differ by a few points.
 */
export function requestedCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown>,
): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (!operation) return 0;
  const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  if (!root) return 0;

  function costOf(type: GraphQLCompositeType, set: SelectionSetNode, isRoot: boolean): number {
    let total = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(selection.name.value)!;
        const on = schema.getType(fragment.typeCondition.name.value) as GraphQLCompositeType;
        total += costOf(on, fragment.selectionSet, false);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const on = selection.typeCondition
          ? (schema.getType(selection.typeCondition.name.value) as GraphQLCompositeType)
          : type;
        total += costOf(on, selection.selectionSet, false);
      } else if (isObjectType(type) || isInterfaceType(type)) {
        const field = type.getFields()[selection.name.value];
        if (!field) continue;
        const named = getNamedType(field.type);
        if (!isCompositeType(named) || !selection.selectionSet) {
          if (isRoot && operation!.operation === 'mutation') total += 10;
          continue;
        }
        const firstArg = selection.arguments?.find((arg) => arg.name.value === 'first');
        const first = firstArg ? Number(valueFromASTUntyped(firstArg.value, variables)) : null;
        const inner = costOf(named, selection.selectionSet, false);
        if (isRoot && operation!.operation === 'mutation') total += 10 + inner;
        else if (named.name.endsWith('Connection')) total += 2 + (first ?? 1) * Math.max(inner - 1, 1);
        else total += 1 + inner;
      }
    }
    return total;
  }
  return costOf(root, operation.selectionSet, true);
}
