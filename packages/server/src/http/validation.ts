import AjvCompiler, { type BuildCompilerFromPool } from "@fastify/ajv-compiler";

type Factory = BuildCompilerFromPool;
const factory: Factory = AjvCompiler();

/**
 * JSON bodies are validated without type coercion (`{"Content": 123}` is a wrong type, not
 * "123"); query strings, path parameters and headers keep Fastify's usual coercion.
 */
export const buildValidator: Factory = (externalSchemas, options) => {
  const coercing = factory(externalSchemas, options);
  const strictOptions = {
    ...options,
    customOptions: { ...options?.customOptions, coerceTypes: false },
  } as Parameters<Factory>[1];
  const strict = factory(externalSchemas, strictOptions);
  return ((route: { httpPart?: string }) =>
    route.httpPart === "body" ? strict(route) : coercing(route)) as ReturnType<Factory>;
};
