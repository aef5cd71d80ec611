import { readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { selectedVersions } from './lib/config';
import { ensureN8n } from './lib/install';
import { buildAndPack, packedTarball } from './lib/pack';

/** Once per e2e run: the pinned n8n installs (cached) and the packed tarball every suite installs. */
export default async function globalSetup(): Promise<void> {
	const started = Date.now();
	removeAbandonedUserFolders();
	for (const version of selectedVersions()) await ensureN8n(version, (line) => process.stdout.write(`${line}\n`));
	// N8N_E2E_TARBALL: test an already packed tarball (e.g. the one about to be published) instead
	const tarball = process.env.N8N_E2E_TARBALL ? packedTarball() : buildAndPack();
	process.stdout.write(`\n[e2e] n8n ready and ${tarball} packed (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}

/** n8n user folders (lib/n8n.ts) left by runs that were killed; a day old, so none is still in use. */
function removeAbandonedUserFolders(): void {
	const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
	for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith('cb-n8n-'))) {
		const folder = join(tmpdir(), name);
		if (statSync(folder).mtimeMs < dayAgo) rmSync(folder, { recursive: true, force: true });
	}
}
