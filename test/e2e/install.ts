/**
 * `tsx test/e2e/install.ts [version …]` (`npm run test:e2e:install`): installs ahead what the real-n8n
 * suites use: the pinned n8n releases (default: every version `npm run test:real-n8n` uses, the
 * queue-mode suite's included) into the cache outside the repo, Debian's chromium and the queue-mode
 * suite's services. Idempotent: seconds when everything is there. `npm test` runs it in the background
 * while the suites without n8n run (test/runAll.ts).
 */
import { QUEUE_VERSION } from '../queue/lib/cluster';
import { selectedVersions } from './lib/config';
import { installMachineTools } from './lib/prepare';

async function main(): Promise<void> {
	const wanted = process.argv.slice(2);
	const versions =
		wanted.length > 0 ? wanted : [...new Set([...selectedVersions(), QUEUE_VERSION])];
	const started = Date.now();
	await installMachineTools(versions, (line) => console.log(line));
	console.log(
		`[install] n8n ${versions.join(', ')}, chromium and the queue-mode services ready (${((Date.now() - started) / 1000).toFixed(1)} s)`,
	);
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});
