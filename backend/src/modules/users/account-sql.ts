import type { DataSource } from 'typeorm';
import { User, withEndedLifted } from './entities/user.entity.js';

/*
 * The users module's fragment for a statement that finds a member beside its own row in one round trip
 * (a personal access token by its hash, with its member): the whole `users` row, read-only, hydrated as
 * UsersService.findById hydrates it.
 */

const columnsByAlias = new Map<string, string>();

/** Every column of `users` joined as `alias`, under its property's name (from the entity's metadata). */
export function joinedUserColumns(dataSource: DataSource, alias: string): string {
  let columns = columnsByAlias.get(alias);
  if (columns === undefined) {
    columns = dataSource
      .getMetadata(User)
      .columns.map((column) => `${alias}."${column.databaseName}" AS "${column.propertyName}"`)
      .join(', ');
    columnsByAlias.set(alias, columns);
  }
  return columns;
}

/** Joins the member whose id is `column` as `alias` (INNER: no row once the member is deleted). */
export const joinUser = (alias: string, column: string) => `JOIN users ${alias} ON ${alias}.id = ${column}`;

/** A row of joinedUserColumns as the User it is. */
export function asJoinedUser(row: Partial<User>): User {
  return withEndedLifted(Object.assign(new User(), row));
}
