import { getMetadataArgsStorage } from 'typeorm';

/** An entity class (every entity has a constructor without arguments). */
export type EntityClass<E> = new () => E;

/**
 * A row of entity `E` as raw SQL reads it through `selectColumns`: the entity's own property names and
 * types, so no row interface repeats a table's columns.
 */
export type Row<E, K extends keyof E> = Pick<E, K>;

/** Each entity's property-to-column names, read from its decorators once: some lists are built per request. */
const namesOf = new Map<EntityClass<unknown>, Map<string, string>>();

/** The table column behind an entity's property, as its decorator names it. */
export function columnName<E>(entity: EntityClass<E>, property: keyof E & string): string {
  let names = namesOf.get(entity);
  if (!names) {
    names = new Map();
    for (const args of getMetadataArgsStorage().columns) {
      if (args.target === entity) names.set(args.propertyName, args.options.name ?? args.propertyName);
    }
    namesOf.set(entity, names);
  }
  const name = names.get(property);
  if (name === undefined) throw new Error(`${entity.name}.${property} is not a column`);
  return name;
}

/**
 * `alias.column AS "property"` for each property, for a SELECT list: the rows come back as
 * `Row<E, K>`. Built once where a statement is declared, so a hot path pays nothing for it.
 */
export function selectColumns<E, K extends keyof E & string>(
  entity: EntityClass<E>,
  alias: string,
  properties: readonly K[],
): string {
  return properties.map((property) => `${alias}.${columnName(entity, property)} AS "${property}"`).join(', ');
}
