/**
 * Appends one JSON line of totals per jest run to $JEST_TOTALS_FILE (set by .ci/run), so CI can
 * print the sum of the unit and the real-n8n runs that `npm test` makes. Does nothing otherwise.
 */
const { appendFileSync } = require('fs');

class JestTotalsReporter {
	onRunComplete(_contexts, results) {
		const file = process.env.JEST_TOTALS_FILE;
		if (!file) return;
		const { numPassedTests: passed, numFailedTests: failed, numPendingTests: skipped } = results;
		appendFileSync(file, `${JSON.stringify({ passed, failed, skipped })}\n`);
	}
}

module.exports = JestTotalsReporter;
