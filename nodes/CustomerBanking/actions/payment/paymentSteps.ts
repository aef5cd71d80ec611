import type { PaymentOutcome } from '../../payments/outcomes';
import type { PaymentRun, PaymentStep } from '../../payments/paymentRun';

/** The outcomes of one step of a payment run; undefined for a payment not sent (over a limit, or already made). */
export async function stepOutcomes(
	run: PaymentRun,
	step: PaymentStep,
): Promise<PaymentOutcome[] | undefined> {
	switch (step.kind) {
		case 'send':
			return await run.send(step.request.members, step.request.key, step.request.asBatch);
		case 'known':
			return step.outcomes;
		case 'holdBack':
			return await run.holdBack(step.payments, step.why);
		case 'overLimit':
		case 'alreadyMade':
			return undefined;
	}
}
