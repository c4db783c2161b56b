// The error-code catalogue (components.schemas.ErrorCode.enum) and the per-status enums agree:
// - every code appears in some operation's per-status enum, except the codes listed in `outsideOperations`,
//   which the spec documents as answering requests outside every operation and which must appear in none;
// - a code belongs to exactly one HTTP status across the whole document.
import { isErrorStatus, operations, problemEnum, resolve } from "./_document.js";

export default function catalogueCoverage(document, options) {
  const outside = new Set((options && options.outsideOperations) || []);
  const catalogue = (((document.components || {}).schemas || {}).ErrorCode || {}).enum || [];
  const statusesOf = new Map();
  for (const { operation } of operations(document)) {
    for (const [status, raw] of Object.entries(operation.responses || {})) {
      if (!isErrorStatus(status)) continue;
      const content = (resolve(document, raw) || {}).content || {};
      for (const media of Object.values(content)) {
        for (const code of problemEnum(document, media.schema) || []) {
          if (!statusesOf.has(code)) statusesOf.set(code, new Set());
          statusesOf.get(code).add(status);
        }
      }
    }
  }
  const results = [];
  const path = ["components", "schemas", "ErrorCode", "enum"];
  for (const code of catalogue) {
    if (outside.has(code)) {
      if (statusesOf.has(code)) results.push({ message: `${code} is documented as outside every operation but appears in an operation's enum`, path });
    } else if (!statusesOf.has(code)) {
      results.push({ message: `${code} appears in no operation's per-status code enum`, path });
    }
  }
  for (const code of outside) {
    if (!catalogue.includes(code)) results.push({ message: `outsideOperations lists ${code}, which is not in the catalogue`, path });
  }
  for (const [code, statuses] of statusesOf) {
    if (statuses.size > 1) results.push({ message: `${code} is used with several statuses: ${[...statuses].join(", ")}`, path });
  }
  return results;
}
