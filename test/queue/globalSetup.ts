import { ensureN8n } from '../e2e/lib/install';
import { buildAndPack, packedTarball } from '../e2e/lib/pack';
import { QUEUE_VERSION } from './lib/cluster';
import { ensureServicePackages } from './lib/services';

/** Once per queue-mode run: Postgres and Redis packages, the pinned n8n (cached), the packed tarball. */
export default async function globalSetup(): Promise<void> {
	const started = Date.now();
	const say = (line: string) => process.stdout.write(`${line}\n`);
	ensureServicePackages(say);
	await ensureN8n(QUEUE_VERSION, say);
	// N8N_E2E_TARBALL: test an already packed tarball (e.g. the one about to be published) instead
	const tarball = process.env.N8N_E2E_TARBALL ? packedTarball() : buildAndPack();
	say(`\n[queue] Postgres, Redis and n8n ${QUEUE_VERSION} ready, ${tarball} packed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
