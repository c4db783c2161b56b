#!/bin/sh
# The TypeScript newcomer, from nothing: install the client exactly as clients/typescript/README.md
# says (npm pack, then npm install of the tarball) into a fresh temporary folder, check the app
# with `tsc --strict --noEmit`, check that the installed source maps resolve, then build the app
# and run it with node against a live embedded-default host (clients/newcomer/with_host.py).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/agentic-driver-newcomer-ts.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# The README's install, word for word (the tarball lands in $work instead of /tmp).
(cd "$root/clients/typescript" && npm pack --pack-destination "$work" --silent >/dev/null)
mkdir "$work/app"
cp "$here/package.json" "$here/app.ts" "$work/app/"
# The README's tsconfig.json for an app, word for word (its first json block).
python3 - "$root/clients/typescript/README.md" "$work/app/tsconfig.json" <<'PY'
import re, sys
block = re.search(r"```json\n(.*?)```", open(sys.argv[1], encoding="utf-8").read(), re.S)
assert block and '"module": "NodeNext"' in block.group(1), "README.md: no tsconfig.json block"
open(sys.argv[2], "w", encoding="utf-8").write(block.group(1))
PY
cd "$work/app"
npm install --no-audit --no-fund --loglevel=error "$work"/agentic-driver-client-*.tgz

test ! -L node_modules/@agentic-driver/client || { echo "the client was linked, not installed" >&2; exit 1; }
npx --no-install tsc --strict --noEmit --noUncheckedIndexedAccess --skipLibCheck false -p .
node "$here/check-maps.mjs" node_modules/@agentic-driver/client
npx --no-install tsc -p . --noCheck # emit only: the strict check above passed
python3 "$root/clients/newcomer/with_host.py" --agentic-driver "$root/.venv/bin/agentic-driver" -- node dist/app.js
