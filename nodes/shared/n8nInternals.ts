import type { IWebhookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

/**
 * What this package relies on of n8n's server beyond the node API n8n documents, in one place. Each
 * was read in the source of n8n 2.41.1 and 1.123.81 (the `n8n` package's `dist/`, n8n-workflow's
 * `dist/`) and is guarded by the real-n8n suites on both lines, in queue mode too. Upgrading n8n's
 * tested versions means reading these files again.
 *
 * 1. Webhook answer after the execution (`dist/webhooks/webhook-helpers.js`, both lines): with response
 *    mode 'lastNode', n8n waits for `getPostExecutePromise` and only then calls the response callback;
 *    in queue mode the instance that received the webhook waits for the worker the same way. So the end
 *    of a delivery's HTTP response marks the end of the execution it started (`whenAnswerEnds`).
 * 2. Static data of a webhook call (`dist/webhooks/live-webhooks.js`, both lines): every call gets its
 *    own copy, read from the database, and n8n saves it just before it answers the call, if it is
 *    marked changed: at once for a delivery the node answers itself, after the execution for one it
 *    emits. Concurrent calls cannot see each other there (the trigger's ledger is in memory,
 *    CustomerBankingTrigger/deliveryLedger.ts). Static data is also saved after a successful
 *    activation or deactivation (`webhookMethods`).
 * 3. Static-data proxies (n8n-workflow `dist/observable-object.js`): n8n wraps every object inside
 *    static data in a change-tracking proxy each time it builds the workflow (several times per call),
 *    and marks the data changed only when a key of an object it loaded is set, not when an object
 *    assigned later is edited in place. So long lists are saved as one string (deliveryLedger.ts) and
 *    state is written as a new object every time (CustomerBankingApprovalTrigger/approvalEvents.ts).
 * 4. The same-tick run start (2.41.1 `dist/workflow-runner.js` `establishContextForPersistence`): the
 *    run starts in the same tick as `webhook()` returns and builds a workflow over the same static
 *    data, which clears its "changed" mark; what was written for the run is written again once it has
 *    started (`afterRunStarts`).
 * 5. Webhook start nodes of version 1 (`dist/webhooks/webhook-helpers.js` `parseRequestBody`, both
 *    lines): n8n evaluates a `binaryData` expression on every call (an expression sandbox per request
 *    in 2.x); from a higher version it only parses the body. The Customer Banking Trigger is version
 *    1.1 for this.
 * 6. Credential reads (`dist/credentials-helper.js`): every `getCredentials()` loads and decrypts the
 *    credential again and resolves its expressions (100 ms of a delivery's 220 ms in 2.41.1,
 *    docs/benchmark-results.md), so the trigger reuses its signing secrets for a while
 *    (CustomerBankingTrigger/signingSecrets.ts).
 * 7. Pre-decrypted credentials (n8n-core
 *    `dist/execution-engine/node-execution-context/utils/request-helpers/authentication.js`): credentials handed over as `credentialsDecrypted` are used as
 *    they are, and a token fetched by `preAuthentication` is written into that same object
 *    (shared/transport/index.ts `prepareRequest`).
 * 8. n8n 1.x network words (n8n-workflow `NodeError` COMMON_ERRORS, both lines): on 1.x the node gets an
 *    error that has lost the network code and carries n8n's own wording of it, and no response
 *    headers (shared/transport/networkFailures.ts, errors.ts).
 * 9. Execution retry (`dist/executions/execution.service.js` `retry()`, both lines): a retried
 *    execution gets a new id but the failed one's data, the node's context included
 *    (CustomerBanking/payments/idempotencyKey.ts).
 * 10. Polling state (2.41.1 `dist/workflows/triggers/trigger-execution-context.factory.js` and
 *    `poll-cursor.service.js`): a poll's static data is staged and saved when the poll ends; proved in
 *    a real n8n on both lines (state kept by a poll that emits nothing and across a restart).
 * 11. Request time limits (n8n-core `httpRequestWithAuthentication`, both lines; 2.41.1 in
 *    `request-helpers/authentication.js`, 1.123.81 in `request-helper-functions.js`): for an action node
 *    n8n replaces the request's `abortSignal` with the execution's cancel signal, so the only limit a
 *    node sets is `timeout`, which n8n's client (axios) applies to a request left silent that long
 *    (shared/transport/index.ts `sendOnce`); with none, axios' default of 300 s applies.
 * 12. A webhook() that throws (`dist/webhooks/webhook-helpers.js` `executeWebhook`, both lines): n8n
 *    answers the caller 500 ("Workflow Webhook Error: Workflow could not be started!") and runs an
 *    execution whose start node rethrows the error (n8n-core `workflow-execute.js`
 *    `rethrowLastNodeError`): a failed execution in the list, no node after the trigger runs, unless
 *    the trigger continues on error (CustomerBankingTrigger/deliverySteps.ts `refuseAndReport`; proved
 *    in a real n8n).
 */

/**
 * Calls `ended` once n8n's response to this webhook call has ended (1.): `answered` is true when n8n
 * finished sending an answer, which with response mode 'lastNode' it does once the execution has
 * ended; false when the sender hung up or the call failed. Returns whether the response had already
 * ended (the sender may hang up while the delivery is verified).
 */
export function whenAnswerEnds(
	call: IWebhookFunctions,
	ended: (answered: boolean) => void,
): boolean {
	const response = call.getResponseObject();
	const endedAlready = response.closed;
	response.once('close', () => ended(response.writableFinished));
	return endedAlready;
}

/** Runs `write` once the execution `webhook()` handed to n8n has started (4.). */
export function afterRunStarts(write: () => void): void {
	void sleep(0).then(write);
}
