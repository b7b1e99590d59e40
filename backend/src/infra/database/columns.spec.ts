import { Column, PrimaryGeneratedColumn } from 'typeorm';
import { columnName, selectColumns } from './columns.js';

// Columns only, no @Entity: a table-less class the table-ownership test does not count.
class Item {
  @PrimaryGeneratedColumn('identity')
  id!: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'text' })
  title!: string;

  notAColumn?: string;
}

describe('entity columns in raw SQL', () => {
  it('names the column behind each property, as its decorator says', () => {
    expect(columnName(Item, 'id')).toBe('id');
    expect(columnName(Item, 'createdAt')).toBe('created_at');
    expect(columnName(Item, 'title')).toBe('title');
  });

  it('selects each column under its property name', () => {
    expect(selectColumns(Item, 'i', ['id', 'createdAt'])).toBe('i.id AS "id", i.created_at AS "createdAt"');
  });

  it('refuses a property that is not a column', () => {
    expect(() => columnName(Item, 'notAColumn')).toThrow('Item.notAColumn is not a column');
  });
});
