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

// Per error status of an operation: the `code` enum of its problem schema (allOf of Problem plus a code enum).
// Only an inline enum counts: the Problem base's `code` is a $ref to the whole catalogue.
export function problemEnum(document, schema) {
  const resolved = resolve(document, schema);
  if (!resolved || !Array.isArray(resolved.allOf)) return undefined;
  for (const part of resolved.allOf) {
    const item = resolve(document, part);
    const code = item && item.properties && item.properties.code;
    if (code && Array.isArray(code.enum)) return code.enum;
  }
  return undefined;
}

export function isErrorStatus(status) {
  return /^[45](\d\d|XX)$/i.test(String(status));
}
