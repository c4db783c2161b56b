// Every operation carries examples: each request body media type and each response media type has
// `example` or a non-empty `examples`.
import { resolve } from "./_document.js";

function hasExample(media) {
  return media && (media.example !== undefined || (media.examples && Object.keys(media.examples).length > 0));
}

export default function operationsHaveExamples(operation, _options, context) {
  const document = context.document.data;
  const results = [];
  let found = 0;
  const body = resolve(document, operation.requestBody);
  for (const [type, media] of Object.entries((body && body.content) || {})) {
    if (hasExample(media)) found += 1;
    else results.push({ message: `the ${type} request body has no example`, path: ["requestBody", "content", type] });
  }
  for (const [status, raw] of Object.entries(operation.responses || {})) {
    const response = resolve(document, raw);
    for (const [type, media] of Object.entries((response && response.content) || {})) {
      if (hasExample(media)) found += 1;
      else results.push({ message: `the ${status} ${type} answer has no example`, path: ["responses", status] });
    }
  }
  if (found === 0) results.push({ message: `${operation.operationId || "operation"} has no example at all` });
  return results;
}
