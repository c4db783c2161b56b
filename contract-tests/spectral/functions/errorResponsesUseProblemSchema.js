// Every 4xx/5xx answer is application/problem+json whose schema is allOf [Problem] with a non-empty
// `x-error-codes` list of catalogue codes specific to that status.
import { isErrorStatus, problemEnum, resolve } from "./_document.js";

export default function errorResponsesUseProblemSchema(operation, options, context) {
  const document = context.document.data;
  const problemRef = (options && options.problemSchema) || "#/components/schemas/Problem";
  const catalogue = new Set(((document.components || {}).schemas || {}).ErrorCode?.enum || []);
  const results = [];
  for (const [status, raw] of Object.entries(operation.responses || {})) {
    if (!isErrorStatus(status)) continue;
    const path = ["responses", status];
    const response = resolve(document, raw);
    const content = (response && response.content) || {};
    const mediaTypes = Object.keys(content);
    if (mediaTypes.length !== 1 || mediaTypes[0] !== "application/problem+json") {
      results.push({ message: `${status}: the answer must be application/problem+json only (has ${mediaTypes.join(", ") || "no content"})`, path });
      continue;
    }
    const schema = resolve(document, content["application/problem+json"].schema);
    const parts = (schema && schema.allOf) || [];
    if (!parts.some((part) => part && part.$ref === problemRef)) {
      results.push({ message: `${status}: the problem schema must be an allOf that includes ${problemRef}`, path });
    }
    const codes = problemEnum(document, schema);
    if (!codes || codes.length === 0) {
      results.push({ message: `${status}: the problem schema must list its codes in a non-empty x-error-codes`, path });
      continue;
    }
    for (const code of codes) {
      if (!catalogue.has(code)) results.push({ message: `${status}: ${code} is not in the ErrorCode catalogue`, path });
    }
  }
  return results;
}
