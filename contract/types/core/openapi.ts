// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * The shape every service's generated OpenAPI document must have before the build publishes it (pipeline/core/openapi.ts). The full OpenAPI 3.1 schema is checked by the tests.
 */
export interface OpenAPIDocument {
  openapi: "3.1.0";
  jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema";
  info: {
    title: string;
    version: string;
    /**
     * What the service serves, its conventions, and the attribution of every source of its data.
     */
    description: string;
    /**
     * The licence of the project's code (LICENSE); the data's licences are in the description.
     */
    license: {
      name: string;
      identifier: string;
    };
  };
  /**
   * One server: a URL relative to the document's own (RFC 3986 §5.2), naming the root of the host that serves it, so the service and a static copy of its tree on a CDN describe themselves alike.
   *
   * @minItems 1
   * @maxItems 1
   */
  servers: {
    url: string;
    description: string;
  }[];
  /**
   * `[]`: operations are public unless they name a scheme of their own.
   *
   * @maxItems 0
   */
  security?: unknown[];
  tags: {
    name: string;
    description: string;
  }[];
  paths: {
    [k: string]:
      | {
          [k: string]:
            | {
                operationId: string;
                summary: string;
                /**
                 * @minItems 1
                 */
                tags: string[];
                responses: {
                  [k: string]: unknown | undefined;
                };
                [k: string]: unknown | undefined;
              }
            | undefined;
        }
      | undefined;
  };
  components: {
    schemas: {
      [k: string]: unknown | undefined;
    };
    responses: {
      [k: string]: unknown | undefined;
    };
    parameters: {
      [k: string]: unknown | undefined;
    };
    headers: {
      [k: string]: unknown | undefined;
    };
    [k: string]: unknown | undefined;
  };
}
