/**
 * Every status a payment item can say, what it means for the user's next step (`nextStep`, one short
 * sentence on every item), and which output it leaves on with Outputs by Outcome. One row per status:
 * a status not in the table cannot be reported (the type says so), and an item without a known status
 * (a failure before any status could be given) needs checking.
 */
// Each name fits what n8n's canvas draws of an output not yet connected: one line, cut with an ellipsis
// past about 76 px (CanvasHandleMainOutput.vue, n8n 2.41 and 1.123 alike), about 11 characters.
export const STATUS_OUTPUTS = [
	'Sent',
	'To Approve',
	'Made Before',
	'Not Paid',
	'To Check',
] as const;

export type StatusOutput = (typeof STATUS_OUTPUTS)[number];

interface StatusRow {
	output: StatusOutput;
	nextStep: string;
}

export const PAYMENT_STATUSES = {
	sent: {
		output: 'Sent',
		nextStep: 'Nothing to do: the bank shows the payment on its way.',
	},
	// made before, on its way or waiting for approval: the item's own fields say which
	replayed: {
		output: 'Made Before',
		nextStep:
			'Nothing to do: the bank answered with the payment made before (its state is in this item); nothing new was paid.',
	},
	// found, but it may be on its way or held for approval: never reported as sent
	found_after_error: {
		output: 'To Check',
		nextStep:
			'The answer was lost and the payment was found in the account: see approvalStatus and transactionStatus for whether it is on its way or waiting for approval. Do not pay it again.',
	},
	pending_approval: {
		output: 'To Approve',
		nextStep:
			"An approver must approve it in the bank's app; the Customer Banking Approval Trigger reports the decision.",
	},
	already_made: {
		output: 'Made Before',
		nextStep:
			'Nothing to do: the bank already holds this payment (see earlierPayments); it was not sent again.',
	},
	rejected: {
		output: 'Not Paid',
		nextStep: 'Nothing was paid: fix what rejectionReason says, then run it again.',
	},
	not_sent: {
		output: 'Not Paid',
		nextStep: 'Nothing was paid: see why, then run it again once that is fixed.',
	},
	invalid: {
		output: 'Not Paid',
		nextStep: 'Nothing was sent: fix the fields named in issues, then run it again.',
	},
	valid: {
		output: 'Not Paid',
		nextStep: 'Validate Only: nothing was sent. Turn Validate Only off to pay it.',
	},
	accepted: {
		output: 'To Check',
		nextStep:
			'The bank took it but does not show yet whether it is on its way or waiting for approval: check it later with Payment → Get Status. Do not pay it again.',
	},
	undetermined: {
		output: 'To Check',
		nextStep:
			"The bank's answer does not say which payment is which (see statement): check the account before paying any of them again.",
	},
	unknown: {
		output: 'To Check',
		nextStep:
			"It may have been paid: check the account (see candidates) before paying it another way. n8n's Retry of this execution sends it again with the same key, which the bank never pays twice.",
	},
} as const satisfies Record<string, StatusRow>;

export type PaymentStatus = keyof typeof PAYMENT_STATUSES;

function rowOf(status: unknown): StatusRow | undefined {
	return typeof status === 'string' && Object.hasOwn(PAYMENT_STATUSES, status)
		? PAYMENT_STATUSES[status as PaymentStatus]
		: undefined;
}

/** The short sentence an item with this status carries. */
export function nextStepOf(status: PaymentStatus): string {
	return PAYMENT_STATUSES[status].nextStep;
}

/** The output (its position among STATUS_OUTPUTS) of an item with this status; To Check when it has none. */
export function outputOfStatus(status: unknown): number {
	return STATUS_OUTPUTS.indexOf(rowOf(status)?.output ?? 'To Check');
}
