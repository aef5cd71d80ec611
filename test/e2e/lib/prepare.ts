/**
 * What a real-n8n run needs before its first suite, done once by each jest config's globalSetup (the
 * e2e and the queue-mode suites) and by the lanes: the pinned n8n releases installed (cached) and the
 * package packed.
 */
import { ensureServicePackages } from '../../queue/lib/services';
import { ensureChromium } from './browser';
import { ensureN8n } from './install';
import { buildAndPack, packedTarball } from './pack';

/**
 * Installs what the real-n8n suites use and a machine may lack: the n8n releases (side by side: each
 * install waits on the registry most of the time), then Debian's chromium and the queue-mode suite's
 * services, one apt-get after the other (two at once would wait on dpkg's lock).
 */
export async function installMachineTools(
	versions: string[],
	say: (line: string) => void,
): Promise<void> {
	await Promise.all(versions.map((version) => ensureN8n(version, say)));
	ensureChromium();
	ensureServicePackages(say);
}

/** Installs `versions` when missing and packs the working tree; returns the tarball every suite installs. */
export async function prepareRun(
	label: string,
	versions: string[],
	say: (line: string) => void,
): Promise<string> {
	const started = Date.now();
	await Promise.all(versions.map((version) => ensureN8n(version, say)));
	// N8N_E2E_TARBALL: test an already packed tarball (e.g. the one about to be published) instead
	const tarball = process.env.N8N_E2E_TARBALL ? packedTarball() : buildAndPack();
	say(
		`\n[${label}] n8n ${versions.join(', ')} ready and ${tarball} packed (${((Date.now() - started) / 1000).toFixed(1)} s)`,
	);
	return tarball;
}
