import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Finds which tables the backend's code touches, file by file, for test/table-ownership.spec.ts, with the
 * TypeScript parser (no code run): SQL in string and template literals, and TypeORM entity use. What
 * counts as a touch: docs/testing.md.
 */

/** One place a file touches a table. */
export interface TableTouch {
  table: string;
  /** 1-based. */
  line: number;
  how: 'sql' | 'entity';
}

/** Words after which a table name is a table (case does not matter). */
const TABLE_KEYWORDS = new Set([
  'from',
  'join',
  'update',
  'into',
  'table',
  'using',
  'only',
  'truncate',
  'references',
]);
/** Words that end a FROM list (at its own depth of parentheses). */
const FROM_LIST_ENDS = new Set([
  'where',
  'group',
  'having',
  'window',
  'order',
  'limit',
  'offset',
  'fetch',
  'for',
  'returning',
  'set',
  'on',
  'union',
  'intersect',
  'except',
  'select',
  'values',
  'into',
  'do',
]);

/** Stands for a template's `${…}`: a word of its own that is no table. */
const HOLE = '\u0001';

type Token =
  | { kind: 'word'; text: string; at: number }
  | { kind: 'ident'; text: string; at: number }
  | { kind: 'punct'; text: string; at: number }
  | { kind: 'hole'; at: number };

function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (sql.startsWith('--', i)) {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end;
    } else if (sql.startsWith('/*', i)) {
      const end = sql.indexOf('*/', i + 2);
      i = end === -1 ? sql.length : end + 2;
    } else if (c === "'") {
      // An SQL string ('' is a quote inside it): no table in there.
      i++;
      while (i < sql.length && !(sql[i] === "'" && sql[i + 1] !== "'")) i += sql[i] === "'" ? 2 : 1;
      i++;
    } else if (c === '"') {
      const end = sql.indexOf('"', i + 1);
      const stop = end === -1 ? sql.length : end;
      tokens.push({ kind: 'ident', text: sql.slice(i + 1, stop), at: i });
      i = stop + 1;
    } else if (c === HOLE) {
      tokens.push({ kind: 'hole', at: i });
      i++;
    } else if (/[A-Za-z_]/.test(c)) {
      const word = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(sql.slice(i))![0];
      tokens.push({ kind: 'word', text: word, at: i });
      i += word.length;
    } else {
      tokens.push({ kind: 'punct', text: c, at: i });
      i++;
    }
  }
  return tokens;
}

const isWord = (token: Token | undefined, words: ReadonlySet<string>): boolean =>
  token?.kind === 'word' && words.has(token.text.toLowerCase());
const isPunct = (token: Token | undefined, text: string): boolean =>
  token?.kind === 'punct' && token.text === text;

/** After a table name that starts a literal: nothing, an alias, a keyword (JOIN, WHERE, AS…) or a `${…}`. */
const startsFragment = (next: Token | undefined): boolean =>
  next === undefined || next.kind === 'word' || next.kind === 'hole' || isPunct(next, ',');

/**
 * The tables `sql` (one literal's text, `HOLE` for each `${…}`) names, each with its offset in `sql`.
 * Table names are matched as written (lower case, as PostgreSQL folds them), keywords in any case.
 */
export function tablesInSql(sql: string, tables: ReadonlySet<string>): Array<{ table: string; at: number }> {
  const tokens = tokenize(sql);
  const found: Array<{ table: string; at: number }> = [];
  // Per depth of parentheses: whether a FROM (or USING) list is open there.
  const fromList: boolean[] = [false];
  let depth = 0;
  tokens.forEach((token, index) => {
    const previous = tokens[index - 1];
    if (isPunct(token, '(')) {
      fromList[++depth] = false;
      return;
    }
    if (isPunct(token, ')')) {
      depth = Math.max(depth - 1, 0);
      return;
    }
    if (token.kind === 'word' && FROM_LIST_ENDS.has(token.text.toLowerCase())) fromList[depth] = false;
    if (token.kind === 'word' && /^(from|using)$/i.test(token.text)) fromList[depth] = true;
    if (token.kind !== 'word' && token.kind !== 'ident') return;
    if (!tables.has(token.text) || isPunct(previous, '.')) return;
    const qualifies = isPunct(tokens[index + 1], '.') && tokens[index + 2]?.kind === 'word';
    if (
      (index === 0 && startsFragment(tokens[1])) ||
      isWord(previous, TABLE_KEYWORDS) ||
      (isPunct(previous, ',') && fromList[depth]) ||
      qualifies
    ) {
      found.push({ table: token.text, at: token.at });
    }
  });
  return found;
}

/** The text of a string or template literal, `HOLE` for each `${…}`. */
function literalText(
  node: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateExpression,
): string {
  if (!ts.isTemplateExpression(node)) return node.text;
  return node.head.text + node.templateSpans.map((span) => ` ${HOLE} ${span.literal.text}`).join('');
}

/** Literals that are no SQL: module paths, decorator arguments (routes), literal types. */
function isNotSql(node: ts.Node): boolean {
  const parent = node.parent;
  if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) return true;
  if (ts.isExternalModuleReference(parent) || ts.isLiteralTypeNode(parent)) return true;
  if (ts.isCallExpression(parent)) {
    if (parent.expression.kind === ts.SyntaxKind.ImportKeyword) return true;
    if (ts.isIdentifier(parent.expression) && parent.expression.text === 'require') return true;
    if (ts.isDecorator(parent.parent)) return true;
  }
  return false;
}

/** The table of an `@Entity(…)` decorator: `@Entity('users')` or `@Entity({ name: 'users' })`. */
function entityTable(decorator: ts.Decorator, file: string): string | undefined {
  const call = decorator.expression;
  if (!ts.isCallExpression(call) || !ts.isIdentifier(call.expression) || call.expression.text !== 'Entity') {
    return undefined;
  }
  const [argument] = call.arguments;
  if (argument && ts.isStringLiteralLike(argument)) return argument.text;
  if (argument && ts.isObjectLiteralExpression(argument)) {
    for (const property of argument.properties) {
      if (
        ts.isPropertyAssignment(property) &&
        ts.isIdentifier(property.name) &&
        property.name.text === 'name' &&
        ts.isStringLiteralLike(property.initializer)
      ) {
        return property.initializer.text;
      }
    }
  }
  throw new Error(`${file}: an @Entity names its table (@Entity('table')), so the ownership test can see it`);
}

function parse(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

/** One `@Entity` class: its name, its table and the file that declares it. */
export interface EntityDeclaration {
  name: string;
  table: string;
  file: string;
}

/** Every `@Entity` class of these files. */
export function entityDeclarations(
  files: ReadonlyArray<{ file: string; text: string }>,
): EntityDeclaration[] {
  const declarations: EntityDeclaration[] = [];
  for (const { file, text } of files) {
    const visit = (node: ts.Node): void => {
      if (ts.isClassDeclaration(node) && node.name) {
        for (const decorator of ts.getDecorators(node) ?? []) {
          const table = entityTable(decorator, file);
          if (table !== undefined) declarations.push({ name: node.name.text, table, file });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(parse(file, text));
  }
  return declarations;
}

/** Every `@Entity` class of these files: class name → table. */
export function entityClasses(files: ReadonlyArray<{ file: string; text: string }>): Map<string, string> {
  return new Map(entityDeclarations(files).map(({ name, table }) => [name, table]));
}

/** Whether an identifier is used as a value that names its entity to TypeORM (not as a type). */
function isEntityUse(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isCallExpression(parent)) return parent.arguments.includes(node);
  if (ts.isNewExpression(parent)) return parent.expression === node;
  if (ts.isArrayLiteralExpression(parent)) return true;
  if (ts.isPropertyAssignment(parent)) return parent.initializer === node;
  return false;
}

/**
 * The tables one file touches. `tables`: every table name; `entities`: every entity class (class name
 * → table), as `entityClasses` found them in the whole code base.
 */
export function tableTouches(
  file: string,
  text: string,
  tables: ReadonlySet<string>,
  entities: ReadonlyMap<string, string>,
): TableTouch[] {
  const source = parse(file, text);
  const touches: TableTouch[] = [];
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
  // Entity classes by the name this file knows them by (an import may rename them).
  const local = new Map(entities);
  for (const statement of source.statements) {
    const bindings = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : undefined;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements) {
      const table = entities.get((element.propertyName ?? element.name).text);
      if (table !== undefined) local.set(element.name.text, table);
    }
  }
  const visit = (node: ts.Node): void => {
    if (
      (ts.isStringLiteral(node) ||
        ts.isNoSubstitutionTemplateLiteral(node) ||
        ts.isTemplateExpression(node)) &&
      !isNotSql(node)
    ) {
      const start = node.getStart(source) + 1;
      // Offsets within a template's text are close enough to find the line (holes are not measured).
      const body = literalText(node);
      for (const { table, at } of tablesInSql(body, tables)) {
        const line = lineOf(start) + (body.slice(0, at).match(/\n/g)?.length ?? 0);
        touches.push({ table, line, how: 'sql' });
      }
      if (!ts.isTemplateExpression(node)) return;
    }
    if (ts.isClassDeclaration(node) && node.name) {
      for (const decorator of ts.getDecorators(node) ?? []) {
        const table = entityTable(decorator, file);
        if (table !== undefined) touches.push({ table, line: lineOf(node.getStart(source)), how: 'entity' });
      }
    }
    if (ts.isIdentifier(node) && local.has(node.text) && isEntityUse(node)) {
      touches.push({ table: local.get(node.text)!, line: lineOf(node.getStart(source)), how: 'entity' });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return touches;
}

/** Every `.ts` file under `dir`, relative to `root`, with `/` separators. */
export function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) out.push(path.relative(root, full).split(path.sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

/** Every `.ts` file of the backend's `src/`, relative to `backendDir`, with its text. */
export function backendSources(backendDir: string): Array<{ file: string; text: string }> {
  return sourceFiles(backendDir, path.join(backendDir, 'src')).map((file) => ({
    file,
    text: readFileSync(path.join(backendDir, file), 'utf8'),
  }));
}

const NOT_TOUCHING = new Set(['src/entities.ts', 'src/module-layers.ts']);

/** One module's touch of one table in one file (its first line). */
export interface ModuleTouch {
  module: string;
  table: string;
  file: string;
  line: number;
  how: TableTouch['how'];
}

/**
 * Every table each module touches, file by file: a file's module is its `src/modules/<folder>/`, else
 * `infra`. Left out: spec files (tests touch any table), `src/infra/database/` (it defines them), and
 * the lists of entity classes and of units (`src/entities.ts`, `src/module-layers.ts`), which touch none.
 */
export function moduleTouches(backendDir: string, tables: ReadonlySet<string>): ModuleTouch[] {
  const files = backendSources(backendDir);
  const entities = entityClasses(files);
  const touches = new Map<string, ModuleTouch>();
  for (const { file, text } of files) {
    if (file.endsWith('.spec.ts') || file.startsWith('src/infra/database/') || NOT_TOUCHING.has(file))
      continue;
    const module = /^src\/modules\/([^/]+)\//.exec(file)?.[1] ?? 'infra';
    for (const touch of tableTouches(file, text, tables, entities)) {
      const key = `${module} ${touch.table} ${file}`;
      if (!touches.has(key)) touches.set(key, { module, file, ...touch });
    }
  }
  return [...touches.values()];
}
