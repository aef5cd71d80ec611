import { defaultVersion, versionEntry, versions } from './install';

/**
 * Versions the e2e run covers: N8N_E2E_VERSIONS (comma-separated) or every pinned version, the
 * default (2.x) first.
 */
export function selectedVersions(): string[] {
	const fromEnv = process.env.N8N_E2E_VERSIONS?.split(',')
		.map((v) => v.trim())
		.filter(Boolean);
	const chosen =
		fromEnv && fromEnv.length > 0
			? fromEnv
			: [defaultVersion, ...Object.keys(versions).filter((v) => v !== defaultVersion)];
	for (const version of chosen) versionEntry(version);
	return chosen;
}
