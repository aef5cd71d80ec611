/**
 * Tests mirror the code: the unit test of `nodes/<path>.ts` is `test/unit/<path>.test.ts` (or
 * `test/unit/<path>.<behaviour>.test.ts` where one module is tested from several sides), and that of
 * `credentials/<file>.ts` is `test/unit/credentials/<file>.test.ts`. A module without one is listed
 * below with the test that covers it instead and why; the list may not name a missing test file, a
 * module that is gone or one that has its mirrored test by now.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const repoRoot = join(__dirname, '..', '..', '..');

/**
 * A module without a mirrored unit test: the test file that covers it, why that is enough, and the
 * module that test imports to reach it when not this one.
 */
interface Exemption {
	coveredBy: string;
	why: string;
	through?: string;
}

const FORM = 'form description: every field is pinned by the form snapshot';

/** `actions/<resource>/*.operation.ts` and `*.resource.ts`: operations run through the node. */
const OPERATION_SUITES: Readonly<Record<string, string>> = {
	account: 'test/integration/accountsTransactions.test.ts',
	transaction: 'test/integration/accountsTransactions.test.ts',
	approval: 'test/integration/approvals.test.ts',
	payee: 'test/integration/payees.test.ts',
	payment: 'test/integration/payments/submit.test.ts',
};

const EXEMPT: Readonly<Record<string, Exemption>> = {
	// the nodes: description and wiring only
	'nodes/CustomerBanking/CustomerBanking.node.ts': {
		coveredBy: 'test/integration/router.test.ts',
		why: 'description and wiring: the router suite runs every operation through it',
	},
	'nodes/CustomerBankingTrigger/CustomerBankingTrigger.node.ts': {
		coveredBy: 'test/integration/triggerDelivery.test.ts',
		why: 'description and lifecycle wiring: deliveries are run through it',
	},
	'nodes/CustomerBankingApprovalTrigger/CustomerBankingApprovalTrigger.node.ts': {
		coveredBy: 'test/integration/approvalTrigger.test.ts',
		why: 'description and poll wiring: polls are run through it',
	},
	// form descriptions and types
	'nodes/CustomerBanking/actions/common.descriptions.ts': {
		coveredBy: 'test/unit/package/formSnapshot.test.ts',
		why: FORM,
		through: 'nodes/CustomerBanking/CustomerBanking.node.ts',
	},
	'nodes/CustomerBanking/actions/resources.ts': {
		coveredBy: 'test/unit/package/formSnapshot.test.ts',
		why: FORM,
		through: 'nodes/CustomerBanking/CustomerBanking.node.ts',
	},
	'nodes/CustomerBanking/actions/payment/paymentForm.ts': {
		coveredBy: 'test/unit/package/formSnapshot.test.ts',
		why: FORM,
		through: 'nodes/CustomerBanking/CustomerBanking.node.ts',
	},
	'nodes/CustomerBanking/actions/subtitle.ts': {
		coveredBy: 'test/unit/package/nodesPanel.test.ts',
		why: "the canvas subtitle is evaluated there over the node's description",
		through: 'nodes/CustomerBanking/CustomerBanking.node.ts',
	},
	'nodes/CustomerBankingTrigger/description.ts': {
		coveredBy: 'test/unit/CustomerBankingTrigger/signature.test.ts',
		why: "the trigger's form: its signature and subscription fields are asserted there",
	},
	'nodes/CustomerBanking/actions/node.type.ts': {
		coveredBy: 'test/unit/package/codex.test.ts',
		why: 'type only',
	},
	'nodes/CustomerBanking/actions/types.ts': {
		coveredBy: 'test/integration/router.test.ts',
		why: 'type only',
	},
	'nodes/CustomerBanking/payments/payment.ts': {
		coveredBy: 'test/unit/CustomerBanking/payments/paymentPlan.test.ts',
		why: 'type only',
	},
	'nodes/CustomerBanking/methods/index.ts': {
		coveredBy: 'test/integration/pickers.test.ts',
		why: 're-exports only',
	},
	'nodes/shared/appDescription.ts': {
		coveredBy: 'test/unit/package/codex.test.ts',
		why: 'constants of the nodes panel and codex',
		through: 'nodes/CustomerBanking/CustomerBanking.node.ts',
	},
	// tested through a neighbour's unit test
	// run only inside a node: an integration suite drives them
	'nodes/shared/n8nInternals.ts': {
		coveredBy: 'test/e2e/trigger.e2e.test.ts',
		why: "n8n's internals are only real in a real n8n: the e2e and queue suites run both lines",
	},
};

function filesUnder(folder: string, ending: string): string[] {
	return readdirSync(join(repoRoot, folder), { recursive: true, encoding: 'utf8' })
		.filter((file) => file.endsWith(ending))
		.map((file) => `${folder}/${file.split('\\').join('/')}`)
		.sort();
}

const MODULES = [...filesUnder('nodes', '.ts'), ...filesUnder('credentials', '.ts')];
const UNIT_TESTS = filesUnder('test/unit', '.test.ts');

/** `test/unit/<path>` without `.ts` that a mirrored test of the module starts with. */
function mirrorStem(module: string): string {
	return `test/unit/${module.replace(/^nodes\//, '').replace(/\.ts$/, '')}`;
}

function hasMirroredTest(module: string): boolean {
	const stem = mirrorStem(module);
	return UNIT_TESTS.some((test) => test === `${stem}.test.ts` || test.startsWith(`${stem}.`));
}

function exemptionOf(module: string): Exemption | undefined {
	const operation = /^nodes\/CustomerBanking\/actions\/(\w+)\/\w+\.(operation|resource)\.ts$/.exec(
		module,
	);
	if (operation && OPERATION_SUITES[operation[1]])
		return { coveredBy: OPERATION_SUITES[operation[1]], why: 'operations run through the node' };
	return EXEMPT[module];
}

describe('every module of nodes/ and credentials/ has its mirrored unit test', () => {
	it('finds the modules and the tests it compares', () => {
		expect(MODULES).toContain('nodes/shared/transport/index.ts');
		expect(MODULES).toContain('credentials/CustomerBankingApi.credentials.ts');
		expect(UNIT_TESTS).toContain('test/unit/shared/transport/index.retries.test.ts');
	});

	it('a module has test/unit/<path>.test.ts, or is exempt with the test that covers it', () => {
		const missing = MODULES.filter(
			(module) => !hasMirroredTest(module) && exemptionOf(module) === undefined,
		).map((module) => `${module}: no ${mirrorStem(module)}.test.ts`);
		expect(missing).toEqual([]);
	});

	it('an exemption names an existing module without a mirrored test, and an existing covering test', () => {
		const stale = Object.keys(EXEMPT).filter(
			(module) => !MODULES.includes(module) || hasMirroredTest(module),
		);
		expect(stale).toEqual([]);
		const exempt = MODULES.filter((module) => !hasMirroredTest(module));
		const noCoveringTest = exempt
			.map((module) => [module, exemptionOf(module)?.coveredBy] as const)
			.filter(([, coveredBy]) => coveredBy !== undefined && !existsSync(join(repoRoot, coveredBy)));
		expect(noCoveringTest).toEqual([]);
	});

	it('a covering unit test imports the module it covers, or the one named to reach it', () => {
		const notImported = MODULES.filter((module) => !hasMirroredTest(module))
			.map((module) => [module, exemptionOf(module)] as const)
			.filter(
				([module, exemption]) =>
					exemption?.coveredBy.startsWith('test/unit/') === true &&
					exemption.why !== 'type only' &&
					!readFileSync(join(repoRoot, exemption.coveredBy), 'utf8').includes(
						`/${basename(exemption.through ?? module, '.ts')}'`,
					),
			)
			.map(([module, exemption]) => `${module} in ${exemption?.coveredBy}`);
		expect(notImported).toEqual([]);
	});

	it('a unit test outside test/unit/package/ and test/unit/helpers/ mirrors a module', () => {
		const stems = MODULES.map(mirrorStem);
		const orphans = UNIT_TESTS.filter(
			(test) => !/^test\/unit\/(package|helpers)\//.test(test),
		).filter((test) => {
			const stem = test.replace(/\.test\.ts$/, '');
			return !stems.some((moduleStem) => stem === moduleStem || stem.startsWith(`${moduleStem}.`));
		});
		expect(orphans).toEqual([]);
	});
});
