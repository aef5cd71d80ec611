import { readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { selectedVersions } from './lib/config';
import { prepareRun } from './lib/prepare';

/** Once per e2e run: the pinned n8n installs (cached) and the packed tarball every suite installs. */
export default async function globalSetup(): Promise<void> {
	removeAbandonedUserFolders();
	await prepareRun('e2e', selectedVersions(), (line) => process.stdout.write(`${line}\n`));
}

/** n8n user folders (lib/n8n.ts) left by runs that were killed; a day old, so none is still in use. */
function removeAbandonedUserFolders(): void {
	const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
	for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith('cb-n8n-'))) {
		const folder = join(tmpdir(), name);
		if (statSync(folder).mtimeMs < dayAgo) rmSync(folder, { recursive: true, force: true });
	}
}
