// Helpers shared by the custom functions: local $ref resolution and a walk over every operation.
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

export function resolve(document, node) {
  let current = node;
  const seen = new Set();
  while (current && typeof current === "object" && typeof current.$ref === "string") {
    const ref = current.$ref;
    if (!ref.startsWith("#/") || seen.has(ref)) return undefined;
    seen.add(ref);
    current = ref
      .slice(2)
      .split("/")
      .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce((value, part) => (value === undefined || value === null ? undefined : value[part]), document);
  }
  return current;
}

export function* operations(document) {
  for (const [path, item] of Object.entries(document.paths || {})) {
    for (const method of METHODS) {
      if (item && item[method]) yield { path, method, operation: item[method] };
    }
  }
}

// Per error status of an operation: the codes its problem schema lists in `x-error-codes` (the codes known in
// this version; the `code` property itself is open to codes added later).
export function problemEnum(document, schema) {
  const resolved = resolve(document, schema);
  const codes = resolved && resolved["x-error-codes"];
  return Array.isArray(codes) ? codes : undefined;
}

export function isErrorStatus(status) {
  return /^[45](\d\d|XX)$/i.test(String(status));
}
