/**
 * `tsx test/e2e/install.ts [version …]` — installs the pinned n8n releases (default: every version the
 * e2e run uses, see N8N_E2E_VERSIONS in lib/config.ts) into the cache outside the repo. Idempotent.
 */
import { ensureN8n } from './lib/install';
import { selectedVersions } from './lib/config';

async function main(): Promise<void> {
	const wanted = process.argv.slice(2);
	for (const version of wanted.length > 0 ? wanted : selectedVersions()) {
		const started = Date.now();
		const install = await ensureN8n(version);
		console.log(
			`[e2e] n8n ${version}: ${install.dir} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
		);
	}
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});
