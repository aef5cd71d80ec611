import { selectedVersions } from './lib/config';
import { ensureN8n } from './lib/install';
import { buildAndPack, packedTarball } from './lib/pack';

/** Once per e2e run: the pinned n8n installs (cached) and the packed tarball every suite installs. */
export default async function globalSetup(): Promise<void> {
	const started = Date.now();
	for (const version of selectedVersions()) await ensureN8n(version, (line) => process.stdout.write(`${line}\n`));
	// N8N_E2E_TARBALL: test an already packed tarball (e.g. the one about to be published) instead
	const tarball = process.env.N8N_E2E_TARBALL ? packedTarball() : buildAndPack();
	process.stdout.write(`\n[e2e] n8n ready and ${tarball} packed (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}
