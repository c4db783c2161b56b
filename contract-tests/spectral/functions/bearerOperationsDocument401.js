// Every operation whose effective security requires a bearer scheme documents a 401 answer.
import { resolve } from "./_document.js";

export default function bearerOperationsDocument401(operation, _options, context) {
  const document = context.document.data;
  const schemes = (document.components && document.components.securitySchemes) || {};
  const security = operation.security !== undefined ? operation.security : document.security || [];
  const bearer = security.some((requirement) =>
    Object.keys(requirement || {}).some((name) => {
      const scheme = resolve(document, schemes[name]);
      return scheme && scheme.type === "http" && String(scheme.scheme).toLowerCase() === "bearer";
    }),
  );
  if (bearer && !(operation.responses && operation.responses["401"])) {
    return [{ message: `${operation.operationId || "operation"} requires a bearer token but documents no 401` }];
  }
  return [];
}
