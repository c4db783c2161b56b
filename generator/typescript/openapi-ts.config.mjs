// @hey-api/openapi-ts settings for clients/typescript/src/generated/ (run by generator/generate.py).
//
// generate.py sets AGENTIC_DRIVER_SPEC and AGENTIC_DRIVER_TS_OUTPUT (the drift check generates into a
// temporary tree); the defaults are the repository's own paths. The paths are passed by environment,
// not by --input/--output, because on the command line --output replaces the whole `output` block.
//
// - `enums: 'javascript'` emits each enum as a const object as well as a type, so the
//   hand-written layer can enumerate ErrorCode at runtime and check its error classes against it.
// - `module.extension: '.js'` makes relative imports explicit, as NodeNext resolution needs,
//   without letting the generator guess from whichever tsconfig it finds.
// - No response transformers: dates stay RFC 3339 strings exactly as the host sent them.
import { fileURLToPath } from 'node:url';

const repository = (path) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

export default {
  input: process.env.AGENTIC_DRIVER_SPEC ?? repository('openapi.yaml'),
  output: {
    path: process.env.AGENTIC_DRIVER_TS_OUTPUT ?? repository('clients/typescript/src/generated'),
    header: [
      '// Generated from openapi.yaml by @hey-api/openapi-ts (see generator/typescript/). DO NOT EDIT.',
    ],
    module: { extension: '.js' },
    tsConfigPath: null,
  },
  plugins: [
    { name: '@hey-api/typescript', enums: 'javascript' },
    { name: '@hey-api/sdk' },
    { name: '@hey-api/client-fetch' },
  ],
};
