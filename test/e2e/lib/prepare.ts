/**
 * What a real-n8n run needs before its first suite, done once by each jest config's globalSetup (the
 * e2e and the queue-mode suites): the pinned n8n releases installed (cached) and the package packed.
 */
import { ensureN8n } from './install';
import { buildAndPack, packedTarball } from './pack';

/** Installs `versions` when missing and packs the working tree; returns the tarball every suite installs. */
export async function prepareRun(
	label: string,
	versions: string[],
	say: (line: string) => void,
): Promise<string> {
	const started = Date.now();
	for (const version of versions) await ensureN8n(version, say);
	// N8N_E2E_TARBALL: test an already packed tarball (e.g. the one about to be published) instead
	const tarball = process.env.N8N_E2E_TARBALL ? packedTarball() : buildAndPack();
	say(
		`\n[${label}] n8n ${versions.join(', ')} ready and ${tarball} packed (${((Date.now() - started) / 1000).toFixed(1)} s)`,
	);
	return tarball;
}
