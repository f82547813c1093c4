// The changelog format of Core's releases (`.changeset/config.json` → `changelog`). It works offline: no
// GitHub lookups, no commit hashes (`@changesets/changelog-github` needs the network and a token; the default
// `@changesets/cli/changelog` prefixes commit hashes and writes one "Updated dependencies" line per changeset
// of every dependency). Each changeset becomes one entry, its text as written for users; the versions of
// other @corekit packages this release moves to become one line per release, not one per changeset.

/** One entry per changeset: the summary's first line as the bullet, the rest indented under it. */
async function getReleaseLine(changeset) {
  const [first, ...rest] = changeset.summary.trim().split('\n');
  const body = rest.map((line) => (line.trim() ? `  ${line}` : '')).join('\n');
  return `- ${first.trim()}${body ? `\n${body}` : ''}`;
}

/** One line naming the @corekit packages whose new versions this release requires, sorted by name. */
async function getDependencyReleaseLine(changesets, dependenciesUpdated) {
  if (dependenciesUpdated.length === 0) return '';
  const names = [...dependenciesUpdated]
    .sort((left, right) => left.name.localeCompare(right.name))
    .map((dependency) => `\`${dependency.name}@${dependency.newVersion}\``);
  return `- Requires ${names.join(', ')}.`;
}

module.exports = { default: { getReleaseLine, getDependencyReleaseLine } };
