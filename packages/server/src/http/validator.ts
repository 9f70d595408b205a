import type { RequestHandler } from "express";
import type { OpenApiContext } from "express-openapi-validator/dist/framework/openapi.context.js";
import { OpenApiSpecLoader } from "express-openapi-validator/dist/framework/openapi.spec.loader.js";
import type { OpenAPIV3, OpenApiValidatorOpts } from "express-openapi-validator/dist/framework/types.js";
import { applyOpenApiMetadata } from "express-openapi-validator/dist/middlewares/openapi.metadata.js";
import { OpenApiValidator } from "express-openapi-validator/dist/openapi.validator.js";
import { RouteIndex } from "./route-index.js";

type MetadataFactory = (context: OpenApiContext, responseApiDoc: OpenAPIV3.DocumentV3_1) => RequestHandler;

/**
 * express-openapi-validator 5.6 finds a request's operation by compiling every route's path matcher
 * on every request (`lookupRoute` in its metadata middleware), so each request costs O(routes)
 * regexp compilations. We keep the library's own metadata middleware but hand each instance a view
 * of the context holding a single route, and pick that instance through a segment tree built once:
 * per request, one tree walk and one route's matcher, however many operations the contract has.
 * This is a wiring around the library's public pieces, not a patch of its files, so upgrades stay easy.
 */
const indexedMetadata: MetadataFactory = (context, responseApiDoc) => {
  const withRoutes = (expressRouteMap: OpenApiContext["expressRouteMap"]): OpenApiContext =>
    Object.create(context, { expressRouteMap: { value: expressRouteMap } });
  const index = new RouteIndex<RequestHandler>();
  for (const [expressRoute, methods] of Object.entries(context.expressRouteMap)) {
    index.add(expressRoute, applyOpenApiMetadata(withRoutes({ [expressRoute]: methods }), responseApiDoc));
  }
  // A view with no routes makes the library answer its own 404 for unknown paths under the base path.
  const unknownRoute = applyOpenApiMetadata(withRoutes({}), responseApiDoc);
  return (req, res, next) => {
    const path = req.originalUrl.split("?")[0] ?? "";
    return (index.find(path) ?? unknownRoute)(req, res, next);
  };
};

/** The validator's middlewares, with the route lookup indexed (see `indexedMetadata`). */
export function openApiValidator(
  options: OpenApiValidatorOpts & { indexRoutes?: boolean },
): RequestHandler[] {
  const { indexRoutes = true, ...validatorOptions } = options;
  const validator = new OpenApiValidator(validatorOptions);
  if (indexRoutes) {
    // `metadataMiddleware` is private in the library's typings; an own property takes its place.
    Object.assign(validator, { metadataMiddleware: indexedMetadata });
  }
  const spec = new OpenApiSpecLoader({
    apiDoc: structuredClone(validatorOptions.apiSpec) as OpenAPIV3.DocumentV3_1,
    validateApiSpec: validatorOptions.validateApiSpec ?? true,
    $refParser: validatorOptions.$refParser ?? { mode: "bundle" },
  }).load();
  return validator.installMiddleware(spec) as unknown as RequestHandler[];
}
