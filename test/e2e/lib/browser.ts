/**
 * n8n's editor in a real browser: Debian's chromium (installed with apt when missing, never a browser a
 * tool downloads itself) driven by playwright-core, hermetic (only loopback is reached), signed in as the
 * owner. Shared by the editor suites.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type Browser, chromium, type Locator, type Page } from 'playwright-core';

import { OWNER } from './n8n';
import { repoRoot } from './pack';
import { sleep } from './stack';

const CHROMIUM = '/usr/bin/chromium';

export function ensureChromium(): void {
	if (existsSync(CHROMIUM)) return;
	execFileSync('apt-get', ['update'], { stdio: 'inherit' });
	execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
		stdio: 'inherit',
		env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
	});
}

export interface EditorBrowser {
	browser: Browser;
	page: Page;
	/** Requests to hosts other than loopback, refused. */
	blocked: Set<string>;
	/** Saves a screenshot once n8n's slide-in animations have settled. */
	shot(name: string): Promise<void>;
	close(): Promise<void>;
}

export async function openEditorBrowser(shots: string): Promise<EditorBrowser> {
	ensureChromium();
	mkdirSync(shots, { recursive: true });
	const profile = mkdtempSync(join(tmpdir(), 'cb-chromium-'));
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		headless: true,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-dev-shm-usage',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--no-first-run',
			`--disk-cache-dir=${profile}`,
		],
	});
	const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
	// the editor loads in seconds, but a cold load while the other real-n8n lane runs (npm test) can take
	// half a minute on two cores: waits that end in a failure only, never slow a passing run
	page.setDefaultTimeout(60_000);
	const blocked = new Set<string>();
	// hermetic: the editor asks registry.npmjs.org about installed community packages; nothing leaves
	// the machine, and errors about those blocked requests are not the package's
	await page.route('**/*', (route) => {
		const { hostname } = new URL(route.request().url());
		if (hostname === '127.0.0.1' || hostname === 'localhost') return route.continue();
		blocked.add(route.request().url());
		return route.abort('blockedbyclient');
	});
	return {
		browser,
		page,
		blocked,
		shot: async (name) => {
			await sleep(700);
			await page.screenshot({ path: join(shots, `${name}.png`) });
		},
		close: async () => {
			await browser.close();
			rmSync(profile, { recursive: true, force: true });
		},
	};
}

/** Signs in through n8n's sign-in form as the owner the harness created. */
export async function signIn(page: Page, n8nUrl: string): Promise<void> {
	await page.goto(`${n8nUrl}/signin`);
	await page
		.locator('input[name="emailOrLdapLoginId"], input[name="email"]')
		.first()
		.fill(OWNER.email);
	await page.locator('input[type="password"]').fill(OWNER.password);
	await page.locator('[data-test-id="form-submit-button"]').click();
	await page.waitForURL(/\/(home|workflows?)(\/|$)/);
}

/** The README's screenshots, rewritten by every editor-suite run on the default n8n line so they stay current. */
export const DOC_IMAGES = join(repoRoot, 'docs', 'images');

/** Room around the regions of a canvas image for the labels n8n draws outside a node's box. */
const CANVAS_ROOM = { side: 60, top: 30, bottom: 70 };

/**
 * Saves docs/images/<name>.png: the part of the page the `regions` cover, with `room` around them,
 * without the canvas's floating buttons, so the image shows what the README talks about and stays small.
 */
export async function docImage(
	page: Page,
	name: string,
	regions: Locator[],
	room = CANVAS_ROOM,
): Promise<void> {
	await sleep(700);
	const boxes = [];
	for (const region of regions) {
		for (const element of await region.all()) {
			const box = await element.boundingBox();
			if (box) boxes.push(box);
		}
	}
	if (boxes.length === 0) throw new Error(`docs/images/${name}.png: nothing to show`);
	const viewport = page.viewportSize() ?? { width: 1440, height: 900 };
	const left = Math.max(0, Math.min(...boxes.map((b) => b.x)) - room.side);
	const top = Math.max(0, Math.min(...boxes.map((b) => b.y)) - room.top);
	const right = Math.min(viewport.width, Math.max(...boxes.map((b) => b.x + b.width)) + room.side);
	const bottom = Math.min(
		viewport.height,
		Math.max(...boxes.map((b) => b.y + b.height)) + room.bottom,
	);
	mkdirSync(DOC_IMAGES, { recursive: true });
	await page.screenshot({
		path: join(DOC_IMAGES, `${name}.png`),
		clip: { x: left, y: top, width: right - left, height: bottom - top },
		style:
			'[data-test-id="execute-workflow-button"], [data-test-id="canvas-controls"] { visibility: hidden !important; }',
	});
}
