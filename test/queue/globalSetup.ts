import { prepareRun } from '../e2e/lib/prepare';
import { QUEUE_VERSION } from './lib/cluster';
import { ensureServicePackages } from './lib/services';

/** Once per queue-mode run: Postgres, Redis and nginx packages, then what the e2e run prepares (the pinned n8n, the packed tarball). */
export default async function globalSetup(): Promise<void> {
	const say = (line: string) => process.stdout.write(`${line}\n`);
	ensureServicePackages(say);
	await prepareRun('queue', [QUEUE_VERSION], say);
}
