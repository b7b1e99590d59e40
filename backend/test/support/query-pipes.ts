import { RequestMethod, type Type } from '@nestjs/common';
import {
  METHOD_METADATA,
  PATH_METADATA,
  ROUTE_ARGS_METADATA,
  RouteParamtypes,
} from '@nestjs/common/internal';
import { ModulesContainer } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { z } from 'zod';
import { ZodValidationPipe } from '../../src/common/zod-validation.pipe.js';

/** A controller's route, and how its handler reads the query string. */
export interface HandlerQuery {
  /** `get`, `post`…, as OpenAPI writes it. */
  method: string;
  /** As OpenAPI writes it: `:id` becomes `{id}`. */
  path: string;
  /** `Controller.method`, for messages. */
  handler: string;
  /**
   * The schemas of the handler's `@Query(new ZodValidationPipe(schema))` parameters; a `@Query()` read
   * any other way (a single key, no zod pipe) is `null`: a query string no schema describes.
   */
  schemas: (z.ZodType | null)[];
}

/** What Nest's `@Query()`, `@Body()`… store on the controller class, per handler. */
interface RouteArgument {
  index: number;
  data?: unknown;
  pipes?: unknown[];
}

const openApiPath = (path: string) =>
  path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}').replace(/\*([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

function joinPaths(prefix: string, path: string): string {
  const joined = `/${[prefix, path]
    .map((part) => part.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/')}`;
  return openApiPath(joined);
}

const paths = (value: unknown): string[] =>
  value === undefined ? [''] : Array.isArray(value) ? (value as string[]) : [value as string];

/** The schema a zod pipe parses with: ZodValidationPipe keeps it in its (TypeScript-private) `schema`. */
function zodSchemaOf(pipes: readonly unknown[] | undefined): z.ZodType | null {
  const pipe = pipes?.find((candidate) => candidate instanceof ZodValidationPipe);
  return pipe ? (pipe as unknown as { schema: z.ZodType }).schema : null;
}

/**
 * Every route handler of the running app's controllers, with the schemas its `@Query` parameters are
 * parsed with: read from the metadata Nest's decorators leave on each controller (`@Get(path)`,
 * `@Query(pipe)`), the same metadata Nest builds its routes and parameter pipes from.
 */
export function handlerQueries(app: NestExpressApplication): HandlerQuery[] {
  const found: HandlerQuery[] = [];
  const controllers = new Set<Type>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      if (wrapper.metatype) controllers.add(wrapper.metatype as Type);
    }
  }
  for (const controller of controllers) {
    const prefixes = paths(Reflect.getMetadata(PATH_METADATA, controller));
    const prototype = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = Object.getOwnPropertyDescriptor(prototype, name)?.value as unknown;
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const requestMethod = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      const routePaths = Reflect.getMetadata(PATH_METADATA, handler) as unknown;
      if (requestMethod === undefined || routePaths === undefined) continue;
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<
        string,
        RouteArgument
      >;
      const schemas = Object.entries(args)
        .filter(([key]) => key.split(':')[0] === String(RouteParamtypes.QUERY))
        .sort(([, a], [, b]) => a.index - b.index)
        .map(([, argument]) => (argument.data === undefined ? zodSchemaOf(argument.pipes) : null));
      for (const prefix of prefixes) {
        for (const path of paths(routePaths)) {
          found.push({
            method: RequestMethod[requestMethod].toLowerCase(),
            path: joinPaths(prefix, path),
            handler: `${controller.name}.${name}`,
            schemas,
          });
        }
      }
    }
  }
  return found.sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}
